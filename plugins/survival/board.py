"""The board we designed: 91 hexagons in a hexagon of side six, with eight fixed obstacles (rules S1-S3).

A place is named by a column letter and a row number, ``a1`` to ``k11``. In axial coordinates
(column ``q`` = 0 for ``a``, row ``r`` = 0 for row 1) a place exists when ``|q - r| <= 5``, and
its six neighbours differ by (1,0), (1,1), (0,1), (-1,0), (-1,-1) and (0,-1): on the screen
right, down-right, down-left, left, up-left and up-right. So ``e4 e5 f5 f6`` is a path.
"""

from __future__ import annotations

#: Places from the centre to an edge, not counting the centre: the board is a hexagon of side 6.
RADIUS = 5
#: Columns and rows.
SIZE = 2 * RADIUS + 1
COLUMNS = "abcdefghijk"

#: The six directions in clockwise order, starting with "right"; turning an obstacle goes one on.
DIRECTIONS = ((1, 0), (1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1))


def on_board(q: int, r: int) -> bool:
    """Whether axial (q, r) is a place of the board."""
    return 0 <= q < SIZE and 0 <= r < SIZE and abs(q - r) <= RADIUS


def name(q: int, r: int) -> str:
    """The name of the place at axial (q, r): ``a1`` ... ``k11``."""
    return f"{COLUMNS[q]}{r + 1}"


#: Every place, row by row (row 1 first), each row west to east.
PLACES = tuple(name(q, r) for r in range(SIZE) for q in range(SIZE) if on_board(q, r))
#: Place name -> axial (q, r).
COORDS = {name(q, r): (q, r) for r in range(SIZE) for q in range(SIZE) if on_board(q, r)}
#: Place name -> its neighbours on the board, in the order of :data:`DIRECTIONS`.
NEIGHBOURS = {
    place: tuple(name(q + dq, r + dr) for dq, dr in DIRECTIONS if on_board(q + dq, r + dr))
    for place, (q, r) in COORDS.items()
}

#: The six corners, clockwise from the top left.
CORNERS = ("a1", "f1", "k6", "k11", "f11", "a6")
#: The predators' start places by the number of players, in the order of play from the player drawn
#: to start (rule S2): opposite corners for two, every other corner for three, two opposite pairs for
#: four. With four, the first two to move start opposite each other and the last two beside them:
#: measured, that takes the second player's edge over the last two from 15-17 points of win rate to
#: 6-8 (docs/rules/survival.md). Given by the order of play rather than by colour, every seat meets
#: the same layout from every place in the order, so the seats come out even.
STARTS = {
    2: ("a1", "k11"),
    3: ("a1", "k6", "f11"),
    4: ("a1", "k11", "f1", "f11"),
}

#: The eight fixed obstacles (rule S3): a ring of six rocks halfway between each corner and the
#: centre, and two termite mounds either side of the centre.
FIXED = ("c3", "f3", "i6", "i9", "f9", "c6", "e6", "g6")
FIXED_SET = frozenset(FIXED)


def distance(a: str, b: str) -> int:
    """Steps between two places on an empty board."""
    (q1, r1), (q2, r2) = COORDS[a], COORDS[b]
    dq, dr = q2 - q1, r2 - r1
    return max(abs(dq), abs(dr), abs(dq - dr))


def turned(offset: tuple[int, int], turns: int) -> tuple[int, int]:
    """``offset`` turned clockwise by ``turns`` sixths of a circle."""
    q, r = offset
    for _ in range(turns % 6):
        q, r = q - r, q
    return q, r
