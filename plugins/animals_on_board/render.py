"""Draw an Animals on Board view as coloured text fragments for prompt_toolkit."""

from __future__ import annotations

from collections.abc import Mapping

from atoll import JSON, Fragments
from atoll.plugins.animals_on_board.meta import HIDDEN, number_of

#: A tile's colour says its number: a single's worth at a glance.
NUMBER_STYLES = ("", "fg:ansibrightblack", "fg:ansiwhite", "fg:ansicyan", "fg:ansiyellow", "fg:ansired bold")
TITLE, DIM, YOU = "bold underline", "fg:ansibrightblack", "fg:ansigreen bold"


def render(view: Mapping[str, JSON]) -> Fragments:
    """The centre's groups, the players' arks and crates, and the viewer's own tiles."""
    out: Fragments = [(TITLE, "Animals on Board"), ("", f"  {_status(view)}\n")]
    if view["removed"]:
        out.append((DIM, f"left out: {', '.join(view['removed'])}\n"))
    out.append(("bold", "Centre"))
    out.append(("", f"  (draw pile {view['pile']}, crate supply {view['supply']})\n"))
    for number, group in enumerate(view["groups"], 1):
        out.append(("", f"  {number:>2}:"))
        out.extend(_tiles(group))
        out.append(("", "\n"))
    if not view["groups"]:
        out.append((DIM, "  empty\n"))
    for seat in range(view["seats"]):
        you = seat == view["seat"]
        out.append((YOU if you else "", f"seat {seat}{' (you)' if you else ''}"))
        tiles, crates = _count(view["ark_sizes"][seat], "tile"), _count(view["crates"][seat], "crate")
        out.append(("", f": {tiles}, {crates}"))
        flags = [("start player", seat == view["start"]), ("out of the round", view["out"][seat])]
        out.extend((DIM, f", {word}") for word, on in flags if on)
        if view["arks"]:
            out.append(("", " |"))
            out.extend(_tiles(view["arks"][seat]))
            if view["discarded"][seat]:
                out.append((DIM, "  discarded: " + " ".join(view["discarded"][seat])))
        if view["scores"]:
            out.append(("bold", f"  = {view['scores'][seat]} points"))
        out.append(("", "  <- to move\n" if seat == view["turn"] else "\n"))
    if view["hand"]:
        out.append(("bold", "You drew:"))
        out.extend(_tiles(view["hand"]))
        out.append(("", "  (keep one face down on your ark; the others go to the centre)\n"))
    if view["seat"] is not None and not view["arks"]:
        out.append(("bold", "Your ark:"))
        out.extend(_tiles(view["ark"]) if view["ark"] else [(DIM, " empty")])
        out.append(("", "\n"))
    return out


def _status(view: Mapping[str, JSON]) -> str:
    if view["phase"] == "over":
        winners = ", ".join(f"seat {s}" for s in view["winners"])
        return f"game over: {winners} win{'s' if len(view['winners']) == 1 else ''}"
    if view["phase"] == "cut":
        return f"departure: seat {view['turn']} cuts its ark to ten"
    if view["phase"] == "keep":
        return "set-up: every player keeps one tile face down"
    final = ", final turn" if view["final"] else ""
    moving = f", seat {view['turn']} to move{final}" if view["turn"] is not None else ""
    return f"round {view['round']}{moving}"


def _count(number: int, thing: str) -> str:
    return f"{number} {thing}{'' if number == 1 else 's'}"


def _tiles(faces: JSON) -> Fragments:
    return [(DIM if face == HIDDEN else NUMBER_STYLES[number_of(face)], f" {face}") for face in faces]
