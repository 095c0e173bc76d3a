"""How tokens move: one step at a time, never onto a place touched this turn (rules S8-S13).

A step goes to a neighbouring place. Nothing jumps: a path only ever goes from a place to a
neighbour, so a token or obstacle in the way must be walked around. The predator must use
its whole die if any path allows it; prey move until their die is used or none can step.
"""

from __future__ import annotations

from collections import deque

from atoll import State
from atoll.plugins.survival.board import NEIGHBOURS
from atoll.plugins.survival.obstacles import blocked_places
from atoll.plugins.survival.state import occupants


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


def predator_steps(state: State) -> list[str]:
    """The places the predator of the player on turn may step to now (rules S8, S11): a step is
    allowed only if the predator can still go as far as it could before it."""
    seat, left = state["turn"], state["predator_left"]
    here = state["predators"][seat]
    if left <= 0 or here is None:
        return []
    blocked = predator_blocked(state, seat) | {here}
    can = longest(here, blocked, left)
    if can == 0:
        return []
    return [
        nxt for nxt in NEIGHBOURS[here]
        if nxt not in blocked and 1 + longest(nxt, blocked, can - 1) == can
    ]


def predator_may_step(state: State, to: object) -> bool:
    """Whether the predator of the player on turn may step to ``to`` now (what :func:`predator_steps`
    lists, checked for one place only)."""
    seat, left = state["turn"], state["predator_left"]
    here = state["predators"][seat]
    if left <= 0 or here is None or not isinstance(to, str) or to not in NEIGHBOURS[here]:
        return False
    blocked = predator_blocked(state, seat) | {here}
    if to in blocked:
        return False
    can = longest(here, blocked, left)
    return 1 + longest(to, blocked, can - 1) == can


def prey_may_step(state: State, animal: str, to: object) -> bool:
    """Whether the prey ``animal`` of the player on turn may step to ``to`` now."""
    here = state["prey"][state["turn"]].get(animal)
    if state["prey_left"] <= 0 or here is None or not isinstance(to, str) or to not in NEIGHBOURS[here]:
        return False
    return to not in prey_blocked(state)


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
    """The (animal, place) steps the prey of the player on turn may take now (rules S9, S11)."""
    seat = state["turn"]
    if state["prey_left"] <= 0:
        return []
    blocked = prey_blocked(state)
    return [
        (animal, nxt)
        for animal, place in state["prey"][seat].items()
        for nxt in NEIGHBOURS[place] if nxt not in blocked
    ]


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
