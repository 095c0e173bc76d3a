"""Leaving and aborting: deadlines driven by the caller's clock, forfeits with signed evidence.

A seat that does not send what a step owes by the table's deadline forfeits. Nothing here reads a
clock: the caller passes ``now`` (any monotonic count: seconds, ticks) to :class:`Deadlines`, or,
in one process where every message is delivered at once, treats "nothing more can arrive" as the
deadline passing. The evidence of a forfeit is the announced ``timeout`` step (naming the late
seat, the late step and the transcript head when the deadline passed) and one ``witness``
message per other seat, each signed by its author: anyone holding the seats' verify keys can check
that every other seat saw the same table stop at the same point.

A seat that leaves gracefully sends a ``leave`` message first, handing over its deck keys for every
card not in its own hand, so the others can go on dealing and revealing without it; its chain
simply stops contributing to later draws.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from nacl.signing import VerifyKey

from atoll.errors import CheatDetected, ProtocolViolation
from atoll.fair.messages import Message, check_signature
from atoll.fair.transcript import StepRecord
from atoll.jsondata import JSON, clone


@dataclass(frozen=True)
class Evidence:
    """Signed proof that ``missing`` did not send what step ``late`` owed before the deadline."""

    step: StepRecord
    witnesses: tuple[Message, ...]

    @property
    def missing(self) -> int:
        """The seat that forfeits."""
        seat: int = self.step["missing"]
        return seat

    def check(self, keys: Mapping[int, VerifyKey], seats: Iterable[int]) -> None:
        """Check that every seat in ``seats`` other than the missing one signed this timeout.

        Raises :class:`CheatDetected` naming a witness whose signature or statement is wrong, or
        :class:`ProtocolViolation` when a witness is missing.
        """
        signed = {}
        for message in self.witnesses:
            seat = message["seat"]
            check_signature(message, keys[seat])
            body = message.get("body", {})
            if message.get("n") != self.step["n"] or any(body.get(f) != self.step[f] for f in
                                                         ("missing", "late", "head")):
                raise CheatDetected(seat, "witnessed a different timeout than the evidence states")
            signed[seat] = message
        absent = [s for s in seats if s != self.missing and s not in signed]
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
    """A seat withheld a message past the deadline and forfeits; ``evidence`` proves it."""

    def __init__(self, seat: int, message: str, evidence: Evidence) -> None:
        super().__init__(seat, message)
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
