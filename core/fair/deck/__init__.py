"""The mental deck: a seat's deck secrets (``keys``), the deck's state machine (``machine``) and
every seat's copies of the table's decks (``record``), on :mod:`atoll.fair.primitives`.
"""
