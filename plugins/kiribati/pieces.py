"""Where the animals are, and the small changes every rule makes to them.

The state keeps each animal in exactly one place: on the island, on the mainland, or
in the ``animals`` list of one turtle as ``[seat, kind]``. Functions here that change
the state change the working copy they are given (the caller cloned it).
"""

from __future__ import annotations

from typing import Any

from atoll import State
from atoll.plugins.kiribati.meta import ANIMALS

Turtle = dict[str, Any]


def turtles(state: State) -> list[tuple[int, int, Turtle]]:
    """Every turtle on the board as (column, row, turtle), row by row from the south, west to east."""
    return [(c, r, t) for r, line in enumerate(state["board"]) for c, t in enumerate(line) if t is not None]


def locate(state: State, seat: int) -> dict[str, tuple[int, int]]:
    """Where ``seat``'s animals stand on turtles: kind -> (column, row)."""
    found: dict[str, tuple[int, int]] = {}
    for r, line in enumerate(state["board"]):
        for c, turtle in enumerate(line):
            if turtle is not None:
                for owner, kind in turtle["animals"]:
                    if owner == seat:
                        found[kind] = (c, r)
    return found


def put_on_island(state: State, seat: int, kind: str) -> None:
    """Put an animal on the island (it has already left its turtle); it loses its clamp grip."""
    island = state["island"][seat]
    island.append(kind)
    island.sort(key=ANIMALS.index)
    if state["clamp"][seat] == kind:
        state["clamp"][seat] = None


def take_off(turtle: Turtle, seat: int, kind: str) -> None:
    """Remove an animal from a turtle."""
    turtle["animals"].remove([seat, kind])


def send_home(state: State, turtle: Turtle, seat: int, kind: str) -> None:
    """An animal leaves its turtle and swims back to the island."""
    take_off(turtle, seat, kind)
    put_on_island(state, seat, kind)


def is_clamped(state: State, seat: int, kind: str) -> bool:
    """Whether the animal holds on with a clamp grip (rule K34); not a koala in a cloudy round (K39)."""
    if state["clamp"][seat] != kind:
        return False
    return not (kind == "koala" and state["event"] == "cloudy")


def is_tired(state: State, seat: int, kind: str) -> bool:
    """Whether the animal rests or sleeps (rules K31, K33) and so may not move."""
    return any(s == seat and k == kind for s, k, _ in state["tired"])


def fits(size: int, animals: list[list[Any]]) -> bool:
    """Whether ``animals`` fit on a turtle of ``size`` places: a 3-turtle has a fourth, flooded
    place on which only a kagu can stand (rule K26)."""
    if len(animals) <= size:
        return True
    return size == 3 and len(animals) == 4 and any(k == "kagu" for _, k in animals)


def room_for(size: int, animals: list[list[Any]], newcomer: list[Any], from_island: bool) -> bool:
    """Whether ``newcomer`` finds room among ``animals``; one coming from the island needs a place
    that is not flooded, so a kagu already aboard must be the one on the flooded place (K26)."""
    if not from_island:
        return fits(size, [*animals, newcomer])
    return len(animals) < size or (size == 3 and len(animals) == 3 and any(k == "kagu" for _, k in animals))


def rescue(state: State, seat: int, kind: str) -> None:
    """An animal reaches the mainland; a seat whose animals are all there is recorded as finished."""
    state["mainland"][seat].append(kind)
    if state["clamp"][seat] == kind:
        state["clamp"][seat] = None
    if len(state["mainland"][seat]) == len(state["animals"]) and seat not in state["finished"]:
        state["finished"].append(seat)
