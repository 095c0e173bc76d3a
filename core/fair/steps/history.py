"""The fair record's history heads: every step and its messages folded into one hash, step by step.

The table's fair history is hashed one step at a time, so every peer reaches the same head whatever
order a step's messages arrived in::

    head[-1] = genesis(table, seats, chain length, identity keys)
    seen[n]  = H(head[n-1], announcement of step n)        # what every message of step n names
    head[n]  = H(seen[n], sorted content digests of step n's messages)

Every fair message carries ``seen`` for its step, so it vouches for the whole history before it and
for the announcement it answers: a seat that writes for two histories is caught (equivocation), and a
peer whose game log asks for another step than the author's refuses the message blaming nobody.
The messages themselves are kept, signed by their seats' envelopes, in the table log
(:mod:`atoll.table.log`), the one record of a game.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from atoll.fair.primitives.hashing import hash_hex

#: One step of the protocol as the table announced it: ``{"n", "step", ...}``.
StepRecord = dict[str, Any]


def genesis(table: str, seats: int, chain_length: int, identities: Sequence[bytes]) -> str:
    """The head before the first step: binds the table, its size and every seat's identity key."""
    return hash_hex("transcript/genesis", {"table": table, "seats": seats, "chain_length": chain_length,
                                           "identities": [key.hex() for key in identities]})


def step_seen(head: str, step: StepRecord) -> str:
    """``seen`` of a step: the head before it folded with its announcement."""
    return hash_hex("transcript/step", {"prev": head, "step": step})


def step_head(seen: str, digests: Iterable[str]) -> str:
    """The head after a step: its ``seen`` folded with its messages' content digests, in sorted order."""
    return hash_hex("transcript/messages", {"seen": seen, "messages": sorted(digests)})
