"""The Survival bot: hunts with its predator and keeps its own prey out of the others' reach.

It sees only its :class:`~atoll.Observation` (the whole board: the game has no secrets). On its
turn it plans the whole move for each way to split the dice: the predator takes the path that
catches the most points (ties: the one ending nearest the richest prey), then the prey step one
at a time to where the other predators are least likely to reach them, judged by each predator's
distance around the obstacles and the chance that one of two dice covers it. Doubles lay the
obstacle, from a sample of layouts, that leaves its prey safest. A seeded generator breaks ties.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterator

from atoll import Action, Game, Observation, State
from atoll.plugins.survival.board import NEIGHBOURS
from atoll.plugins.survival.meta import POINTS
from atoll.plugins.survival.moves import predator_blocked, predator_may_step, prey_steps
from atoll.plugins.survival.obstacles import blocked_places, choices, walls
from atoll.plugins.survival.state import occupants
from atoll.plugins.survival.turn import apply_action, legal

#: How much a point of prey near the predator's end place is worth against a point caught now.
HUNT_WEIGHT = 0.25
#: Obstacle layouts the bot weighs on doubles (all of them would cost a second a turn).
OBSTACLE_SAMPLE = 40
#: Beyond a predator's reach a prey is safe; a little more distance is still a little better.
FAR = 0.01


def reach_chance(steps: int) -> float:
    """The chance that a predator ``steps`` away can get there next turn: one of its two dice
    shows at least ``steps`` (its owner chooses which die the predator takes)."""
    if steps <= 0 or steps > 6:
        return 0.0
    return 1.0 - ((steps - 1) / 6) ** 2


def distances(start: str, blocked: set[str]) -> dict[str, int]:
    """Steps from ``start`` to every place it can reach without entering ``blocked``."""
    seen = {start: 0}
    queue = deque([start])
    while queue:
        place = queue.popleft()
        for nxt in NEIGHBOURS[place]:
            if nxt not in blocked and nxt not in seen:
                seen[nxt] = seen[place] + 1
                queue.append(nxt)
    return seen


def threats(state: State, seat: int) -> list[dict[str, int]]:
    """The distance maps of the other players' predators, as they could move on their next turns."""
    blocked = blocked_places(state)
    tokens = occupants(state)
    maps = []
    for other, place in enumerate(state["predators"]):
        if other == seat or place is None:
            continue
        own = {p for p, (owner, kind) in tokens.items()
               if p != place and (owner == other or kind == "predator")}
        maps.append(distances(place, blocked | own))
    return maps


def danger(place: str, maps: list[dict[str, int]]) -> float:
    """The chance that at least one of the predators with these distance maps can reach ``place``."""
    safe = 1.0
    nearest = 12
    for steps in maps:
        d = steps.get(place, 99)
        nearest = min(nearest, d)
        safe *= 1.0 - reach_chance(d)
    return 1.0 - safe - FAR * nearest


def prey_value(state: State, seat: int, maps: list[dict[str, int]]) -> float:
    """What ``seat``'s prey are worth, each discounted by its danger."""
    return sum(POINTS[a] * (1.0 - danger(p, maps)) for a, p in state["prey"][seat].items())


def hunt_value(state: State, seat: int, place: str | None) -> float:
    """How much prey of the others ``seat``'s predator at ``place`` could reach next turn."""
    if place is None:
        return 0.0
    blocked = blocked_places(state) | {
        p for p, (owner, kind) in occupants(state).items()
        if p != place and (owner == seat or kind == "predator")
    }
    steps = distances(place, blocked)
    return sum(
        POINTS[animal] * reach_chance(steps.get(p, 99))
        for other, prey in enumerate(state["prey"]) if other != seat
        for animal, p in prey.items()
    )


def caught_points(state: State, seat: int) -> int:
    """Points ``seat``'s predator has caught."""
    return sum(POINTS[animal] for _, animal in state["caught"][seat])


