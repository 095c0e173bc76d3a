"""How tokens move: one step at a time, never onto a place touched this turn (rules S8-S13).

A step goes to a neighbouring place. Nothing jumps: a path only ever goes from a place to a
neighbour, so a token or obstacle in the way must be walked around. The predator and the prey
use their whole dice where paths allow it, as :mod:`~atoll.plugins.survival.whole_move` decides.
"""

from __future__ import annotations

from collections import deque

from atoll import State
from atoll.plugins.survival.board import NEIGHBOURS
from atoll.plugins.survival.obstacles import blocked_places
from atoll.plugins.survival.state import occupants
from atoll.plugins.survival.whole_move import PREDATOR, Search, Witness


def predator_blocked(state: State, seat: int) -> set[str]:
    """Where ``seat``'s predator may not step now: obstacles, places touched this turn, its own
    prey and the other predators. Other players' prey are no obstacle: stepping on them catches them."""
    blocked = blocked_places(state) | set(state["touched"])
    for place, (owner, kind) in occupants(state).items():
        if owner == seat or kind == "predator":
            blocked.add(place)
    return blocked


def prey_blocked(state: State) -> set[str]:
    """Where a prey of the player on turn may not step now: obstacles, touched places, any token."""
    return blocked_places(state) | set(state["touched"]) | set(occupants(state))


def longest(start: str, blocked: set[str], most: int) -> int:
    """The most steps (up to ``most``) a token at ``start`` can take without entering ``blocked``
    or any place twice; ``start`` itself counts as entered."""
    if most <= 0:
        return 0
    best = 0
    seen = {start}

    def walk(place: str, steps: int) -> bool:
        nonlocal best
        if steps > best:
            best = steps
            if best == most:
                return True
        for nxt in NEIGHBOURS[place]:
            if nxt not in blocked and nxt not in seen:
                seen.add(nxt)
                if walk(nxt, steps + 1):
                    return True
                seen.discard(nxt)
        return False

    walk(start, 0)
    return best


class _Left:
    """What the player on turn can still do this turn (rule S11): the predator's ``can`` steps and
    the prey's ``need`` steps beside it, and a ``witness`` route that takes them
    (:mod:`~atoll.plugins.survival.whole_move`)."""

    def __init__(self, state: State) -> None:
        seat = state["turn"]
        self.state = state
        self.here: str | None = state["predators"][seat]
        self.prey: dict[str, str] = state["prey"][seat]
        self.index = {animal: i for i, animal in enumerate(self.prey)}
        self.predator_blocked = predator_blocked(state, seat)
        if self.here is not None:
            self.predator_blocked.add(self.here)
        self.prey_blocked = prey_blocked(state)
        left = state["predator_left"] if self.here is not None else 0
        self.can = longest(self.here, self.predator_blocked, left) if self.here is not None else 0
        prey = list(self.prey.values())
        search = Search(NEIGHBOURS, self.here, self.predator_blocked, prey, self.prey_blocked)
        self.need, route = search.most_prey(self.can, state["prey_left"])
        self.witness = Witness(route, NEIGHBOURS, self.predator_blocked, self.prey_blocked, self.can)

    def predator_may_go(self, to: str) -> bool:
        """Whether a predator step to ``to`` leaves the rest of the turn whole. A catch that takes a
        player's last prey takes their predator off the board too (S16), and frees its place."""
        here = self.here
        if self.can == 0 or here is None or to in self.predator_blocked or to not in NEIGHBOURS[here]:
            return False
        if self.witness.allows(PREDATOR, to):
            return True
        freed: set[str] = set()
        victim = occupants(self.state).get(to)
        if victim is not None and len(self.state["prey"][victim[0]]) == 1:
            freed = {self.state["predators"][victim[0]]}
        search = Search(NEIGHBOURS, to, (self.predator_blocked | {to}) - freed, list(self.prey.values()),
                        (self.prey_blocked | {to}) - freed)
        return search.finish(self.can - 1, self.need) is not None

    def prey_may_go(self, animal: str, to: str) -> bool:
        """Whether the step of ``animal`` to ``to`` leaves the rest of the turn whole."""
        here = self.prey.get(animal)
        if self.need == 0 or here is None or to in self.prey_blocked or to not in NEIGHBOURS[here]:
            return False
        if self.witness.allows(self.index[animal], to):
            return True
        prey = [to if a == animal else p for a, p in self.prey.items()]
        search = Search(NEIGHBOURS, self.here, self.predator_blocked | {to}, prey, self.prey_blocked | {to})
        return search.finish(self.can, self.need - 1) is not None


