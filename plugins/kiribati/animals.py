"""Moving the animals and their special abilities (rules K19-K27)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from atoll import Action, State
from atoll.plugins.kiribati.board import (
    DIAGONAL,
    ISLAND,
    MAINLAND,
    ORTHOGONAL,
    ROWS,
    on_board,
    parse_place,
    place,
)
from atoll.plugins.kiribati.pieces import (
    Turtle,
    is_clamped,
    is_tired,
    locate,
    put_on_island,
    rescue,
    room_for,
    take_off,
)


def animal_moves(state: State, seat: int, only: object = None) -> list[Action]:
    """Every move ``seat``'s animals (or only its animal ``only``) may make now, animal by animal."""
    return [move for moves in _moves_by_animal(state, seat, only) for move in moves]


def can_move(state: State, seat: int) -> bool:
    """Whether any animal of ``seat`` may move now (stops at the first that can)."""
    return any(_moves_by_animal(state, seat, None))


def _moves_by_animal(state: State, seat: int, only: object) -> Iterator[list[Action]]:
    """The moves, one batch after another (empty batches are left out)."""
    board, cols = state["board"], state["cols"]
    if not state["moved"]:
        # K20: one animal from the island onto a turtle of row 1, and only as the first move;
        # the kagu's flooded place does not count from the island (K26).
        for kind in state["island"][seat]:
            if (only is None or kind == only) and not is_tired(state, seat, kind):
                out = [
                    a for c, turtle in enumerate(board[0]) if turtle is not None
                    for a in _arrivals(state, seat, kind, place(c, 0), turtle, from_island=True)
                ]
                if out:
                    yield out
    where = locate(state, seat)
    for kind in state["animals"]:
        if kind not in where or (only is not None and kind != only) or is_tired(state, seat, kind):
            continue
        if kind in state["moved"] and not state["extra"]:
            continue
        col, row = where[kind]
        out = []
        steps = ORTHOGONAL + DIAGONAL if kind == "rabbit" else ORTHOGONAL
        for dc, dr in steps:
            c, r = col + dc, row + dr
            if on_board(c, r, cols) and board[r][c] is not None:
                out += _arrivals(state, seat, kind, place(c, r), board[r][c])
        if kind == "monkey":
            out += _jumps(state, seat, col, row)
        if row == ROWS - 1:
            out.append({"do": "move", "animal": kind, "to": MAINLAND})
        if row == 0:
            out.append({"do": "move", "animal": kind, "to": ISLAND})
        if out:
            yield out


def _jumps(state: State, seat: int, col: int, row: int) -> list[Action]:
    """K24: the monkey jumps straight over one turtle onto the next, never over open water."""
    board, out = state["board"], []
    for dc, dr in ORTHOGONAL:
        c, r = col + 2 * dc, row + 2 * dr
        over = on_board(c, r, state["cols"]) and board[row + dr][col + dc] is not None
        if over and board[r][c] is not None:
            out += _arrivals(state, seat, "monkey", place(c, r), board[r][c])
    return out


def _arrivals(
    state: State, seat: int, kind: str, to: str, turtle: Turtle, from_island: bool = False
) -> list[Action]:
    """Moving onto ``turtle``: if there is room; else, for a koala, by displacing one animal (K25)."""
    animals: list[list[Any]] = turtle["animals"]
    size = turtle["size"]
    if room_for(size, animals, [seat, kind], from_island):
        return [{"do": "move", "animal": kind, "to": to}]
    if kind != "koala":
        return []
    out: list[Action] = []
    for victim in animals:
        if victim[1] == "koala" or is_clamped(state, victim[0], victim[1]):
            continue
        rest = [a for a in animals if a != victim]
        if room_for(size, rest, [seat, kind], from_island):
            out.append({"do": "move", "animal": kind, "to": to, "bump": list(victim)})
    return out


def move(state: State, seat: int, action: Action) -> None:
    """Make a move from :func:`animal_moves`; a displaced animal swims back to the island."""
    kind, to = action["animal"], action["to"]
    where = locate(state, seat)
    if kind in where:
        col, row = where[kind]
        take_off(state["board"][row][col], seat, kind)
        if state["clamp"][seat] == kind:
            state["clamp"][seat] = None
    else:
        state["island"][seat].remove(kind)
        state["placed"] = True
    if kind in state["moved"]:
        state["extra"] -= 1
    else:
        state["moved"].append(kind)
    if to == MAINLAND:
        rescue(state, seat, kind)
    elif to == ISLAND:
        put_on_island(state, seat, kind)
    else:
        col, row = parse_place(to)
        turtle: Turtle = state["board"][row][col]
        if "bump" in action:
            victim_seat, victim = action["bump"]
            take_off(turtle, victim_seat, victim)
            put_on_island(state, victim_seat, victim)
        turtle["animals"].append([seat, kind])
