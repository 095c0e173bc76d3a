"""Event cards of the professional variant: the deck and what each event does (rules K38-K45)."""

from __future__ import annotations

from atoll import State
from atoll.plugins.kiribati.board import ROWS
from atoll.plugins.kiribati.pieces import (
    fits,
    is_clamped,
    leave_island,
    locate,
    put_on,
    put_on_island,
    replaced,
    rescue,
    send_home,
    set_row,
    take_off,
)

#: The twenty event cards (rule K38, our decision): the six events the rulebook describes, the two
#: that last a round four times each and the others three times, in a fixed order.
DECK = {"cloudy": 4, "fishing_net": 4, "thunderstorm": 3, "sunshine": 3, "flow": 3, "storm": 3}
TITLES = {
    "cloudy": "Cloudy", "fishing_net": "Fishing net", "thunderstorm": "Thunderstorm", "sunshine": "Sunshine",
    "flow": "Flow", "storm": "Storm",
}
#: Events that last the whole round; the others happen once, when the card is turned.
ROUND_LONG = ("cloudy", "fishing_net")
#: How many of the twenty are drawn for a game: one per round.
DRAWN = 15


def full_deck() -> list[str]:
    """The twenty event cards, as the list of names a draw picks from."""
    return [name for name, count in DECK.items() for _ in range(count)]


def turn_card(state: State, name: str) -> None:
    """Turn the event card ``name`` face up at the start of a round and carry it out."""
    left = list(state["events_left"])
    left.remove(name)
    state["events_left"] = left
    state["events_seen"] = [*state["events_seen"], name]
    state["event"] = name
    if name == "cloudy":
        state["tired"] = [t for t in state["tired"] if t[1] != "koala"]
    elif name == "thunderstorm":
        _thunderstorm(state)
    elif name == "sunshine":
        _sunshine(state)
    elif name == "flow":
        _flow(state)
    elif name == "storm":
        _storm(state)


def _thunderstorm(state: State) -> None:
    """K41: each player's rabbit and monkey swap places, unless one is on the mainland or holds fast."""
    if "rabbit" not in state["animals"] or "monkey" not in state["animals"]:
        return
    for seat in range(state["seats"]):
        if {"rabbit", "monkey"} & set(state["mainland"][seat]):
            continue
        if is_clamped(state, seat, "rabbit") or is_clamped(state, seat, "monkey"):
            continue
        where = locate(state, seat)
        rabbit, monkey = where.get("rabbit"), where.get("monkey")
        if rabbit == monkey:  # both on the island, or on the same turtle
            continue
        _lift(state, seat, "rabbit", rabbit)
        _lift(state, seat, "monkey", monkey)
        _set_down(state, seat, "rabbit", monkey)
        _set_down(state, seat, "monkey", rabbit)


def _lift(state: State, seat: int, kind: str, spot: tuple[int, int] | None) -> None:
    if spot is None:
        leave_island(state, seat, kind)
    else:
        take_off(state, *spot, seat, kind)


def _set_down(state: State, seat: int, kind: str, spot: tuple[int, int] | None) -> None:
    if spot is None:
        put_on_island(state, seat, kind)
    else:
        put_on(state, *spot, seat, kind)


def _sunshine(state: State) -> None:
    """K42: every lizard on a turtle walks one turtle north if there is room; from row 4 (or on
    reaching it) it goes on to the mainland. Lizards further north go first; one holding fast stays."""
    walkers = [
        (row, col, seat)
        for row in reversed(range(ROWS))
        for col, turtle in enumerate(state["board"][row]) if turtle is not None
        for seat, kind in turtle["animals"] if kind == "lizard" and not is_clamped(state, seat, kind)
    ]
    for row, col, seat in walkers:
        if row < ROWS - 1:
            ahead = state["board"][row + 1][col]
            if ahead is None or not fits(ahead["size"], [*ahead["animals"], [seat, "lizard"]]):
                continue
        take_off(state, col, row, seat, "lizard")
        if row + 1 < ROWS - 1:
            put_on(state, col, row + 1, seat, "lizard")
        else:  # it walked into row 4 (or stood there) and goes on to the mainland
            rescue(state, seat, "lizard")


def _flow(state: State) -> None:
    """K43: in each row the easternmost turtle drifts one place west if that place is free;
    a turtle in column 1 stays."""
    for row, line in enumerate(state["board"]):
        occupied = [c for c, t in enumerate(line) if t is not None]
        if occupied and occupied[-1] > 0 and line[occupied[-1] - 1] is None:
            east = occupied[-1]
            set_row(state, row, replaced(replaced(line, east - 1, line[east]), east, None))


def _storm(state: State) -> None:
    """K44: every kagu on a turtle is blown back to the island, unless it holds fast (K34)."""
    for row, line in enumerate(state["board"]):
        for col, turtle in enumerate(line):
            if turtle is None:
                continue
            for seat, kind in turtle["animals"]:
                if kind == "kagu" and not is_clamped(state, seat, kind):
                    send_home(state, col, row, seat, kind)
