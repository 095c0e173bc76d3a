"""Kiribati's fast path: a simulator over a mutable board of small ints (:mod:`.fast_turns`).

The rule modules stay the reference (and the only path on a table); the simulator
does what they do on lists changed in place, lists legal actions straight from the
board as codes (:mod:`.fast_codes`) in the rules' order, and answers chance at once,
drawing exactly as the local resolver does. The decision now is listed once, often
while the step is entered (the rules ask "can the player do anything?" before a
step, which is the same work), and kept until an action is applied.
"""

from __future__ import annotations

import random

from atoll import JSON, Action, Config, Results, State
from atoll.fast import OVER, Draws, Position, RandomDraws, Simulator
from atoll.plugins.kiribati.bot_eval import DEFAULT_WEIGHTS, progress_by_seat
from atoll.plugins.kiribati.fast_codes import (
    ANIMALS_STEP,
    ANSWER,
    CHILDREN,
    DIE,
    DIE_CODE,
    DIVE,
    DONE,
    DRIFT,
    EVENT,
    FLOAT,
    KEEP,
    KEEP_CARDS,
    KEEP_CODES,
    NEW,
    PASS,
    PLAY,
    PROFESSIONAL,
    REVEAL,
    ROLL,
    SECRET,
    SETUP,
    THROW,
    THROW_CODE,
    TURTLE,
    encode,
)
from atoll.plugins.kiribati.fast_codes import OVER as OVER_PHASE
from atoll.plugins.kiribati.fast_state import dump, load
from atoll.plugins.kiribati.fast_turns import FastTurns
from atoll.plugins.kiribati.meta import ANIMAL_POINTS, ANIMALS, CARD_POINTS, CARDS
from atoll.plugins.kiribati.state import initial_state

__all__ = ["KiribatiSimulator", "encode", "simulator"]

#: Victory points (K47) by animal kind and by card number.
_ANIMAL_POINTS = tuple(ANIMAL_POINTS[kind] for kind in ANIMALS)
_CARD_POINTS = {card: CARD_POINTS[card] for card in CARDS}


