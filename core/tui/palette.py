"""Colours and marks that everybody can read: a colour-blind-safe palette (Okabe and Ito's eight
colours) for the ANSI colour names plugins use, and a mark per seat that is a symbol and a digit,
so no seat is told apart by colour alone. Without colour (``NO_COLOR``) the marks still do it."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from prompt_toolkit.formatted_text import FormattedText

from atoll.client.console import usable_style
from atoll.game import Fragments
from atoll.numbering import seat_number
from atoll.seat_colours import COLOURS, CYCLE, seat_colour

#: ANSI colour names -> Okabe-Ito colours (distinct under the common colour-vision deficiencies).
#: Greys and white are left alone: they are labels and frames, not seat colours.
OKABE_ITO: Mapping[str, str] = {
    "ansired": "#d55e00", "ansibrightred": "#d55e00",          # vermillion
    "ansiblue": "#0072b2", "ansibrightblue": "#56b4e9",        # blue, sky blue
    "ansigreen": "#009e73", "ansibrightgreen": "#009e73",      # bluish green
    "ansiyellow": "#e69f00", "ansibrightyellow": "#f0e442",    # orange, yellow
    "ansimagenta": "#cc79a7", "ansibrightmagenta": "#cc79a7",  # reddish purple
    "ansicyan": "#56b4e9", "ansibrightcyan": "#56b4e9",        # sky blue
}
#: Colour words a game may name its seats by, with the style of that colour.
SEAT_COLOURS: Mapping[str, str] = COLOURS
#: Colours for seats whose names are not colours, in seat order.
SEAT_CYCLE = tuple(COLOURS[word] for word in CYCLE)
#: Seat symbols, in seat order: shapes that differ in outline, not only in colour.
UNICODE_SYMBOLS = ("●", "▲", "■", "◆", "★", "✚", "▼", "◎")
ASCII_SYMBOLS = ("o", "^", "#", "*", "+", "x", "v", "@")


@dataclass(frozen=True)
class Look:
    """How the screen draws: with unicode symbols or ASCII only, and with the palette or as given."""

    unicode: bool = True
    palette: bool = True

    def symbol(self, seat: int) -> str:
        """The seat's mark: a symbol and the seat's number counted from 1 (``"▲2"``)."""
        symbols = UNICODE_SYMBOLS if self.unicode else ASCII_SYMBOLS
        return f"{symbols[seat % len(symbols)]}{seat_number(seat)}"

    def seat_style(self, seat: int, name: str) -> str:
        """The style of a seat's name: its colour word's colour, else one from the palette."""
        colour = COLOURS[seat_colour(seat, name)]  # the colour a seat is chosen by (atoll.seat_colours)
        return f"fg:{colour} bold" if self.palette else "bold"

    def recolour(self, fragments: Fragments) -> Fragments:
        """``fragments`` with each ANSI colour replaced by its palette colour, and styles prompt_toolkit
        cannot parse dropped (a plugin's typo must not stop the drawing)."""
        return [(self._style(style), text) for style, text in fragments]

    def _style(self, style: str) -> str:
        return _restyle(style, self.palette)


@functools.lru_cache(maxsize=1024)
def _restyle(style: str, palette: bool) -> str:
    """``style`` with the palette's colours, parts prompt_toolkit cannot parse dropped (kept: a board
    is redrawn often and uses few distinct styles)."""
    if not palette:
        return usable_style(style)
    parts = []
    for part in style.split():
        prefix, _, colour = part.rpartition(":")
        if colour in OKABE_ITO and prefix in ("fg", "bg", ""):
            part = f"{prefix or 'fg'}:{OKABE_ITO[colour]}"
        parts.append(part)
    return usable_style(" ".join(parts))


def plain(fragments: Fragments) -> str:
    """The text of ``fragments`` without styles."""
    return "".join(text for _, text in fragments)


def styled(draw: Callable[[], Fragments]) -> Callable[[], FormattedText]:
    """``draw`` as prompt_toolkit's controls take it: a callable giving formatted text."""
    return lambda: FormattedText(draw())
