"""Shared pieces of the fair tests: a real table in memory, cheating seats, verdicts and the audit.

Every test plays at a real table (:mod:`atoll_tools.asked`): a host sequencer and one
:class:`~atoll.table.table.Table` per seat, each fair message sealed in its seat's envelope. A
cheating seat runs a modified :class:`Participant` (:func:`atoll_tools.memory_table.cheating`) that
rewrites or withholds what it sends: exactly what a seat running modified software could do, its
own identity signing it. A cheat caught is the table's verdict (:func:`caught`); the replay of a game
is the audit of its log (:func:`audited`), as ``atoll audit`` does it.
"""

from __future__ import annotations

import contextlib
import re
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from atoll_tools.asked import REGISTRY, AskedTable, Stopped, asked_table
from atoll_tools.memory_table import Net, Tamper, cheating, open_table
from nacl.signing import SigningKey

from atoll.fair.steps.messages import Message
from atoll.fair.steps.record import Record
from atoll.fair.steps.seat import Participant
from atoll.net.encoding import fingerprint
from atoll.registry import Registry
from atoll.table.audit import LogAudit, audit_log, replayed
from atoll.table.reasons import Ending, EndReason

#: Which seats cheat, and the participant each runs.
Cheat = Mapping[int, type[Participant]]


def masters(seats: int, salt: int = 0) -> list[bytes]:
    """Fixed master secrets, one per seat, so a test's seats are the same every run."""
    return [bytes([salt, seat + 1]) * 16 for seat in range(seats)]


def identities(seats: int, salt: int = 0) -> list[SigningKey]:
    """Fixed identity keys, one per seat."""
    return [SigningKey(bytes([salt, 100 + seat]) * 16) for seat in range(seats)]


def table(seats: int, name: str | None = None, *, cheat: Cheat | None = None, salt: int = 0) -> AskedTable:
    """A table of ``seats`` seats with fixed secrets, started (given ``cheat``, with cheating seats);
    its id is ``name``, or a fresh one."""
    return asked_table(seats, participants=cheat, keys=identities(seats, salt), masters=masters(seats, salt),
                       table_id=name)


class Switch:
    """A tamper a test changes while the game goes on (honest until it is set)."""

    def __init__(self) -> None:
        self.tamper: Tamper | None = None

    def __call__(self, me: Participant, message: Message) -> list[Message]:
        return [message] if self.tamper is None else self.tamper(me, message)


def rewriting(kind: str, change: Callable[[dict[str, Any]], None], *, skip: int = 0) -> Tamper:
    """Rewrite the body of one ``kind`` message (after ``skip`` honest ones)."""
    seen = [0]

    def tamper(me: Participant, message: Message) -> list[Message]:
        if message["kind"] != kind:
            return [message]
        seen[0] += 1
        if seen[0] != skip + 1:
            return [message]
        body = dict(message["body"])
        change(body)
        return [dict(message, body=body)]

    return tamper


def rewrite(seat: int, kind: str, change: Callable[[dict[str, Any]], None], *, skip: int = 0) -> Cheat:
    """``seat`` rewrites the body of one ``kind`` message (after ``skip`` honest ones)."""
    return {seat: cheating(rewriting(kind, change, skip=skip))}


def withholding(kind: str, deck: str | None = None) -> Tamper:
    """Never send a ``kind`` message (a deck message only of type ``deck``)."""

    def tamper(me: Participant, message: Message) -> list[Message]:
        if message["kind"] == kind and (deck is None or message["body"].get("type") == deck):
            return []
        return [message]

    return tamper


def withhold(seat: int, kind: str, deck: str | None = None) -> Cheat:
    """``seat`` never sends its ``kind`` messages (its deck messages only of type ``deck``)."""
    return {seat: cheating(withholding(kind, deck))}


def verdict(played: AskedTable, reason: EndReason, seat: int | None) -> Ending:
    """Check that the host's copy and every seat's (a cheater's own left out) ended the game for
    ``reason`` concerning ``seat``, all with the same words; return that ending."""
    ending = played.ending()
    assert ending is not None, "the table did not end"
    assert ending.reason is reason and ending.seat == seat, ending.text
    for index, copy in enumerate(played.tables()[1:]):
        if index != seat:
            assert copy.ending == ending, (index, copy.ended)
    blamed = {e.blame for t in played.tables() for e in t.events if e.blame is not None}
    assert blamed == ({seat} if reason is EndReason.CHEAT else set()), blamed
    return ending


@contextlib.contextmanager
def caught(
    played: AskedTable, seat: int, match: str = "", reason: EndReason = EndReason.CHEAT
) -> Iterator[None]:
    """The steps inside end the game naming ``seat`` (a cheat, or a forfeit), in words matching ``match``."""
    with pytest.raises(Stopped):
        yield
    ending = verdict(played, reason, seat)
    assert re.search(match, ending.text), ending.text


@contextlib.contextmanager
def aborted(played: AskedTable) -> Iterator[None]:
    """The steps inside abort the table, naming nobody."""
    with pytest.raises(Stopped):
        yield
    verdict(played, EndReason.ABORTED, played.ending().seat)  # type: ignore[union-attr]
    assert not EndReason.ABORTED.accuses


def audited(played: AskedTable, registry: Registry = REGISTRY) -> tuple[LogAudit, Record]:
    """Audit the host's log as ``atoll audit`` does (a peer restoring its log checks it the same way),
    with the games of ``registry``: the report, and the fair record the audit re-checked."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "log.jsonl"
        entries = played.net.host.table.log.entries
        path.write_bytes(b"".join(entry.to_bytes() + b"\n" for entry in entries))
        report = audit_log(path, registry.game, fingerprint)
        _, copy = replayed(path, registry.game)
    assert copy.engine is not None
    return report, copy.engine.resolver.record


def played_through(
    game: str, bots: Sequence[Any], variant: str | None = None, *, registry: Registry = REGISTRY
) -> tuple[Net, Record]:
    """A whole game of ``game`` at a table in memory, seat ``i`` played by ``bots[i]``; the table and
    the fair record its log's audit re-checked in full (the audit is checked to be clean)."""
    net = open_table(game, len(bots), variant, registry=registry)
    for peer, bot in zip(net.peers, bots, strict=True):
        peer.bot = bot
    net.run()
    assert all(peer.table.results() is not None for peer in net.peers), [p.table.ended for p in net.peers]
    report, record = audited(AskedTable(net), registry)
    assert report.clean, report.cheat or report.ended
    return net, record


def messages(played: AskedTable, kind: str | None = None) -> list[Message]:
    """The fair messages in the log, in order (only those of ``kind``, if given)."""
    found = [e.message.body["msg"] for e in played.net.host.table.log.entries if e.message.kind == "fair"]
    return [m for m in found if kind is None or m["kind"] == kind]
