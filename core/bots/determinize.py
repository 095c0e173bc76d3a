"""Determinization: guess the hidden faces from public facts, then play the real rules on the guess.

A bot sees one seat's :class:`~atoll.engine.Observation`: the public state, its
own private faces and the public :class:`~atoll.engine.Ledger`. A
:class:`Sampler` turns that into many possible *worlds*, each a complete and
consistent truth: the faces hidden from the bot are the pile faces nobody has
shown it, dealt at random to the handles it cannot see, and other seats' sealed
choices are drawn from what they could legally have sealed. A :class:`World`
then plays on with the game's own rules, answering chance from the bot's random
generator, so a search can try moves to the end of the game; or, where the game
offers its fast path, :meth:`Sampler.simulator` starts the game's own
:class:`~atoll.fast.Simulator` at the guessed :class:`~atoll.fast.Position`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace

from atoll.chance import Deal, Pick, Request, Roll, Shuffle
from atoll.engine.ledger import Seal
from atoll.engine.observation import Observation
from atoll.errors import AtollError
from atoll.fast import OVER, Position, RandomDraws, Simulator
from atoll.game import Game
from atoll.jsondata import JSON, canonical
from atoll.types import Action, Chance, Decision, Results, State, Step


class InconsistentLedger(AtollError):
    """The public record and a seat's knowledge cannot both be true (an engine bug, never a bad move)."""


class World:
    """One determinized game: a public state with every hidden face fixed, played forward privately.

    It is to a bot what a :class:`~atoll.engine.Match` with a local resolver is
    to a table, without the log, the ledger and the checks a table needs: the
    faces are a guess, and the actions come from the game's own legal list.
    """

    __slots__ = ("_seals", "faces", "game", "known", "pending", "rng", "state", "steps")

    def __init__(
        self,
        game: Game,
        state: State,
        faces: dict[str, JSON],
        known: list[dict[str, JSON]],
        seals: int,
        rng: random.Random,
    ) -> None:
        self.game = game
        self.state = state
        self.faces = faces
        self.known = known
        self.rng = rng
        self._seals = seals
        #: A simultaneous decision's parts so far (seat -> its values), applied once every seat chose.
        self.pending: dict[int, list[JSON]] = {}
        #: Decisions and chance steps played in this world so far (the search's budget counts them).
        self.steps = 0

    def step(self) -> Step:
        """What happens now (at a simultaneous decision, the first seat that has not chosen yet)."""
        step = self.game.next(self.state)
        if self.pending and isinstance(step, Decision):
            return replace(step, seat=next(s for s in step.seats if s not in self.pending))
        return step

    def legal(self, seat: int) -> list[Action]:
        """The legal actions of ``seat`` given what it knows in this world."""
        return self.game.legal_actions(self.state, seat, self.known[seat])

    def act(self, seat: int, action: Action, secret: bool) -> None:
        """``seat`` takes ``action`` (sealing its values under fresh handles when ``secret``)."""
        self.steps += 1
        if not secret:
            self.state = self.game.apply(self.state, action)
            return
        step = self.game.next(self.state)
        if isinstance(step, Decision) and step.simultaneous:
            self.pending[seat] = action["secret"]
            if len(self.pending) == len(step.seats):
                self._open_together(step.seats)
            return
        values = action["secret"]
        handles = [f"s{seat}-{self._seals}.{i}" for i in range(len(values))]
        self._seals += 1
        self.state = self.game.apply(self.state, {"sealed": handles})
        sealed = dict(zip(handles, values, strict=True))
        self.faces.update(sealed)
        self.known[seat].update(sealed)

    def _open_together(self, seats: Sequence[int]) -> None:
        """Every seat of a simultaneous decision has chosen: hand the game their handles in seat order
        (numbered as :class:`~atoll.engine.Match` numbers them)."""
        state = self.state
        for place, seat in enumerate(seats):
            values = self.pending[seat]
            handles = [f"s{seat}-{self._seals + place}.{i}" for i in range(len(values))]
            state = self.game.apply(state, {"seat": seat, "sealed": handles})
            sealed = dict(zip(handles, values, strict=True))
            self.faces.update(sealed)
            self.known[seat].update(sealed)
        self.state = state
        self._seals += len(seats)
        self.pending = {}

    def advance(self, request: Request) -> None:
        """Answer ``request`` from the world's faces and the bot's generator."""
        self.steps += 1
        rng = self.rng
        outcome: dict[str, JSON]
        if isinstance(request, Roll) and request.to is not None:
            dice = {h: rng.randint(1, request.sides) for h in request.handles()}
            self.faces.update(dice)
            self.known[request.to].update(dice)
            outcome = {"handles": request.handles()}
        elif isinstance(request, Roll):
            outcome = {"values": [rng.randint(1, request.sides) for _ in range(request.count)]}
        elif isinstance(request, Pick):
            outcome = {"picked": rng.sample(request.options, request.count)}
        elif isinstance(request, Shuffle):
            handles = request.handles()
            order = list(request.faces)
            rng.shuffle(order)
            self.faces.update(zip(handles, order, strict=True))
            outcome = {"handles": handles}
        elif isinstance(request, Deal):
            for seat, dealt in request.to:
                self.known[seat].update((h, self.faces[h]) for h in dealt)
            outcome = {}
        else:
            outcome = {"faces": {h: self.faces[h] for h in request.handles}}
        self.state = self.game.resolve(self.state, request, outcome)

    def playout(self, max_steps: int = 100_000) -> Results | None:
        """Play on with uniformly random legal actions to the end; ``None`` if it never ends."""
        rng, game = self.rng, self.game
        for _ in range(max_steps):
            step = self.step()
            if isinstance(step, Decision):
                legal = game.legal_actions(self.state, step.seat, self.known[step.seat])
                if not legal:
                    return None
                self.act(step.seat, legal[rng.randrange(len(legal))], step.secret)
            elif isinstance(step, Chance):
                self.advance(step.request)
            else:
                return step.results
        return None


