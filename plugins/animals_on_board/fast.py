"""Animals on Board's fast path: the rules of :mod:`~atoll.plugins.animals_on_board.rules`,
:mod:`~atoll.plugins.animals_on_board.actions` and :mod:`~atoll.plugins.animals_on_board.scoring`
over small ints, for playouts and search.

A tile is its *id*, ``5 * species + number - 1`` with species numbered as in
:data:`~atoll.plugins.animals_on_board.meta.SPECIES`, so sorting ids is sorting in board
order; a handle ``tiles.i`` is the int ``i`` and ``deck[i]`` its tile. Every face is known,
so the face-down tile is only marked (``hidden``) to keep it last in its group, as the board does.

Codes (each names the same move, with the same text, in every state a seat cannot tell apart):
:data:`FORFEIT`; ``TAKE + g`` takes group ``g`` (from 1); ``KEEP + tile`` keeps that drawn
tile (A6, a sealed choice taken in the open); ``SPLIT + (g << 13) + mask`` splits off from
group ``g`` the tiles after its first whose positions (from 0, after the first) are the bits
of ``mask``; ``CUT + mask`` discards the tiles of the ark at the bits of ``mask``.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import cache
from itertools import combinations
from typing import Any

from atoll import Action, Config, Results, State
from atoll.fast import OVER, Draws, Position, Simulator
from atoll.plugins.animals_on_board.meta import (
    CRATES,
    DRAWN,
    FACE_UP,
    FULL,
    HERD_POINTS,
    MOST_CRATES,
    NUMBERS,
    PILE,
    REMOVED,
    SPECIES,
    START_CRATES,
    faces_of,
    removed_option,
)

#: The code of losing the turn when no split or take is possible (A17).
FORFEIT = 0
#: ``TAKE + g``: take group ``g`` (A14).
TAKE = 1
#: ``KEEP + tile``: keep that drawn tile (A6).
KEEP = 64
#: ``SPLIT + (g << 13) + mask``: split group ``g`` (A11).
SPLIT = 128
#: ``CUT + mask``: cut the ark (A24).
CUT = 1 << 24

_ID = {face: index for index, face in enumerate(faces_of(SPECIES))}
_FACE = {index: face for face, index in _ID.items()}
_LAST = 1 << 10  # sorts a face-down tile after every tile id
# The phases the simulator stops in: always at a decision, or over.
_KEEP, _PLAY, _CUT, _OVER = 0, 1, 2, 3


@cache
def _masks(rest: int) -> tuple[int, ...]:
    """The parts of a group with ``rest`` tiles after its first, in the order of A11's listing:
    by size, then as :func:`itertools.combinations` gives them."""
    return tuple(sum(1 << j for j in part) for size in range(1, rest + 1)
                 for part in combinations(range(rest), size))


def _points(tiles: list[int]) -> int:
    """A25: a single scores its number, a herd animal five, a pair nothing."""
    counts = Counter(t // 5 for t in tiles)
    points = 0
    for tile in tiles:
        count = counts[tile // 5]
        if count == 1:
            points += tile % 5 + 1
        elif count >= 3:
            points += HERD_POINTS
    return points


class AnimalsSimulator(Simulator):
    """One game of Animals on Board in play, every face known, handles and tiles as ints."""

    __slots__ = ("arks", "crates", "deck", "draws", "final", "flag_taken", "groups", "hands", "hidden",
                 "kept", "out", "phase", "seats", "start", "supply", "top", "turn")

    def __init__(self, seats: int, draws: Draws) -> None:
        self.seats = seats
        self.draws = draws
        self.deck: list[int] = []
        self.top = 0
        self.hands: list[list[int]] = [[] for _ in range(seats)]
        self.kept = [-1] * seats
        self.groups: list[list[int]] = []
        self.hidden = -1
        self.arks: list[list[int]] = [[] for _ in range(seats)]
        self.crates = [START_CRATES] * seats
        self.supply = CRATES - START_CRATES * seats
        self.out = [False] * seats
        self.start = 0
        self.flag_taken = False
        self.turn = 0
        self.final = False
        self.phase = _KEEP

    @classmethod
    def new_game(cls, config: Config, draws: Draws) -> AnimalsSimulator:
        """A game at set-up: A2 species left out, A4 shuffle, A5 three tiles drawn each."""
        sim = cls(config.seats, draws)
        removed = removed_option(config.seats, config.options)
        if removed is None:
            removed = list(draws.sample(SPECIES, REMOVED[config.seats]))
        species = [s for s in SPECIES if s not in removed]
        sim.deck = [_ID[face] for face in draws.shuffle(faces_of(species))]
        sim.hands = [list(range(DRAWN * seat, DRAWN * seat + DRAWN)) for seat in range(sim.seats)]
        sim.top = DRAWN * sim.seats
        return sim

    @classmethod
    def at(cls, config: Config, draws: Draws, start: Position) -> AnimalsSimulator:
        """A game at the decision ``start`` (its faces give every tile of the pile)."""
        state, faces = start.state, start.faces
        sim = cls(config.seats, draws)
        count = len(state["species"]) * len(NUMBERS)
        sim.deck = [_ID[str(faces[f"{PILE}.{i}"])] for i in range(count)]
        sim.top = state["top"]
        sim.hands = [[_index(h) for h in hand] for hand in state["hands"]]
        sim.kept = [_index(str(faces[seal[0]])) if seal else -1 for seal in state["seals"]]
        sim.groups = [[_index(h) for h in group] for group in state["groups"]]
        sim.hidden = -1 if state["hidden"] is None else _index(state["hidden"])
        sim.arks = [[_index(h) for h in ark] for ark in state["arks"]]
        sim.crates = list(state["crates"])
        sim.supply = state["supply"]
        sim.out = list(state["out"])
        sim.start, sim.flag_taken = state["start"], state["flag_taken"]
        sim.turn, sim.final = state["turn"], state["final"]
        sim.phase = {"keep": _KEEP, "play": _PLAY, "cut": _CUT}[state["phase"]]
        return sim

    # -- the Simulator API ---------------------------------------------------------------

    def seat(self) -> int:
        """The seat to decide, or OVER."""
        return OVER if self.phase == _OVER else self.turn

    def legal(self) -> list[int]:
        """As actions.legal_actions: the kept tile by board order; splits then takes, or the forfeit;
        the cuts."""
        phase = self.phase
        if phase == _PLAY:
            codes: list[int] = []
            for number, group in enumerate(self.groups, 1):
                if len(group) > 1:
                    base = SPLIT + (number << 13)
                    codes.extend(base + mask for mask in _masks(len(group) - 1))
            crates = self.crates[self.turn]
            codes.extend(TAKE + number for number, group in enumerate(self.groups, 1) if len(group) <= crates)
            return codes or [FORFEIT]
        if phase == _KEEP:
            return sorted(KEEP + self.deck[h] for h in self.hands[self.turn])
        if phase == _CUT:
            return [CUT + mask for mask in self._cut_masks()]
        return []

    def apply(self, code: int) -> None:
        """Split, take, forfeit, keep or cut, then go on to the next decision."""
        if code >= CUT:
            self._cut(code - CUT)
        elif code >= SPLIT:
            self._split((code - SPLIT) >> 13, (code - SPLIT) & 8191)
        elif code >= KEEP:
            self._keep(code - KEEP)
        elif code >= TAKE:
            self._take(code - TAKE)
        else:
            self._after_turn()

    def results(self) -> Results:
        """A25, A26: ark points and crates; the most win, then the most species, else shared."""
        deck = self.deck
        scores, ranks = [], []
        for seat, ark in enumerate(self.arks):
            tiles = [deck[h] for h in ark]
            scores.append(_points(tiles) + self.crates[seat])
            ranks.append((scores[-1], len({t // 5 for t in tiles})))
        best = max(ranks)
        return Results(tuple(scores), tuple(seat for seat, rank in enumerate(ranks) if rank == best))

    def copy(self, draws: Draws | None = None) -> AnimalsSimulator:
        """An independent copy (no chance is drawn after set-up, so ``draws`` is only kept)."""
        twin = AnimalsSimulator.__new__(AnimalsSimulator)
        twin.seats, twin.draws, twin.deck = self.seats, draws or self.draws, self.deck  # deck: never changed
        twin.top, twin.hidden, twin.supply = self.top, self.hidden, self.supply
        twin.start, twin.flag_taken = self.start, self.flag_taken
        twin.turn, twin.final = self.turn, self.final
        twin.phase = self.phase
        twin.hands = self.hands  # never changed after the draw
        twin.kept = list(self.kept)
        twin.groups = [list(group) for group in self.groups]
        twin.arks = [list(ark) for ark in self.arks]
        twin.crates = list(self.crates)
        twin.out = list(self.out)
        return twin

    def code(self, state: State, action: Action) -> int:
        """The code of a full-API action legal in ``state``."""
        if "secret" in action:
            return KEEP + _ID[action["secret"][1]]
        if "take" in action:
            return TAKE + int(action["take"])
        if "split" in action:
            number = int(action["split"])
            rest: list[Any] = state["groups"][number - 1][1:]
            return SPLIT + (number << 13) + sum(1 << rest.index(h) for h in action["part"])
        if "discard" in action:
            ark: list[Any] = state["arks"][state["turn"]]
            return CUT + sum(1 << ark.index(h) for h in action["discard"])
        return FORFEIT

    def playout(self, rng: random.Random, max_steps: int = 100_000) -> tuple[Results | None, int]:
        """Random plays to the end, as the plain playout picks them, without listing every split of a
        large group (a group of thirteen has 4095)."""
        randrange = rng.randrange
        for steps in range(max_steps):
            phase = self.phase
            if phase == _OVER:
                return self.results(), steps
            if phase != _PLAY:
                legal = self.legal()
                self.apply(legal[randrange(len(legal))])
                continue
            groups = self.groups
            crates = self.crates[self.turn]
            splits = [(1 << (len(group) - 1)) - 1 for group in groups]
            takes = [number for number, group in enumerate(groups, 1) if len(group) <= crates]
            total = sum(splits) + len(takes)
            if not total:
                self._after_turn()  # A17: the forfeit, the only legal action
                continue
            pick = randrange(total)
            for number, count in enumerate(splits, 1):
                if pick < count:
                    self._split(number, _masks(len(groups[number - 1]) - 1)[pick])
                    break
                pick -= count
            else:
                self._take(takes[pick])
        return (self.results() if self.phase == _OVER else None), max_steps

    # -- the rules ----------------------------------------------------------------------

    def _keep(self, tile: int) -> None:
        """A6: the seat keeps a drawn tile; once all have, A7 puts the others out and the game starts."""
        seat = self.turn
        self.kept[seat] = next(h for h in self.hands[seat] if self.deck[h] == tile)
        if seat + 1 < self.seats:
            self.turn = seat + 1
            return
        self.arks = [[kept] for kept in self.kept]
        self.groups = [[h for seat, hand in enumerate(self.hands) for h in hand if h != self.kept[seat]]]
        self._start_round()

    def _sorted(self, handles: list[int]) -> list[int]:
        deck, hidden = self.deck, self.hidden
        return sorted(handles, key=lambda h: _LAST if h == hidden else deck[h])

    def _start_round(self) -> None:
        """A8, A9: one group, filled up to the round's face-up tiles, and a face-down tile; the start
        player moves first."""
        seats = self.seats
        self.out = [False] * seats
        self.flag_taken = self.final = False
        self.turn = self.start
        centre = [h for group in self.groups for h in group]
        missing = FACE_UP[seats] - sum(1 for h in centre if h != self.hidden)
        if missing > 0:
            centre.extend(range(self.top, self.top + missing))
            self.top += missing
        centre = self._sorted(centre)
        if self.hidden < 0 and self.top < len(self.deck):
            self.hidden = self.top
            self.top += 1
            centre.append(self.hidden)
        self.groups = [centre]
        self.phase = _PLAY

    def _split(self, number: int, mask: int) -> None:
        """A11, A12: split off the part and take a food crate (at five, one goes back)."""
        group = self.groups[number - 1]
        rest = group[1:]
        self.groups[number - 1] = [group[0], *(h for j, h in enumerate(rest) if not mask >> j & 1)]
        self.groups.append([h for j, h in enumerate(rest) if mask >> j & 1])
        seat = self.turn
        if self.crates[seat] == MOST_CRATES:
            self.crates[seat] -= 1
            self.supply += 1
        elif self.supply > 0:
            self.crates[seat] += 1
            self.supply -= 1
        self._after_turn()

    def _take(self, number: int) -> None:
        """A14-A16: take the group onto the ark, a crate a tile, and drop out (the first out takes
        the flag); the taker of the face-down tile learns it."""
        seat = self.turn
        group = self.groups.pop(number - 1)
        self.crates[seat] -= len(group)
        self.supply += len(group)
        self.arks[seat].extend(group)
        self.out[seat] = True
        if not self.flag_taken:
            self.start, self.flag_taken = seat, True
        if self.hidden in group:
            self.hidden = -1
        self._after_turn()

    def _after_turn(self) -> None:
        """A9, A18: the next seat still in; the last one left has one final turn; then the round ends."""
        out = self.out
        remaining = [seat for seat in range(self.seats) if not out[seat]]
        if self.final or not remaining:
            self._end_round()
        elif len(remaining) == 1:
            self.final, self.turn = True, remaining[0]
        else:
            seat = (self.turn + 1) % self.seats
            while out[seat]:
                seat = (seat + 1) % self.seats
            self.turn = seat

    def _end_round(self) -> None:
        """A19, A22, A23: an ark of ten or more departs the game: pairs go, arks sorted; else a new round."""
        if not any(len(ark) >= FULL for ark in self.arks):
            self._start_round()
            return
        deck = self.deck
        for seat, ark in enumerate(self.arks):
            counts = Counter(deck[h] // 5 for h in ark)
            self.arks[seat] = sorted((h for h in ark if counts[deck[h] // 5] != 2), key=deck.__getitem__)
        self._next_cut()

    def _next_cut(self) -> None:
        """A24: the first ark over ten is cut by its owner; else the game is over."""
        over = [seat for seat, ark in enumerate(self.arks) if len(ark) > FULL]
        if over:
            self.phase, self.turn = _CUT, over[0]
        else:
            self.phase = _OVER

    def _cut_masks(self) -> list[int]:
        """A24: the discards (as position masks, in combinations order) leaving no species at two."""
        deck, ark = self.deck, self.arks[self.turn]
        species = [deck[h] // 5 for h in ark]
        counts = Counter(species)
        masks = []
        for discard in combinations(range(len(ark)), len(ark) - FULL):
            left = counts.copy()
            left.subtract(species[j] for j in discard)
            if 2 not in left.values():
                masks.append(sum(1 << j for j in discard))
        return masks

    def _cut(self, mask: int) -> None:
        ark = self.arks[self.turn]
        self.arks[self.turn] = [h for j, h in enumerate(ark) if not mask >> j & 1]
        self._next_cut()


def _index(handle: str) -> int:
    return int(handle.rsplit(".", 1)[1])


def simulator(config: Config, draws: Draws, start: Position | None = None) -> AnimalsSimulator:
    """Animals on Board's simulator at set-up, or at ``start``."""
    if start is None:
        return AnimalsSimulator.new_game(config, draws)
    return AnimalsSimulator.at(config, draws, start)
