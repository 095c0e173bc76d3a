"""One peer's game at a network table: the engine and the fair protocols, fed by the table log.

:class:`TableEngine` is a state machine with no sockets and no clock. The table feeds it the game's
log entries in order (:meth:`TableEngine.act` for a seat's move, :meth:`TableEngine.protocol` for a
fair-protocol message) and calls :meth:`TableEngine.pump` after each; the engine runs the game as far
as the log allows and stops where it waits: for a seat's move, or for protocol messages. Every peer,
the host and spectators included, runs exactly this on the same log, so they reach the same state;
each runs only its own seat's secrets.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from atoll.chance import Roll, request_from_json
from atoll.engine.match import Match
from atoll.errors import MalformedInput, OutcomeRefused, ProtocolViolation
from atoll.fair.steps.messages import Message
from atoll.fair.steps.referee import match_referee
from atoll.fair.steps.seat import Participant
from atoll.game import Game
from atoll.guard import guard
from atoll.jsondata import JSON
from atoll.numbering import seat_label
from atoll.table.resolver import NetResolver, Pending
from atoll.types import Config, Decision, End
from atoll.wire import Step


@dataclass(frozen=True)
class Waiting:
    """What the table waits for now: ``seat`` to move (``secret`` for a sealed choice), several
    ``seats`` sealing at once, protocol messages from ``owed`` seats, or nothing because the game is
    ``over``."""

    seat: int | None = None
    secret: bool = False
    owed: tuple[int, ...] = ()
    step: str = ""
    """The fair protocols' step the ``owed`` messages are for (a :class:`~atoll.wire.Step` value)."""
    roll: bool = False
    """Whether that step opens a die roll (a draw for a :class:`~atoll.chance.Roll`)."""
    over: bool = False
    seats: tuple[int, ...] = ()
    """At a simultaneous decision, every seat still to choose (``seat`` is this peer's own seat when it
    is among them, else the first of them)."""