class SurvivalBot:
    """Plans each turn as the module docstring says and plays the plan step by step."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)
        self._plan: list[tuple[State, Action]] = []

    def choose(self, observation: Observation) -> Action:
        """The action for this decision: one of ``observation.legal``."""
        state, legal_now = observation.state, observation.legal
        if self._plan:
            expected, action = self._plan.pop(0)
            if expected == state and action in legal_now:
                return action
            self._plan = []
        if len(legal_now) == 1:
            return legal_now[0]
        if state["phase"] == "place":
            return self._place(state, observation.seat, legal_now)
        plan = self._best_plan(state, observation.seat)
        if not plan or plan[0][1] not in legal_now:
            return legal_now[self._rng.randrange(len(legal_now))]
        self._plan = plan[1:]
        return plan[0][1]

    # -- placing --------------------------------------------------------------------

    def _place(self, state: State, seat: int, actions: list[Action]) -> Action:
        """The most valuable prey left, on the free place furthest from the other predators."""
        animal = max(state["unplaced"][seat], key=POINTS.__getitem__)
        maps = threats(state, seat)
        options = [a for a in actions if a["animal"] == animal]
        scored = [(-danger(a["at"], maps), self._rng.random(), i) for i, a in enumerate(options)]
        return options[max(scored)[2]]

    # -- a turn ---------------------------------------------------------------------

    def _best_plan(self, state: State, seat: int) -> list[tuple[State, Action]]:
        """The plan (expected state, action) for the rest of this turn with the best value."""
        best: tuple[float, list[tuple[State, Action]]] | None = None
        starts: list[Action | None] = [None]
        if state["phase"] == "assign":
            starts = [a for a in legal(state, seat) if a["do"] == "assign"]
        for first in starts:
            plan: list[tuple[State, Action]] = []
            now = state
            if first is not None:
                plan.append((now, first))
                now = apply_action(now, first)
            value = self._plan_moves(now, seat, plan)
            if best is None or value > best[0]:
                best = (value, plan)
        return best[1] if best else []

    def _plan_moves(self, state: State, seat: int, plan: list[tuple[State, Action]]) -> float:
        """Append the predator's path, the prey steps and an obstacle to ``plan``; the value reached."""
        now = state
        path = self._predator_path(now, seat)
        for place in path:
            if not self._same_turn(now, seat):
                break
            action: Action = {"do": "step", "token": "predator", "to": place}
            plan.append((now, action))
            now = apply_action(now, action)
        maps = threats(now, seat)
        while self._same_turn(now, seat) and now["prey_left"] > 0 and prey_steps(now):
            options = prey_steps(now)
            scored = []
            for i, (animal, place) in enumerate(options):
                here = now["prey"][seat][animal]
                gain = POINTS[animal] * (danger(here, maps) - danger(place, maps))
                scored.append((gain, self._rng.random(), i))
            animal, place = options[max(scored)[2]]
            action = {"do": "step", "token": animal, "to": place}
            plan.append((now, action))
            now = apply_action(now, action)
        if self._same_turn(now, seat) and now["obstacle_due"]:
            action = self._obstacle(now, seat)
            plan.append((now, action))
            now = apply_action(now, action)
        here = now["predators"][seat]
        hunt = HUNT_WEIGHT * hunt_value(now, seat, here)
        return caught_points(now, seat) + prey_value(now, seat, threats(now, seat)) + hunt

    @staticmethod
    def _same_turn(state: State, seat: int) -> bool:
        return bool(state["phase"] == "move" and state["turn"] == seat)

    def _obstacle(self, state: State, seat: int) -> Action:
        """The sampled obstacle layout that leaves its prey safest."""
        layouts = choices(state)
        sample = self._rng.sample(layouts, min(OBSTACLE_SAMPLE, len(layouts)))
        best: tuple[float, float, Action] | None = None
        for number, at, turn, _ in sample:
            action: Action = {"do": "obstacle", "id": number, "at": at, "turn": turn}
            obstacles = {**state["obstacles"], str(number): {"at": at, "turn": turn}}
            # The places the layout covers block paths through "walls", not through "obstacles".
            after = {**state, "obstacles": obstacles, "walls": walls(obstacles)}
            value = prey_value(after, seat, threats(after, seat))
            if best is None or value > best[0]:
                best = (value, self._rng.random(), action)
        assert best is not None
        return best[2]

    def _predator_path(self, state: State, seat: int) -> list[str]:
        """The path for the predator's whole move: most points caught, then the richest hunting ground."""
        here, left = state["predators"][seat], state["predator_left"]
        if here is None or left <= 0:
            return []
        blocked = predator_blocked(state, seat) | {here}
        victims = {p: POINTS[kind] for p, (owner, kind) in occupants(state).items()
                   if owner != seat and kind != "predator"}
        ends: dict[str, tuple[int, list[str]]] = {}
        length = 0
        for path in _paths(here, blocked, left):
            if len(path) < length:
                continue
            if len(path) > length:
                length, ends = len(path), {}
            caught = sum(victims.get(p, 0) for p in path)
            key = path[-1]
            if key not in ends or caught > ends[key][0]:
                ends[key] = (caught, path)
        if not ends:
            return []
        scored = []
        for end, (caught, path) in ends.items():
            tokens = {p: t for p, t in occupants(state).items() if p not in path and p != here}
            moved = {**state, "at": tokens,
                     "prey": [{a: p for a, p in prey.items() if s == seat or p not in path}
                              for s, prey in enumerate(state["prey"])]}
            scored.append((caught + HUNT_WEIGHT * hunt_value(moved, seat, end), self._rng.random(), path))
        # S11: the path must leave the prey the steps they could take beside the predator
        return next((path for *_, path in sorted(scored, reverse=True) if _walkable(state, seat, path)), [])


def _walkable(state: State, seat: int, path: list[str]) -> bool:
    """Whether the predator of ``seat`` may take ``path`` step by step from ``state`` (rule S11)."""
    now = state
    for place in path:
        if not (now["phase"] == "move" and now["turn"] == seat):
            return True  # the game ended with a catch
        if not predator_may_step(now, place):
            return False
        now = apply_action(now, {"do": "step", "token": "predator", "to": place})
    return True


def _paths(start: str, blocked: set[str], most: int) -> Iterator[list[str]]:
    """Every path from ``start`` of 1..``most`` steps that ends where it cannot go on (or at ``most``)."""
    path: list[str] = []
    seen = {start}

    def walk(place: str) -> Iterator[list[str]]:
        went = False
        if len(path) < most:
            for nxt in NEIGHBOURS[place]:
                if nxt not in blocked and nxt not in seen:
                    went = True
                    seen.add(nxt)
                    path.append(nxt)
                    yield from walk(nxt)
                    path.pop()
                    seen.discard(nxt)
        if not went and path:
            yield list(path)

    yield from walk(start)


def make_survival_bot(game: Game, seat: int, seed: int) -> SurvivalBot:
    """Build a Survival bot for ``seat`` (the bot hook's factory)."""
    return SurvivalBot(seed)
