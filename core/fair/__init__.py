"""Fair play without a trusted server: joint randomness, commitments and a mental deck.

Every protocol is a pure step machine over unsigned messages (no socket, no clock, no global random,
no signature: at a table the seat's identity signs the envelope each message travels in, and the
table log is the one signed record; docs/decisions/0010). Three sub-packages, each on the ones after
it (contracts in ``pyproject.toml`` check the order):

- :mod:`atoll.fair.steps`: the step machines every peer runs: :mod:`~atoll.fair.steps.seat` (one
  seat's secrets and messages), :mod:`~atoll.fair.steps.record` (the public record every peer and the
  audit keep, and every check a message must pass), :mod:`~atoll.fair.steps.cups` (private rolls),
  :mod:`~atoll.fair.steps.messages` (the strict message encoding), :mod:`~atoll.fair.steps.history`
  (the heads that bind a message to its history), :mod:`~atoll.fair.steps.announce` (the
  announcements every peer derives from the game log) and :mod:`~atoll.fair.steps.referee` (sealed
  choices judged live).
- :mod:`atoll.fair.deck`: the mental deck: :mod:`~atoll.fair.deck.machine` (one copy of a deck),
  :mod:`~atoll.fair.deck.record` (every seat's copies of the table's decks) and
  :mod:`~atoll.fair.deck.keys` (a seat's deck secrets from its seed).
- :mod:`atoll.fair.primitives`: :mod:`~atoll.fair.primitives.hashing`,
  :mod:`~atoll.fair.primitives.group` with :mod:`~atoll.fair.primitives.dleq` and
  :mod:`~atoll.fair.primitives.shuffle_proof` (the deck's proofs), :mod:`~atoll.fair.primitives.randomness`
  (hash-chain draws), :mod:`~atoll.fair.primitives.commitments` (sealed choices) and
  :mod:`~atoll.fair.primitives.content` (checks of what a seat wrote).

docs/fairness.md gives the scheme, the threat model and the test that checks each guarantee.
"""
