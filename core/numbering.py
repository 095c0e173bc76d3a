"""Seats as people read them: numbered from 1, as the seat bar marks them (``●1``, ``▲2``).

Every text a person reads (the screens, what a command prints, the table's and the client's log lines,
refusals and verdicts) and every seat number a person types (``atoll play --seat``, ``atoll audit
--expect``) counts from 1; code, the log's and the saves' JSON fields and the game API count from 0
(``seat`` 0 is the first seat). See docs/decisions/0025-authors.md.
"""

from __future__ import annotations


def seat_number(seat: int) -> int:
    """The number people read for the seat of index ``seat``: ``seat_number(0) == 1``."""
    return seat + 1


def seat_label(seat: object) -> str:
    """``"seat 1"`` for the seat of index 0; anything that is not an index (a seat a peer claimed
    wrongly, ``None``) is shown as it came, so a refusal can quote it."""
    if isinstance(seat, int) and not isinstance(seat, bool):
        return f"seat {seat + 1}"
    return f"seat {seat!r}"


def seats_label(seats: object) -> str:
    """``"seats 1, 3"`` for the seats of indexes 0 and 2 (in the order given; a set sorted), ``"seat 2"``
    for one."""
    if isinstance(seats, (list, tuple, set, frozenset)):
        listed = sorted(seats) if isinstance(seats, (set, frozenset)) else list(seats)
        if len(listed) == 1:
            return seat_label(listed[0])
        return "seats " + ", ".join(str(seat_number(s)) if isinstance(s, int) else repr(s) for s in listed)
    return f"seats {seats!r}"