class Sampler:
    """Draws worlds consistent with everything one seat has observed.

    The work that is the same for every world (which faces each pile still
    hides from the seat, which handles each seat holds) is done once here;
    :meth:`world` then only shuffles and deals.
    """

    def __init__(self, observation: Observation) -> None:
        self._game = observation.game
        self._config = observation.config
        self._state = observation.state
        self._seat = observation.seat
        self._seats = observation.config.seats
        ledger = observation.ledger
        own = observation.known
        self._fixed: dict[str, JSON] = dict(ledger.public)
        self._fixed.update(own)
        # Per pile: the handles hidden from the seat and the faces they must hide between them.
        self._hidden: list[tuple[list[str], list[JSON]]] = []
        handles_of: dict[str, list[str]] = {}
        for handle, pile in ledger.pile_of.items():
            handles_of.setdefault(pile, []).append(handle)
        for pile, handles in handles_of.items():
            hidden = [h for h in handles if h not in self._fixed]
            if hidden:
                self._hidden.append((hidden, _remaining(pile, ledger.piles[pile], handles, self._fixed)))
        # Dice under other seats' cups: independent and uniform, whatever else the seat has seen.
        self._dice = [(h, sides) for h, sides in ledger.dice.items() if h not in self._fixed]
        self._holdings: list[list[str]] = [[] for _ in range(self._seats)]
        for handle, holders in ledger.holders.items():
            for holder in sorted(holders):
                if holder != self._seat and 0 <= holder < self._seats:
                    self._holdings[holder].append(handle)
        self._own = dict(own)
        self._seals: list[Seal] = [
            seal for seal in ledger.seals
            if seal.seat != self._seat and any(h not in self._fixed for h in seal.handles)
        ]
        self._seal_count = len(ledger.seals)
        step = self._game.next(self._state)
        self._others_first = isinstance(step, Decision) and step.simultaneous and self._seat in step.seats

    def world(self, rng: random.Random) -> World:
        """A fresh world drawn with ``rng``: every hidden face and foreign sealed value guessed. At a
        simultaneous decision the seats before this one have chosen in it, at random (guessed, never
        read: the seat cannot know their choices), so this seat is the one to decide."""
        faces, known = self._guess(rng)
        world = World(self._game, self._state, faces, known, self._seal_count, rng)
        if self._others_first:
            while (step := world.step()) and isinstance(step, Decision) and step.seat != self._seat:
                legal = world.legal(step.seat)
                world.act(step.seat, legal[rng.randrange(len(legal))], True)
        return world

    def simulator(self, rng: random.Random) -> Simulator | None:
        """A fresh world drawn with ``rng`` as the game's fast-path :class:`~atoll.fast.Simulator`
        (chance from ``rng`` too), or ``None`` if the game offers none; at a simultaneous decision the
        seats the simulator asks before this one choose first, at random, as in :meth:`world`."""
        faces, known = self._guess(rng)
        simulator = self._game.simulator(self._config, RandomDraws(rng), Position(self._state, faces, known))
        if simulator is not None and self._others_first:
            while simulator.seat() not in (self._seat, OVER):
                codes = simulator.legal()
                simulator.apply(codes[rng.randrange(len(codes))])
        return simulator

    def _guess(self, rng: random.Random) -> tuple[dict[str, JSON], list[dict[str, JSON]]]:
        """Every face (the seat's own, the public ones, and a guess at the rest) and each seat's knowledge."""
        faces = dict(self._fixed)
        for handles, pool in self._hidden:
            order = list(pool)
            rng.shuffle(order)
            faces.update(zip(handles, order, strict=True))
        for handle, sides in self._dice:
            faces[handle] = rng.randint(1, sides)
        known: list[dict[str, JSON]] = [
            dict(self._own) if seat == self._seat else {h: faces[h] for h in held if h in faces}
            for seat, held in enumerate(self._holdings)
        ]
        for seal in self._seals:
            values = self._guess_seal(seal, faces, known[seal.seat], rng)
            for handle, value in zip(seal.handles, values, strict=True):
                faces[handle] = value
                known[seal.seat][handle] = value
        return faces, known

    def _guess_seal(
        self, seal: Seal, faces: Mapping[str, JSON], known: Mapping[str, JSON], rng: random.Random
    ) -> Sequence[JSON]:
        """Values ``seal.seat`` could have sealed, agreeing with any of them already shown."""
        shown = {i: faces[h] for i, h in enumerate(seal.handles) if h in self._fixed}
        options = [
            values for action in self._game.legal_actions(seal.state, seal.seat, known)
            if isinstance(values := action.get("secret"), list) and len(values) == len(seal.handles)
            and all(values[i] == face for i, face in shown.items())
        ]
        if options:
            return list(options[rng.randrange(len(options))])
        raise InconsistentLedger(
            f"{self._game.info.name}: no legal sealed choice of seat {seal.seat} fits {seal.handles}"
        )


def _remaining(
    pile: str, pile_faces: Sequence[JSON], handles: Sequence[str], fixed: Mapping[str, JSON]
) -> list[JSON]:
    """The faces of ``pile`` not accounted for by its handles whose faces are ``fixed``."""
    left = Counter(canonical(face) for face in pile_faces)
    by_text = {canonical(face): face for face in pile_faces}
    for handle in handles:
        if handle in fixed:
            text = canonical(fixed[handle])
            if left[text] <= 0:
                raise InconsistentLedger(f"pile {pile!r} shows more {fixed[handle]!r} cards than it holds")
            left[text] -= 1
    hidden = len(handles) - sum(1 for h in handles if h in fixed)
    pool = [by_text[text] for text in sorted(left) for _ in range(left[text])]
    if len(pool) != hidden:
        raise InconsistentLedger(f"pile {pile!r} has {hidden} hidden cards but {len(pool)} faces left")
    return pool
