"""Leaving and aborting: deadlines driven by the caller's clock, forfeits with signed evidence.

A seat that does not send what a step owes by the table's deadline forfeits. Nothing here reads a
clock: the caller passes ``now`` (any monotonic count: seconds, ticks) to :class:`Deadlines`, or,
in one process where every message is delivered at once, treats "nothing more can arrive" as the
deadline passing. The evidence is the announced ``timeout`` step (naming the late seat, the late
step and the table's head when the deadline passed) and one ``witness`` message per other seat,
each signed by its author: anyone holding the seats' keys can check that every other seat saw the
same table stop at the same point. With two or more witnesses the late seat forfeits
(:class:`SeatForfeited`); with one (a table of two) it is one seat's word against the other's, and
the table is aborted with nobody blamed (:class:`TableAborted`).

A seat that leaves gracefully sends a ``leave`` message first, opening its sealed slots and handing
over its deck keys for every card not in its own hand, so the others can go on dealing and
revealing without it and can still check its sealed choices; its chain simply stops contributing
to later draws.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from nacl.signing import VerifyKey

from atoll.errors import CheatDetected, ProtocolViolation
from atoll.fair.messages import Message, authenticate, same
from atoll.fair.record import ATTRIBUTABLE_WITNESSES
from atoll.fair.transcript import StepRecord, step_seen
from atoll.jsondata import JSON, clone


@dataclass(frozen=True)
class Evidence:
    """Signed statements that ``missing`` had not sent what step ``late`` owed by the deadline.

    Each witness signs the timeout announcement (through ``seen``) and repeats its fields. What it
    shows is exactly that: every witness says the message had not reached it. With one witness
    (a table of two) that is one seat's word against another's, so it pins nothing
    (:attr:`attributable` is false); with more, only a coalition of all the witnesses, or a relay
    that kept the message from every one of them, could have made it up.
    """

    step: StepRecord
    witnesses: tuple[Message, ...]

    @property
    def missing(self) -> int:
        """The seat the timeout names."""
        seat: int = self.step["missing"]
        return seat

    @property
    def attributable(self) -> bool:
        """Whether enough seats witnessed it to name the missing seat (see the class docstring)."""
        return len(self.witnesses) >= ATTRIBUTABLE_WITNESSES

    def check(self, keys: Mapping[int, VerifyKey], active: Iterable[int], *, table: str) -> None:
        """Check that every seat in ``active`` but the missing one signed exactly this timeout.

        ``keys`` holds every seat's table key. A witness that does not authenticate, or that signed
        another history, is refused blaming nobody (:class:`ProtocolViolation`); one that signed this
        timeout but states other facts is named (:class:`CheatDetected`); a missing witness makes the
        evidence incomplete (:class:`ProtocolViolation`).
        """
        seen = step_seen(str(self.step.get("head")), self.step)
        signed = {}
        for message in self.witnesses:
            seat = message.get("seat") if isinstance(message, dict) else None
            if not isinstance(seat, int) or seat not in keys:
                raise ProtocolViolation(f"a witness names no seat of the table: {str(message)[:80]}")
            msg = authenticate(message, keys[seat], table=table, seats=len(keys))
            if msg["n"] != self.step["n"] or msg["kind"] != "witness" or not same(msg["seen"], seen):
                raise ProtocolViolation(f"seat {seat}'s message is not a witness of this timeout")
            body = msg["body"]
            if any(body.get(f) != self.step[f] for f in ("missing", "late", "head")):
                raise CheatDetected(seat, "witnessed a different timeout than the evidence states")
            signed[seat] = msg
        absent = [s for s in active if s != self.missing and s not in signed]
        if absent:
            raise ProtocolViolation(f"the timeout of seat {self.missing} lacks the witness of seats {absent}")

    def to_json(self) -> dict[str, JSON]:
        """The evidence as a JSON object."""
        return {"step": clone(self.step), "witnesses": [clone(m) for m in self.witnesses]}

    @classmethod
    def from_json(cls, data: JSON) -> Evidence:
        """Read evidence written by :meth:`to_json`."""
        if not isinstance(data, dict) or not isinstance(data.get("witnesses"), list):
            raise ProtocolViolation(f"not timeout evidence: {str(data)[:120]}")
        return cls(dict(data["step"]), tuple(dict(m) for m in data["witnesses"]))


class SeatForfeited(CheatDetected):
    """A seat withheld a message past the deadline, as every other seat (two or more) signed; it
    forfeits, and ``evidence`` holds their statements."""

    def __init__(self, seat: int, message: str, evidence: Evidence) -> None:
        super().__init__(seat, message)
        self.evidence = evidence


class TableAborted(ProtocolViolation):
    """The table stopped at a timeout that cannot be pinned on one seat: only one other seat
    witnessed it (a table of two), or not every other seat did. Nobody is blamed."""

    def __init__(self, missing: int, message: str, evidence: Evidence | None = None) -> None:
        super().__init__(f"aborted, not attributable: {message}")
        self.missing = missing
        self.evidence = evidence


@dataclass
class Deadlines:
    """Who still owes a message in the current step, and since when; the caller owns the clock.

    ``timeout`` is in the caller's units; :meth:`overdue` compares the ``now`` it is given with the
    time the step started.
    """

    timeout: int
    started: int = 0
    step: int = -1
    owing: tuple[int, ...] = ()

    def start(self, step: int, owing: Iterable[int], now: int) -> None:
        """Step ``step`` began at ``now``; ``owing`` are the seats that must send something."""
        self.step, self.started, self.owing = step, now, tuple(sorted(set(owing)))

    def arrived(self, seat: int) -> None:
        """``seat`` sent what it owed."""
        self.owing = tuple(s for s in self.owing if s != seat)

    def overdue(self, now: int) -> list[int]:
        """The seats still owing once the deadline has passed at ``now`` (empty before it)."""
        if now < self.started:
            raise ProtocolViolation(f"time went backwards: {now} is before the step's start {self.started}")
        return list(self.owing) if now - self.started >= self.timeout else []
