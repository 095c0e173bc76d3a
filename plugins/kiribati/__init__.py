"""Kiribati (Spieltrieb, 2022) for 2-5 players as an atoll plugin: children, family and professional.

The rules page is ``docs/rules/kiribati.md``; every rule there (K1, K2, ...) has a
scenario test in ``tests/kiribati``.
"""

from atoll import Game, hookimpl
from atoll.plugins.kiribati.game import Kiribati

__all__ = ["Kiribati", "atoll_games"]


@hookimpl
def atoll_games() -> list[Game]:
    """Contribute Kiribati."""
    return [Kiribati()]
