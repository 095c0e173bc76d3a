"""Kariba's fast path: the rules of :mod:`atoll.plugins.kariba.rules` over counts, for playouts and search.

A hand is what a seat can play from it: how many cards of each animal it holds
(which copy of a zebra a seat shows makes no difference to the game). The
draw pile is the shuffled faces, top first. Codes: ``8 * animal + count`` plays
``count`` cards of ``animal`` (9-69); :data:`DRAW_PILE` draws from the pile and
``TAKE + animal`` takes the first face-up card of ``animal`` (experienced variant).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from atoll import Action, Config, Results, State
from atoll.fast import OVER, Draws, Position, Simulator
from atoll.plugins.kariba.rules import CHASE_AT, ELEPHANT, FACES, HAND_SIZE, HANDLES, MOUSE, ROW_SIZE

#: The code of drawing a card from the pile (K16).
DRAW_PILE = 0
#: ``TAKE + animal``: take the first face-up card of ``animal`` (K16).
TAKE = 72
_PILE = len(FACES)
# The phases the simulator can be in: always at a decision, or over.
_PLAY, _DRAW, _OVER = 0, 1, 2


class KaribaSimulator(Simulator):
    """One Kariba game in play, all faces known, with a hand as a count per animal."""

    __slots__ = ("deck", "draws", "experienced", "hands", "held", "hole", "phase", "row", "seats", "top",
                 "turn", "won")

    def __init__(self, seats: int, experienced: bool, draws: Draws) -> None:
        self.seats = seats
        self.experienced = experienced
        self.draws = draws
        self.deck: list[int] = []
        self.top = 0
        #: hands[seat][animal]: cards of that animal (index 0 unused); held[seat]: cards in all.
        self.hands: list[list[int]] = [[0] * (ELEPHANT + 1) for _ in range(seats)]
        self.held = [0] * seats
        #: hole[animal]: cards at its place of the waterhole (index 0 unused).
        self.hole = [0] * (ELEPHANT + 1)
        self.won = [0] * seats
        self.row: list[int] = []
        self.turn = 0
        self.phase = _PLAY

    @classmethod
    def new_game(cls, config: Config, draws: Draws) -> KaribaSimulator:
        """A game at set-up: K1 shuffle, K2 deal, the first face-up row (experienced)."""
        sim = cls(config.seats, config.variant == "experienced", draws)
        sim.deck = draws.shuffle(FACES)
        for seat in range(sim.seats):
            sim._give(seat, sim.deck[seat * HAND_SIZE: (seat + 1) * HAND_SIZE])
        sim.top = sim.seats * HAND_SIZE
        if sim.experienced:
            sim._reveal()
        return sim

    @classmethod
    def at(cls, config: Config, draws: Draws, start: Position) -> KaribaSimulator:
        """A game at the decision ``start`` (its faces fix the pile's order and every hand)."""
        state, faces = start.state, start.faces
        sim = cls(config.seats, bool(state["experienced"]), draws)
        sim.deck = [faces[handle] for handle in HANDLES]
        public = state["public"]
        for seat, handles in enumerate(state["hands"]):
            sim._give(seat, [public[h] if h in public else faces[h] for h in handles])
        sim.top = state["top"]
        sim.hole = [0, *state["hole"]]
        sim.won = list(state["won"])
        sim.row = [public[h] for h in state["row"]]
        sim.turn = state["turn"]
        sim.phase = {"play": _PLAY, "draw": _DRAW, "over": _OVER}[state["phase"]]
        return sim

    # -- the Simulator API ---------------------------------------------------------------

    def seat(self) -> int:
        """The seat to decide, or OVER."""
        return OVER if self.phase == _OVER else self.turn

    def legal(self) -> list[int]:
        """Plays by animal, then count; or the pile, then the face-up animals (as rules.legal_actions)."""
        if self.phase == _PLAY:
            hand = self.hands[self.turn]
            return [8 * animal + count for animal in range(MOUSE, ELEPHANT + 1)
                    for count in range(1, hand[animal] + 1)]
        if self.phase == _DRAW:
            codes = [DRAW_PILE] if self.top < _PILE else []
            codes.extend(TAKE + animal for animal in sorted(set(self.row)))
            return codes
        return []

    def apply(self, code: int) -> None:
        """Play, draw or take, then go on to the next decision."""
        if code >= TAKE:
            animal = code - TAKE
            self.row.remove(animal)
            self._give(self.turn, (animal,))
        elif code == DRAW_PILE:
            self._give(self.turn, (self.deck[self.top],))
            self.top += 1
        else:
            self._play(code >> 3, code & 7)
        self._continue_turn()

    def results(self) -> Results:
        """K14: the cards won; every seat with the most wins."""
        won = self.won
        best = max(won)
        return Results(tuple(won), tuple(seat for seat, cards in enumerate(won) if cards == best))

    def copy(self, draws: Draws | None = None) -> KaribaSimulator:
        """An independent copy (Kariba draws no chance after set-up, so ``draws`` is only kept)."""
        twin = KaribaSimulator.__new__(KaribaSimulator)
        twin.seats, twin.experienced, twin.draws = self.seats, self.experienced, draws or self.draws
        twin.deck = self.deck  # never changed after the shuffle
        twin.top, twin.turn, twin.phase = self.top, self.turn, self.phase
        twin.hands = [list(hand) for hand in self.hands]
        twin.held = list(self.held)
        twin.hole = list(self.hole)
        twin.won = list(self.won)
        twin.row = list(self.row)
        return twin

    def code(self, state: State, action: Action) -> int:
        """The code of a full-API Kariba action legal in ``state``."""
        public: dict[str, Any] = state["public"]
        if "play" in action:
            handles = action["play"]
            first = handles[0]
            animal = public[first] if first in public else action["reveal"][first]
            return 8 * int(animal) + len(handles)
        if "take" in action:
            return TAKE + int(public[action["take"]])
        return DRAW_PILE

    def playout(self, rng: random.Random, max_steps: int = 100_000) -> tuple[Results | None, int]:
        """Random plays to the end, picking a play without building the legal list."""
        if not self.experienced:
            return self._standard_playout([rng.randrange] * self.seats, max_steps)
        randrange = rng.randrange
        for steps in range(max_steps):
            phase = self.phase
            if phase == _OVER:
                return self.results(), steps
            if phase == _PLAY:
                hand = self.hands[self.turn]
                pick = randrange(self.held[self.turn])
                # the plays are (animal, 1..n) for each animal held n times: pick the pick-th of them
                for animal in range(MOUSE, ELEPHANT + 1):
                    n = hand[animal]
                    if pick < n:
                        self._play(animal, pick + 1)
                        break
                    pick -= n
                self._continue_turn()
            else:
                legal = self.legal()
                self.apply(legal[randrange(len(legal))])
        return (self.results() if self.phase == _OVER else None), max_steps

    def playout_seats(
        self, choosers: Sequence[random.Random], max_steps: int = 100_000
    ) -> tuple[Results | None, int]:
        """Each seat's random plays from its own generator (what ``atoll sim`` plays), to the end."""
        if not self.experienced:
            return self._standard_playout([chooser.randrange for chooser in choosers], max_steps)
        return super().playout_seats(choosers, max_steps)

    def _standard_playout(
        self, picks: Sequence[Callable[[int], int]], max_steps: int
    ) -> tuple[Results | None, int]:
        """:meth:`playout` without face-up cards, seat ``s`` picking with ``picks[s]``: the rules of
        :meth:`_play` and :meth:`_continue_turn` in one loop over local names, since random playouts
        are what searches, simulations and benchmarks run. ``picks[s](n)`` picks the ``n``-th play as
        ``Random.randrange`` (and so ``Random.choice`` over the legal list) would."""
        hands, held, hole, won, deck = self.hands, self.held, self.hole, self.won, self.deck
        seats, top, seat = self.seats, self.top, self.turn
        steps = 0
        while self.phase != _OVER:
            if steps == max_steps:
                self.top, self.turn = top, seat
                return None, steps
            steps += 1
            hand = hands[seat]
            pick = picks[seat](held[seat])
            animal = MOUSE
            while pick >= hand[animal]:
                pick -= hand[animal]
                animal += 1
            count = pick + 1
            hand[animal] -= count
            left = held[seat] - count
            placed = hole[animal] + count
            hole[animal] = placed
            if placed >= CHASE_AT:
                victim = 0
                if animal == MOUSE:
                    victim = ELEPHANT if hole[ELEPHANT] else 0
                else:
                    for weaker in range(animal - 1, 0, -1):
                        if hole[weaker]:
                            victim = weaker
                            break
                if victim:
                    won[seat] += hole[victim]
                    hole[victim] = 0
            if left < HAND_SIZE and top < _PILE:
                end = min(top + HAND_SIZE - left, _PILE)
                for face in deck[top:end]:
                    hand[face] += 1
                left += end - top
                top = end
            held[seat] = left
            if not left:
                self.phase = _OVER
            else:
                seat = seat + 1 if seat + 1 < seats else 0
        self.top, self.turn = top, seat
        return self.results(), steps

    # -- the rules ----------------------------------------------------------------------

    def _give(self, seat: int, faces: Any) -> None:
        hand = self.hands[seat]
        for face in faces:
            hand[face] += 1
        self.held[seat] += len(faces)

    def _play(self, animal: int, count: int) -> None:
        """K4-K10: put the cards at their place; at three or more, chase the closest weaker animal."""
        seat = self.turn
        self.hands[seat][animal] -= count
        self.held[seat] -= count
        hole = self.hole
        hole[animal] += count
        if hole[animal] < CHASE_AT:
            return
        victim = 0
        if animal == MOUSE:
            victim = ELEPHANT if hole[ELEPHANT] else 0
        else:
            for weaker in range(animal - 1, 0, -1):
                if hole[weaker]:
                    victim = weaker
                    break
        if victim:
            self.won[seat] += hole[victim]
            hole[victim] = 0

    def _continue_turn(self) -> None:
        """K11, K12, K16: draw up to five (the seat chooses while face-up cards lie); else end the turn."""
        seat = self.turn
        missing = HAND_SIZE - self.held[seat]
        left = _PILE - self.top
        if missing > 0 and left:
            if self.row:
                self.phase = _DRAW
                return
            want = min(missing, left)
            self._give(seat, self.deck[self.top: self.top + want])
            self.top += want
        # K13: an empty hand at the end of a turn ends the game; else the next seat (K3), row refilled (K17)
        if not self.held[seat]:
            self.phase = _OVER
            return
        self.turn = (seat + 1) % self.seats
        self.phase = _PLAY
        if self.experienced and len(self.row) < ROW_SIZE and self.top < _PILE:
            self._reveal()

    def _reveal(self) -> None:
        """K15, K17: turn face up cards from the pile until three lie beside it (or the pile is empty)."""
        count = min(ROW_SIZE - len(self.row), _PILE - self.top)
        self.row.extend(self.deck[self.top: self.top + count])
        self.top += count


def simulator(config: Config, draws: Draws, start: Position | None = None) -> KaribaSimulator:
    """Kariba's simulator at set-up, or at ``start``."""
    if start is None:
        return KaribaSimulator.new_game(config, draws)
    return KaribaSimulator.at(config, draws, start)
