"""Survival of the Fittest's fast path: the rules of :mod:`~atoll.plugins.survival.turn`,
:mod:`~atoll.plugins.survival.moves` and :mod:`~atoll.plugins.survival.obstacles` over small ints,
for playouts and search.

A place is its index in :data:`~atoll.plugins.survival.board.PLACES` (0-90), a prey its index
in :data:`~atoll.plugins.survival.meta.ANIMALS`, and a token on the board ``(seat, token)`` with
:data:`PREDATOR` for the predator. The dice are rolled inline, so the simulator is always at a
placement, a choice of dice or a step; the draw for who starts (rule S2) is made when the simulator
is set up.

Codes (each names the same move, with the same text, in every state): ``PLACE + 91 * animal +
place``; ``ASSIGN + die`` gives the predator that die; ``PREDATOR_STEP + place`` and
``PREY_STEP + 91 * animal + place`` step there; ``OBSTACLE + i`` lays the ``i``-th of all
obstacle layouts (obstacle by obstacle, each in :func:`~atoll.plugins.survival.obstacles.layouts`
order).

Why one module of over 500 lines: it is one simulator, one class whose rules (placement, dice, steps,
obstacles, the end) all read and change the same slots; the int tables it stands on are built here
from the rules modules, beside the only code that reads them.
"""

from __future__ import annotations

import random

from atoll import Action, Config, Results, State
from atoll.fast import OVER, Draws, Position, Simulator
from atoll.plugins.survival.board import FIXED, NEIGHBOURS, PLACES
from atoll.plugins.survival.bot import HUNT_WEIGHT, reach_chance
from atoll.plugins.survival.meta import ANIMALS, OBSTACLES, POINTS, ROUND_LIMIT, SNAKE
from atoll.plugins.survival.obstacles import layouts
from atoll.plugins.survival.turn import corners, placer
from atoll.plugins.survival.whole_move import PREDATOR as WHOLE_PREDATOR
from atoll.plugins.survival.whole_move import Search, Witness

#: The token number of a predator (prey are 0-4, their index in ANIMALS).
PREDATOR = -1
#: Code ranges, one per kind of decision.
PLACE, ASSIGN, PREDATOR_STEP, PREY_STEP, OBSTACLE = 0, 500, 600, 1000, 2000

_N = len(PLACES)
_INDEX = {place: i for i, place in enumerate(PLACES)}
_NEIGHBOURS = tuple(tuple(_INDEX[n] for n in NEIGHBOURS[place]) for place in PLACES)
_FIXED = frozenset(_INDEX[p] for p in FIXED)
_ANIMAL = {animal: i for i, animal in enumerate(ANIMALS)}
_POINTS = tuple(POINTS[animal] for animal in ANIMALS)
#: A layout of an obstacle: (code, place named, turn, places covered).
_Layout = tuple[int, int, int, tuple[int, ...]]


def _layout_tables() -> tuple[dict[int, list[_Layout]], dict[int, dict[int, list[int]]]]:
    """Per obstacle number, its layouts in obstacles.layouts() order with consecutive codes; and
    place -> the positions of that obstacle's layouts covering it (as obstacles.covering)."""
    found: dict[int, list[_Layout]] = {}
    covering: dict[int, dict[int, list[int]]] = {}
    code = OBSTACLE
    for number in OBSTACLES:
        found[number], covering[number] = [], {}
        for i, (_, at, turn, places) in enumerate(layouts(number)):
            covered = tuple(_INDEX[p] for p in places)
            found[number].append((code, _INDEX[at], turn, covered))
            for place in covered:
                covering[number].setdefault(place, []).append(i)
            code += 1
    return found, covering


_LAYOUTS, _COVERING = _layout_tables()
_FOOTPRINT = {(n, at, turn): places for n, found in _LAYOUTS.items() for _, at, turn, places in found}
_OBSTACLE_OF = {code: (n, at, turn) for n, found in _LAYOUTS.items() for code, at, turn, _ in found}
_CODE = {(n, PLACES[at], turn): code for code, (n, at, turn) in _OBSTACLE_OF.items()}
_POSITION = {n: {(at, turn): i for i, (_, at, turn, _) in enumerate(found)} for n, found in _LAYOUTS.items()}
# The phases the simulator stops in: always at a decision, or over.
_PLACE, _ASSIGN, _MOVE, _OVER = 0, 1, 2, 3


