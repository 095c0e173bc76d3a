"""The fair protocols' step machines, all seats in one process, relayed without a table: a dev tool.

:class:`FairResolver` holds one :class:`~atoll.fair.steps.seat.Participant` per seat and plays the part the
table plays in a real game: it announces each step to every participant, delivers every message to
every participant (each checks it against its own record and may answer), and keeps every step and
accepted message in :attr:`FairResolver.entries`; a message a participant refuses without blame
(malformed, replayed, out of place) is dropped, as a live peer would. When no message is left to
deliver and a step still waits for a seat, the deadline has passed: the other seats witness it and
the late seat forfeits (:class:`SeatForfeited`), or with too few witnesses the table is aborted
(:class:`TableAborted`). :meth:`FairResolver.finish` opens every seed and re-checks the game.

It is not part of atoll: a game is played fairly only at a table, whose log is the one signed record
(docs/decisions/0010-one-signed-record.md). Its messages carry no signature, so it exists to test and
measure the step machines below the table: a ``tamper`` plays a cheating seat (what modified software
could write) exactly where the table would seal it in that seat's envelope. :func:`replay` re-checks
its entries with a fresh record, as a peer restoring its log does.
"""

from __future__ import annotations

import contextlib
import os
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from nacl.signing import SigningKey

from atoll.chance import Deal, Request, Roll
from atoll.engine.resolver import Resolution
from atoll.errors import CheatDetected, ProtocolViolation
from atoll.fair.primitives.hashing import hash_bytes
from atoll.fair.primitives.randomness import CHAIN_LENGTH
from atoll.fair.steps import announce as steps
from atoll.fair.steps.history import StepRecord
from atoll.fair.steps.messages import Message
from atoll.fair.steps.record import Record
from atoll.fair.steps.referee import Referee
from atoll.fair.steps.seat import Participant
from atoll.jsondata import JSON, canonical

#: Rewrites (or, returning ``None``, withholds) a message a seat sends: plays a cheating seat or a
#: hostile relay in tests.
Tamper = Callable[[int, Message], Message | None]

#: One step announced (``{"step": ...}``) or one message accepted (``{"msg": ...}``), in order.
Entry = dict[str, Any]


class SeatForfeited(CheatDetected):
    """A seat withheld a message past the deadline, as every other seat (two or more) witnessed; it
    forfeits, and ``witnesses`` holds their messages."""

    def __init__(self, seat: int, message: str, witnesses: tuple[Message, ...]) -> None:
        super().__init__(seat, message)
        self.witnesses = witnesses


class TableAborted(ProtocolViolation):
    """The table stopped at a timeout that cannot be pinned on one seat: only one other seat
    witnessed it (a table of two), or not every other seat did. Nobody is blamed."""

    def __init__(self, missing: int, message: str) -> None:
        super().__init__(f"aborted, not attributable: {message}")
        self.missing = missing


def local_identity(master: bytes) -> SigningKey:
    """A stand-in long-term identity for a seat of a table run in one process (no table layer)."""
    return SigningKey(hash_bytes("local/identity", {"master": master.hex()}, 32))


