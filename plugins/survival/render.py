"""The board drawn as hexagons for the terminal (rule S22).

Every hexagon is three characters wide. A free place shows its name (``e4``), so paths can be
read off the board. Tokens show their owner's letter, so they read without colour: ``*R*`` is
red's predator, ``Rz`` red's zebra; ``###`` a fixed obstacle, ``=2=`` movable obstacle 2.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from atoll import JSON, Fragments
from atoll.plugins.survival.board import COORDS, FIXED_SET, PLACES, RADIUS
from atoll.plugins.survival.meta import ANIMALS, COLOURS, INITIALS, LETTERS, OBSTACLES, POINTS, PREDATORS
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


def owned_pieces(view: Mapping[str, Any]) -> list[tuple[int, str]]:
    """Every token on the board with its owner: ``*R*`` red's predator, ``Rz`` red's zebra."""
    letters: list[str] = view["letters"]
    out = [(seat, f"*{letters[seat]}*") for seat, place in enumerate(view["predators"]) if place is not None]
    out += [(seat, f"{letters[seat]}{INITIALS[animal]}")
            for seat, prey in enumerate(view["prey"]) for animal in prey]
    return out


#: The widest and tallest drawing (S22): the whole board and its side lines fit an 80x24 terminal
#: with the table screen's title, status, prompt and a line of log (the screen keeps four lines).
MAX_COLUMNS, MAX_LINES = 79, 20
#: The column where the lines beside the board begin (one past the board's widest row and a gap).
SIDE = 2 + 4 * (2 * RADIUS + 1) + 2


def board(view: Mapping[str, Any], side: Sequence[Fragments] = ()) -> Fragments:
    """The hexagons, row 1 at the top, each row half a hexagon to the right of the one below it so
    that every place touches two above, two below and one either side; walls ``|`` between places.
    ``side`` are the lines drawn to the right of the board's rows, one per row."""
    cells = _cells(view)
    rows = [[p for p in PLACES if COORDS[p][1] == r] for r in range(2 * RADIUS + 1)]
    out: Fragments = []
    for index, row in enumerate(rows):
        indent = 1 + _x(row[0])
        out.append(("", " " * indent))
        for place in row:
            text, style = cells[place]
            out.append((EDGE, "|"))
            out.append((style, text))
        out.append((EDGE, "|"))
        if index < len(side) and side[index]:
            out.append(("", " " * (SIDE - indent - WIDTH * len(row) - 1)))
            out += side[index]
        out.append(("", "\n"))
    return out


def render(view: Mapping[str, JSON]) -> Fragments:
    """Draw ``view`` (from :func:`atoll.plugins.survival.view.view`): the title, the board with the
    players and the turn beside it, and below it where the tokens on the move can go (S23); never
    wider than :data:`MAX_COLUMNS` nor taller than :data:`MAX_LINES`."""
    v: Mapping[str, Any] = view
    out: Fragments = [("bold", "Survival of the Fittest")]
    out.append(("", f", round {v['round']}\n" if v["round"] else ", placing the prey\n"))
    side = [*_players(v), [], *_turn(v)]
    out += board(v, side[: 2 * RADIUS + 1])
    for extra in side[2 * RADIUS + 1:]:
        out += [("", " "), *extra, ("", "\n")]
    out += _reach(v)
    return out


def legend(seats: int) -> list[tuple[str, str]]:
    """What the board's marks mean (the F4 legend of the table screen)."""
    letters = ", ".join(f"{LETTERS[s]} {COLOURS[s]} ({PREDATORS[s]})" for s in range(seats))
    return [
        ("*R*", f"a predator, with its owner's letter: {letters}"),
        ("Rz", "a prey: owner letter and animal, " + ", ".join(
            f"{INITIALS[a]} {a} {POINTS[a]}" for a in ANIMALS)),
        ("###", "a fixed obstacle (rock or termite mound)"),
        ("=N=", "movable obstacle N: " + ", ".join(f"{n} {title}" for n, (title, _, _) in OBSTACLES.items())),
        ("e4", "a free place, by its name; underlined: where the predator on the move can go"),
    ]


def _players(v: Mapping[str, Any]) -> list[Fragments]:
    """One line per seat: letter, colour, points and prey, or the prey still to place."""
    lines: list[Fragments] = []
    for seat, name in enumerate(v["names"]):
        text = f"{v['letters'][seat]} {name:<6} {v['scores'][seat]:>2} pts"
        if v["unplaced"][seat]:  # nobody has points yet: the prey to place take their place
            to_place = " ".join(INITIALS[a] for a in v["unplaced"][seat])
            text = f"{v['letters'][seat]} {name:<6} to place {to_place}"
        elif v["out"][seat] is not None:
            text += ", out of prey"
        else:
            text += f", {len(v['prey'][seat])} prey"
        lines.append([(STYLE[seat], text)])
    return lines


def _turn(v: Mapping[str, Any]) -> list[Fragments]:
    """Whose turn, the dice, the steps left, an obstacle due and the places touched this turn."""
    names: list[str] = v["names"]
    if v["phase"] == "over":
        winners = " and ".join(names[s] for s in v["winners"])
        return [[("bold", f"game over: {winners} win{'s' if len(v['winners']) == 1 else ''}")]]
    if v["phase"] == "draw":
        return [[("", "drawing who starts")]]
    turn = v["turn"]
    lines: list[Fragments] = [[("", "to move: "), (STYLE[turn], names[turn])]]
    if v["dice"]:
        lines.append([("", f"dice: {v['dice'][0]} and {v['dice'][1]}")])
    if v["phase"] == "move":
        lines.append([("", f"{PREDATORS[turn]} {v['predator_left']} left, prey {v['prey_left']} left")])
        if v["obstacle_due"]:
            lines.append([("bold", "an obstacle is due")])
    touched = ["touched:", *v["touched"]] if v["touched"] else []
    width = MAX_COLUMNS - SIDE
    while touched:
        line = touched.pop(0)
        while touched and len(line) + 1 + len(touched[0]) <= width:
            line += " " + touched.pop(0)
        lines.append([(DIM, line)])
    return lines


def _reach(v: Mapping[str, Any]) -> Fragments:
    """A line per token still to move with the places it can reach (S23), cut to the screen's width
    (the predator's places are also marked on the board; the view holds every list whole)."""
    out: Fragments = []
    for token, places in v["reach"].items():
        label = PREDATORS[v["turn"]] if token == "predator" else token
        line = f" {label} can reach:"
        names = sorted(places, key=PLACES.index)
        for index, place in enumerate(names):
            more = f" +{len(names) - index} more"
            if len(line) + 1 + len(place) + (len(more) if index < len(names) - 1 else 0) > MAX_COLUMNS:
                line += more
                break
            line += " " + place
        out.append((DIM, line + "\n"))
    return out
