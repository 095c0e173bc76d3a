"""The fair resolver: the engine's chance requests fulfilled by the fair protocols, all seats in one process.

:class:`FairResolver` holds one :class:`~atoll.fair.seat.Participant` per seat and plays the part
the network plays on a real table: it announces each step to every participant, delivers every
message to every participant (each checks it against its own record and may answer), and records
the step and every message in a :class:`~atoll.fair.transcript.Transcript`. A roll or a pick is one
round of hash-chain openings; a shuffle, a deal and a reveal of cards run the mental deck; a sealed
decision commits, and an action showing hidden things runs a ``prove`` step. When no message is
left to deliver and a step still waits for a seat, the deadline has passed: the other seats
witness it and the late seat forfeits (:class:`~atoll.fair.abort.SeatForfeited`). Call
:meth:`FairResolver.finish` when the game is over: every seat opens its seed and every record
re-checks the whole game against it.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Mapping, Sequence

from atoll.chance import Deal, Pick, Request, Roll, Shuffle
from atoll.engine.resolver import Resolution
from atoll.errors import ProtocolViolation
from atoll.fair.abort import Evidence, SeatForfeited
from atoll.fair.messages import Message
from atoll.fair.randomness import CHAIN_LENGTH, position
from atoll.fair.record import Record
from atoll.fair.seat import Participant
from atoll.fair.transcript import StepRecord, Transcript
from atoll.jsondata import JSON, canonical

#: Rewrites (or, returning ``None``, withholds) a message a seat sends: plays a cheating seat in tests.
Tamper = Callable[[int, Message], Message | None]


class FairResolver:
    """Answers chance for ``seats`` seats through the fair protocols, checking every step.

    :param seats: the number of seats at the table.
    :param table_id: the table's id, bound into every hash and message.
    :param seeds: each seat's master secret (32+ bytes); fresh from ``os.urandom`` when ``None``.
    :param participants: the seats themselves; built from ``seeds`` when ``None``.
    :param tamper: rewrites or withholds each message a seat sends before anyone sees it (tests
        play a cheating seat with it; the seat's own key is there to re-sign).
    """

    def __init__(
        self,
        seats: int,
        table_id: str,
        seeds: Sequence[bytes] | None = None,
        *,
        chain_length: int = CHAIN_LENGTH,
        participants: Sequence[Participant] | None = None,
        tamper: Tamper | None = None,
    ) -> None:
        if participants is None:
            masters = list(seeds) if seeds is not None else [os.urandom(32) for _ in range(seats)]
            if len(masters) != seats:
                raise ValueError(f"{len(masters)} seeds for {seats} seats")
            participants = [Participant(s, table_id, seats, masters[s], chain_length) for s in range(seats)]
        if [p.seat for p in participants] != list(range(seats)):
            raise ValueError("one participant per seat, in seat order")
        self.seats = seats
        self.table = table_id
        self.participants = list(participants)
        self.transcript = Transcript(table_id, seats, chain_length)
        self.finished = False
        self.tamper = tamper
        self._n = 0
        self._run({"step": "setup"})

    # -- the Resolver protocol ----------------------------------------------------------

    def resolve(self, request: Request) -> Resolution:
        """Answer ``request`` through the protocols."""
        if isinstance(request, Roll | Pick):
            draw = self._record.draws + 1
            epoch, _ = position(draw, self._record.chains.length)
            if epoch > self._record.epochs:
                self._run({"step": "chain", "epoch": epoch})
            return Resolution(self._run({"step": "draw", "draw": draw, "request": request.to_json()}))
        if isinstance(request, Shuffle):
            fields = {"step": "shuffle", "pile": request.pile, "faces": list(request.faces)}
            return Resolution(self._run(fields))
        if isinstance(request, Deal):
            self._run({"step": "deal", "to": [[seat, list(handles)] for seat, handles in request.to]})
            private = {seat: {h: self.participants[seat].known[h] for h in handles}
                       for seat, handles in request.to}
            return Resolution({}, private)
        return Resolution(self._run({"step": "reveal", "handles": list(request.handles)}))

    def seal(self, seat: int, handles: Sequence[str], values: Sequence[JSON]) -> None:
        """``seat`` commits to ``values`` under ``handles``; only its participant keeps the values."""
        self.participants[seat].prepare_seal(handles, values)
        self._run({"step": "seal", "seat": seat, "handles": list(handles)})

    def prove(self, seat: int, claims: Mapping[str, JSON]) -> None:
        """``seat`` opens the hidden things it shows; every other seat checks them against ``claims``."""
        self._run({"step": "prove", "seat": seat, "claims": dict(claims)})

    # -- the table --------------------------------------------------------------------

    def leave(self, seat: int) -> None:
        """``seat`` leaves gracefully, handing over its keys for every card not in its hand."""
        self._run({"step": "leave", "seat": seat})

    def finish(self) -> None:
        """The game is over: every seat opens its seed and every record re-checks the whole game."""
        if not self.finished:
            self._run({"step": "finish"})
            self.finished = True

    def faces(self) -> dict[str, JSON]:
        """Every hidden face (handle -> face), known once :meth:`finish` has opened the seeds."""
        if not self.finished:
            raise ProtocolViolation("faces are opened at the end: call finish() first")
        faces = self._record.sealed_values()
        faces.update(self._record.deck.all_faces(self._record.seeds))
        return faces

    @property
    def _record(self) -> Record:
        """Seat 0's record: in one process every record holds the same public state."""
        return self.participants[0].record

    # -- running one step among the participants ------------------------------------------

    def _run(self, fields: Mapping[str, JSON]) -> dict[str, JSON]:
        step: StepRecord = {"n": self._n, **fields}
        queue: deque[Message] = deque()
        for participant in self.participants:
            # every record holds the same public state, so a refused step is refused by the first
            queue.extend(participant.begin(step))
        self._n += 1
        self.transcript.add_step(step)
        while queue:
            message = queue.popleft()
            if self.tamper is not None:
                tampered = self.tamper(message["seat"], message)
                if tampered is None:
                    continue
                message = tampered
            self.transcript.add_message(message)
            for participant in self.participants:
                queue.extend(participant.receive(message))
        late = sorted({seat for seat, _ in self._record.owed()})
        if late:
            self._forfeit(step, late[0])
        results = [p.record.result for p in self.participants]
        if any(canonical(r) != canonical(results[0]) for r in results):
            raise ProtocolViolation(f"the seats disagree on the outcome of step {step['n']}")
        result: dict[str, JSON] = results[0] or {}
        return result

    def _forfeit(self, late_step: StepRecord, seat: int) -> None:
        """Nothing more can arrive: the deadline has passed; the others witness and ``seat`` forfeits."""
        fields = {"step": "timeout", "missing": seat, "late": late_step["n"], "head": self.transcript.head}
        step: StepRecord = {"n": self._n, **fields}
        self._n += 1
        self.transcript.add_step(step)
        witnesses = []
        for participant in self.participants:
            for message in participant.begin(step):
                witnesses.append(message)
        for message in witnesses:
            self.transcript.add_message(message)
            for participant in self.participants:
                participant.receive(message)
        owed = late_step["step"]
        raise SeatForfeited(seat, f"sent nothing for step {late_step['n']} ({owed}) before the deadline",
                            Evidence(step, tuple(witnesses)))