class FairResolver:
    """Answers chance for ``seats`` seats through the fair protocols, checking every step.

    :param seats: the number of seats at the table.
    :param table_id: the table's id, bound into every hash and message; never used for two tables
        (a fresh one per table).
    :param seeds: each seat's master secret (32+ bytes, fresh per table); from ``os.urandom`` when
        ``None``.
    :param identities: each seat's long-term identity key (the table layer's); a stand-in derived
        from the master secret when ``None``.
    :param participants: the seats themselves; built from ``seeds`` and ``identities`` when ``None``.
    :param tamper: rewrites or withholds each message a seat sends before anyone sees it (tests
        play a cheating seat or a hostile relay with it).
    :param referee: checks each sealed decision against the rules once its values are open
        (:func:`atoll.fair.steps.referee.match_referee`); without one, only the audit checks them.
    """

    def __init__(
        self,
        seats: int,
        table_id: str,
        seeds: Sequence[bytes] | None = None,
        *,
        chain_length: int = CHAIN_LENGTH,
        identities: Sequence[SigningKey] | None = None,
        participants: Sequence[Participant] | None = None,
        tamper: Tamper | None = None,
        referee: Referee | None = None,
    ) -> None:
        if participants is None:
            masters = list(seeds) if seeds is not None else [os.urandom(32) for _ in range(seats)]
            if len(masters) != seats:
                raise ValueError(f"{len(masters)} seeds for {seats} seats")
            keys = list(identities) if identities is not None else [local_identity(m) for m in masters]
            public = [k.verify_key.encode() for k in keys]
            participants = [Participant(s, table_id, seats, masters[s], chain_length, identities=public)
                            for s in range(seats)]
        if [p.seat for p in participants] != list(range(seats)):
            raise ValueError("one participant per seat, in seat order")
        self.seats = seats
        self.table = table_id
        self.participants = list(participants)
        self.chain_length = chain_length
        self.entries: list[Entry] = []
        """Every step announced and every message accepted, in order (:func:`replay` re-checks them)."""
        self.finished = False
        self.tamper = tamper
        self.referee = referee
        self.dropped: list[tuple[Message, str]] = []
        """Messages refused without blame (unauthenticated, replayed, out of place), with the reason."""
        self._judged: set[int] = set()
        self._run({"step": "setup"})

    # -- the Resolver protocol ----------------------------------------------------------

    def resolve(self, request: Request) -> Resolution:
        """Answer ``request`` through the protocols."""
        result: dict[str, JSON] = {}
        for fields in steps.for_chance(self._record, request):
            result = self._run(fields)
        if isinstance(request, Deal):
            private = {seat: {h: self.participants[seat].known[h] for h in handles}
                       for seat, handles in request.to}
            return Resolution({}, private)
        if isinstance(request, Roll) and request.to is not None:
            owner = self.participants[request.to]
            return Resolution(result, {request.to: {h: owner.known[h] for h in request.handles()}})
        return Resolution(result)

    def seal(self, seat: int, handles: Sequence[str], values: Sequence[JSON]) -> None:
        """``seat`` commits to ``values`` under ``handles``; only its participant keeps the values."""
        self.participants[seat].prepare_seal(handles, values)
        self._run(steps.for_seal(seat, handles))

    def prove(self, seat: int, claims: Mapping[str, JSON]) -> None:
        """``seat`` opens the hidden things it shows; every other seat checks them against ``claims``."""
        self._run(steps.for_prove(seat, claims))

    # -- the table --------------------------------------------------------------------

    def leave(self, seat: int) -> None:
        """``seat`` leaves gracefully, opening its sealed slots and handing over its card keys."""
        self._run(steps.for_leave(seat))

    def finish(self) -> None:
        """The game is over: every seat opens its seed, every record re-checks the whole game, and
        every sealed decision is judged with every face open."""
        if not self.finished:
            self._run(steps.for_finish())
            self.finished = True
            self._judge(self.faces(), again=True)

    def faces(self) -> dict[str, JSON]:
        """Every hidden face (handle -> face), known once :meth:`finish` has opened the seeds."""
        if not self.finished:
            raise ProtocolViolation("faces are opened at the end: call finish() first")
        faces = self._record.sealed_values()
        faces.update(self._record.deck.all_faces(self._record.seeds))
        faces.update(self._record.cups.all_faces(self._record.seeds))
        return faces

    def stopped(self) -> bool:
        """Whether the table takes no more steps (finished, a cheat caught, forfeited or aborted)."""
        return any(p.record.stopped() for p in self.participants)

    @property
    def _record(self) -> Record:
        """Seat 0's record: in one process every record holds the same public state."""
        return self.participants[0].record

    # -- running one step among the participants ------------------------------------------

    def _run(self, fields: Mapping[str, JSON]) -> dict[str, JSON]:
        step = steps.numbered(self._record, fields)
        queue: deque[Message] = deque()
        for participant in self.participants:
            # every record holds the same public state, so a refused step is refused by the first
            queue.extend(participant.begin(step))
        self.entries.append({"step": step})
        self._drain(queue)
        if not self._record.complete():
            self._timeout(self._record.late()[0])
        results = [p.record.result for p in self.participants]
        if any(canonical(r) != canonical(results[0]) for r in results):
            raise ProtocolViolation(f"the seats disagree on the outcome of step {step['n']}")
        self._judge(self._public_faces(), again=False)
        result: dict[str, JSON] = results[0] or {}
        return result

    def _drain(self, queue: deque[Message]) -> None:
        """Deliver every message (as a relay would) until none is left; a refused one is dropped."""
        while queue:
            message = queue.popleft()
            if self.tamper is not None:
                tampered = self.tamper(message["seat"], message)
                if tampered is None:
                    continue
                message = tampered
            author = message.get("seat") if isinstance(message, dict) else None
            first, *rest = sorted(self.participants, key=lambda p: p.seat == author)
            try:
                replies = first.receive(message)
            except CheatDetected:
                self.entries.append({"msg": message})  # its seat wrote it: a replay must find it too
                for participant in rest:  # every peer sees the cheat and stops
                    with contextlib.suppress(CheatDetected):
                        participant.receive(message)
                raise
            except ProtocolViolation as exc:
                self.dropped.append((message, str(exc)))
                continue
            self.entries.append({"msg": message})
            queue.extend(replies)
            for participant in rest:
                queue.extend(participant.receive(message))

    def _timeout(self, seat: int) -> None:
        """Nothing more can arrive: the deadline has passed; the others witness that ``seat`` is late."""
        late = self._record.step
        step = steps.numbered(self._record, steps.for_timeout(self._record, seat))
        queue: deque[Message] = deque()
        for participant in self.participants:
            queue.extend(participant.begin(step))
        self.entries.append({"step": step})
        self._drain(queue)
        witnesses = tuple(e["msg"] for e in self.entries[self._last_step():] if "msg" in e)
        what = f"sent nothing for step {late['n']} ({late['step']}) before the deadline"
        if self._record.forfeited is not None:
            raise SeatForfeited(seat, f"{what}, as seats {sorted(m['seat'] for m in witnesses)} witnessed",
                                witnesses)
        raise TableAborted(seat, f"seat {seat} {what}, but only seats "
                                 f"{sorted(m['seat'] for m in witnesses)} say so")

    def _last_step(self) -> int:
        return max(i for i, e in enumerate(self.entries) if "step" in e)

    # -- sealed choices --------------------------------------------------------------------

    def _public_faces(self) -> dict[str, JSON]:
        faces = self._record.commitments.opened()
        faces.update(self._record.deck.all_public())
        faces.update(self._record.cups.opened())
        return faces

    def _judge(self, faces: Mapping[str, JSON], *, again: bool) -> None:
        """Ask the referee about each sealed decision whose slots are all open (each once, and all
        again at the end with every face open)."""
        if self.referee is None:
            return
        for index, (seat, handles) in enumerate(self._record.sealed):
            if (again or index not in self._judged) and all(h in faces for h in handles):
                self._judged.add(index)
                self.referee(seat, handles, faces)


