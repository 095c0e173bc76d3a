"""A game that asks for whatever it is told, played at an in-memory table: the fair protocols' bench.

The fair tests and ``scripts/bench fair`` need chance asked request by request (a roll, a shuffle, a
deal, dice under a cup), a seat sealing values, a seat showing what it holds, and the end where every
seed opens; a real game asks those only in its own order. :class:`Asked` is a game whose seat to move
says what comes next: its moves are ``{"ask": request}``, ``{"seal": seat, "choices": [[values]]}``,
``{"turn": seat}``, ``{"show": [handles], "reveal": {handle: face}}`` and ``{"end": true}``.

:class:`AskedTable` plays it at a real table in memory (:mod:`atoll_tools.memory_table`): a host
sequencer and one :class:`~atoll.table.table.Table` per seat, so every fair message is sealed in its
seat's envelope, sequenced into the log and checked by every peer. It is the one way atoll runs the
fair protocols for several seats in one process; what it answers comes from the tables themselves.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from nacl.signing import SigningKey

from atoll import hookimpl
from atoll.chance import Deal, Request, Roll, request_from_json
from atoll.engine.resolver import Resolution
from atoll.errors import IllegalAction, ProtocolViolation
from atoll.fair.steps.record import Record
from atoll.fair.steps.seat import Participant
from atoll.game import Fragments, Game
from atoll.jsondata import JSON, canonical
from atoll.registry import load_registry
from atoll.table.host import TIMEOUT_MARGIN_S
from atoll.table.reasons import Ending
from atoll.table.table import Table
from atoll.types import Action, Chance, Config, Decision, End, GameInfo, Knowledge, Results, State, Step
from atoll_tools.memory_table import Net, open_table

#: The turn time an asked table signs: a seat that sends nothing is late once the clock passes it.
TURN_TIME_S = 60.0


class Asked(Game):
    """A game with no rules of its own: the seat to move asks for the next step (see the module)."""

    info = GameInfo("asked", "Asked", 1, 8, summary="a bench for the fair protocols: chance on request")

    def setup(self, config: Config) -> State:
        """Seat 0 asks first."""
        return {"seats": config.seats, "turn": 0, "ask": None, "seal": None, "over": False, "sealed": []}

    def next(self, state: State) -> Step:
        """The end once asked, the chance asked for, a seat's sealed choice, or the turn seat's word."""
        if state["over"]:
            return End(Results(tuple(0 for _ in range(state["seats"])), ()))
        if state["ask"] is not None:
            return Chance(request_from_json(state["ask"]))
        if state["seal"] is not None:
            return Decision(state["seal"]["seat"], secret=True)
        return Decision(state["turn"])

    def legal_actions(self, state: State, seat: int, known: Knowledge) -> list[Action]:
        """At a sealed choice, the choices offered; otherwise ending the game (any step may be asked)."""
        if state["seal"] is not None:
            return [{"secret": list(choice)} for choice in state["seal"]["choices"]]
        return [{"end": True}]

    def apply(self, state: State, action: Action) -> State:
        """Take the turn seat's word for what comes next (or a sealed choice's handles)."""
        after = dict(state)
        if "ask" in action:
            request_from_json(action["ask"])  # a request that is not one is refused here
            after["ask"] = action["ask"]
        elif "sealed" in action:
            after["seal"], after["sealed"] = None, [*state["sealed"], list(action["sealed"])]
        elif "seal" in action:
            seat, choices = action["seal"], action.get("choices")
            if type(seat) is not int or not 0 <= seat < state["seats"] or not isinstance(choices, list):
                raise IllegalAction(f"a seal names a seat and its choices, not {str(action)[:60]}")
            after["seal"] = {"seat": seat, "choices": choices}
        elif "turn" in action:
            if type(action["turn"]) is not int or not 0 <= action["turn"] < state["seats"]:
                raise IllegalAction(f"no seat {action['turn']!r}")
            after["turn"] = action["turn"]
        elif "show" in action:
            pass  # the engine had the seat prove the faces under "reveal" before this
        elif action.get("end") is True:
            after["over"] = True
        else:
            raise IllegalAction(f"nothing asked: {str(action)[:60]}")
        return after

    def resolve(self, state: State, request: Request, outcome: Mapping[str, JSON]) -> State:
        """Chance has answered: the turn seat asks again."""
        return {**state, "ask": None}

    def view(self, state: State, seat: int | None, known: Knowledge) -> dict[str, JSON]:
        """The state and what ``seat`` knows."""
        return {"state": state, "known": dict(known)}

    def render(self, view: dict[str, Any]) -> Fragments:
        """The view as one line of JSON."""
        return [("", canonical(view))]

    def describe(self, state: State, action: Action) -> str:
        """The action as JSON."""
        return canonical(action)

    def goes_on_without(self, state: State, seat: int) -> bool:
        """Nothing of a seat is hidden from the game itself."""
        return True


@hookimpl
def atoll_games() -> list[Game]:
    """The asked game."""
    return [Asked()]


#: The installed games and the asked game.
REGISTRY = load_registry(extra=[("atoll-tools-asked", sys.modules[__name__])])


class Stopped(Exception):
    """The table ended the game early: :attr:`ending` says why (a cheat named, a forfeit, an abort)."""

    def __init__(self, ending: Ending) -> None:
        super().__init__(ending.text)
        self.ending = ending


@dataclass
class AskedTable:
    """An asked game at a real table in memory; each method is one step and returns once every peer
    has taken it (or raises :class:`Stopped` when the table ended, :class:`ProtocolViolation` when the
    step was refused). Peer ``i`` holds seat ``i``; seat 0 asks unless told otherwise."""

    net: Net

    @property
    def seats(self) -> int:
        """The number of seats (the peers after them watch)."""
        lobby = self.net.host.table.lobby
        assert lobby is not None
        return lobby.seats

    def table(self, seat: int) -> Table:
        """Seat ``seat``'s copy of the table."""
        return self.net.peers[seat].table

    def tables(self) -> list[Table]:
        """Every copy of the table: the host's, then each seat's."""
        return [self.net.host.table, *(peer.table for peer in self.net.peers[: self.seats])]

    def record(self, seat: int | None = None) -> Record:
        """Seat ``seat``'s fair record (``None``: the host's, which holds no secret)."""
        table = self.net.host.table if seat is None else self.table(seat)
        assert table.engine is not None, "the game has not started"
        return table.engine.resolver.record

    def participant(self, seat: int) -> Participant:
        """Seat ``seat``'s fair participant (its secrets)."""
        table = self.table(seat)
        assert table.engine is not None and table.engine.resolver.me is not None
        return table.engine.resolver.me

    def known(self, seat: int) -> dict[str, JSON]:
        """What seat ``seat`` privately knows (handle -> face)."""
        table = self.table(seat)
        assert table.engine is not None
        return dict(table.engine.match.known[seat])

    def ending(self) -> Ending | None:
        """How the game ended early, as the host's copy says (every copy says the same)."""
        return self.net.host.table.ending

    # -- steps ----------------------------------------------------------------------------------

    def resolve(self, request: Request) -> Resolution:
        """Ask ``request`` and return its answer: the public outcome and what each seat learnt."""
        before = len(self._events())
        self._act({"ask": request.to_json()})
        events = self._events()
        if len(events) < before + 2:
            raise ProtocolViolation(f"the table did not answer {request.to_json()}")
        outcome = events[before + 1]["outcome"]
        handles: list[str] = []
        if isinstance(request, Deal):
            handles = [h for _, dealt in request.to for h in dealt]
        elif isinstance(request, Roll):
            handles = request.handles()
        known = [self.known(seat) for seat in range(self.seats)]
        private = {seat: {h: faces[h] for h in handles if h in faces} for seat, faces in enumerate(known)}
        return Resolution(outcome, {seat: faces for seat, faces in private.items() if faces})

    def seal(self, seat: int, values: Sequence[JSON]) -> list[str]:
        """``seat`` seals ``values`` (the choice offered it); returns their handles."""
        self._act({"seal": seat, "choices": [list(values)]})
        self._act({"secret": list(values)}, by=seat)
        handles = self.table(seat).engine.match.events[-1]["sealed"]  # type: ignore[union-attr]
        return list(handles)

    def prove(self, seat: int, claims: Mapping[str, JSON]) -> None:
        """``seat`` shows ``claims`` (handle -> face) of what it holds; every other seat checks them."""
        self._act({"turn": seat})
        self._act({"show": sorted(claims), "reveal": dict(claims)}, by=seat)
        self._act({"turn": 0}, by=seat)

    def finish(self) -> None:
        """The game ends: every seat opens its seed, and every copy re-checks the whole game."""
        self._act({"end": True})
        if any(table.results() is None for table in self.tables()):
            raise ProtocolViolation("the game ended, but not every copy opened every seed")

    # -- playing one move ---------------------------------------------------------------------

    def _events(self) -> list[dict[str, Any]]:
        engine = self.net.host.table.engine
        assert engine is not None, "the game has not started"
        return engine.match.events

    def _act(self, action: dict[str, Any], by: int | None = None) -> None:
        """The seat to move (or ``by``) takes ``action``; once nothing more arrives, the clock passes
        the turn time for as long as the game waits on a seat that owes a protocol message (a late
        seat forfeits, or the table aborts). Raises :class:`Stopped` once the table has ended."""
        host = self.net.host.table
        self._check_open()
        mover = by if by is not None else self._mover()
        length = len(host.log.entries)
        self.net.move(mover, action)
        if len(host.log.entries) == length:  # the host refused it
            said = self.net.peers[mover].session.errors[-1:]
            raise ProtocolViolation(f"the host refused {canonical(action)[:60]}: {said}")
        refused = [e for e in host.events if e.seq == length and e.refused]
        if refused:
            raise ProtocolViolation(refused[0].text)
        self.settle()

    def settle(self) -> None:
        """While the game waits on a seat that owes a protocol message, let the clock pass the turn time
        (the late seat forfeits, or the table aborts). Raises :class:`Stopped` once the table has ended."""
        host = self.net.host.table
        for _ in range(3):
            self._check_open()
            engine = host.engine
            assert engine is not None
            if not engine.waiting().owed and host.timeout is None:
                return
            self.net.tick(self.net.now + TURN_TIME_S + TIMEOUT_MARGIN_S + 1)
        self._check_open()

    def _mover(self) -> int:
        engine = self.net.host.table.engine
        assert engine is not None
        seat = engine.waiting().seat
        return 0 if seat is None else seat

    def _check_open(self) -> None:
        ending = self.net.host.table.ending
        if ending is not None:
            raise Stopped(ending)


def asked_table(
    seats: int,
    *,
    watchers: int = 0,
    participants: Mapping[int, type[Participant]] | None = None,
    keys: Sequence[SigningKey] | None = None,
    masters: Sequence[bytes] | None = None,
    table_id: str | None = None,
) -> AskedTable:
    """An asked game at ``seats`` seats (and ``watchers`` spectators) in memory, started (the seats have
    said hello and committed to their hash chains); ``participants``, ``keys``, ``masters`` and
    ``table_id`` as for :func:`~atoll_tools.memory_table.open_table`."""
    net = open_table("asked", seats, registry=REGISTRY, turn_time=TURN_TIME_S, watchers=watchers,
                     participants=participants,
                     keys=keys, masters=masters, table_id=table_id)
    net.start()
    played = AskedTable(net)
    played._check_open()
    return played
