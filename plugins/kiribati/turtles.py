"""Turtles: drifting east and pushing, new turtles from the supply, diving and floating (rules K7-K18)."""

from __future__ import annotations

from typing import Any

from atoll import Action, State
from atoll.plugins.kiribati.board import NET_PLACES, ROW_PLACES, ROWS, parse_place, place, place_named
from atoll.plugins.kiribati.meta import tile_of
from atoll.plugins.kiribati.pieces import (
    Turtle,
    all_home,
    fits,
    is_clamped,
    resized,
    send_home,
    set_row,
    set_turtle,
)

#: The dice whose turtle action the player may leave undone: "may" move on a 5, "may" dive or
#: float on a 6 (rules K13, K14); on 1-4 a turtle must move.
OPTIONAL_DICE = (5, 6)


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


def _to_supply(state: State, tile: str, count: int) -> None:
    """Return ``count`` tiles of a kind (``"large"`` or ``"small"``) to the supply; take them if negative."""
    state["supply"] = {**state["supply"], tile: state["supply"][tile] + count}


def put_new(state: State, size: int, row: int) -> None:
    """Take a tile from the supply and put it, showing ``size`` places, in column 1 of ``row``."""
    _to_supply(state, tile_of(size), -1)
    set_turtle(state, 0, row, {"size": size, "animals": []})


def _netted(state: State, col: int, row: int) -> bool:
    return state["event"] == "fishing_net" and (col, row) in NET_PLACES


def can_drift(state: State, col: int, row: int) -> bool:
    """Whether the turtle at (col, row) may drift east: always, but in a Fishing net round (rule K40)."""
    return state["event"] != "fishing_net" or chain(state, col, row) is not None


def chain(state: State, col: int, row: int) -> list[int] | None:
    """The columns of the turtles that move when the turtle at (col, row) drifts east (it pushes
    the turtles right in front of it, rule K10); ``None`` if the fishing net stops them (rule K40)."""
    line, cols = state["board"][row], state["cols"]
    end = col  # the first place east of the chain
    while end < cols and line[end] is not None:
        end += 1
    # a turtle of the chain may neither leave a net place nor move onto one
    if state["event"] == "fishing_net" and any(
        _netted(state, c, row) for c in range(col, min(end + 1, cols))
    ):
        return None
    return list(range(col, end))


def drift(state: State, col: int, row: int) -> None:
    """The turtle at (col, row) drifts one place east, pushing those in front; a turtle pushed off
    the east edge returns to the supply and its animals swim back to the island (rule K11)."""
    moving = chain(state, col, row)
    assert moving is not None, "drift() needs a turtle free to move"
    line = list(state["board"][row])
    end = moving[-1] + 1  # the first place east of the chain
    if end == state["cols"]:  # the last turtle is pushed into the open sea
        gone: Turtle = line[end - 1]
        _to_supply(state, tile_of(gone["size"]), 1)
        all_home(state, gone)
        line[col + 1:end] = line[col:end - 1]
    else:
        line[col + 1:end + 1] = line[col:end]
    line[col] = None
    set_row(state, row, line)


def row_actions(state: State, row: int, sizes: list[int] | None = None) -> list[Action]:
    """What a die showing this row allows (rules K7-K9): drift any turtle of the row, or, when the
    row's first place is empty, put a new turtle there (``sizes``: :func:`new_sizes`, if known).
    An empty list: nothing happens."""
    line, names = state["board"][row], ROW_PLACES[row]
    out: list[Action] = [
        {"do": "turtle", "at": names[c]}
        for c, t in enumerate(line) if t is not None and can_drift(state, c, row)
    ]
    if line[0] is None:
        out += _new_turtles(row, new_sizes(state) if sizes is None else sizes)
    return out


def _new_turtles(row: int, sizes: list[int]) -> list[Action]:
    return [{"do": "new", "size": size, "row": row + 1} for size in sizes]


def _die_rows(die: int) -> range:
    """The rows whose turtles a die moves: 1-4 its row, 5 any (rule K13), 6 none (it dives or floats)."""
    if die <= ROWS:
        return range(die - 1, die)
    return range(ROWS) if die == 5 else range(0)


