"""The fair resolver: the engine's chance requests fulfilled by the fair protocols, all seats in one process.

:class:`FairResolver` holds one :class:`~atoll.fair.seat.Participant` per seat and plays the part
the network plays on a real table: it announces each step to every participant, delivers every
message to every participant (each checks it against its own record and may answer), and records
the step and every message in a :class:`~atoll.fair.transcript.Transcript`; a message a participant
refuses without blame (unauthenticated, replayed, out of place) is dropped, as a live peer would.
A roll or a pick is one
round of hash-chain openings; a shuffle, a deal and a reveal of cards run the mental deck; a sealed
decision commits, and an action showing hidden things runs a ``prove`` step. When no message is
left to deliver and a step still waits for a seat, the deadline has passed: the other seats
witness it and the late seat forfeits (:class:`~atoll.fair.abort.SeatForfeited`). Call
:meth:`FairResolver.finish` when the game is over: every seat opens its seed and every record
re-checks the whole game against it.
"""

from __future__ import annotations

import contextlib
import os
from collections import deque
from collections.abc import Callable, Mapping, Sequence

from nacl.signing import SigningKey

from atoll.chance import Deal, Request, Roll
from atoll.engine.resolver import Resolution
from atoll.errors import CheatDetected, ProtocolViolation
from atoll.fair import steps
from atoll.fair.abort import Evidence, SeatForfeited, TableAborted
from atoll.fair.hashing import hash_bytes
from atoll.fair.identity import identity_signer
from atoll.fair.messages import Message
from atoll.fair.randomness import CHAIN_LENGTH
from atoll.fair.record import Record
from atoll.fair.referee import Referee
from atoll.fair.seat import Participant
from atoll.fair.transcript import Transcript
from atoll.jsondata import JSON, canonical

#: Rewrites (or, returning ``None``, withholds) a message a seat sends: plays a cheating seat or a
#: hostile relay in tests.
Tamper = Callable[[int, Message], Message | None]


def local_identity(master: bytes) -> SigningKey:
    """A stand-in long-term identity for a seat of a table run in one process (no table layer)."""
    return SigningKey(hash_bytes("local/identity", {"master": master.hex()}, 32))


class FairResolver:
    """Answers chance for ``seats`` seats through the fair protocols, checking every step.

    :param seats: the number of seats at the table.
    :param table_id: the table's id, bound into every hash and message; never used for two tables
        (:func:`atoll.fair.identity.new_table_id`).
    :param seeds: each seat's master secret (32+ bytes, fresh per table); from ``os.urandom`` when
        ``None``.
    :param identities: each seat's long-term identity key (the table layer's); a stand-in derived
        from the master secret when ``None``.
    :param participants: the seats themselves; built from ``seeds`` and ``identities`` when ``None``.
    :param tamper: rewrites or withholds each message a seat sends before anyone sees it (tests
        play a cheating seat or a hostile relay with it).
    :param referee: checks each sealed decision against the rules once its values are open
        (:func:`atoll.fair.referee.match_referee`); without one, only the audit checks them.
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
            participants = [Participant(s, table_id, seats, masters[s], chain_length, identities=public,
                                        bind=identity_signer(keys[s])) for s in range(seats)]
        if [p.seat for p in participants] != list(range(seats)):
            raise ValueError("one participant per seat, in seat order")
        self.seats = seats
        self.table = table_id
        self.participants = list(participants)
        self.transcript = Transcript(table_id, seats, chain_length, self.participants[0].record.identities)
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
        self.transcript.add_step(step)
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
                self.transcript.add_message(message)  # validly signed: the audit must find it too
                for participant in rest:  # every peer sees the cheat and stops
                    with contextlib.suppress(CheatDetected):
                        participant.receive(message)
                raise
            except ProtocolViolation as exc:
                self.dropped.append((message, str(exc)))
                continue
            self.transcript.add_message(message)
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
        self.transcript.add_step(step)
        self._drain(queue)
        witnesses = tuple(e["msg"] for e in self.transcript.entries[self._last_step():] if "msg" in e)
        evidence = Evidence(step, witnesses)
        what = f"sent nothing for step {late['n']} ({late['step']}) before the deadline"
        if self._record.forfeited is not None:
            raise SeatForfeited(seat, f"{what}, as seats {sorted(m['seat'] for m in witnesses)} signed",
                                evidence)
        raise TableAborted(seat, f"seat {seat} {what}, but only seats "
                                 f"{sorted(m['seat'] for m in witnesses)} say so", evidence)

    def _last_step(self) -> int:
        return max(i for i, e in enumerate(self.transcript.entries) if "step" in e)

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

