"""What Animals on Board is: its name, pieces and the numbers the rulebook prints (rules A1-A6).

A tile's face is a short string, the species followed by its number: ``"lion3"``. The same
string is what a player reads on the board and types in an action.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from atoll import JSON, GameInfo, MalformedInput

INFO = GameInfo(
    "animals_on_board",
    "Animals on Board",
    2,
    4,
    summary="split the groups of animals for food, take one onto your ark; pairs are lost, herds score",
)

#: A1: the twelve species, in the order the board lists them. The first ten are named by reviews
#: and the rulebook's example; camel and hippo are ours.
SPECIES = (
    "camel", "crocodile", "elephant", "fox", "giraffe", "gorilla",
    "hippo", "lion", "monkey", "panda", "tiger", "zebra",
)
#: A1: every species has five tiles, numbered 1 (a baby) to 5 (the oldest).
NUMBERS = (1, 2, 3, 4, 5)
#: A2: species left out by the seat count.
REMOVED = {2: 4, 3: 2, 4: 0}
#: A3: food crates in the game, the most one player may hold, and how many each starts with.
CRATES, MOST_CRATES, START_CRATES = 20, 5, 1
#: A5: tiles each player draws at the start, and how many face-up tiles a round starts with.
DRAWN = 3
FACE_UP = {2: 8, 3: 10, 4: 12}
#: A13, A16: an ark is full at ten tiles, and is cut to ten at departure.
FULL = 10
#: A17: a herd animal's worth.
HERD_POINTS = 5
#: The word for the face-down tile in texts and on the board.
HIDDEN = "hidden"
#: The name of the shuffled pile of tiles (its handles are ``tiles.0``, ``tiles.1``, ...).
PILE = "tiles"

_ORDER = {species: index for index, species in enumerate(SPECIES)}


def face(species: str, number: int) -> str:
    """The face of a tile: ``face("lion", 3) == "lion3"``."""
    return f"{species}{number}"


def species_of(tile: str) -> str:
    """The species of a face: ``"lion"`` for ``"lion3"``."""
    return tile[:-1]


def number_of(tile: str) -> int:
    """The number printed on a face: ``3`` for ``"lion3"``."""
    return int(tile[-1])


def order(tile: str) -> tuple[int, int]:
    """Where a face stands on the board: by species in :data:`SPECIES` order, then by number."""
    return _ORDER[tile[:-1]], int(tile[-1])


def faces_of(species: Sequence[str]) -> tuple[str, ...]:
    """Every tile of ``species``, in board order."""
    return tuple(face(s, n) for s in SPECIES if s in species for n in NUMBERS)


def is_face(value: JSON) -> bool:
    """Whether ``value`` is the face of a tile."""
    return isinstance(value, str) and len(value) > 1 and value[:-1] in _ORDER and value[-1] in "12345"


def removed_option(seats: int, options: Mapping[str, JSON]) -> list[str] | None:
    """The species the host chose to leave out (A2), checked; ``None`` if chance is to choose.

    Raises :class:`MalformedInput` for an unknown option, an unknown species, or the wrong number.
    """
    unknown = sorted(set(options) - {"removed"})
    if unknown:
        names = ", ".join(map(repr, unknown))
        raise MalformedInput(f"Animals on Board has no option {names}; its only option is 'removed'")
    if "removed" not in options:
        return None if REMOVED[seats] else []
    value = options["removed"]
    if not isinstance(value, list) or not all(isinstance(s, str) for s in value):
        raise MalformedInput(f"'removed' must be a list of species, not {value!r}")
    strangers = [s for s in value if s not in _ORDER]
    if strangers:
        raise MalformedInput(f"no species called {', '.join(strangers)}; choose from {', '.join(SPECIES)}")
    if len(set(value)) != len(value) or len(value) != REMOVED[seats]:
        raise MalformedInput(
            f"with {seats} players leave out exactly {REMOVED[seats]} different species, not {value!r}"
        )
    return [s for s in SPECIES if s in value]