def steps(state: State) -> tuple[list[str], list[tuple[str, str]]]:
    """:func:`predator_steps` and :func:`prey_steps` together, judging the rest of the turn once."""
    left = _Left(state)
    predator = [] if left.here is None or left.can == 0 else [
        nxt for nxt in NEIGHBOURS[left.here] if left.predator_may_go(nxt)]
    prey = [] if left.need == 0 else [
        (animal, nxt) for animal, place in left.prey.items() for nxt in NEIGHBOURS[place]
        if left.prey_may_go(animal, nxt)]
    return predator, prey


def predator_steps(state: State) -> list[str]:
    """The places the predator of the player on turn may step to now (rules S8, S11): a step is
    allowed only if the predator can still go as far as it could before it, and the prey beside it."""
    return steps(state)[0]


def predator_may_step(state: State, to: object) -> bool:
    """Whether the predator of the player on turn may step to ``to`` now (what :func:`predator_steps`
    lists, checked for one place only)."""
    return isinstance(to, str) and to in NEIGHBOURS and _Left(state).predator_may_go(to)


def prey_may_step(state: State, animal: str, to: object) -> bool:
    """Whether the prey ``animal`` of the player on turn may step to ``to`` now (what :func:`prey_steps`
    lists, checked for one step only)."""
    return isinstance(to, str) and to in NEIGHBOURS and _Left(state).prey_may_go(animal, to)


def can_step(state: State) -> bool:
    """Whether a token of the player on turn still has a step to take (cheaper than listing them:
    a token can go on exactly when a neighbour of it is open)."""
    seat = state["turn"]
    if state["predator_left"] > 0 and state["predators"][seat] is not None:
        blocked = predator_blocked(state, seat)
        if any(n not in blocked for n in NEIGHBOURS[state["predators"][seat]]):
            return True
    if state["prey_left"] > 0:
        blocked = prey_blocked(state)
        return any(n not in blocked for p in state["prey"][seat].values() for n in NEIGHBOURS[p])
    return False


def prey_steps(state: State) -> list[tuple[str, str]]:
    """The (animal, place) steps the prey of the player on turn may take now (rules S9, S11): each
    leaves the prey as many steps as they could take before it, less one, beside the predator's."""
    return steps(state)[1] if state["prey_left"] > 0 else []


def within(start: str, blocked: set[str], most: int) -> list[str]:
    """The places a token at ``start`` can reach in 1 to ``most`` steps, nearest first (a shortest
    route never enters a place twice, so this is exactly where some path of at most ``most`` ends)."""
    seen = {start: 0}
    queue = deque([start])
    while queue:
        place = queue.popleft()
        if seen[place] == most:
            continue
        for nxt in NEIGHBOURS[place]:
            if nxt not in blocked and nxt not in seen:
                seen[nxt] = seen[place] + 1
                queue.append(nxt)
    return [place for place in seen if place != start]


def reach(state: State) -> dict[str, list[str]]:
    """For the player on turn: every token still to move -> the places it can reach with the steps
    it has left (for the predator: places it can pass or end on; rule S23)."""
    if state["phase"] not in ("assign", "move"):
        return {}
    seat = state["turn"]
    found: dict[str, list[str]] = {}
    predator_left = state["predator_left"] if state["phase"] == "move" else max(state["dice"])
    prey_left = state["prey_left"] if state["phase"] == "move" else max(state["dice"])
    here = state["predators"][seat]
    if here is not None and predator_left > 0:
        found["predator"] = within(here, predator_blocked(state, seat), predator_left)
    if prey_left > 0:
        blocked = prey_blocked(state)
        for animal, place in state["prey"][seat].items():
            found[animal] = within(place, blocked, prey_left)
    return {token: places for token, places in found.items() if places}