class TableEngine:
    """The game and its fair protocols as one peer runs them.

    :param game: the game's plugin.
    :param config: seats, variant and options, as the table opened them.
    :param table_id: the table id (binds every protocol message to this table).
    :param me: this peer's participant (its seat's secrets), or ``None`` for a spectator or a seatless host.
    :param send: called with every fair-protocol message this peer must send.
    :param identities: each seat's long-term identity key (raw Ed25519), in seat order.
    """

    def __init__(
        self,
        game: Game,
        config: Config,
        table_id: str,
        me: Participant | None,
        send: Callable[[Message], None],
        identities: Sequence[bytes],
    ) -> None:
        self.game = guard(game)  # registered games are guarded already; this is for any other
        self.config = config
        self.seat = None if me is None else me.seat
        self.resolver = NetResolver(config.seats, table_id, me, send, identities=identities)
        self.match = Match(self.game, config, self.resolver)
        self.resolver.referee = match_referee(self.match)
        self._pending: tuple[int, dict[str, Any]] | None = None
        self._sealed_values: dict[int, list[JSON]] = {}
        self.kept: dict[int, list[JSON]] = {}
        """This seat's sealed values by game step, as the table wrote them to disk (after a restart, its
        part of a simultaneous decision is sealed again from here)."""
        self.disputed: OutcomeRefused | None = None
        """The game refused a chance outcome: the seeds are being opened to find out whose fault it is."""
        self.resolver.setup()

    # -- what the table waits for -------------------------------------------------------

    def waiting(self) -> Waiting:
        """What the game waits for now (after :meth:`pump`)."""
        if self.resolver.in_together():
            owed = tuple(sorted({s for s, _ in self.resolver.record.owed()}))
            choosing = tuple(s for s in owed if s in self.match.waiting_for())
            if not choosing:
                return Waiting(owed=owed, step=Step.SEAL)
            first = self.seat if self.seat in choosing else choosing[0]
            return Waiting(seat=first, secret=True, owed=owed, step=Step.SEAL, seats=choosing)
        if self.resolver.busy():
            record = self.resolver.record
            kind = str(record.step.get("step", ""))
            roll = False
            if kind == Step.DRAW:
                with contextlib.suppress(MalformedInput):  # the draw of a shuffle or pick carries none
                    roll = isinstance(request_from_json(record.step.get("request")), Roll)
            # in a step taken in turn (a deck's shuffle) only the seat whose turn it is is late: a
            # timeout naming any later seat would frame one that waits like everyone else
            return Waiting(owed=tuple(record.late()), step=kind, roll=roll)
        step = self.match.step()
        if isinstance(step, End):
            return Waiting(over=self.resolver.finished)
        if isinstance(step, Decision) and self._pending is None:
            return Waiting(seat=step.seat, secret=step.secret)
        return Waiting()

    def progress(self) -> int:
        """How many steps of the fair protocols have begun (changes whenever one does)."""
        return self.resolver.record.n

    def pipelined(self) -> None:
        """This peer's seat answers a deck's shuffle or lock before checking its proof from now on
        (``docs/decisions/0006-pipelined-deck-setup.md``); :meth:`settle` checks them after."""
        if self.resolver.me is not None:
            self.resolver.me.record.deck.pipelined()

    def settle(self) -> None:
        """Check the deck proofs this seat answered before checking them (raises
        :class:`~atoll.errors.CheatDetected` naming the author of one that does not check)."""
        self.resolver.record.settle()

    def my_turn(self) -> bool:
        """Whether this peer's seat is to move now."""
        waiting = self.waiting()
        return waiting.seat is not None and waiting.seat == self.seat

    def results(self) -> End | None:
        """The end of the game once every seat has opened its seeds, else ``None``."""
        end = self.match.results()
        return end if end is not None and self.resolver.finished else None

    # -- fed by the log -------------------------------------------------------------------

    def check_move(self, seat: int, body: dict[str, Any]) -> None:
        """Refuse (ProtocolViolation) a move that cannot be taken now, without changing anything."""
        waiting = self.waiting()
        if self.resolver.in_together():
            raise ProtocolViolation(f"{seat_label(seat)} moved, but the seats decide at once now: each "
                                    "seals its choice with its commitment")
        if waiting.seat is None:
            raise ProtocolViolation(
                f"{seat_label(seat)} moved, but the table waits for "
                + ("protocol messages" if waiting.owed else "nobody")
            )
        if waiting.seat != seat:
            raise ProtocolViolation(
                f"{seat_label(seat)} moved out of turn; {seat_label(waiting.seat)} is to move")
        if body.get("at") != len(self.match.events):
            raise ProtocolViolation(
                f"{seat_label(seat)}'s move is for step {body.get('at')}, "
                f"the game is at step {len(self.match.events)}"
            )
        if waiting.secret != ("sealed" in body):
            raise ProtocolViolation(
                f"{seat_label(seat)} must {'seal' if waiting.secret else 'make'} a choice now")

    def act(self, seat: int, body: dict[str, Any]) -> None:
        """A move of ``seat`` from the log (``{"at", "action"}`` or ``{"at", "sealed": count}``)."""
        self.check_move(seat, body)
        if "sealed" in body:
            count = body["sealed"]
            if type(count) is not int or not 1 <= count <= 64:
                raise ProtocolViolation(f"{seat_label(seat)} sealed {count!r} values; 1-64 expected")
            values = self._sealed_values.pop(seat, None) if seat == self.seat else None
            if seat == self.seat and (values is None or len(values) != count):
                raise ProtocolViolation(f"this peer holds no {count} sealed values for its seat")
            if values is not None:
                self.match.act(seat, {"secret": values})
            else:
                self.match.act_sealed_unseen(seat, count)
            return
        action = body.get("action")
        if not isinstance(action, dict):
            raise ProtocolViolation(f"{seat_label(seat)}'s move carries no action object")
        self._pending = (seat, action)
        self.pump()

    def _settle_dispute(self) -> None:
        """The game refused a chance outcome: every seat opens its seed (the game cannot go on, so no
        secret is worth keeping), and the referee judges every sealed choice with every face. A choice
        that was not legal names the seat that sealed and revealed it (:class:`CheatDetected`); if every
        choice was legal, the game refused what its own rules allowed: the plugin's fault. Raises
        :class:`Pending` until every seed is in."""
        assert self.disputed is not None
        try:
            self.resolver.finish()
        except Pending:
            return
        raise self.disputed

    def hold_sealed(self, values: Sequence[JSON]) -> None:
        """The values this peer's own seat seals with its next sealed move (kept until it is logged)."""
        if self.seat is None:
            raise ProtocolViolation("a spectator seals nothing")
        self._sealed_values[self.seat] = list(values)

    def choose_sealed(self, values: Sequence[JSON]) -> None:
        """This peer's seat chooses its part of the simultaneous decision now: it is committed to at once
        (the commitment goes to ``send``); the game sees it once every deciding seat has committed."""
        if self.seat is None or not self.resolver.in_together() or self.seat not in self.match.waiting_for():
            raise ProtocolViolation("this seat has no part to choose in a simultaneous decision now")
        self.match.act(self.seat, {"secret": list(values)})

    def _together(self, step: Decision) -> bool:
        """Run a simultaneous decision as far as the log allows: its one ``seal`` step opened (this seat's
        part sealed again from disk after a restart), and once every seat has committed, every part handed
        to the game in seat order. Whether the game moved on."""
        self.resolver.open_together(step.seats, self.match.sealed_count)
        kept = self.kept.get(len(self.match.events))
        if kept is not None and self.seat in self.match.waiting_for() \
                and (self.seat, "seal/commit") in self.resolver.record.owed():
            self.choose_sealed(kept)
        sealed = self.resolver.together_sealed()
        if sealed is None:
            return False
        for seat in self.match.waiting_for():
            self.match.act_sealed_unseen(seat, len(sealed[seat]))
        self.resolver.close_together()
        return True

    def protocol(self, message: Message) -> None:
        """A fair-protocol message from the log."""
        self.resolver.receive(message)

    def pump(self) -> None:
        """Run the game as far as the log allows (raises what the rules or the protocols refuse)."""
        while not self.resolver.busy():
            if self.disputed is not None:
                self._settle_dispute()
                return
            if self._pending is not None:
                seat, action = self._pending
                try:
                    self.match.act(seat, action, remote=seat != self.seat)
                except Pending:
                    return
                except Exception:
                    self._pending = None
                    raise
                self._pending = None
                continue
            step = self.match.step()
            if isinstance(step, Decision) and step.simultaneous:
                if self._together(step):
                    continue
                return
            if isinstance(step, Decision):
                return
            try:
                if isinstance(step, End):
                    self.resolver.finish()
                    return
                self.match.advance()
            except Pending:
                return
            except OutcomeRefused as exc:
                # the outcome may hold a value a seat revealed; the seat that sealed it is judged, never
                # the seat whose message completed the step (decision 0015)
                self.disputed = exc