class KiribatiSimulator(FastTurns, Simulator):
    """One Kiribati game in play, every kept card known, on a :class:`FastTurns`."""

    __slots__ = ("draws", "faces", "seals")

    draws: Draws
    #: The face of every kept card (sealed handle -> card name).
    faces: dict[str, JSON]
    #: Secret choices sealed so far (they name the handles, as the engine's do).
    seals: int

    def __init__(self, state: State, faces: dict[str, JSON], seals: int, draws: Draws) -> None:
        load(self, state, faces)
        self.faces = faces
        self.seals = seals
        self.draws = draws
        self._chance()

    @property
    def state(self) -> State:
        """The JSON state the rules would hold now (made on each call: for tests and bots, not playouts)."""
        return dump(self)

    # -- the Simulator API -----------------------------------------------------------------------------

    def seat(self) -> int:
        """The seat to decide, or OVER."""
        phase = self.phase
        if phase < ANSWER:
            return self.turn
        if phase == ANSWER:
            assert self.pending is not None
            return self.pending[2] // 5
        return OVER

    def legal(self) -> list[int]:
        """The codes of the rules' legal actions now, in their order."""
        codes = self._legal
        if codes is None:
            codes = self._legal = self._listing()
        return codes

    def _listing(self) -> list[int]:
        phase = self.phase
        out: list[int]
        if phase == ANIMALS_STEP:
            out = self.moves(self.turn)
            out.append(DONE)
        elif phase == DIE:
            low, high = sorted(self.dice)
            out = [DIE_CODE + low] if low == high else [DIE_CODE + low, DIE_CODE + high]
        elif phase == TURTLE:
            out = self.die_codes(self.die)
            if self.die >= 5:
                out.append(PASS)
        elif phase == THROW:
            return self.throw_codes()
        elif phase == KEEP:
            return KEEP_CODES
        elif phase == ANSWER:
            return self.answer_codes()
        else:
            return []
        self.card_codes(self.turn, out)
        return out

    def apply(self, code: int) -> None:
        """Take the listed action with this code, then answer chance up to the next decision."""
        self._legal = None
        phase = self.phase
        if phase == ANIMALS_STEP:  # the commonest step first; its codes: moves, done, cards
            if code == DONE:
                self.end_turn()
            elif code < PLAY:
                self.move(code)
                if self.finished and self.variant != PROFESSIONAL:
                    self.finish()  # K28: the first to rescue every animal wins at once
                else:
                    self.enter_animals()
            else:
                self._play(code)
        elif phase == DIE:
            if code < DRIFT:
                self.die = code - DIE_CODE
                self.enter_turtle()
            else:
                self._play(code)
        elif phase == TURTLE:
            if code < NEW:
                place = code - DRIFT
                self.drift(place >> 2, place & 3)
                self.enter_animals()
            elif code < DIVE:
                size, row = divmod(code - NEW, 8)
                self.put_new(size, row - 1)
                self.enter_animals()
            elif code < FLOAT:
                self.dive(code - DIVE)
                self.after_turtle()
            elif code < THROW_CODE:
                self.float_up(code - FLOAT)
                self.enter_animals()
            elif code == PASS:
                self.enter_animals()
            else:
                self._play(code)
        elif phase == THROW:
            self.throw(code - THROW_CODE)
            if self.throw_at < 0:
                self.enter_animals()
        elif phase == ANSWER:
            self.answer(code)
            self.reenter()
        else:
            self._keep(code)
        if self.phase >= SETUP:
            self._chance()

    def _play(self, code: int) -> None:
        self.play(code)
        if self.phase != ANSWER:
            self.reenter()

    def put_new(self, size: int, row: int) -> None:
        """K7: a tile from the supply, showing ``size`` places, in column 1 of ``row``."""
        if size >= 3:
            self.large -= 1
        else:
            self.small -= 1
        self.size[row] = size
        self.on[row] = []

    def _keep(self, code: int) -> None:
        """K5: the player on turn keeps four cards, sealed under handles named as the engine names them."""
        seat = self.turn
        cards = KEEP_CARDS[code - SECRET]
        handles = [f"s{seat}-{self.seals}.{i}" for i in range(len(cards))]
        self.seals += 1
        self.faces.update(zip(handles, (CARDS[card] for card in cards), strict=True))
        self.hands[seat] = list(cards)
        self.handles[seat] = handles
        seat += 1
        if seat == self.seats:
            seat = 0
            self.phase = EVENT if self.variant == PROFESSIONAL else ROLL
        self.turn = seat

    def _chance(self) -> None:
        """Answer chance until a seat decides or the game is over, drawing as the local resolver does."""
        draws = self.draws
        # RandomDraws.die(6) is rng.randrange(6) + 1; calling that directly saves two calls a roll
        rng = draws.rng if type(draws) is RandomDraws else None
        while True:
            phase = self.phase
            if phase == ROLL:
                if rng is not None:
                    self.dice = [rng.randrange(6) + 1, rng.randrange(6) + 1]
                else:
                    self.dice = [draws.die(6), draws.die(6)]
                self.phase = DIE
                return
            if phase == SETUP:
                large, small = self.large, self.small
                faces = (4,) * large + (3,) * large + (2,) * small + (1,) * small
                self.put_new(draws.sample(faces, 1)[0], self.setup_row)
                self.setup_row += 1
                if self.setup_row == 4:
                    self.phase = ROLL if self.variant == CHILDREN else KEEP
            elif phase == EVENT:
                self.turn_card(draws.sample(tuple(self.events_left), 1)[0])
                self.phase = ROLL
            elif phase == REVEAL:
                self.opened = {
                    handle: CARDS[card]
                    for hand, cards in zip(self.handles, self.hands, strict=True)
                    for handle, card in zip(hand, cards, strict=True)
                }
                self.phase = OVER_PHASE
                return
            else:
                return

    def results(self) -> Results:
        """Children and family: the first with every animal ashore wins (K28); professional: victory
        points and the tie-breaks (K46-K48)."""
        seats = range(self.seats)
        if self.variant != PROFESSIONAL:
            return Results(tuple(len(self.mainland[s]) for s in seats), tuple(self.finished[:1]))
        scores = tuple(
            sum(_ANIMAL_POINTS[kind] for kind in self.mainland[s])
            + sum(_CARD_POINTS[self.opened[h]] for h in self.handles[s] if h in self.opened)
            for s in seats
        )
        finished = self.finished

        def rank(seat: int) -> tuple[int, int, int]:
            if seat in finished:
                return scores[seat], 1, -finished.index(seat)
            return scores[seat], 0, -self._steps_to_go(seat)

        best = max(rank(s) for s in seats)
        return Results(scores, tuple(s for s in seats if rank(s) == best))

    def _steps_to_go(self, seat: int) -> int:
        """K48: 5 - r for an animal on a turtle of row r, 5 for one on the island."""
        steps = 0
        for kind in self.kinds:
            place = self.loc[seat * 5 + kind]
            if place < 24:
                steps += 4 - (place & 3)
            elif place == 24:
                steps += 5
        return steps

    def estimate(self) -> list[float]:
        """Each seat's progress as the Kiribati bot judges it (:mod:`~atoll.plugins.kiribati.bot_eval`):
        its animals by how far north they stand, less what they risk, plus its kept cards."""
        return progress_by_seat(self.state, 0, self.faces, DEFAULT_WEIGHTS)

    def copy(self, draws: Draws | None = None) -> KiribatiSimulator:
        """An independent copy at the same point."""
        twin = KiribatiSimulator.__new__(KiribatiSimulator)
        self.copy_into(twin)
        twin.faces = dict(self.faces)
        twin.seals = self.seals
        twin.draws = self.draws if draws is None else draws
        return twin

    def code(self, state: State, action: Action) -> int:
        """The code of a full-API action (``state`` does not matter: codes are the action's own)."""
        return encode(action)

    def playout(self, rng: random.Random, max_steps: int = 100_000) -> tuple[Results | None, int]:
        """Random legal actions to the end, as :meth:`Simulator.playout` plays them."""
        randrange, apply = rng.randrange, self.apply
        for steps in range(max_steps):
            if self.phase == OVER_PHASE:
                return self.results(), steps
            legal = self._legal
            if legal is None:
                legal = self._legal = self._listing()
            if not legal:
                return None, steps
            apply(legal[randrange(len(legal))])
        return (self.results() if self.phase == OVER_PHASE else None), max_steps


def simulator(config: Config, draws: Draws, start: Position | None = None) -> KiribatiSimulator:
    """Kiribati's simulator at set-up, or at ``start``."""
    if start is None:
        return KiribatiSimulator(initial_state(config), {}, 0, draws)
    faces = {h: face for h, face in start.faces.items() if h.startswith("s")}
    seals = 1 + max((int(h[h.index("-") + 1: h.index(".")]) for h in faces), default=-1)
    return KiribatiSimulator(start.state, faces, seals, draws)
