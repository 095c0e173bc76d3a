"""Shared pieces of the fair tests: fixed secrets, and cheating seats played through ``tamper``.

A cheating seat is an ordinary :class:`Participant` whose outgoing messages a tamper rewrites before
anyone sees them: exactly what a seat running modified software could write (at a table its own
identity would then sign the envelope around it). A *cheat* here is a function from the seated
participants to that tamper.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from atoll_tools.fair_relay import FairResolver, Tamper, replay
from nacl.signing import SigningKey

from atoll.engine import Match
from atoll.fair.steps.messages import Message
from atoll.fair.steps.record import Record
from atoll.fair.steps.seat import Participant

TABLE = "test-table"

#: Builds a tamper once the participants (and so their keys) exist.
Cheat = Callable[[Sequence[Participant]], Tamper]


def masters(seats: int, salt: int = 0) -> list[bytes]:
    """Fixed master secrets, one per seat, so a test's table is the same every run."""
    return [bytes([salt, seat + 1]) * 16 for seat in range(seats)]


def identities(seats: int, salt: int = 0) -> list[SigningKey]:
    """Fixed long-term identity keys, one per seat (the table layer's, in real play)."""
    return [SigningKey(bytes([salt, 100 + seat]) * 16) for seat in range(seats)]


def seated(seats: int, name: str = TABLE, *, salt: int = 0, chain_length: int = 256) -> list[Participant]:
    """The participants of a table with fixed master secrets and identities."""
    keys = identities(seats, salt)
    public = [k.verify_key.encode() for k in keys]
    return [Participant(s, name, seats, m, chain_length, identities=public)
            for s, m in enumerate(masters(seats, salt))]


def table(seats: int, name: str = TABLE, *, cheat: Cheat | None = None, salt: int = 0,
          chain_length: int = 256, referee: Any = None) -> FairResolver:
    """A fair table of ``seats`` seats with fixed secrets (and, given ``cheat``, a cheating seat or relay)."""
    participants = seated(seats, name, salt=salt, chain_length=chain_length)
    tamper = cheat(participants) if cheat is not None else None
    return FairResolver(seats, name, participants=participants, tamper=tamper, chain_length=chain_length,
                        referee=referee)


def rewrite(seat: int, kind: str, change: Callable[[dict[str, Any]], None], *, skip: int = 0) -> Cheat:
    """``seat`` rewrites the body of one ``kind`` message (after ``skip`` honest ones)."""

    def build(participants: Sequence[Participant]) -> Tamper:
        seen = [0]

        def tamper(author: int, message: Message) -> Message | None:
            if author != seat or message["kind"] != kind:
                return message
            seen[0] += 1
            if seen[0] != skip + 1:
                return message
            body = dict(message["body"])
            change(body)
            return dict(message, body=body)

        return tamper

    return build


def withhold(seat: int, kind: str) -> Cheat:
    """``seat`` never sends its ``kind`` messages."""

    def build(participants: Sequence[Participant]) -> Tamper:
        return lambda author, message: None if author == seat and message["kind"] == kind else message

    return build


def finished(match: Match) -> Record:
    """End ``match`` (played on a :func:`table`): open every seed, then re-check the whole record
    from its entries with a fresh record, as a peer restoring its log would; return that record."""
    resolver = match.resolver
    assert isinstance(resolver, FairResolver) and match.results() is not None
    resolver.finish()
    record, _ = replay(resolver)
    return record
