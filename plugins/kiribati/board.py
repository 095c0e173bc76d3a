"""Board geometry: four rows of water between the island (south) and the mainland (north) (rule K1)."""

from __future__ import annotations

#: Rows of water, numbered r1 (south, by the island) to r4 (north, by the mainland).
ROWS = 4
#: The professional board's objects in the water: the fishing net's places as (column, row),
#: 0-based, one in each row and none in column 1 (rule K37, our decision).
NET_PLACES = frozenset({(2, 0), (3, 1), (1, 2), (2, 3)})

ISLAND = "island"
MAINLAND = "mainland"


def columns(seats: int) -> int:
    """Places per row: five, six with five players."""
    return 6 if seats == 5 else 5


#: Place names by [col][row], made once: naming places is the commonest thing the rules do.
_NAMES = tuple(tuple(f"c{c + 1}r{r + 1}" for r in range(ROWS)) for c in range(6))


def place(col: int, row: int) -> str:
    """The name of a place, ``c1r1`` (west, south) to ``c6r4`` (east, north); arguments are 0-based."""
    return _NAMES[col][row]


def parse_place(name: str) -> tuple[int, int]:
    """The 0-based (column, row) of a place name made by :func:`place`."""
    col, row = name[1:].split("r")
    return int(col) - 1, int(row) - 1


def on_board(col: int, row: int, cols: int) -> bool:
    """Whether (column, row) is a place of the water."""
    return 0 <= col < cols and 0 <= row < ROWS


#: Steps to orthogonal neighbours, then the diagonal ones (the rabbit's extra, rule K23).
ORTHOGONAL = ((0, 1), (1, 0), (0, -1), (-1, 0))
DIAGONAL = ((1, 1), (1, -1), (-1, -1), (-1, 1))
