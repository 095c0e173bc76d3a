"""Draw a Kariba view as coloured text fragments for prompt_toolkit."""

from __future__ import annotations

from collections.abc import Mapping

from atoll import JSON, Fragments
from atoll.plugins.kariba import rules
from atoll.plugins.kariba.texts import name, seat_name

#: One colour per animal, so a card reads the same in the hand, the row and the waterhole.
STYLES = ("", "fg:ansigray", "fg:ansiyellow", "fg:ansiwhite bold", "fg:ansibrightyellow bold",
          "fg:ansimagenta", "fg:ansired bold", "fg:ansicyan", "fg:ansiblue bold")
TITLE, DIM, YOU = "bold underline", "fg:ansibrightblack", "fg:ansigreen bold"
#: The board's lines stay narrower than this, so it fits an 80-column terminal.
WIDTH = 80


def render(view: Mapping[str, JSON]) -> Fragments:
    """The waterhole with its eight places, the players, the pile, the face-up cards and your hand."""
    out: Fragments = []
    out.extend(_header(view))
    out.append(("bold", "Waterhole\n"))
    for animal in rules.ANIMALS:
        count = view["hole"][animal - 1]
        style = STYLES[animal] if count else DIM
        out.append((style, f"  {animal} {name(animal):<9}"))
        out.append((style, f"{'#' * count:<12}{count:>3}\n"))
    out.append(("", f"Draw pile: {view['pile']} card{'' if view['pile'] == 1 else 's'}"))
    if view["variant"] == "experienced":
        out.append(("", "   Face-up:"))
        out.extend(_cards(view["row"]) if view["row"] else [(DIM, " none")])
    out.append(("", "\n"))
    for seat, (size, won) in enumerate(zip(view["hand_sizes"], view["won"], strict=True)):
        you = seat == view["seat"]
        line: Fragments = [(YOU if you else "", f"{seat_name(seat)}{' (you)' if you else ''}"),
                           ("", f": {size} in hand, {won} won")]
        held = _cards(view["shown"][seat]) if view["shown"][seat] else []
        turn = "  <- to play" if seat == view["turn"] and view["phase"] != "over" else ""
        if len("".join(text for _, text in [*line, *held])) + len(", holds face-up" + turn) < WIDTH:
            out.extend([*line, *([("", ", holds face-up"), *held] if held else []), ("", turn + "\n")])
        else:  # a long row of face-up cards goes on a line of its own, so the board stays 80 wide
            out.extend([*line, ("", turn + "\n"), ("", "    holds face-up"), *held, ("", "\n")])
    if view["seat"] is not None:
        out.append(("bold", "Your hand:"))
        out.extend(_cards(view["hand"]) if view["hand"] else [(DIM, " empty")])
        out.append(("", "\n"))
    return out


def _header(view: Mapping[str, JSON]) -> Fragments:
    head: Fragments = [(TITLE, "Kariba"), ("", f" ({view['variant']})  ")]
    if view["phase"] == "over":
        winners = ", ".join(seat_name(s) for s in view["winners"])
        head.append(("bold", f"game over: {winners} win{'s' if len(view['winners']) == 1 else ''}\n"))
    else:
        head.append(("", f"{seat_name(view['turn'])} to play\n"))
    return head


def _cards(faces: JSON) -> Fragments:
    return [(STYLES[face], f" {name(face)}") for face in faces]
