"""What Kiribati is: its name, variants, pieces, and the tables the rulebook prints (rules K1-K5, K47)."""

from __future__ import annotations

from collections.abc import Mapping

from atoll import JSON, GameInfo, MalformedInput

INFO = GameInfo(
    "kiribati",
    "Kiribati",
    2,
    5,
    ("children", "family", "professional"),
    "family",
    summary="rescue your animals from the sinking island by hopping from turtle to turtle",
)

CHILDREN, FAMILY, PROFESSIONAL = INFO.variants

#: The five animals in the rulebook's order; every list of animals in the state keeps this order.
ANIMALS = ("monkey", "lizard", "kagu", "rabbit", "koala")
#: The letter each animal wears on the board.
LETTERS = {"monkey": "M", "lizard": "L", "kagu": "K", "rabbit": "R", "koala": "O"}
#: The children's variant starts with these three unless the players choose others (rule K3).
CHILDREN_DEFAULT = ("kagu", "rabbit", "lizard")

#: Seat colours, in seat order: they are the seats' names.
COLOURS = ("red", "blue", "green", "yellow", "purple")

#: The six action cards (family, professional) in the rulebook's order, by their short names.
CARDS = ("feeding", "rest", "current", "sleep", "clamp", "shark")
CARD_TITLES = {
    "feeding": "Feeding station", "rest": "Rest break", "current": "Current",
    "sleep": "Deep sleep", "clamp": "Clamp grip", "shark": "Shark attack",
}
#: How many of the six each player keeps (rule K5).
KEPT_CARDS = 4

#: Victory points (professional, rule K47).
ANIMAL_POINTS = {"lizard": 9, "kagu": 8, "koala": 7, "monkey": 6, "rabbit": 5}
CARD_POINTS = {"feeding": 1, "rest": 1, "current": 1, "sleep": 2, "clamp": 2, "shark": 2}

#: Turtle tiles (rule K2, our decision): double-sided large tiles (4 / 3 places) and small ones (2 / 1).
LARGE_TILES = 6
SMALL_TILES = 6

#: Rounds of the professional variant: one event card is turned at the start of each (rule K46).
ROUNDS = 15


def tile_of(size: int) -> str:
    """The tile a turtle of ``size`` places is a side of: ``"large"`` (4/3) or ``"small"`` (2/1)."""
    return "large" if size >= 3 else "small"


def animals_in_play(seats: int, variant: str, options: Mapping[str, JSON]) -> list[str]:
    """Each player's animals (rule K3); raises :class:`MalformedInput` for a bad ``animals`` option."""
    unknown = sorted(set(options) - {"animals"})
    if unknown:
        names = ", ".join(map(repr, unknown))
        raise MalformedInput(f"Kiribati has no option {names}; its only option is 'animals'")
    if "animals" in options:
        if variant != CHILDREN:
            raise MalformedInput(
                f"the 'animals' option is for the children's variant only; the {variant} variant "
                "plays with the animals the seat count gives"
            )
        return _chosen(options["animals"])
    if variant == CHILDREN:
        return [a for a in ANIMALS if a in CHILDREN_DEFAULT]
    left_out = {4: ("lizard",), 5: ("lizard", "rabbit")}.get(seats, ())
    return [a for a in ANIMALS if a not in left_out]


def _chosen(value: JSON) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(a, str) for a in value):
        raise MalformedInput(f"'animals' must be a list of animal names, not {value!r}")
    unknown = [a for a in value if a not in ANIMALS]
    if unknown:
        names = ", ".join(map(repr, unknown))
        raise MalformedInput(f"no animal called {names}; choose from {', '.join(ANIMALS)}")
    if len(set(value)) != len(value):
        raise MalformedInput(f"'animals' names an animal twice: {value!r}")
    if not 2 <= len(value) <= len(ANIMALS):
        raise MalformedInput(f"choose 2-5 animals for the children's variant, not {len(value)}")
    return [a for a in ANIMALS if a in value]
