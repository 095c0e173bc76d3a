"""The board as styled text for the terminal: mainland at the top, the four rows, the island below."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from atoll import JSON, Fragments
from atoll.plugins.kiribati.board import ROWS, place
from atoll.plugins.kiribati.events import TITLES as EVENT_TITLES
from atoll.plugins.kiribati.meta import CARD_TITLES, LETTERS
from atoll.plugins.kiribati.pieces import fits

STYLE = {
    "red": "fg:ansired bold", "blue": "fg:ansiblue bold", "green": "fg:ansigreen bold",
    "yellow": "fg:ansiyellow bold", "purple": "fg:ansimagenta bold",
}
SHELL, FREE, FLOODED, WATER, NET, LAND, DIM = (
    "fg:ansiwhite bold", "fg:ansiwhite", "fg:ansicyan", "fg:ansiblue", "fg:ansicyan bold",
    "fg:ansiyellow", "fg:ansibrightblack",
)
#: A place's width: a turtle draws each of its places as two characters (an animal's letter and its
#: owner's seat number, ``R1``; ``__`` free; ``~~`` flooded), so owners are told apart without colour.
CELL = 11
#: A short word on each event while it is in play, for the board's status line.
EVENT_NOW = {
    "cloudy": "no card affects a koala",
    "fishing_net": "no turtle onto/off #",
}
#: The widest line drawn, so the whole board fits an 80-column terminal; longer lists go on to the next
#: line, indented, at a break between two items.
WIDTH = 79


def render(view: Mapping[str, JSON]) -> Fragments:
    """Draw ``view`` (from :func:`atoll.plugins.kiribati.view.view`)."""
    names: list[str] = view["names"]
    out: Fragments = [("bold", f"Kiribati, {view['variant']} variant, round {view['round']}")]
    if view["variant"] == "professional":
        out.append(("", f" of 15 (start player: {names[0]})"))
    out.append(("", "\n"))
    out += _shore("MAINLAND", view["mainland"], names)
    out.append((DIM, "    " + "".join(f"{f'c{c + 1}':^{CELL}}" for c in range(view["cols"])) + "\n"))
    net = set(view["net"])
    for row in reversed(range(ROWS)):
        out.append((DIM, f" r{row + 1} "))
        for col, turtle in enumerate(view["board"][row]):
            out += _cell(turtle, names, place(col, row) in net)
        out.append(("", "\n"))
    out += _shore("ISLAND  ", view["island"], names)
    out += _status(view, names)
    legend = ["M monkey", "L lizard", "K kagu", "R rabbit", "O koala", "R1 red's rabbit"]
    legend += ["# net"] if net else []
    legend += ["after | : animals to throw off"] if view["throw"] else []
    out.append((DIM, packed("", legend, ",")))
    return out


def packed(head: str, items: list[str], separator: str) -> str:
    """``head`` and ``items`` joined by ``separator`` on lines of at most :data:`WIDTH` characters,
    each starting with a space, broken only between two items (the next lines indented)."""
    lines = [" " + head]
    for index, item in enumerate(items):
        text = item + (separator.rstrip() if index < len(items) - 1 else "")
        joined = lines[-1] + ("" if lines[-1].endswith(" ") or not index else " ") + text
        if index and len(joined) > WIDTH:
            lines.append("   " + text)
        else:
            lines[-1] = joined
    return "\n".join(lines) + "\n"


def _shore(title: str, pieces: list[list[str]], names: list[str]) -> Fragments:
    out: Fragments = [(LAND, f" {title}")]
    for seat, kinds in enumerate(pieces):
        out.append(("", f"  {names[seat]}:"))
        out.append((STYLE[names[seat]], "".join(LETTERS[k] for k in kinds) or "-"))
    out.append(("", "\n"))
    return out


def _cell(turtle: Any, names: list[str], netted: bool) -> Fragments:
    """One place, :data:`CELL` characters wide: water, or a turtle showing every animal aboard with
    its owner's seat number, its free (``__``) and flooded (``~~``) places. A kagu on a 3-turtle's
    flooded place is underlined; while a diving turtle carries more animals than it has places (before
    the player throws them off), the ones over its size are drawn after a bar: ``(R1M2|K1)``."""
    mark = (NET, "#") if netted else ("", " ")
    if turtle is None:
        middle = (CELL - 1) // 2
        return [mark, (WATER, " " * middle + "\u00b7" + " " * (CELL - 2 - middle))]
    size, animals = turtle["size"], list(turtle["animals"])
    places = 4 if size >= 3 else 2  # a large tile shows four places, a small one two
    inner: Fragments = []
    if fits(size, animals):
        flooded_kagu = None
        if len(animals) > size:  # a kagu on a 3-turtle's flooded place (rule K26)
            flooded_kagu = next(a for a in reversed(animals) if a[1] == "kagu")
            animals.remove(flooded_kagu)
        inner += [_letter(a, names) for a in animals]
        inner += [(FREE, "__")] * (size - len(animals))
        if flooded_kagu is not None:
            inner.append((STYLE[names[flooded_kagu[0]]] + " underline", piece_text(flooded_kagu)))
        inner += [(FLOODED, "~~")] * (places - len(inner))
    else:  # a diving turtle in the throw step (rule K18)
        inner += [_letter(a, names) for a in animals[:size]]
        inner.append((SHELL, "|"))
        inner += [_letter(a, names) for a in animals[size:]]
    width = sum(len(text) for _, text in inner) + 2
    lead = max(0, (CELL - 1 - width) // 2)
    return [mark, ("", " " * lead), (SHELL, "("), *inner, (SHELL, ")"), ("", " " * (CELL - 1 - lead - width))]


def _letter(animal: list[Any], names: list[str]) -> tuple[str, str]:
    return STYLE[names[animal[0]]], piece_text(animal)


def piece_text(animal: list[Any]) -> str:
    """An animal on a turtle as drawn: its letter and its owner's seat counted from 1 (``R1``), the
    number the client's seat marks carry."""
    seat, kind = animal
    return f"{LETTERS[kind]}{seat + 1}"


