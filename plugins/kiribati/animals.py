"""Moving the animals and their special abilities (rules K19-K27)."""

from __future__ import annotations

from typing import Any

from atoll import Action, State
from atoll.plugins.kiribati.board import (
    ISLAND,
    JUMPS,
    MAINLAND,
    PLACES,
    RABBIT_STEPS,
    ROW_PLACES,
    ROWS,
    STEPS,
    place_named,
)
from atoll.plugins.kiribati.pieces import (
    Turtle,
    find,
    is_clamped,
    is_tired,
    leave_island,
    locate,
    put_on,
    put_on_island,
    release,
    rescue,
    room_for,
    room_from_island,
    send_home,
    take_off,
)


def animal_moves(state: State, seat: int) -> list[Action]:
    """Every move ``seat``'s animals may make now: from the island first (K20), then the animals on
    turtles in the rulebook's order."""
    tired = _tired(state, seat)
    out = [] if state["moved"] else _from_island(state, seat, tired)
    where = locate(state, seat)
    if where:
        moved, extra = state["moved"], state["extra"]
        for kind in state["animals"]:
            # K30, K31, K33: each animal once a turn (twice with a feeding station), none tired
            if kind in where and kind not in tired and (kind not in moved or _fed(state, kind, extra)):
                col, row = where[kind]
                out += _from_turtle(state, seat, kind, col, row, None)
    return out


def moves_like(state: State, seat: int, action: Action) -> list[Action]:
    """Those of :func:`animal_moves` that could be ``action``: the moves of the animal it names onto
    the place it names. Checking an action against these is as strict as against all of them, and
    much cheaper."""
    kind, to = action.get("animal"), action.get("to")
    if not isinstance(kind, str) or is_tired(state, seat, kind):
        return []
    if kind in state["island"][seat]:
        spot = place_named(to, state["cols"])
        if spot is None or spot[1] != 0 or state["moved"]:
            return []
        turtle = state["board"][0][spot[0]]
        if turtle is None or not room_from_island(turtle):  # K20, K25: only onto a free place
            return []
        return [{"do": "move", "animal": kind, "to": ROW_PLACES[0][spot[0]]}]
    spot = find(state, seat, kind)
    if spot is None or (kind in state["moved"] and not _fed(state, kind, state["extra"])):
        return []
    return _from_turtle(state, seat, kind, *spot, to)


def can_move(state: State, seat: int) -> bool:
    """Whether any animal of ``seat`` may move now, as ``bool(animal_moves(state, seat))`` but
    stopping at the first animal that can."""
    tired = _tired(state, seat)
    if not state["moved"] and any(kind not in tired for kind in state["island"][seat]):
        for turtle in state["board"][0]:
            if turtle is not None and room_from_island(turtle):
                return True  # K20, K25: where there is a free place, any animal may come
    island, mainland = state["island"][seat], state["mainland"][seat]
    moved, extra = state["moved"], state["extra"]
    for kind in state["animals"]:
        # the animals on turtles that may still move, as in animal_moves; each looked for on its own,
        # since after a move there are few
        if kind in island or kind in mainland or kind in tired:
            continue
        if kind in moved and not _fed(state, kind, extra):
            continue
        spot = find(state, seat, kind)
        if spot is not None and (spot[1] in (0, ROWS - 1) or _from_turtle(state, seat, kind, *spot, None)):
            return True  # K22: from row 1 or 4 there is always a way off
    return False


def _fed(state: State, kind: str, extra: int) -> bool:
    """Whether a feeding station lets the animal move a second time (K30); in a cloudy round the
    cards have no effect on koalas (K39), so a koala never gets the second move."""
    return bool(extra) and not (kind == "koala" and state["event"] == "cloudy")


def _tired(state: State, seat: int) -> list[str]:
    """``seat``'s animals that rest or sleep (rules K31, K33)."""
    return [k for s, k, _ in state["tired"] if s == seat] if state["tired"] else []


