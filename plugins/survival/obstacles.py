"""The four movable obstacles: the places they cover and where they may go (rules S5, S14, S15)."""

from __future__ import annotations

from functools import cache

from atoll import State
from atoll.plugins.survival.board import COORDS, FIXED_SET, PLACES, name, on_board, turned
from atoll.plugins.survival.meta import OBSTACLES
from atoll.plugins.survival.state import occupants

#: A way to lay an obstacle: (obstacle number, the place named in its text, turn, places covered).
Placement = tuple[int, str, int, tuple[str, ...]]


def footprint(number: int, at: str, turn: int) -> tuple[str, ...] | None:
    """The places obstacle ``number`` covers laid at ``at`` turned ``turn`` times, or ``None`` if it
    would stick out of the board (or the arguments name no such obstacle or place)."""
    if not isinstance(number, int) or not isinstance(at, str) or not isinstance(turn, int):
        return None
    return _footprint(number, at, turn)


@cache
def _footprint(number: int, at: str, turn: int) -> tuple[str, ...] | None:
    if number not in OBSTACLES or at not in COORDS or not 0 <= turn < OBSTACLES[number][2]:
        return None
    q, r = COORDS[at]
    places = []
    for offset in OBSTACLES[number][1]:
        dq, dr = turned(offset, turn)
        if not on_board(q + dq, r + dr):
            return None
        places.append(name(q + dq, r + dr))
    return tuple(places)


@cache
def layouts(number: int) -> tuple[Placement, ...]:
    """Every way to lay obstacle ``number`` on the board clear of the fixed obstacles (the pattern it
    fits, rule S5), place by place in board order, then turn by turn."""
    found: list[Placement] = []
    for at in PLACES:
        for turn in range(OBSTACLES[number][2]):
            places = footprint(number, at, turn)
            if places is not None and not FIXED_SET.intersection(places):
                found.append((number, at, turn, places))
    return tuple(found)


@cache
def covering(number: int) -> dict[str, frozenset[int]]:
    """Place -> the positions in :func:`layouts` of obstacle ``number`` that cover it: a layout is
    free exactly when it is in none of the sets of the places taken, which is quicker to find than
    testing every layout against them."""
    found: dict[str, set[int]] = {}
    for i, (*_, places) in enumerate(layouts(number)):
        for place in places:
            found.setdefault(place, set()).add(i)
    return {place: frozenset(found.get(place, ())) for place in PLACES}


def movable_places(state: State, skip: str | None = None) -> set[str]:
    """The places the movable obstacles on the board cover (leaving out obstacle ``skip``)."""
    covered: set[str] = set()
    for key, laid in state["obstacles"].items():
        if key != skip:
            covered.update(footprint(int(key), laid["at"], laid["turn"]) or ())
    return covered


def blocked_places(state: State) -> set[str]:
    """Places no token may enter: the fixed obstacles and the movable ones on the board."""
    return set(FIXED_SET).union(state["walls"])


def walls(obstacles: dict[str, dict[str, object]]) -> list[str]:
    """The places the movable obstacles laid as in ``obstacles`` cover, sorted (the state's ``"walls"``)."""
    return sorted(movable_places({"obstacles": obstacles}))


def choices(state: State, *, first: bool = False) -> list[Placement]:
    """Where the player on turn may lay an obstacle now (rule S14): while fewer than four are out,
    any obstacle still off the board; once all four are out, any of them to a new position (S15).
    Never on a token or another obstacle. ``first``: stop at the first one (to ask whether there is any)."""
    taken = set(occupants(state))
    out = state["obstacles"]
    numbers = [n for n in OBSTACLES if str(n) not in out] or list(OBSTACLES)
    found: list[Placement] = []
    for number in numbers:
        key = str(number)
        cover = covering(number)
        unfit: set[int] = set()
        for place in taken | movable_places(state, skip=key):
            unfit.update(cover.get(place, ()))
        now = out.get(key)
        for i, placement in enumerate(layouts(number)):
            if i in unfit or (now is not None and (now["at"], now["turn"]) == placement[1:3]):
                continue
            found.append(placement)
            if first:
                return found
    return found


def may_lay(state: State, number: int, at: str, turn: int) -> bool:
    """Whether laying (or moving) obstacle ``number`` to ``at`` turned ``turn`` times is one of
    :func:`choices` (checked for this one layout only)."""
    places = footprint(number, at, turn)
    if places is None or not FIXED_SET.isdisjoint(places):
        return False
    key, out = str(number), state["obstacles"]
    if len(out) < len(OBSTACLES) and key in out:
        return False
    now = out.get(key)
    if now is not None and (now["at"], now["turn"]) == (at, turn):
        return False
    taken = set(occupants(state)) | movable_places(state, skip=key)
    return taken.isdisjoint(places)


def bound() -> int:
    """The most obstacle choices any position can have: every layout of every obstacle."""
    return sum(len(layouts(n)) for n in OBSTACLES)