def _distances(start: int, blocked: set[int]) -> dict[int, int]:
    """Steps from ``start`` to every place within a die's reach (6) that it can reach around ``blocked``."""
    seen = {start: 0}
    frontier = [start]
    for steps in range(1, 7):
        after = []
        for place in frontier:
            for nxt in _NEIGHBOURS[place]:
                if nxt not in blocked and nxt not in seen:
                    seen[nxt] = steps
                    after.append(nxt)
        frontier = after
    return seen


def _has_path(place: int, blocked: set[int], seen: set[int], need: int) -> bool:
    """Whether a token at ``place`` can take ``need`` more steps, entering neither ``blocked`` nor a
    place of ``seen`` (which holds the places entered so far). moves.longest asks for the longest such
    path; asking only whether one of a given length exists stops at the first found, which on an
    open board is the first tried."""
    if need == 0:
        return True
    for nxt in _NEIGHBOURS[place]:
        if nxt not in blocked and nxt not in seen:
            seen.add(nxt)
            if _has_path(nxt, blocked, seen, need - 1):
                return True
            seen.discard(nxt)
    return False


class SurvivalSimulator(Simulator):
    """One game of Survival of the Fittest in play, places and tokens as ints, the dice rolled inline."""

    __slots__ = ("at", "clock", "dice", "draws", "first", "laid", "obstacle_due", "out", "phase", "points",
                 "predator_left", "predators", "prey", "prey_left", "reach", "round", "seats", "snake",
                 "touched", "turn", "unplaced", "walls")

    def __init__(self, seats: int, draws: Draws, first: int | None = None, snake: bool = False) -> None:
        """A game at its first placement: ``first`` is the seat drawn to start, drawn from ``draws``
        (as the full API's first chance step) unless given; ``snake``: the prey are placed in snake
        order (S6)."""
        self.seats = seats
        self.snake = snake
        self.draws = draws
        self.phase = _PLACE
        self.first = draws.die(seats) - 1 if first is None else first
        self.turn = self.first
        self.predators = [_INDEX[place] for place in corners(seats, self.first)]
        self.round = 0
        self.clock = 0
        #: prey[seat]: animal -> place, in the order the seat placed them (the order steps list them)
        self.prey: list[dict[int, int]] = [{} for _ in range(seats)]
        self.unplaced = [list(range(len(ANIMALS))) for _ in range(seats)]
        #: points[seat]: the points of the prey its predator caught
        self.points = [0] * seats
        self.out: list[int | None] = [None] * seats
        #: laid: obstacle number -> (place named, turn), in the order first laid
        self.laid: dict[int, tuple[int, int]] = {}
        self.walls: set[int] = set()
        #: :meth:`estimate`'s distances from a predator's place around the walls, by place: shared with
        #: copies (a search judges hundreds of positions of one turn, where walls and predators stay
        #: put) and dropped when an obstacle changes the walls
        self.reach: dict[int, dict[int, int]] = {}
        self.at: dict[int, tuple[int, int]] = {p: (s, PREDATOR) for s, p in enumerate(self.predators)}
        self.dice: list[int] = []
        self.predator_left = 0
        self.prey_left = 0
        self.obstacle_due = False
        self.touched: set[int] = set()

    @classmethod
    def at_position(cls, config: Config, draws: Draws, start: Position) -> SurvivalSimulator:
        """A game at the decision ``start`` (nothing in Survival is hidden: the state says it all)."""
        state = start.state
        sim = cls(config.seats, draws, state["first"], state["snake"])
        sim.phase = {"place": _PLACE, "assign": _ASSIGN, "move": _MOVE}[state["phase"]]
        sim.turn, sim.round, sim.clock = state["turn"], state["round"], state["clock"]
        sim.predators = [-1 if p is None else _INDEX[p] for p in state["predators"]]
        sim.prey = [{_ANIMAL[a]: _INDEX[p] for a, p in prey.items()} for prey in state["prey"]]
        sim.unplaced = [[_ANIMAL[a] for a in left] for left in state["unplaced"]]
        sim.points = [sum(POINTS[a] for _, a in caught) for caught in state["caught"]]
        sim.out = list(state["out"])
        sim.laid = {int(k): (_INDEX[v["at"]], v["turn"]) for k, v in state["obstacles"].items()}
        sim.walls = {_INDEX[p] for p in state["walls"]}
        sim.reach = {}
        sim.at = {_INDEX[place]: (seat, PREDATOR if token == "predator" else _ANIMAL[token])
                  for place, (seat, token) in state["at"].items()}
        sim.dice = list(state["dice"])
        sim.predator_left, sim.prey_left = state["predator_left"], state["prey_left"]
        sim.obstacle_due = state["obstacle_due"]
        sim.touched = {_INDEX[p] for p in state["touched"]}
        return sim

    # -- the Simulator API ---------------------------------------------------------------

    def seat(self) -> int:
        """The seat to decide, or OVER."""
        return OVER if self.phase == _OVER else self.turn

    def legal(self) -> list[int]:
        """As turn.legal: placements by animal then place; the dice, high first; the predator's
        steps, the prey's steps, then (on doubles) the obstacle layouts."""
        phase = self.phase
        if phase == _MOVE:
            predator, prey = self._steps()
            codes = [PREDATOR_STEP + p for p in predator]
            codes += prey
            if self.obstacle_due:
                codes += self._obstacle_choices(first=False)
            return codes
        if phase == _ASSIGN:
            return [ASSIGN + die for die in sorted(set(self.dice), reverse=True)]
        if phase == _PLACE:
            taken = self.at.keys() | _FIXED
            free = [p for p in range(_N) if p not in taken]
            return [PLACE + _N * animal + p for animal in self.unplaced[self.turn] for p in free]
        return []

    def apply(self, code: int) -> None:
        """Place, assign, step or lay an obstacle, then go on (rolling the dice) to the next decision."""
        if code >= OBSTACLE:
            number, at, turn = _OBSTACLE_OF[code]
            self.laid[number] = (at, turn)
            self.walls = {p for n, (a, t) in self.laid.items() for p in _FOOTPRINT[n, a, t]}
            self.reach = {}
            self.obstacle_due = False
            self._after_move()
        elif code >= PREY_STEP:
            self._prey_step(*divmod(code - PREY_STEP, _N))
            self._after_move()
        elif code >= PREDATOR_STEP:
            self._predator_step(code - PREDATOR_STEP)
            self._after_move()
        elif code >= ASSIGN:
            die, dice = code - ASSIGN, self.dice
            other = dice[1] if dice[0] == die else dice[0]
            self.phase, self.predator_left, self.prey_left = _MOVE, die, other
            self._after_move()
        else:
            self._place(*divmod(code - PLACE, _N))

    def results(self) -> Results:
        """S17-S19: points caught, and the survivors' own prey; ties go to who kept prey longest."""
        scores = list(self.points)
        for seat in range(self.seats):
            scores[seat] += sum(_POINTS[a] for a in self.prey[seat])
        # S18: how long a seat kept prey; still in at the end counts as one turn past the clock
        kept = [self.clock + 1 if out is None else out for out in self.out]
        keys = list(zip(scores, kept, strict=True))
        best = max(keys)
        return Results(tuple(scores), tuple(s for s, key in enumerate(keys) if key == best))

    def estimate(self) -> list[float]:
        """Each seat's points as the Survival bot weighs a position: the prey its predator caught, its
        prey on the board each by the chance that no other predator reaches it next turn (around the
        obstacles, with the better of two dice), the prey it has still to place, and the richest prey
        its own predator may reach: whole where the die in hand covers it (the seat to move), else a
        quarter of it by the chance of reaching it next turn."""
        known, blocked = self.reach, self.walls | _FIXED
        reach: list[dict[int, int]] = []
        for place in self.predators:
            if place < 0:
                reach.append({})
                continue
            steps = known.get(place)
            if steps is None:
                steps = known[place] = _distances(place, blocked)
            reach.append(steps)
        out: list[float] = []
        for seat in range(self.seats):
            value = float(self.points[seat]) + sum(_POINTS[a] for a in self.unplaced[seat])
            for animal, place in self.prey[seat].items():
                safe = 1.0
                for other, steps in enumerate(reach):
                    if other != seat and place in steps:
                        safe *= 1.0 - reach_chance(steps[place])
                value += _POINTS[animal] * safe
            mine = reach[seat]
            left = self._steps_in_hand() if seat == self.turn else 0
            # the seat to move reaches (about) for sure what its predator's die covers; the others may
            # next turn
            value += max(
                (_POINTS[a] * (1.0 if mine[place] <= left else HUNT_WEIGHT * reach_chance(mine[place]))
                 for other, prey in enumerate(self.prey) if other != seat
                 for a, place in prey.items() if place in mine), default=0.0,
            )
            out.append(value)
        return out

    def _steps_in_hand(self) -> int:
        """The steps the predator of the seat to move may still take this turn: what its die left, or
        the higher die while it chooses."""
        if self.phase == _MOVE:
            return self.predator_left
        if self.phase == _ASSIGN and self.dice:
            return max(self.dice)
        return 0

    def copy(self, draws: Draws | None = None) -> SurvivalSimulator:
        """An independent copy, rolling its dice from ``draws`` (default: this one's)."""
        twin = SurvivalSimulator.__new__(SurvivalSimulator)
        twin.seats, twin.draws = self.seats, draws or self.draws
        twin.phase, twin.turn, twin.round, twin.clock = self.phase, self.turn, self.round, self.clock
        twin.first, twin.snake = self.first, self.snake
        twin.predators = list(self.predators)
        twin.prey = [dict(prey) for prey in self.prey]
        twin.unplaced = [list(left) for left in self.unplaced]
        twin.points = list(self.points)
        twin.out = list(self.out)
        twin.laid = dict(self.laid)
        twin.walls = set(self.walls)
        twin.reach = self.reach
        twin.at = dict(self.at)
        twin.dice = list(self.dice)
        twin.predator_left, twin.prey_left = self.predator_left, self.prey_left
        twin.obstacle_due = self.obstacle_due
        twin.touched = set(self.touched)
        return twin

    def code(self, state: State, action: Action) -> int:
        """The code of a full-API action legal in ``state``."""
        do = action["do"]
        if do == "place":
            return PLACE + _N * _ANIMAL[action["animal"]] + _INDEX[action["at"]]
        if do == "assign":
            return ASSIGN + int(action["predator"])
        if do == "step":
            to = _INDEX[action["to"]]
            if action["token"] == "predator":
                return PREDATOR_STEP + to
            return PREY_STEP + _N * _ANIMAL[action["token"]] + to
        return _CODE[int(action["id"]), action["at"], int(action["turn"])]

    def playout(self, rng: random.Random, max_steps: int = 100_000) -> tuple[Results | None, int]:
        """Random plays to the end, as the plain playout picks them, counting the obstacle layouts
        rather than listing them unless one is picked."""
        randrange = rng.randrange
        for steps in range(max_steps):
            phase = self.phase
            if phase == _OVER:
                return self.results(), steps
            if phase != _MOVE:
                legal = self.legal()
                self.apply(legal[randrange(len(legal))])
                continue
            predator, prey = self._steps()
            barred = {n: self._barred(n) for n in self._obstacles_to_lay()} if self.obstacle_due else {}
            layouts = sum(len(_LAYOUTS[n]) - len(b) for n, b in barred.items())
            pick = randrange(len(predator) + len(prey) + layouts)
            if pick < len(predator):
                self._predator_step(predator[pick])
                self._after_move()
                continue
            pick -= len(predator)
            if pick < len(prey):
                self.apply(prey[pick])
                continue
            pick -= len(prey)
            for number, barring in barred.items():
                free = len(_LAYOUTS[number]) - len(barring)
                if pick < free:
                    codes = [code for i, (code, *_) in enumerate(_LAYOUTS[number]) if i not in barring]
                    self.apply(codes[pick])
                    break
                pick -= free
        return (self.results() if self.phase == _OVER else None), max_steps

    # -- the rules ----------------------------------------------------------------------

    def _place(self, animal: int, place: int) -> None:
        """S6: one prey at a time, in turn (or snake) order; once all are placed the first turn begins."""
        seat = self.turn
        self.prey[seat][animal] = place
        self.unplaced[seat].remove(animal)
        self.at[place] = (seat, animal)
        left = sum(len(u) for u in self.unplaced)
        if left:
            self.turn = placer(self.seats, left, self.first, self.snake)
        elif self._begin_turn(self.first):
            self._after_move()

    def _predator_blocked(self, seat: int) -> set[int]:
        blocked = self.walls | self.touched | _FIXED
        blocked.update(self.prey[seat].values())  # its own prey, and every predator
        blocked.update(p for p in self.predators if p >= 0)
        return blocked

    def _prey_blocked(self) -> set[int]:
        return self.walls | self.touched | _FIXED | self.at.keys()

    def _steps(self) -> tuple[list[int], list[int]]:
        """S8-S11: the places the predator may step to, and the prey's steps as codes: each step leaves
        the predator as far to go as it could before it, and the prey beside it (as moves._Left)."""
        seat = self.turn
        here = self.predators[seat]
        pb = self._predator_blocked(seat)
        left = self.predator_left if here >= 0 else 0
        if left > 0:
            pb.add(here)
        # S8, S11: the whole die if any path allows it, else as far as one does
        can = next((k for k in range(left, 0, -1) if _has_path(here, pb, {here}, k)), 0)
        if can == 0 and self.prey_left <= 0:
            return [], []
        qb = self._prey_blocked()
        start = here if here >= 0 else None
        prey = list(self.prey[seat].values())
        need, route = Search(_NEIGHBOURS, start, pb, prey, qb).most_prey(can, self.prey_left)
        witness = Witness(route, _NEIGHBOURS, pb, qb, can)
        predator: list[int] = []
        if can:
            at, prey_of = self.at, self.prey
            for n in _NEIGHBOURS[here]:
                if n in pb:
                    continue
                if witness.allows(WHOLE_PREDATOR, n):
                    predator.append(n)
                    continue
                # S16: catching a player's last prey takes their predator off, freeing its place
                victim = at.get(n)
                last = victim is not None and len(prey_of[victim[0]]) == 1
                freed = {self.predators[victim[0]]} if victim is not None and last else set()
                search = Search(_NEIGHBOURS, n, (pb | {n}) - freed, prey, (qb | {n}) - freed)
                if search.finish(can - 1, need) is not None:
                    predator.append(n)
        steps: list[int] = []
        if need:
            for i, (animal, place) in enumerate(self.prey[seat].items()):
                for n in _NEIGHBOURS[place]:
                    if n in qb:
                        continue
                    if not witness.allows(i, n):
                        search = Search(_NEIGHBOURS, start, pb | {n}, [*prey[:i], n, *prey[i + 1:]], qb | {n})
                        if search.finish(can, need - 1) is None:
                            continue
                    steps.append(PREY_STEP + _N * animal + n)
        return predator, steps

    def _can_step(self) -> bool:
        """Whether a token of the seat still has a step (a token can go on exactly when a neighbour of
        it is open); asked after every action, so it looks places up rather than building sets."""
        seat, at, touched, walls = self.turn, self.at, self.touched, self.walls
        here = self.predators[seat]
        if self.predator_left > 0 and here >= 0:
            for n in _NEIGHBOURS[here]:
                if n in _FIXED or n in walls or n in touched:
                    continue
                token = at.get(n)
                if token is None or (token[0] != seat and token[1] != PREDATOR):
                    return True
        if self.prey_left > 0:
            for place in self.prey[seat].values():
                for n in _NEIGHBOURS[place]:
                    if n not in at and n not in touched and n not in walls and n not in _FIXED:
                        return True
        return False

    def _obstacle_choices(self, first: bool) -> list[int]:
        """S14, S15: an obstacle still off the board (all of them once four are out), on no token or
        other obstacle, and a moved one to a new position."""
        found: list[int] = []
        for number in self._obstacles_to_lay():
            barred = self._barred(number)
            for i, (code, *_) in enumerate(_LAYOUTS[number]):
                if i not in barred:
                    found.append(code)
                    if first:
                        return found
        return found

    def _obstacles_to_lay(self) -> list[int]:
        """S14, S15: the obstacles still off the board, or every one once all four are out."""
        return [n for n in OBSTACLES if n not in self.laid] or list(OBSTACLES)

    def _barred(self, number: int) -> set[int]:
        """The positions in _LAYOUTS[number] the obstacle may not take now: over a token or another
        obstacle, or where it lies already."""
        cover, laid = _COVERING[number], self.laid
        barred: set[int] = set()
        for place in self.at:
            barred.update(cover.get(place, ()))
        for other, (at, turn) in laid.items():
            if other != number:
                for place in _FOOTPRINT[other, at, turn]:
                    barred.update(cover.get(place, ()))
        now = laid.get(number)
        if now is not None:
            barred.add(_POSITION[number][now])
        return barred

    def _predator_step(self, to: int) -> None:
        """S8-S12: the predator steps; stepping on another's prey catches it."""
        seat = self.turn
        here = self.predators[seat]
        self.predators[seat] = to
        self.predator_left -= 1
        del self.at[here]
        victim = self.at.get(to)
        self.at[to] = (seat, PREDATOR)
        self.touched.add(here)
        self.touched.add(to)
        if victim is not None:
            owner, animal = victim
            del self.prey[owner][animal]
            self.points[seat] += _POINTS[animal]
            if not self.prey[owner]:  # S16: without prey a player loses the predator too
                del self.at[self.predators[owner]]
                self.predators[owner] = -1
                self.out[owner] = self.clock

    def _prey_step(self, animal: int, to: int) -> None:
        seat = self.turn
        here = self.prey[seat][animal]
        self.prey[seat][animal] = to
        self.prey_left -= 1
        del self.at[here]
        self.at[to] = (seat, animal)
        self.touched.add(here)
        self.touched.add(to)

    def _after_move(self) -> None:
        """The game ends at one player with prey; the turn when nothing is left to do in it."""
        while True:
            if sum(1 for prey in self.prey if prey) <= 1:
                self.phase = _OVER
                return
            if self._can_step() or (self.obstacle_due and self._obstacle_choices(first=True)):
                return
            seat, seats = self.turn, self.seats
            nxt = (seat + 1) % seats
            while not self.prey[nxt]:
                nxt = (nxt + 1) % seats
            if not self._begin_turn(nxt):
                return

    def _begin_turn(self, seat: int) -> bool:
        """S7, S19: the next turn and its roll, or the end at the round limit. True when the roll
        left the turn with nothing to do yet decided (doubles, which go straight to moving)."""
        first, seats = self.first, self.seats
        new_round = self.round == 0 or (seat - first) % seats <= (self.turn - first) % seats
        rounds = self.round + 1 if new_round else self.round
        self.dice, self.predator_left, self.prey_left, self.obstacle_due = [], 0, 0, False
        self.touched = set()
        if rounds > ROUND_LIMIT:
            self.phase = _OVER
            return False
        self.turn, self.round, self.clock = seat, rounds, self.clock + 1
        draws = self.draws
        dice = [draws.die(6), draws.die(6)]
        self.dice = dice
        if dice[0] != dice[1]:
            self.phase = _ASSIGN
            return False
        self.phase = _MOVE
        self.predator_left = self.prey_left = dice[0]
        self.obstacle_due = True
        return True


def simulator(config: Config, draws: Draws, start: Position | None = None) -> SurvivalSimulator:
    """Survival's simulator at set-up, or at ``start``."""
    if start is None:
        return SurvivalSimulator(config.seats, draws, snake=config.variant == SNAKE)
    return SurvivalSimulator.at_position(config, draws, start)
