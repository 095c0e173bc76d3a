"""What a player can still do in a turn with all their tokens together (rules S8-S11).

The rulebook says "you cannot move less than the number shown on each dice", and a token that is
blocked in "moves as much as it can". The tokens of one player never enter a place twice in a turn,
together (S10), so the rest of a turn is a path for the predator and paths for the prey that share
no place: a step is allowed only if such paths still use what is left of both dice, as far as they
could be used before it. The predator comes first: it goes as far as it could alone, and the prey
as far as they can beside it (our decision).

The search is written once for both the full rules (places are names) and the fast path (places are
numbers), so the two can never read the rule differently.
"""

from __future__ import annotations

from collections.abc import Sequence, Set
from typing import Generic, Protocol, TypeVar

P = TypeVar("P")

#: The token of a step in a :data:`Route`: the predator, or a prey by its index in the list searched.
PREDATOR = -1
#: The rest of a turn, one step at a time: (token, place entered); the predator's steps come last.
Route = list[tuple[int, P]]


class Neighbours(Protocol[P]):
    """Place -> its neighbouring places: a dict of names, or a tuple indexed by place number."""

    def __getitem__(self, place: P, /) -> Sequence[P]:
        """The places next to ``place``."""
        ...


class Search(Generic[P]):
    """Searches for the rest of a turn from one position: paths for the prey, then for the predator,
    sharing no place. ``predator_blocked`` and ``prey_blocked`` are where each may never step (touched
    places, tokens in the way, obstacles, and the tokens' own places)."""

    def __init__(self, neighbours: Neighbours[P], predator: P | None, predator_blocked: Set[P],
                 prey: Sequence[P], prey_blocked: Set[P]) -> None:
        self.neighbours = neighbours
        self.predator = predator
        self.predator_blocked = predator_blocked
        self.prey = prey
        self.prey_blocked = prey_blocked
        self.used: set[P] = set()
        self.route: Route[P] = []
        #: Give up at the first full set of prey paths the predator cannot get past (a quick try).
        self.first_leaf = False
        self.gave_up = False

    def restart(self, first_leaf: bool = False) -> None:
        """Forget the paths tried so far."""
        self.used.clear()
        self.route.clear()
        self.first_leaf, self.gave_up = first_leaf, False

    def predator_path(self, place: P, need: int) -> bool:
        """A path of ``need`` more steps for the predator at ``place``."""
        if need == 0:
            return True
        for nxt in self.neighbours[place]:
            if nxt not in self.predator_blocked and nxt not in self.used:
                self.used.add(nxt)
                self.route.append((PREDATOR, nxt))
                if self.predator_path(nxt, need - 1):
                    return True
                self.used.discard(nxt)
                self.route.pop()
        return False

    def predator_finishes(self, need: int) -> bool:
        """Whether the predator can still take ``need`` steps beside the paths found so far."""
        return need == 0 or (self.predator is not None and self.predator_path(self.predator, need))

    def prey_paths(self, index: int, place: P, need: int, predator_need: int) -> bool:
        """``need`` more prey steps: prey ``index`` (now at ``place``) walks on, or stops and the
        next prey takes over; so each set of paths is tried once. Then the predator's path."""
        if need == 0:
            done = self.predator_finishes(predator_need)
            self.gave_up = self.first_leaf and not done
            return done
        for nxt in self.neighbours[place]:
            if nxt not in self.prey_blocked and nxt not in self.used:
                self.used.add(nxt)
                self.route.append((index, nxt))
                if self.prey_paths(index, nxt, need - 1, predator_need):
                    return True
                self.used.discard(nxt)
                self.route.pop()
                if self.gave_up:
                    return False
        return index + 1 < len(self.prey) and self.prey_paths(index + 1, self.prey[index + 1], need,
                                                              predator_need)

    def finish(self, predator_need: int, prey_need: int) -> Route[P] | None:
        """A way for the predator to take ``predator_need`` more steps and the prey ``prey_need`` more
        among them, no two of these steps entering the same place; None if there is none."""
        self.restart()
        if prey_need == 0:
            return list(self.route) if self.predator_finishes(predator_need) else None
        if not self.prey:
            return None
        if predator_need:
            self.restart(first_leaf=True)
            if self.prey_paths(0, self.prey[0], prey_need, predator_need):
                return list(self.route)
            # Then each alone, so that a dead end is found without trying every way around it.
            self.restart()
            if not self.predator_finishes(predator_need):
                return None
            self.restart()
            if not self.prey_paths(0, self.prey[0], prey_need, 0):
                return None
            self.restart()
        return list(self.route) if self.prey_paths(0, self.prey[0], prey_need, predator_need) else None

    def most_prey(self, predator_need: int, prey_left: int) -> tuple[int, Route[P]]:
        """The most steps (up to ``prey_left``) the prey can still take while the predator takes its
        ``predator_need``, and a route that takes them (the predator's steps included)."""
        for need in range(prey_left, -1, -1):
            route = self.finish(predator_need, need)
            if route is not None:
                return need, route
        return 0, []


def _walk(
    neighbours: Neighbours[P], place: P, blocked: Set[P], avoid: Set[P], seen: set[P], need: int
) -> bool:
    """Whether one token at ``place`` can take ``need`` more steps, entering neither ``blocked``,
    ``avoid`` nor a place of ``seen`` (the places it entered so far)."""
    if need == 0:
        return True
    for nxt in neighbours[place]:
        if nxt not in blocked and nxt not in avoid and nxt not in seen:
            seen.add(nxt)
            if _walk(neighbours, nxt, blocked, avoid, seen, need - 1):
                return True
            seen.discard(nxt)
    return False


class Witness(Generic[P]):
    """One route for the rest of a turn, to let most steps through without a search: a step that
    keeps a route possible is allowed (rule S11), and this one often shows it at once."""

    def __init__(self, route: Route[P], neighbours: Neighbours[P], predator_blocked: Set[P],
                 prey_blocked: Set[P], predator_need: int) -> None:
        self.neighbours = neighbours
        self.predator_blocked = predator_blocked
        self.prey_blocked = prey_blocked
        self.predator_need = predator_need
        self.first: dict[int, P] = {}
        self.steps: dict[int, int] = {}
        for token, place in route:
            self.first.setdefault(token, place)
            self.steps[token] = self.steps.get(token, 0) + 1
        self.places = {place for _, place in route}
        self.prey_places = {place for token, place in route if token != PREDATOR}

    def allows(self, token: int, to: P) -> bool:
        """Whether a step of ``token`` (a prey's index, or :data:`PREDATOR`) to ``to`` surely leaves
        a route for the rest of the turn: it is the token's next step on this route; or, off the
        route, the token can walk the steps it had on the route from ``to`` beside the others'
        paths. False means only that a search must tell."""
        if self.first.get(token) == to:
            return True
        if token == PREDATOR:
            if to in self.prey_places:
                return False
            need = self.predator_need - 1
            return _walk(self.neighbours, to, self.predator_blocked, self.prey_places, {to}, need)
        if to in self.places:
            return False
        mine = self.steps.get(token, 0)
        return mine <= 1 or _walk(self.neighbours, to, self.prey_blocked, self.places, {to}, mine - 1)