def owned_pieces(view: Mapping[str, Any]) -> list[tuple[int, str]]:
    """Every animal drawn on a turtle, and each seat's animals on the shores, with their owners."""
    out = [(animal[0], piece_text(animal)) for row in view["board"] for turtle in row if turtle
           for animal in turtle["animals"]]
    names = view["names"]
    for shore in ("mainland", "island"):
        out += [(seat, f"{names[seat]}:{''.join(LETTERS[k] for k in kinds)}")
                for seat, kinds in enumerate(view[shore]) if kinds]
    return out


def _status(view: Mapping[str, Any], names: list[str]) -> Fragments:
    out: Fragments = []
    supply = view["supply"]
    out.append(("", f" supply: {supply['large']} large, {supply['small']} small"))
    if view["event"]:
        out.append(("", "  event: "))
        out.append(("bold", event_now(view["event"])))
    if view["variant"] == "professional":
        out.append((DIM, f", {view['events_left']} left"))
    out.append(("", "\n"))
    turn = names[view["turn"]]
    if view["phase"] == "over":
        out.append(("bold", " the game is over\n"))
    else:
        out.append(("", " to move: "))
        out.append((STYLE[turn], turn))
        if view["dice"]:
            out.append(("", f"   dice: {' '.join(map(str, view['dice']))}"))
        if view["die"] is not None:
            out.append(("", f" (using {view['die']})"))
        out.append(("", "\n"))
        out += _waiting(view, names)
    if view["variant"] != "children":
        out += _cards(view, names)
    resting = [f"{names[s]} {k} {n}" for s, k, n in view["tired"]]
    clamped = [f"{names[s]} {k} clamped" for s, k in enumerate(view["clamp"]) if k]
    if resting or clamped:
        out.append((DIM, packed("may not move (turns): " if resting else "", resting + clamped, ",")))
    return out


def _waiting(view: Mapping[str, Any], names: list[str]) -> Fragments:
    """What the step in progress waits for: a throw off a diving turtle, or an answer to a card."""
    if view["phase"] == "throw":
        return [("bold", f" {view['throw']['at']} dives: throw an animal off\n")]
    if view["phase"] == "answer":
        pending = view["pending"]
        owner, kind = pending["target"]
        return [("bold", f" {names[pending['by']]} plays {CARD_TITLES[pending['card']]} on {names[owner]}'s "
                 f"{kind}: {names[owner]} may answer or pass\n")]
    return []


def _cards(view: Mapping[str, Any], names: list[str]) -> Fragments:
    out: Fragments = [("", " cards left:")]
    for seat, count in enumerate(view["cards_left"]):
        out.append(("", " "))
        out.append((STYLE[names[seat]], f"{names[seat]} {count}"))
    out.append(("", "\n"))
    played = [  # the first word of a title names the card well enough here; the log has them in full
        f"{names[s]} {' '.join(CARD_TITLES[c].split()[0] for c in faces)}"
        for s, faces in enumerate(view["played"]) if faces
    ]
    if played:
        out.append((DIM, packed("played: ", played, ";")))
    if view["seat"] is not None:
        hand = ", ".join(CARD_TITLES[c] for c in view["hand"]) or "none"
        if view["phase"] == "keep" and not view["hand"]:
            hand = "none yet: keep 4 of the 6 cards (F3 says what each does)"
        out.append(("", " your hand: "))
        out.append(("bold", hand + "\n"))
    return out


def event_now(event: str | None) -> str:
    """The event card in play and, for one that lasts the round, what it does now."""
    if not event:
        return ""
    now = EVENT_NOW.get(event)
    return f"{EVENT_TITLES[event]} ({now})" if now else EVENT_TITLES[event]
