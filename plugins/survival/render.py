"""The board drawn as hexagons for the terminal (rule S22).

Every hexagon is three characters wide. A free place shows its name (``e4``), so paths can be
read off the board. Tokens show their owner's letter, so they read without colour: ``*R*`` is
red's predator, ``Rz`` red's zebra; ``###`` a fixed obstacle, ``=2=`` movable obstacle 2.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from atoll import JSON, Fragments
from atoll.plugins.survival.board import COORDS, FIXED_SET, PLACES, RADIUS
from atoll.plugins.survival.meta import ANIMALS, INITIALS, OBSTACLES, POINTS, PREDATORS
from atoll.plugins.survival.obstacles import footprint

STYLE = ("fg:ansired bold", "fg:ansiblue bold", "fg:ansigreen bold", "fg:ansiyellow bold")
EDGE, FREE, ROCK, MOVED, REACH, DIM = (
    "fg:ansibrightblack", "fg:ansiwhite", "fg:ansibrightblack bold", "fg:ansicyan bold",
    "fg:ansiwhite bold underline", "fg:ansibrightblack",
)
#: Characters from one hexagon's left wall to the next one's.
WIDTH = 4


def _x(place: str) -> int:
    """The column of a hexagon's left wall: each row is shifted half a hexagon from the one above."""
    q, r = COORDS[place]
    return WIDTH * q - 2 * r + 2 * RADIUS


def _cells(view: Mapping[str, Any]) -> dict[str, tuple[str, str]]:
    """Place -> (three characters, style) for every place of the board."""
    letters: list[str] = view["letters"]
    moving = set(view["reach"].get("predator", ())) if view["phase"] == "move" else set()
    cells = {p: (f"{p:<3}", REACH if p in moving else FREE) for p in PLACES}
    for place in FIXED_SET:
        cells[place] = ("###", ROCK)
    for key, laid in view["obstacles"].items():
        for place in footprint(int(key), laid["at"], laid["turn"]) or ():
            cells[place] = (f"={key}=", MOVED)
    for seat, place in enumerate(view["predators"]):
        if place is not None:
            cells[place] = (f"*{letters[seat]}*", STYLE[seat])
    for seat, prey in enumerate(view["prey"]):
        for animal, place in prey.items():
            cells[place] = (f"{letters[seat]}{INITIALS[animal]} ", STYLE[seat])
    return cells


def board(view: Mapping[str, Any]) -> Fragments:
    """The hexagons, row 1 at the top: walls ``/ \\`` and ``|``, three characters inside each."""
    cells = _cells(view)
    rows = [[p for p in PLACES if COORDS[p][1] == r] for r in range(2 * RADIUS + 1)]
    width = max(_x(row[-1]) for row in rows) + WIDTH + 1
    out: Fragments = []

    def edges(above: list[str], below: list[str]) -> None:
        line = [" "] * width
        for place in above:
            line[_x(place) + 1], line[_x(place) + 3] = "\\", "/"
        for place in below:
            line[_x(place) + 1], line[_x(place) + 3] = "/", "\\"
        out.append((EDGE, "  " + "".join(line).rstrip() + "\n"))

    previous: list[str] = []
    for row in rows:
        edges(previous, row)
        out.append(("", "  " + " " * _x(row[0])))
        for place in row:
            text, style = cells[place]
            out.append((EDGE, "|"))
            out.append((style, text))
        out.append((EDGE, "|\n"))
        previous = row
    edges(previous, [])
    return out


def render(view: Mapping[str, JSON]) -> Fragments:
    """Draw ``view`` (from :func:`atoll.plugins.survival.view.view`): title, board, legend, status."""
    v: Mapping[str, Any] = view
    names: list[str] = v["names"]
    out: Fragments = [("bold", "Survival of the Fittest")]
    out.append(("", f", round {v['round']}\n" if v["round"] else ", placing the prey\n"))
    out += board(v)
    out.append((DIM, "  *R* predator, Rz prey (owner letter + animal: " + ", ".join(
        f"{INITIALS[a]} {a} {POINTS[a]}" for a in ANIMALS) + ")\n"))
    out.append((DIM, "  ### fixed obstacle, =N= movable obstacle N (" + ", ".join(
        f"{n} {title}" for n, (title, _, _) in OBSTACLES.items()) + ")\n"))
    for seat, name in enumerate(names):
        out.append((STYLE[seat], f"  {v['letters'][seat]} {name}"))
        out.append(("", f" ({PREDATORS[seat]}): {v['scores'][seat]} points, "
                        f"{len(v['prey'][seat])} prey on the board"))
        if v["unplaced"][seat]:
            out.append(("", f", to place: {', '.join(v['unplaced'][seat])}"))
        if v["out"][seat] is not None:
            out.append(("", ", out of prey"))
        out.append(("", "\n"))
    out += _status(v, names)
    return out


def _status(v: Mapping[str, Any], names: list[str]) -> Fragments:
    if v["phase"] == "over":
        winners = " and ".join(names[s] for s in v["winners"])
        return [("bold", f"  the game is over: {winners} win{'s' if len(v['winners']) == 1 else ''}\n")]
    turn = v["turn"]
    out: Fragments = [("", "  to move: "), (STYLE[turn], names[turn])]
    if v["dice"]:
        out.append(("", f"   dice: {v['dice'][0]} and {v['dice'][1]}"))
    if v["phase"] == "move":
        out.append(("", f"   predator {v['predator_left']} left, prey {v['prey_left']} left"))
        if v["obstacle_due"]:
            out.append(("bold", "   an obstacle is due"))
    out.append(("", "\n"))
    if v["touched"]:
        out.append((DIM, f"  touched this turn: {' '.join(v['touched'])}\n"))
    for token, places in v["reach"].items():
        label = PREDATORS[turn] if token == "predator" else token
        out.append((DIM, f"  {label} can reach: {' '.join(sorted(places, key=PLACES.index))}\n"))
    return out
