"""How a finished game was counted, in a form the client can lay out with people's names: each seat's
points part by part as the rulebook counts them, every place, and the tie-break that was used.

A game gives one through :meth:`atoll.Game.score_sheet`; the client names the seats (``red (Ann)``),
so the game never writes a person's name nor a bare seat number.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from atoll.types import Results


@dataclass(frozen=True)
class ScoreLine:
    """One seat's points, as the rulebook counts them: ``parts`` are ``(what scored, points)`` pairs
    (``("lizard rescued", 9)``) that add up to the seat's score; ``standing`` is what the tie-break
    reads for this seat, in words (``"kept prey until round 12"``), or ``""`` when the game has none."""

    seat: int
    parts: tuple[tuple[str, int], ...]
    standing: str = ""

    @property
    def total(self) -> int:
        """The points the parts add up to."""
        return sum(points for _, points in self.parts)


@dataclass(frozen=True)
class ScoreSheet:
    """A finished game's count: a :class:`ScoreLine` per seat (in seat order), the places (first place
    first, each a tuple of the seats that share it), and the tie-break rule in words (``"on equal
    points, more species on board; then the win is shared"``)."""

    lines: tuple[ScoreLine, ...]
    places: tuple[tuple[int, ...], ...]
    tie_break: str = ""

    def problems(self, results: Results) -> list[str]:
        """What does not agree with ``results`` (empty when all does): each seat has one line whose
        parts add up to its score, every seat has exactly one place, and the first place is the winners."""
        found = []
        seats = len(results.scores)
        if [line.seat for line in self.lines] != list(range(seats)):
            given = [line.seat for line in self.lines]
            found.append(f"lines are for seats {given}, not 0-{seats - 1} in order")
        for line in self.lines:
            if 0 <= line.seat < seats and line.total != results.scores[line.seat]:
                found.append(f"seat {line.seat}'s parts add up to {line.total}, its score is "
                             f"{results.scores[line.seat]}")
        placed = [seat for place in self.places for seat in place]
        if sorted(placed) != list(range(seats)):
            found.append(f"places {self.places} do not list every seat once")
        if self.places and sorted(self.places[0]) != sorted(results.winners):
            found.append(f"first place {self.places[0]} is not the winners {results.winners}")
        return found


def places_by(seats: int, key: Callable[[int], Any]) -> tuple[tuple[int, ...], ...]:
    """The places of ``seats`` seats ranked by ``key`` (higher is better): seats with equal keys share
    a place; within a place, seat order."""
    keys = [key(seat) for seat in range(seats)]
    order: list[tuple[int, ...]] = []
    for value in sorted(set(keys), reverse=True):
        order.append(tuple(seat for seat in range(seats) if keys[seat] == value))
    return tuple(order)


def ordinal(place: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th`` for places counted from 1."""
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def sheet(parts: Sequence[Sequence[tuple[str, int]]], places: tuple[tuple[int, ...], ...],
          tie_break: str = "", standings: Sequence[str] = ()) -> ScoreSheet:
    """A :class:`ScoreSheet` from each seat's parts (seat order), the places, the tie-break rule, and
    optionally each seat's standing."""
    lines = tuple(ScoreLine(seat, tuple(seat_parts), standings[seat] if standings else "")
                  for seat, seat_parts in enumerate(parts))
    return ScoreSheet(lines, places, tie_break)
