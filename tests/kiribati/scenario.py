"""Helpers that build Kiribati positions and play them by the texts a player types.

Positions are written the way the rules page speaks: ``sea(turtles={"c2r1": (3, ["red kagu"])})``
puts a 3-turtle carrying red's kagu on column 2 of row 1; every animal not placed is on the island.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from atoll import JSON, Action, Knowledge, Roll, State
from atoll.plugins.kiribati import Kiribati
from atoll.plugins.kiribati.board import parse_place, place
from atoll.plugins.kiribati.meta import COLOURS, LARGE_TILES, SMALL_TILES, tile_of
from atoll.plugins.kiribati.pieces import fits, locate
from atoll.plugins.kiribati.turn import actor

GAME = Kiribati()


def animal(text: str) -> list[object]:
    """``"red kagu"`` -> ``[0, "kagu"]``."""
    colour, kind = text.split()
    return [COLOURS.index(colour), kind]


def sea(
    *,
    seats: int = 2,
    variant: str = "children",
    options: Mapping[str, JSON] | None = None,
    turtles: Mapping[str, tuple[int, Sequence[str]]] | None = None,
    mainland: Sequence[str] = (),
    supply: tuple[int, int] | None = None,
    dice: tuple[int, int] = (1, 1),
    turn: int = 0,
) -> State:
    """A position in the die step of ``turn``'s turn: the given turtles and animals, the rest of the
    animals on the island, and the supply holding every tile not on the board (or ``supply``)."""
    state = GAME.setup(GAME.configure(seats, variant, options))
    state["board"] = [[None] * state["cols"] for _ in range(4)]
    used = {"large": 0, "small": 0}
    placed = [animal(a) for a in mainland]
    for name, (size, riders) in (turtles or {}).items():
        col, row = parse_place(name)
        state["board"][row][col] = {"size": size, "animals": [animal(a) for a in riders]}
        used[tile_of(size)] += 1
        placed += [animal(a) for a in riders]
    for seat, kind in placed:
        assert kind in state["animals"], f"{COLOURS[seat]} {kind} does not play in this game"
    for seat, kind in (animal(a) for a in mainland):
        state["mainland"][seat].append(kind)
    state["island"] = [[k for k in state["animals"] if [s, k] not in placed] for s in range(seats)]
    if supply is None:
        supply = (LARGE_TILES - used["large"], SMALL_TILES - used["small"])
    state["supply"] = {"large": supply[0], "small": supply[1]}
    state.update(phase="die", dice=list(dice), turn=turn)
    return state


def roll(state: State, a: int, b: int) -> State:
    """The state after the dice of the player on turn show ``a`` and ``b``."""
    return GAME.resolve(state, Roll(2, 6), {"values": [a, b]})


def with_cards(state: State, seat: int, cards: Sequence[str]) -> Knowledge:
    """Give ``seat`` these kept cards (handles ``k<seat>.<i>``); returns what the seat knows."""
    handles = [f"k{seat}.{i}" for i in range(len(cards))]
    state["hands"][seat] = handles
    return dict(zip(handles, cards, strict=True))


def texts(state: State, known: Knowledge | None = None) -> list[str]:
    """The texts of the legal actions of the seat to decide, sorted."""
    seat = actor(state)
    assert seat is not None, f"nobody decides in phase {state['phase']!r}"
    return sorted(GAME.describe(state, a) for a in GAME.legal_actions(state, seat, known or {}))


def moves(state: State, kind: str) -> list[str]:
    """The legal texts that move animals of ``kind`` (``"lizard c2r3"``), sorted."""
    return [t for t in texts(state) if t.split()[0] == kind]


def action(state: State, text: str, known: Knowledge | None = None) -> Action:
    """The legal action of the deciding seat whose text is ``text``."""
    seat = actor(state)
    assert seat is not None, f"nobody decides in phase {state['phase']!r}"
    for candidate in GAME.legal_actions(state, seat, known or {}):
        if GAME.describe(state, candidate) == text:
            return candidate
    raise AssertionError(f"{text!r} is not legal; legal: {texts(state, known)}")


def act(state: State, *steps: str, known: Knowledge | None = None) -> State:
    """Play ``steps`` (texts) one after another from ``state``; returns the new state."""
    for text in steps:
        state = GAME.apply(state, action(state, text, known))
    return state


def at(state: State, name: str) -> Any:
    """The turtle on place ``name`` (``None`` for open water)."""
    col, row = parse_place(name)
    return state["board"][row][col]


def riders(state: State, name: str) -> list[str]:
    """The animals on the turtle at ``name``, as ``"red kagu"`` texts."""
    turtle = at(state, name)
    assert turtle is not None, f"no turtle on {name}"
    return [f"{COLOURS[s]} {k}" for s, k in turtle["animals"]]


def assert_consistent(state: State) -> None:
    """The bookkeeping every rule must keep: each animal in exactly one place, all twelve tiles on
    the board or in the supply, no turtle over-full (but one diving, before the player has thrown
    animals off), and a clamp grip only on a turtle."""
    tiles = dict(state["supply"])
    diving = state["throw"]["at"] if state["throw"] else None  # over-full until the player throws
    for row, line in enumerate(state["board"]):
        assert len(line) == state["cols"]
        for col, turtle in enumerate(line):
            if turtle is not None:
                tiles[tile_of(turtle["size"])] += 1
                ok = fits(turtle["size"], turtle["animals"]) or place(col, row) == diving
                assert ok, f"over-full turtle {turtle}"
    assert tiles == {"large": LARGE_TILES, "small": SMALL_TILES}, f"tiles lost or made: {tiles}"
    for seat in range(state["seats"]):
        on_turtles = locate(state, seat)
        places = sorted(state["island"][seat] + state["mainland"][seat] + list(on_turtles))
        assert places == sorted(state["animals"]), f"{COLOURS[seat]}'s animals: {places}"
        clamp = state["clamp"][seat]
        assert clamp is None or clamp in on_turtles, (
            f"{COLOURS[seat]}'s clamp marker on {clamp} off the turtles"
        )
