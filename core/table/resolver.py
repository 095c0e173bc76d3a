"""The fair protocols for one peer of a network table: its own seat's secrets, everyone's messages.

:class:`NetResolver` answers the engine's chance requests through the fair protocols for one peer: it
announces each step to its own participant (or, for a spectator or a seatless host, to a bare record),
hands the messages its participant writes to ``send``, and learns the other seats' messages from the
table log through :meth:`NetResolver.receive`. Nothing blocks: a request whose step still waits for
messages raises :class:`Pending`, and the engine asks again, with the same request, when the log has
grown. Every peer derives the same steps from the same log, so the step announcements never travel.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from atoll.chance import Deal, Request, Roll
from atoll.engine.resolver import Resolution
from atoll.errors import ProtocolViolation
from atoll.fair.primitives.randomness import CHAIN_LENGTH
from atoll.fair.steps import announce as steps
from atoll.fair.steps.history import StepRecord
from atoll.fair.steps.messages import Message
from atoll.fair.steps.record import Record
from atoll.fair.steps.referee import Referee
from atoll.fair.steps.seat import Participant
from atoll.jsondata import JSON, canonical, same
from atoll.numbering import seat_label


class Pending(Exception):
    """The current protocol step still waits for messages from the log; ask again later."""


class NetResolver:
    """One peer's side of the fair protocols at a network table.

    :param seats: the number of seats.
    :param table_id: the table id, bound into every protocol hash and message.
    :param me: this peer's participant (its seat's secrets), or ``None`` for a spectator.
    :param send: called with every protocol message this peer's participant writes.
    :param identities: each seat's long-term identity key (raw Ed25519), which vouches for its table key.
    """

    def __init__(
        self,
        seats: int,
        table_id: str,
        me: Participant | None,
        send: Callable[[Message], None],
        *,
        identities: Sequence[bytes],
        chain_length: int = CHAIN_LENGTH,
    ) -> None:
        self.seats = seats
        self.table = table_id
        self.me = me
        self.record: Record = (
            me.record if me is not None else Record(table_id, seats, chain_length, identities=identities)
        )
        self.finished = False
        self._send = send
        self.referee: Referee | None = None
        """Checks each sealed decision once its values are open (set by the engine that owns the match)."""
        self._judged: set[int] = set()
        self._final = False
        self._plan: tuple[str, list[dict[str, JSON]]] | None = None
        self._open: StepRecord | None = None
        self._together: dict[str, JSON] | None = None

    def redirect(self, send: Callable[[Message], None]) -> None:
        """Hand every message this peer's participant writes from now on to ``send`` instead (a seat
        taken over: its game was played again from the log in another table copy)."""
        self._send = send

    # -- driven by the engine ---------------------------------------------------------------

    def setup(self) -> None:
        """Begin the table's first step (every seat says hello and commits to its chain)."""
        self._begin({"step": "setup"})

    def busy(self) -> bool:
        """Whether a step is open and still waits for messages."""
        return self._open is not None and not self.record.complete()

    def resolve(self, request: Request) -> Resolution:
        """Answer ``request``, or raise :class:`Pending` while its steps wait for messages."""
        key = canonical(request.to_json())
        if self._plan is None or self._plan[0] != key:
            self._plan = (key, steps.for_chance(self.record, request))
        result = self._run_plan()
        if isinstance(request, Deal):
            mine = (
                {}
                if self.me is None
                else {
                    seat: {h: self.me.known[h] for h in handles}
                    for seat, handles in request.to
                    if seat == self.me.seat
                }
            )
            return Resolution({}, mine)
        if isinstance(request, Roll) and request.to is not None:
            # dice under a cup: only the owner's peer computes them (from its secret and the draw)
            me = self.me
            if me is None or me.seat != request.to:
                return Resolution(result)
            return Resolution(result, {me.seat: {h: me.known[h] for h in request.handles()}})
        return Resolution(result)

    def seal(self, seat: int, handles: Sequence[str], values: Sequence[JSON] | None) -> None:
        """``seat`` commits to its sealed values; only its own peer passes the ``values``. In a
        simultaneous decision the own seat's commitment goes out at once, in the step every deciding
        seat shares; the others' parts are already in when the engine hands them on (``values`` None)."""
        if self._together is not None:
            if values is not None:
                if self.me is None or self.me.seat != seat:
                    raise ProtocolViolation(f"this peer cannot seal values for {seat_label(seat)}")
                self._send(self.me.seal_now(handles, values))
            return
        if values is not None:
            if self.me is None or self.me.seat != seat:
                raise ProtocolViolation(f"this peer cannot seal values for {seat_label(seat)}")
            self.me.prepare_seal(handles, values)
        self._begin(steps.for_seal(seat, handles))

    # -- simultaneous decisions: one seal step for every deciding seat ----------------------------

    def open_together(self, seats: Sequence[int], first: int) -> None:
        """Begin the one ``seal`` step of a simultaneous decision of ``seats`` (unless it is open): every
        one of them commits in it, in any order, as soon as it has chosen."""
        fields = steps.for_seal_together(seats, first)
        if self._together is None or not same(self._together, fields):
            self._begin(fields)
            self._together = fields

    def in_together(self) -> bool:
        """Whether a simultaneous decision's ``seal`` step is open (or complete, not yet handed on)."""
        return self._together is not None

    def together_sealed(self) -> dict[int, list[str]] | None:
        """Each deciding seat's slots once every one has committed, else ``None``."""
        if self._together is None or self.busy():
            return None
        handles = (self.record.result or {}).get("handles")
        assert isinstance(handles, dict)
        return {int(seat): list(slots) for seat, slots in handles.items()}

    def close_together(self) -> None:
        """The engine has handed every part to the game: the step is done."""
        self._together = None
        self._open = None

    def prove(self, seat: int, claims: Mapping[str, JSON]) -> None:
        """``seat`` opens what it shows; raises :class:`Pending` until every opening is in."""
        self._once(steps.for_prove(seat, claims))

    def drop(self, seat: int) -> None:
        """``seat`` is gone with its secrets and the game goes on without them (see
        :meth:`~atoll.fair.steps.record.Record.drop`); raises :class:`ProtocolViolation` where it cannot."""
        self.record.drop(seat)

    def finish(self) -> None:
        """Every seat opens its seed and every record re-checks the game; :class:`Pending` until done."""
        if not self.finished:
            self._once(steps.for_finish())
            self.finished = True
            faces = self.record.sealed_values()
            faces.update(self.record.deck.all_faces(self.record.seeds))
            faces.update(self.record.cups.all_faces(self.record.seeds))
            self._final = True
            self._judge_open(faces)

    # -- driven by the log ------------------------------------------------------------------

    def receive(self, message: Message) -> None:
        """A protocol message from the log: check it (raises naming its author on a cheat), answer it.

        Its seat's identity signed the log message that carries it, and the table checked that, and
        that the message is in that seat's name, before anything read it: that envelope is the one
        signature on it, and the evidence against the seat."""
        if self._open is None:
            raise ProtocolViolation("a protocol message arrived while no protocol step is open")
        if self.me is not None:
            replies = self.me.receive(message)
        else:
            self.record.receive(message)
            replies = []
        for reply in replies:
            self._send(reply)

    # -- steps ----------------------------------------------------------------------------------

    def _run_plan(self) -> dict[str, JSON]:
        assert self._plan is not None
        planned = self._plan[1]
        while True:
            result = self._once(planned[0])
            if len(planned) == 1:
                self._plan = None
                return result
            planned.pop(0)

    def _once(self, fields: dict[str, JSON]) -> dict[str, JSON]:
        """Begin the step ``fields`` unless it is the open one; its result once complete."""
        if self._open is None or not same({k: v for k, v in self._open.items() if k != "n"}, fields):
            self._begin(fields)
        if not self.record.complete():
            raise Pending(f"step {self.record.n} ({fields['step']}) waits for {self.record.owed()}")
        self._open = None
        return self.record.result or {}

    def _begin(self, fields: dict[str, JSON]) -> None:
        if self._open is not None and not self.record.complete():
            raise ProtocolViolation(f"step {self.record.n} ({self._open['step']}) is still open")
        self._judge_open()
        step = steps.numbered(self.record, fields)
        if self.me is not None:
            out = self.me.begin(step)
        else:
            self.record.begin(step)
            out = []
        self._open = step
        for message in out:
            self._send(message)

    # -- sealed choices ---------------------------------------------------------------------------

    def _judge_open(self, faces: Mapping[str, JSON] | None = None) -> None:
        """Ask the referee about each sealed decision whose slots are all open (each once; all again
        at the end, with ``faces`` holding every face)."""
        if self.referee is None:
            return
        if faces is None:
            faces = self.record.commitments.opened()
            faces.update(self.record.deck.all_public())
            faces.update(self.record.cups.opened())
        for index, (seat, handles) in enumerate(self.record.sealed):
            if (self._final or index not in self._judged) and all(h in faces for h in handles):
                self._judged.add(index)
                self.referee(seat, handles, faces)
