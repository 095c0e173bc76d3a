"""Who sits where at a table, as every peer decides it from the log: a ``sit`` may choose its seat, a
rematch keeps each person's seat from the game before, and a refusal names the seats that are free.

The rules (docs/decisions/0023-seats-at-a-table.md):

- A ``sit`` that names a seat gets it if it is free; else it is refused in one line saying who holds
  it and which seats are free.
- A ``sit`` that names none gets the seat kept for its identity (a rematch), else the first free seat
  that is not kept for anyone else, else the first free seat.
- A seat kept for someone who has not sat again goes to another person only when no other seat is
  free, whether that person asked for it or not: nobody's seat is taken while another is open, and a
  table never waits for someone who does not come back.

Seats are numbered from 0 here, as on the wire; people read them from 1 (:func:`seat_words`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from atoll.seat_colours import COLOURS, seat_words
from atoll.wire import KeptSeat

_HEX_IDENTITY = 64


class SeatRefused(ValueError):
    """A seat that cannot be had: the message says why and which seats are free."""


def free_seats(seats: int, held: Mapping[str, int]) -> list[int]:
    """The seats nobody holds, in order."""
    taken = set(held.values())
    return [seat for seat in range(seats) if seat not in taken]


def open_seats(seats: int, held: Mapping[str, int], kept: Sequence[KeptSeat]) -> list[int]:
    """The seats a newcomer can have now: the free ones not kept for someone else, or, when every free
    seat is kept, all the free ones."""
    free = free_seats(seats, held)
    waiting = {k["seat"] for k in kept if k["who"] not in held}
    return [seat for seat in free if seat not in waiting] or free


def choose_seat(
    author: str,
    wish: Any,
    *,
    seats: int,
    held: Mapping[str, int],
    kept: Sequence[KeptSeat],
    names: Mapping[str, str],
    colours: Sequence[str],
) -> int:
    """The seat ``author`` gets for a ``sit`` that asks for ``wish`` (a seat from 0, or ``None``);
    raises :class:`SeatRefused` naming the free seats when it cannot be had."""
    free = free_seats(seats, held)
    if not free:
        raise SeatRefused("every seat is taken")
    mine = next((k["seat"] for k in kept if k["who"] == author), None)
    newcomer = open_seats(seats, held, [k for k in kept if k["who"] != author])
    if wish is None:
        return mine if mine in free else newcomer[0]
    if type(wish) is not int or not 0 <= wish < seats:
        raise SeatRefused(f"there is no seat {_number(wish)} at this table of {seats} seats; "
                          f"{free_words(newcomer, colours)}")
    holder = next((who for who, seat in held.items() if seat == wish), None)
    if holder is not None:
        raise SeatRefused(f"{seat_words(wish, colours)} is taken by {names.get(holder, 'someone')}; "
                          f"{free_words(newcomer, colours)}")
    if wish not in newcomer and wish != mine:
        keeper = next(k["name"] for k in kept if k["seat"] == wish)
        raise SeatRefused(f"{seat_words(wish, colours)} is kept for {keeper} from the last game; "
                          f"{free_words(newcomer, colours)}")
    return int(wish)


def seat_of_colour(colour: str, *, colours: Sequence[str], held: Mapping[str, int]) -> int:
    """The seat whose colour is ``colour`` (a free one first, when several share it); raises
    :class:`SeatRefused` listing the colours there are when no seat has it."""
    word = colour.strip().lower()
    matching = [seat for seat, c in enumerate(colours) if c == word]
    if not matching:
        taken = set(held.values())
        offered = ", ".join(f"{c}{'' if seat in taken else ' (free)'}" for seat, c in enumerate(colours))
        known = "" if word in COLOURS else f" ({colour!r} is not a colour atoll knows)"
        raise SeatRefused(f"no seat at this table is {word}{known}; its colours: {offered}")
    free = [seat for seat in matching if seat not in held.values()]
    return (free or matching)[0]


def free_words(free: Sequence[int], colours: Sequence[str]) -> str:
    """``"free: seat 1 (red), seat 3 (green)"``, or that no seat is free."""
    if not free:
        return "no seat is free"
    return "free: " + ", ".join(seat_words(seat, colours) for seat in free)


def read_kept(value: Any, seats: int) -> list[KeptSeat]:
    """The ``kept`` list of an ``open`` body, checked: each an identity (hex), a seat of the table and
    a name, no identity or seat twice; raises ValueError saying what is wrong."""
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > seats:
        raise ValueError(f"kept seats are a list of at most {seats}")
    kept: list[KeptSeat] = []
    for item in value:
        if not isinstance(item, dict):
            raise ValueError("a kept seat is an object: who, seat, name")
        who, seat, name = item.get("who"), item.get("seat"), item.get("name")
        if not (_identity(who) and type(seat) is int and 0 <= seat < seats and isinstance(name, str)
                and name.isprintable() and 1 <= len(name) <= 32):
            raise ValueError("a kept seat is an identity (hex), a seat of the table and a name")
        kept.append({"who": str(who), "seat": seat, "name": name})
    if len({k["who"] for k in kept}) < len(kept) or len({k["seat"] for k in kept}) < len(kept):
        raise ValueError("a seat, or an identity, is kept twice")
    return kept


def _identity(who: Any) -> bool:
    return isinstance(who, str) and len(who) == _HEX_IDENTITY and all(c in "0123456789abcdef" for c in who)


def _number(wish: Any) -> str:
    return str(wish + 1) if type(wish) is int else repr(wish)[:20]
