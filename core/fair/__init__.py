"""Fair play without a trusted server: joint randomness, commitments and a mental deck.

Every protocol is a pure state machine (messages in, messages out; no socket, no clock, no global
random), so it is tested without a network and carried over one by ``atoll.net``. Where to look:

- :mod:`atoll.fair.resolver`: :class:`~atoll.fair.resolver.FairResolver`, the engine's chance
  requests fulfilled by the protocols for N seats in one process; :mod:`atoll.fair.saving` saves
  such a game with its transcript, and :mod:`atoll.fair.audit` re-checks it from the file alone.
- :mod:`atoll.fair.seat` (one seat's secrets and messages) and :mod:`atoll.fair.record` (the public
  record every peer and the audit keep, and every check a message must pass).
- :mod:`atoll.fair.randomness` (hash-chain draws), :mod:`atoll.fair.commitments` (sealed choices),
  :mod:`atoll.fair.deck` (the mental deck) with :mod:`atoll.fair.shuffle_proof` and
  :mod:`atoll.fair.dleq` (its proofs) on :mod:`atoll.fair.group`, and :mod:`atoll.fair.hashing`.
- :mod:`atoll.fair.messages` (the strict signed envelope, authenticated before anything reads it),
  :mod:`atoll.fair.identity` (table keys bound to long-term identities; fingerprints),
  :mod:`atoll.fair.steps` (the announcements every peer derives from the game log),
  :mod:`atoll.fair.transcript` (the log and its history heads), :mod:`atoll.fair.referee`
  (sealed choices judged live) and :mod:`atoll.fair.abort` (deadlines, forfeits and aborts with
  evidence, leaving).

docs/fairness.md gives the scheme, the threat model and the test that checks each guarantee.
"""
