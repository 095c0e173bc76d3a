"""Turtles: drifting east and pushing, new turtles from the supply, diving and floating (rules K7-K18)."""

from __future__ import annotations

from typing import Any

from atoll import Action, State
from atoll.plugins.kiribati.board import NET_PLACES, ROWS, parse_place, place
from atoll.plugins.kiribati.meta import tile_of
from atoll.plugins.kiribati.pieces import Turtle, fits, is_clamped, put_on_island, send_home, turtles


def setup_faces(state: State) -> tuple[int, ...]:
    """The faces a random turtle from the supply can show: each tile once with each side (rule K4)."""
    large: int = state["supply"]["large"]
    small: int = state["supply"]["small"]
    return (4,) * large + (3,) * large + (2,) * small + (1,) * small


def new_sizes(state: State) -> list[int]:
    """The sizes a new turtle from the supply may have: a large tile as 4 or 3, a small one as 2 or 1."""
    sizes = []
    if state["supply"]["large"]:
        sizes += [4, 3]
    if state["supply"]["small"]:
        sizes += [2, 1]
    return sizes


def put_new(state: State, size: int, row: int) -> None:
    """Take a tile from the supply and put it, showing ``size`` places, in column 1 of ``row``."""
    state["supply"][tile_of(size)] -= 1
    state["board"][row][0] = {"size": size, "animals": []}


def _netted(state: State, col: int, row: int) -> bool:
    return state["event"] == "fishing_net" and (col, row) in NET_PLACES


def chain(state: State, col: int, row: int) -> list[int] | None:
    """The columns of the turtles that move when the turtle at (col, row) drifts east (it pushes
    the turtles right in front of it, rule K10); ``None`` if the fishing net stops them (rule K40)."""
    line, cols = state["board"][row], state["cols"]
    moving = []
    c = col
    while c < cols and line[c] is not None:
        moving.append(c)
        c += 1
    for c in moving:
        if _netted(state, c, row) or (c + 1 < cols and _netted(state, c + 1, row)):
            return None
    return moving


def drift(state: State, col: int, row: int) -> None:
    """The turtle at (col, row) drifts one place east, pushing those in front; a turtle pushed off
    the east edge returns to the supply and its animals swim back to the island (rule K11)."""
    moving = chain(state, col, row)
    assert moving is not None, "drift() needs a turtle free to move"
    line = state["board"][row]
    last = moving[-1]
    if last + 1 == state["cols"]:
        gone: Turtle = line[last]
        state["supply"][tile_of(gone["size"])] += 1
        for seat, kind in list(gone["animals"]):
            send_home(state, gone, seat, kind)
        line[last] = None
        moving = moving[:-1]
    for c in reversed(moving):
        line[c + 1], line[c] = line[c], None


def row_actions(state: State, row: int) -> list[Action]:
    """What a die showing this row allows (rules K7-K9): drift any turtle of the row, or, when the
    row's first place is empty, put a new turtle there. An empty list: nothing happens."""
    line = state["board"][row]
    out: list[Action] = [
        {"do": "turtle", "at": place(c, row)}
        for c, t in enumerate(line) if t is not None and chain(state, c, row) is not None
    ]
    if line[0] is None:
        out += [{"do": "new", "size": size, "row": row + 1} for size in new_sizes(state)]
    return out


def die_actions(state: State, die: int) -> list[Action]:
    """The turtle actions a die allows: 1-4 its row, 5 any row (rule K13), 6 dive or float (K14)."""
    if die <= ROWS:
        return row_actions(state, die - 1)
    if die == 5:
        return [a for row in range(ROWS) for a in row_actions(state, row)]
    out: list[Action] = []
    for c, r, turtle in turtles(state):
        if can_dive(state, turtle):
            out.append({"do": "dive", "at": place(c, r)})
        if can_float(state, turtle):
            out.append({"do": "float", "at": place(c, r)})
    return out


def _dive_size(state: State, size: int) -> int | None:
    """The size after a dive, or ``None`` if the tile cannot dive (3 -> 2 needs a small tile, K16)."""
    if size == 3 and not state["supply"]["small"]:
        return None
    return size - 1


def can_dive(state: State, turtle: Turtle) -> bool:
    """Whether the turtle can dive now: its new size exists and every animal that must be thrown
    off can be (a clamped animal holds fast, rule K34)."""
    size = _dive_size(state, turtle["size"])
    if size is None:
        return False
    if size == 0:
        return True
    animals = list(turtle["animals"])
    if turtle["size"] == 3 and len(animals) == 4:
        animals.remove(_flooded_kagus(state, animals)[0])
    loose = sum(1 for s, k in animals if not is_clamped(state, s, k))
    need = 0 if fits(size, animals) else len(animals) - size
    return loose >= need


def _flooded_kagus(state: State, animals: list[list[Any]]) -> list[list[Any]]:
    """The kagus that may be the one on a 3-turtle's flooded place: unclamped ones first (K26)."""
    kagus = [a for a in animals if a[1] == "kagu"]
    loose = [a for a in kagus if not is_clamped(state, a[0], a[1])]
    return loose or kagus


def can_float(state: State, turtle: Turtle) -> bool:
    """Whether the turtle can float up (rule K17): not a 4, and 2 -> 3 needs a large tile."""
    size = turtle["size"]
    return size < 4 and not (size == 2 and not state["supply"]["large"])


def dive(state: State, col: int, row: int) -> None:
    """The turtle at (col, row) dives (rule K15). A 1-turtle goes under: back to the supply, and its
    animals swim home. An over-full turtle waits in ``state["throw"]`` for the player to choose."""
    turtle: Turtle = state["board"][row][col]
    size = turtle["size"]
    if size == 1:
        state["supply"]["small"] += 1
        for seat, kind in list(turtle["animals"]):
            send_home(state, turtle, seat, kind)
        state["board"][row][col] = None
        return
    if size == 3:
        state["supply"]["large"] += 1
        state["supply"]["small"] -= 1
    turtle["size"] = size - 1
    kagu_first = size == 3 and len(turtle["animals"]) == 4
    if kagu_first or not fits(turtle["size"], turtle["animals"]):
        state["throw"] = {"at": place(col, row), "kagu": kagu_first}


def float_up(state: State, col: int, row: int) -> None:
    """The turtle at (col, row) floats up one size (rule K17); 2 -> 3 swaps tiles with the supply."""
    turtle: Turtle = state["board"][row][col]
    if turtle["size"] == 2:
        state["supply"]["large"] -= 1
        state["supply"]["small"] += 1
    turtle["size"] += 1


def throw_candidates(state: State) -> list[list[Any]]:
    """The animals the player on turn may throw off the diving turtle (rules K18, K26, K34)."""
    col, row = parse_place(state["throw"]["at"])
    animals = state["board"][row][col]["animals"]
    if state["throw"]["kagu"]:
        return _flooded_kagus(state, animals)
    return [a for a in animals if not is_clamped(state, a[0], a[1])]


def throw(state: State, seat: int, kind: str) -> None:
    """Throw one animal off the diving turtle; the throw is over once the rest fit."""
    col, row = parse_place(state["throw"]["at"])
    turtle: Turtle = state["board"][row][col]
    turtle["animals"].remove([seat, kind])
    put_on_island(state, seat, kind)
    state["throw"]["kagu"] = False
    if fits(turtle["size"], turtle["animals"]):
        state["throw"] = None
