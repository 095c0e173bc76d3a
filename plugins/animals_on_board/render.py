"""Draw an Animals on Board view as coloured text fragments for prompt_toolkit.

The board fits an 80x24 terminal whole (at most :data:`MAX_COLUMNS` wide and :data:`MAX_LINES`
tall): a long group or ark wraps onto indented lines, and when one group a line would be too
tall, the groups share lines. Seats read without colour: each line names its seat, ``(you)``
marks the viewer and ``<-`` the seat to move.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from atoll import JSON, Fragments
from atoll.plugins.animals_on_board.meta import HIDDEN, number_of
from atoll.plugins.animals_on_board.texts import seat_name

#: A tile's colour says its number: a single's worth at a glance.
NUMBER_STYLES = ("", "fg:ansibrightblack", "fg:ansiwhite", "fg:ansicyan", "fg:ansiyellow", "fg:ansired bold")
TITLE, DIM, YOU = "bold underline", "fg:ansibrightblack", "fg:ansigreen bold"
#: The widest line and the most lines the board draws: the table screen keeps its title, seats
#: line, a line of log, the status, the prompt and the hint below a board of 17 lines at 80x24.
MAX_COLUMNS, MAX_LINES = 76, 17
#: Where a wrapped line of tiles goes on.
INDENT = 6

Line = list[tuple[str, str]]


def render(view: Mapping[str, JSON]) -> Fragments:
    """The centre's groups, the players' arks and crates, and the viewer's own tiles."""
    v: Mapping[str, Any] = view
    head: list[Line] = [[(TITLE, "Animals on Board"), ("", f"  {_status(v)}")]]
    if v["removed"]:
        removed = [f" {species}," for species in v["removed"]]
        removed[-1] = removed[-1].rstrip(",")
        head += _flow([(DIM, "left out:")], [[(DIM, word)] for word in removed])
    head.append([("bold", "Centre"), ("", f"  draw pile {v['pile']}, crate supply {v['supply']}")])
    rest = _seats(v) + _own(v)
    room = MAX_LINES - len(head) - len(rest)
    centre = _groups_a_line(v["groups"])
    if len(centre) > room:  # a crowded centre: the groups share lines
        centre = _groups_packed(v["groups"])
    if len(centre) > room and v["arks"]:  # departed: the arks matter, the centre's tiles no longer do
        tiles = sum(len(group) for group in v["groups"])
        centre = [[(DIM, f"  {_count(tiles, 'tile')} left in {_count(len(v['groups']), 'group')}")]]
    out: Fragments = []
    for line in head + centre + rest:
        out.extend(line)
        out.append(("", "\n"))
    return out


def _status(v: Mapping[str, Any]) -> str:
    if v["phase"] == "over":
        winners = ", ".join(seat_name(s) for s in v["winners"])
        return f"game over: {winners} win{'s' if len(v['winners']) == 1 else ''}"
    if v["phase"] == "cut":
        return f"departure: {seat_name(v['turn'])} cuts its ark to ten"
    if v["phase"] == "keep":
        return "set-up: every player keeps one tile face down"
    final = ", final turn" if v["final"] else ""
    moving = f", {seat_name(v['turn'])} to move{final}" if v["turn"] is not None else ""
    return f"round {v['round']}{moving}"


def _groups_a_line(groups: Sequence[Sequence[str]]) -> list[Line]:
    """Each group on a line of its own (wrapped if long): the easiest to read."""
    if not groups:
        return [[(DIM, "  empty")]]
    lines: list[Line] = []
    for number, group in enumerate(groups, 1):
        lines += _flow([("bold", f"  {number:>2}:")], _tiles(group))
    return lines


def _groups_packed(groups: Sequence[Sequence[str]]) -> list[Line]:
    """The groups one after another, a group kept on one line where it fits."""
    lines: list[Line] = [[]]
    for number, group in enumerate(groups, 1):
        label = [("bold", f"  {number}:")]
        words = [label, *_tiles(group)]
        if not lines[-1] or _width(lines[-1]) + sum(map(_width, words)) <= MAX_COLUMNS:
            for word in words:
                _place(lines, word)
        else:
            lines += _flow(label, _tiles(group))
    return lines


def _seats(v: Mapping[str, Any]) -> list[Line]:
    """A line per seat: tiles, crates and flags; at departure its ark, what it lost and its points."""
    lines: list[Line] = []
    departed = bool(v["arks"])
    for seat in range(v["seats"]):
        you = seat == v["seat"]
        words: list[Line] = [[("", f" {_count(v['ark_sizes'][seat], 'tile')},")],
                             [("", f" {_count(v['crates'][seat], 'crate')}")]]
        # the start-player flag and who is out of the round matter no more once the arks depart
        flags = [("start player", seat == v["start"]), ("out of the round", v["out"][seat])]
        words += [[(DIM, f", {word}")] for word, on in flags if on and not departed]
        if v["scores"]:
            won = " (wins)" if seat in v["winners"] else ""
            words.append([("bold", f", {v['scores'][seat]} points{won}")])
        if seat == v["turn"] and v["phase"] != "over":
            words.append([("bold", "  <- to move")])
        label = f"{seat_name(seat)}{' (you)' if you else ''}"
        lines += _flow([(YOU if you else "bold", label), ("", ":")], words)
        if v["face_up"][seat] and not departed:  # A19: the tiles beyond ten, face up for all
            lines += _flow([("", "    beyond ten, face up:")], _tiles(v["face_up"][seat]))
        if departed:
            lost = v["discarded"][seat]
            tiles = (_tiles(v["arks"][seat]) or [[(DIM, " empty")]]) + ([[(DIM, "  lost:")]] if lost else [])
            lines += _flow([("", "    ark:")], tiles + _tiles(lost))
    return lines


def _own(v: Mapping[str, Any]) -> list[Line]:
    """The tiles the viewer drew (set-up) and its own ark, which only it sees until departure."""
    lines: list[Line] = []
    if v["hand"]:
        lines += _flow([("bold", "You drew:")], _tiles(v["hand"]))
        lines.append([(DIM, "  keep one face down on your ark; the others go to the centre")])
    if v["seat"] is not None and not v["arks"]:
        lines += _flow([("bold", "Your ark:")], _tiles(v["ark"]) or [[(DIM, " empty")]])
    return lines


def _count(number: int, thing: str) -> str:
    return f"{number} {thing}{'' if number == 1 else 's'}"


def _tiles(faces: Sequence[str]) -> list[Line]:
    """Each tile as a word of its own (with its leading space), coloured by its number."""
    return [[(DIM if face == HIDDEN else NUMBER_STYLES[number_of(face)], f" {face}")] for face in faces]


def _flow(label: Line, words: Sequence[Line]) -> list[Line]:
    """``label`` and then ``words``, wrapped at :data:`MAX_COLUMNS` onto lines indented by :data:`INDENT`."""
    lines: list[Line] = [list(label)]
    for word in words:
        _place(lines, word)
    return lines


def _place(lines: list[Line], word: Line) -> None:
    """Put ``word`` at the end of the last line, or on a new indented line if it does not fit."""
    if lines[-1] and _width(lines[-1]) + _width(word) > MAX_COLUMNS:
        lines.append([("", " " * (INDENT - 1))])
    lines[-1].extend(word)


def _width(line: Line) -> int:
    return sum(len(text) for _, text in line)
