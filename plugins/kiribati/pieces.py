"""Where the animals are, and the small changes every rule makes to them.

The state keeps each animal in exactly one place: on the island, on the mainland, or
in the ``animals`` list of one turtle as ``[seat, kind]``.

Functions here that change the state change the working copy they are given
(:func:`atoll.plugins.kiribati.state.copy_state`), and only by giving one of its keys a new
value: the lists and dicts inside are shared with the state it was copied from, which must
stay as it was. So a turtle is changed by putting a new turtle in its place, and the island
by a new list.
"""

from __future__ import annotations

from typing import Any

from atoll import State
from atoll.plugins.kiribati.meta import ANIMALS

Turtle = dict[str, Any]


def replaced(items: list[Any], index: int, value: Any) -> list[Any]:
    """A copy of ``items`` with ``value`` in place of the item at ``index``."""
    out = list(items)
    out[index] = value
    return out


def turtles(state: State) -> list[tuple[int, int, Turtle]]:
    """Every turtle on the board as (column, row, turtle), row by row from the south, west to east."""
    return [(c, r, t) for r, line in enumerate(state["board"]) for c, t in enumerate(line) if t is not None]


def locate(state: State, seat: int) -> dict[str, tuple[int, int]]:
    """Where ``seat``'s animals stand on turtles: kind -> (column, row), found row by row from the south."""
    found: dict[str, tuple[int, int]] = {}
    left = len(state["animals"]) - len(state["island"][seat]) - len(state["mainland"][seat])  # afloat
    if not left:
        return found
    for r, line in enumerate(state["board"]):
        for c, turtle in enumerate(line):
            if turtle is not None:
                for owner, kind in turtle["animals"]:
                    if owner == seat:
                        found[kind] = (c, r)
                        left -= 1
                        if not left:
                            return found
    return found


def find(state: State, seat: int, kind: object) -> tuple[int, int] | None:
    """Where ``seat``'s animal ``kind`` stands on a turtle as (column, row), or ``None`` if it does not."""
    if kind in state["island"][seat] or kind in state["mainland"][seat]:
        return None
    pair = [seat, kind]
    for r, line in enumerate(state["board"]):
        for c, turtle in enumerate(line):
            if turtle is not None and pair in turtle["animals"]:
                return c, r
    return None


def set_turtle(state: State, col: int, row: int, turtle: Turtle | None) -> None:
    """Put ``turtle`` (``None``: open water) on place (col, row), in a new board and a new row."""
    board = list(state["board"])
    board[row] = replaced(board[row], col, turtle)
    state["board"] = board


def set_row(state: State, row: int, line: list[Turtle | None]) -> None:
    """Make ``line`` (a new list) row ``row`` of a new board."""
    state["board"] = replaced(state["board"], row, line)


def resized(turtle: Turtle, size: int) -> Turtle:
    """``turtle`` showing ``size`` places, carrying the same animals."""
    return {"size": size, "animals": turtle["animals"]}


def take_off(state: State, col: int, row: int, seat: int, kind: str) -> None:
    """Remove an animal from the turtle at (col, row)."""
    turtle: Turtle = state["board"][row][col]
    rest = [a for a in turtle["animals"] if a[0] != seat or a[1] != kind]
    set_turtle(state, col, row, {"size": turtle["size"], "animals": rest})


def put_on(state: State, col: int, row: int, seat: int, kind: str) -> None:
    """Put an animal on the turtle at (col, row), after those already there."""
    turtle: Turtle = state["board"][row][col]
    set_turtle(state, col, row, {"size": turtle["size"], "animals": [*turtle["animals"], [seat, kind]]})


def release(state: State, seat: int, kind: str) -> None:
    """The animal lets go of its turtle: a clamp grip it held ends (rule K34)."""
    if state["clamp"][seat] == kind:
        state["clamp"] = replaced(state["clamp"], seat, None)


def put_on_island(state: State, seat: int, kind: str) -> None:
    """Put an animal on the island (it has already left its turtle); it loses its clamp grip."""
    island = [*state["island"][seat], kind]
    island.sort(key=ANIMALS.index)
    state["island"] = replaced(state["island"], seat, island)
    release(state, seat, kind)


def leave_island(state: State, seat: int, kind: str) -> None:
    """Take an animal off the island."""
    island = list(state["island"][seat])
    island.remove(kind)
    state["island"] = replaced(state["island"], seat, island)


def send_home(state: State, col: int, row: int, seat: int, kind: str) -> None:
    """An animal leaves the turtle at (col, row) and swims back to the island."""
    take_off(state, col, row, seat, kind)
    put_on_island(state, seat, kind)


def all_home(state: State, turtle: Turtle) -> None:
    """Every animal of a turtle that leaves the board swims back to the island."""
    for seat, kind in turtle["animals"]:
        put_on_island(state, seat, kind)


def is_clamped(state: State, seat: int, kind: str) -> bool:
    """Whether the animal holds on with a clamp grip (rule K34); not a koala in a cloudy round (K39)."""
    if state["clamp"][seat] != kind:
        return False
    return not (kind == "koala" and state["event"] == "cloudy")


def is_tired(state: State, seat: int, kind: str) -> bool:
    """Whether the animal rests or sleeps (rules K31, K33) and so may not move."""
    return bool(state["tired"]) and any(s == seat and k == kind for s, k, _ in state["tired"])


def fits(size: int, animals: list[list[Any]]) -> bool:
    """Whether ``animals`` fit on a turtle of ``size`` places: a 3-turtle has a fourth, flooded
    place on which only a kagu can stand (rule K26)."""
    if len(animals) <= size:
        return True
    return size == 3 and len(animals) == 4 and any(k == "kagu" for _, k in animals)


def room_for(size: int, animals: list[list[Any]], newcomer: list[Any], from_island: bool) -> bool:
    """Whether ``newcomer`` finds room among ``animals``. A full 3-turtle takes a fourth animal when a
    kagu walks onto its flooded place: the newcomer itself, or a kagu aboard making room. The kagu's
    ability does not apply when an animal comes from the island (K26): it needs a free place."""
    aboard = len(animals)
    if aboard < size:
        return True
    if from_island or size != 3 or aboard != 3:
        return False
    return newcomer[1] == "kagu" or any(k == "kagu" for _, k in animals)


def room_from_island(turtle: Turtle) -> bool:
    """Whether an animal coming from the island finds room on ``turtle``: a free place (K26)."""
    size: int = turtle["size"]
    return len(turtle["animals"]) < size


def rescue(state: State, seat: int, kind: str) -> None:
    """An animal reaches the mainland; a seat whose animals are all there is recorded as finished."""
    mainland = [*state["mainland"][seat], kind]
    state["mainland"] = replaced(state["mainland"], seat, mainland)
    release(state, seat, kind)
    if len(mainland) == len(state["animals"]) and seat not in state["finished"]:
        state["finished"] = [*state["finished"], seat]
