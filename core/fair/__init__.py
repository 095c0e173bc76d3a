"""Fair play without a trusted server: joint randomness, commitments and a mental deck.

Every protocol is a pure step machine over unsigned messages (no socket, no clock, no global random,
no signature: at a table the seat's identity signs the envelope each message travels in, and the
table log is the one signed record; docs/decisions/0010). Where to look:

- :mod:`atoll.fair.seat` (one seat's secrets and messages) and :mod:`atoll.fair.record` (the public
  record every peer and the audit keep, and every check a message must pass).
- :mod:`atoll.fair.randomness` (hash-chain draws), :mod:`atoll.fair.commitments` (sealed choices),
  :mod:`atoll.fair.cups` (private rolls), :mod:`atoll.fair.deck` (the mental deck) with
  :mod:`atoll.fair.deckrecord`, :mod:`atoll.fair.shuffle_proof` and :mod:`atoll.fair.dleq` (its
  proofs) on :mod:`atoll.fair.group`, and :mod:`atoll.fair.hashing`.
- :mod:`atoll.fair.messages` (the strict message encoding), :mod:`atoll.fair.steps` (the
  announcements every peer derives from the game log), :mod:`atoll.fair.history` (the heads that
  bind a message to its history) and :mod:`atoll.fair.referee` (sealed choices judged live).

docs/fairness.md gives the scheme, the threat model and the test that checks each guarantee.
"""
