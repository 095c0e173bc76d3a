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


#: Place names by [row][col], for going along a row.
ROW_PLACES = tuple(tuple(_NAMES[c][r] for c in range(6)) for r in range(ROWS))


def place(col: int, row: int) -> str:
    """The name of a place, ``c1r1`` (west, south) to ``c6r4`` (east, north); arguments are 0-based."""
    return _NAMES[col][row]


#: Every place name of the widest board -> its 0-based (column, row), the reverse of :func:`place`.
PLACES = {name: (col, row) for col, names in enumerate(_NAMES) for row, name in enumerate(names)}


def parse_place(name: str) -> tuple[int, int]:
    """The 0-based (column, row) of a place name made by :func:`place`."""
    return PLACES[name]


def place_named(name: object, cols: int) -> tuple[int, int] | None:
    """The 0-based (column, row) of ``name`` if it names a place of a board ``cols`` wide, else ``None``;
    ``name`` may be any value at all (it may come from an action a player sent)."""
    spot = PLACES.get(name) if isinstance(name, str) else None
    return spot if spot is not None and spot[0] < cols else None


def on_board(col: int, row: int, cols: int) -> bool:
    """Whether (column, row) is a place of the water."""
    return 0 <= col < cols and 0 <= row < ROWS


#: Steps to orthogonal neighbours, then the diagonal ones (the rabbit's extra, rule K23).
ORTHOGONAL = ((0, 1), (1, 0), (0, -1), (-1, 0))
DIAGONAL = ((1, 1), (1, -1), (-1, -1), (-1, 1))

#: A neighbouring place as (column, row, name).
Neighbour = tuple[int, int, str]
#: A monkey's jump (rule K24) as (column jumped over, row jumped over, column, row, name).
Jump = tuple[int, int, int, int, str]


def _neighbours(
    cols: int, steps: tuple[tuple[int, int], ...]
) -> tuple[tuple[tuple[Neighbour, ...], ...], ...]:
    return tuple(
        tuple(
            tuple(
                (c + dc, r + dr, place(c + dc, r + dr))
                for dc, dr in steps if on_board(c + dc, r + dr, cols)
            )
            for c in range(cols)
        )
        for r in range(ROWS)
    )


def _jumps(cols: int) -> tuple[tuple[tuple[Jump, ...], ...], ...]:
    return tuple(
        tuple(
            tuple(
                (c + dc, r + dr, c + 2 * dc, r + 2 * dr, place(c + 2 * dc, r + 2 * dr))
                for dc, dr in ORTHOGONAL if on_board(c + 2 * dc, r + 2 * dr, cols)
            )
            for c in range(cols)
        )
        for r in range(ROWS)
    )


#: The places next to each place, worked out once per board width because animal moves are generated
#: at every step: ``STEPS[cols][row][col]`` orthogonally, ``RABBIT_STEPS`` with the diagonals after them,
#: ``JUMPS`` the monkey's jumps; each in the order of :data:`ORTHOGONAL` and :data:`DIAGONAL`.
STEPS = {cols: _neighbours(cols, ORTHOGONAL) for cols in (5, 6)}
RABBIT_STEPS = {cols: _neighbours(cols, ORTHOGONAL + DIAGONAL) for cols in (5, 6)}
JUMPS = {cols: _jumps(cols) for cols in (5, 6)}
