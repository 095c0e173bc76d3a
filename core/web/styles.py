"""Styled text as HTML: the ``(style, text)`` fragments a game renders become ``<span>`` elements with
the colours and weights the terminal shows, in the same colour-blind-safe palette
(:mod:`atoll.tui.palette`)."""

from __future__ import annotations

import functools
import html

from prompt_toolkit.output.vt100 import ANSI_COLORS_TO_RGB

from atoll.game import Fragments
from atoll.tui.palette import OKABE_ITO

#: The page's own colours: light text on a dark ground, as a terminal shows a board.
FOREGROUND = "#e8e8e8"
BACKGROUND = "#111418"
#: The greys of a terminal, lighter than xterm's so a label stays readable across a room.
GREYS = {"ansigray": "#c0c0c0", "ansibrightblack": "#9a9a9a", "ansiwhite": "#f0f0f0", "ansiblack": "#000000"}


def colour(name: str) -> str | None:
    """A CSS colour for a style's colour: an ANSI name (in the palette), ``#rgb``/``#rrggbb``, or a
    colour word CSS knows; ``None`` for anything else (a plugin's typo is dropped, not drawn)."""
    name = name.lower()
    if name in OKABE_ITO:
        return OKABE_ITO[name]
    if name in GREYS:
        return GREYS[name]
    if name in ANSI_COLORS_TO_RGB:
        r, g, b = ANSI_COLORS_TO_RGB[name]
        return f"#{r:02x}{g:02x}{b:02x}"
    if name.startswith("#") and len(name) in (4, 7) and all(c in "0123456789abcdef" for c in name[1:]):
        return name
    if name.isalpha() and len(name) <= 20:  # CSS colour words (red, purple); an unknown one draws nothing
        return name
    return None


@functools.lru_cache(maxsize=1024)
def css(style: str) -> str:
    """The inline CSS of a prompt_toolkit style string (``"fg:ansired bold"``); empty for plain text.
    ``class:`` names, which are the screen's own, are left out."""
    fg = bg = None
    rules: list[str] = []
    reverse = False
    for part in style.split():
        if part.startswith("class:"):
            continue
        if part in ("bold", "italic", "underline", "reverse"):
            rules.append({"bold": "font-weight:bold", "italic": "font-style:italic",
                          "underline": "text-decoration:underline", "reverse": ""}[part])
            reverse = reverse or part == "reverse"
            continue
        prefix, _, name = part.rpartition(":")
        if prefix in ("", "fg"):
            fg = colour(name) or fg
        elif prefix == "bg":
            bg = colour(name) or bg
    if reverse:
        fg, bg = bg or BACKGROUND, fg or FOREGROUND
    rules += [f"color:{fg}"] if fg else []
    rules += [f"background:{bg}"] if bg else []
    return ";".join(rule for rule in rules if rule)


def to_html(fragments: Fragments) -> str:
    """``fragments`` as HTML (escaped text, each styled run in a ``<span>``), for a ``<pre>``."""
    out: list[str] = []
    for style, text in fragments:
        if not text:
            continue
        rules = css(style)
        escaped = html.escape(text, quote=False)
        out.append(f'<span style="{rules}">{escaped}</span>' if rules else escaped)
    return "".join(out)