class Damaged(ProtocolViolation):
    """Entries that are not a record of a game: a step that cannot follow, a message out of place, or
    a record cut short. Nobody is blamed."""


Outcomes = list[tuple[StepRecord, dict[str, JSON]]]


def replay(resolver: FairResolver, entries: list[Entry] | None = None) -> tuple[Record, Outcomes]:
    """Re-check ``entries`` (the resolver's own by default) with a fresh record of its table; return
    the record and each completed step's outcome. Raises :class:`Damaged` (nobody blamed),
    :class:`~atoll.errors.CheatDetected` naming the first seat whose content does not check (a
    forfeit included), or :class:`TableAborted`."""
    first = resolver.participants[0].record
    record = Record(resolver.table, resolver.seats, resolver.chain_length, identities=first.identities)
    outcomes: Outcomes = []
    entries = resolver.entries if entries is None else entries
    for at, entry in enumerate(entries):
        if "step" in entry:
            if record.n >= 0 and record.complete():
                outcomes.append((record.step, record.result or {}))
            try:
                record.begin(entry["step"])
            except ProtocolViolation as exc:
                raise Damaged(f"entry {at}: step {entry['step'].get('n')} cannot follow: {exc}") from exc
            continue
        try:
            record.receive(entry["msg"])
        except CheatDetected:
            if at != len(entries) - 1:
                raise Damaged(f"entry {at + 1}: the table stops at a cheat here, yet goes on") from None
            raise
        except ProtocolViolation as exc:
            raise Damaged(f"entry {at}: a message out of place: {exc}") from exc
    if record.n >= 0 and record.complete():
        outcomes.append((record.step, record.result or {}))
    _check_end(record)
    return record, outcomes


def _check_end(record: Record) -> None:
    """How the entries end: the seeds opened, a forfeit, an abort, or cut short."""
    witnesses = [s for s in record.active() if s != record.step.get("missing")]
    if record.forfeited is not None:
        late = record.step["late"]
        raise CheatDetected(record.forfeited, f"forfeited: seats {witnesses} each witnessed that its "
                                              f"message for step {late} had not reached them in time")
    if record.step.get("step") == "timeout":
        late, missing = record.step["late"], record.step["missing"]
        signed = sorted(seat for seat in witnesses if (seat, "witness") not in record.owed())
        raise TableAborted(missing, f"the table stopped at step {late}, waiting for seat {missing}; only "
                                    f"seats {signed} witnessed that (a seat's word against another's)")
    if record.owed():
        seat, kind = record.owed()[0]
        raise Damaged(f"the entries end while step {record.n} ({record.step['step']}) still waits for seat "
                      f"{seat}'s {kind!r} message, with no timeout: they were cut short")
    if not record.finished:
        raise Damaged("the entries end before the seeds were opened")