def die_actions(state: State, die: int) -> list[Action]:
    """The turtle actions a die allows: 1-4 its row, 5 any row (rule K13), 6 dive or float (K14)."""
    if die <= ROWS:
        return row_actions(state, die - 1)
    out: list[Action] = []
    if die == 5:
        sizes = new_sizes(state)
        for row in range(ROWS):
            out += row_actions(state, row, sizes)
        return out
    for r, line in enumerate(state["board"]):
        for c, turtle in enumerate(line):
            if turtle is not None:
                out += _dive_or_float(state, c, r, turtle)
    return out


def die_actions_like(state: State, die: int, action: Action) -> list[Action]:
    """Those of :func:`die_actions` that could be ``action``: the new turtles if it puts one in, else
    the actions on the place it names. Checking an action against these is as strict as against all
    of them, and much cheaper."""
    board, rows = state["board"], _die_rows(die)
    if action.get("do") == "new":
        sizes = new_sizes(state)
        return [a for row in rows if board[row][0] is None for a in _new_turtles(row, sizes)]
    spot = place_named(action.get("at"), state["cols"])
    if spot is None or board[spot[1]][spot[0]] is None:
        return []
    col, row = spot
    if die == 6:
        return _dive_or_float(state, col, row, board[row][col])
    if row not in rows or not can_drift(state, col, row):
        return []
    return [{"do": "turtle", "at": ROW_PLACES[row][col]}]


def _dive_or_float(state: State, col: int, row: int, turtle: Turtle) -> list[Action]:
    """What a 6 allows for one turtle (rules K14-K17)."""
    out: list[Action] = []
    if can_dive(state, turtle):
        out.append({"do": "dive", "at": ROW_PLACES[row][col]})
    if can_float(state, turtle):
        out.append({"do": "float", "at": ROW_PLACES[row][col]})
    return out


def die_allows_any(state: State, die: int) -> bool:
    """Whether the die allows any turtle action (rule K9: if not, nothing happens); the same as
    ``bool(die_actions(state, die))``, but it stops at the first."""
    board = state["board"]
    if die == 6:
        for line in board:
            for turtle in line:
                if turtle is not None and (can_dive(state, turtle) or can_float(state, turtle)):
                    return True
        return False
    supply = state["supply"]
    for row in _die_rows(die):
        line = board[row]
        if line[0] is None and (supply["large"] or supply["small"]):
            return True  # a new turtle can come in
        for col, turtle in enumerate(line):
            if turtle is not None and can_drift(state, col, row):
                return True
    return False


def can_dive(state: State, turtle: Turtle) -> bool:
    """Whether the turtle can dive now: its new size exists (3 -> 2 needs a small tile, K16) and
    every animal that must be thrown off can be (a clamped animal holds fast, rule K34)."""
    if turtle["size"] == 3 and not state["supply"]["small"]:
        return False
    size = turtle["size"] - 1
    if size == 0 or len(turtle["animals"]) <= size:
        return True  # nobody has to be thrown off
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
        _to_supply(state, "small", 1)
        all_home(state, turtle)
        set_turtle(state, col, row, None)
        return
    if size == 3:
        _to_supply(state, "large", 1)
        _to_supply(state, "small", -1)
    set_turtle(state, col, row, resized(turtle, size - 1))
    kagu_first = size == 3 and len(turtle["animals"]) == 4
    if kagu_first or not fits(size - 1, turtle["animals"]):
        state["throw"] = {"at": place(col, row), "kagu": kagu_first}


def float_up(state: State, col: int, row: int) -> None:
    """The turtle at (col, row) floats up one size (rule K17); 2 -> 3 swaps tiles with the supply."""
    turtle: Turtle = state["board"][row][col]
    if turtle["size"] == 2:
        _to_supply(state, "large", -1)
        _to_supply(state, "small", 1)
    set_turtle(state, col, row, resized(turtle, turtle["size"] + 1))


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
    send_home(state, col, row, seat, kind)
    turtle: Turtle = state["board"][row][col]
    state["throw"] = None if fits(turtle["size"], turtle["animals"]) else {**state["throw"], "kagu": False}
