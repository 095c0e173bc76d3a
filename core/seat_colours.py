"""The colour of each seat, in words: what a person names when choosing a seat by colour (``atoll join
--colour``), what a refusal lists as free, and the palette the screen draws the seats in.

A colour belongs to a seat, never to a person: a game that names its seats by colour (Kiribati's red,
blue, ...) draws that seat's pieces in it, so choosing a colour is choosing that seat. A seat whose
name is not a colour (Kariba's ``player 1``) has the palette's colour for its number. Numbers for
people count from 1, as the seat bar's marks do (``●1``); seat 0 on the wire is seat 1 here.
(docs/decisions/0023-seats-at-a-table.md)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

#: Colour words a game may name its seats by (or a person may ask for), with their Okabe-Ito colour.
COLOURS: Final[Mapping[str, str]] = {
    "red": "#d55e00", "blue": "#0072b2", "green": "#009e73", "yellow": "#f0e442",
    "orange": "#e69f00", "purple": "#cc79a7", "pink": "#cc79a7", "cyan": "#56b4e9",
}
#: The colours of seats whose names are not colours, in seat order (then again from the first).
CYCLE: Final = ("orange", "cyan", "green", "yellow", "blue", "red", "purple")


def seat_colour(seat: int, name: str) -> str:
    """The colour word of seat ``seat`` (from 0) that the game names ``name``."""
    words = name.split()
    word = words[0].lower() if words else ""
    return word if word in COLOURS else CYCLE[seat % len(CYCLE)]


def seat_colours(names: Sequence[str]) -> list[str]:
    """The colour word of every seat, given the game's seat names in seat order."""
    return [seat_colour(seat, name) for seat, name in enumerate(names)]


def seat_words(seat: int, colours: Sequence[str]) -> str:
    """A seat as people read it: its number from 1 and its colour (``"seat 2 (blue)"``)."""
    colour = f" ({colours[seat]})" if 0 <= seat < len(colours) else ""
    return f"seat {seat + 1}{colour}"