def _from_turtle(state: State, seat: int, kind: str, col: int, row: int, to: object) -> list[Action]:
    """The moves of an animal on the turtle at (col, row): steps (K21, K23), jumps (K24), and from
    row 4 onto the mainland or from row 1 back to the island (K22); with ``to``, only those onto it."""
    board = state["board"]
    out: list[Action] = []
    for c, r, name in (RABBIT_STEPS if kind == "rabbit" else STEPS)[state["cols"]][row][col]:
        turtle = board[r][c]
        if turtle is None or (to is not None and to != name):
            continue
        if len(turtle["animals"]) < turtle["size"]:  # the common case, a free place, made quickly
            out.append({"do": "move", "animal": kind, "to": name})
        else:
            out += _arrivals(state, seat, kind, name, turtle)
    if kind == "monkey":
        out += _jumps(state, seat, col, row, to)
    if row == ROWS - 1 and (to is None or to == MAINLAND):
        out.append({"do": "move", "animal": kind, "to": MAINLAND})
    if row == 0 and (to is None or to == ISLAND):
        out.append({"do": "move", "animal": kind, "to": ISLAND})
    return out


def _from_island(state: State, seat: int, tired: list[str]) -> list[Action]:
    """K20: one animal from the island onto a turtle of row 1 "if there is a free place", and only as
    the first move (the caller checks that). Neither the kagu's flooded place (K26) nor a koala's
    displacing (K25) makes room for an animal from the island."""
    row1, names = state["board"][0], ROW_PLACES[0]
    free = [names[c] for c, turtle in enumerate(row1) if turtle and room_from_island(turtle)]
    return [{"do": "move", "animal": kind, "to": name}
            for kind in state["island"][seat] if kind not in tired for name in free]


def _jumps(state: State, seat: int, col: int, row: int, to: object) -> list[Action]:
    """K24: the monkey jumps straight over one turtle onto the next, never over open water."""
    board, out = state["board"], []
    for over_c, over_r, c, r, name in JUMPS[state["cols"]][row][col]:
        if board[over_r][over_c] is not None and board[r][c] is not None and (to is None or to == name):
            out += _arrivals(state, seat, "monkey", name, board[r][c])
    return out


def _arrivals(state: State, seat: int, kind: str, to: str, turtle: Turtle) -> list[Action]:
    """Moving from a turtle onto ``turtle``: if there is room; else, for a koala, by displacing one
    animal (K25)."""
    size, animals = turtle["size"], turtle["animals"]
    if len(animals) < size or room_for(size, animals, [seat, kind], from_island=False):
        return [{"do": "move", "animal": kind, "to": to}]
    if kind != "koala":
        return []
    return _bumps(state, seat, kind, to, turtle)


def _bumps(state: State, seat: int, kind: str, to: str, turtle: Turtle) -> list[Action]:
    """K25: a koala moving from a turtle onto a full ``turtle`` displaces one animal there, never a
    koala nor one holding a clamp grip, if that makes room for it."""
    animals: list[list[Any]] = turtle["animals"]
    out: list[Action] = []
    for victim in animals:
        if victim[1] == "koala" or is_clamped(state, victim[0], victim[1]):
            continue
        rest = [a for a in animals if a != victim]
        if room_for(turtle["size"], rest, [seat, kind], from_island=False):
            out.append({"do": "move", "animal": kind, "to": to, "bump": list(victim)})
    return out


def move(state: State, seat: int, action: Action) -> None:
    """Make a move from :func:`animal_moves`; a displaced animal swims back to the island."""
    kind, to = action["animal"], action["to"]
    spot = find(state, seat, kind)
    if spot is not None:
        take_off(state, *spot, seat, kind)
        release(state, seat, kind)
    else:
        leave_island(state, seat, kind)
        state["placed"] = True
    if kind in state["moved"]:
        state["extra"] -= 1
    else:
        state["moved"] = [*state["moved"], kind]
    if to == MAINLAND:
        rescue(state, seat, kind)
    elif to == ISLAND:
        put_on_island(state, seat, kind)
    else:
        col, row = PLACES[to]
        if "bump" in action:
            victim_seat, victim = action["bump"]
            send_home(state, col, row, victim_seat, victim)
        put_on(state, col, row, seat, kind)
