"""How a game of Kiribati is won (rules K28, K46-K48)."""

from __future__ import annotations

from atoll import Results, State
from atoll.plugins.kiribati.board import ROWS
from atoll.plugins.kiribati.meta import ANIMAL_POINTS, CARD_POINTS, PROFESSIONAL
from atoll.plugins.kiribati.pieces import locate


def victory_points(state: State, seat: int) -> int:
    """K47: points for each rescued animal and for each kept card not played (opened at the end)."""
    animals = sum(ANIMAL_POINTS[kind] for kind in state["mainland"][seat])
    cards = sum(CARD_POINTS[state["opened"][h]] for h in state["hands"][seat] if h in state["opened"])
    return animals + cards


def steps_to_go(state: State, seat: int) -> int:
    """K48: the steps the animals not rescued still have to go to the mainland: from a turtle of row
    r, 5 - r (one a row and one ashore); from the island, counted as row 0, five."""
    afloat = locate(state, seat)
    left = len(state["animals"]) - len(state["mainland"][seat])
    return sum(ROWS - row for _, row in afloat.values()) + (left - len(afloat)) * (ROWS + 1)


def results(state: State) -> Results:
    """Children and family: the first to rescue every animal wins, scores are animals rescued (K28).
    Professional: victory points, then the tie-breaks of rule K48."""
    seats = range(state["seats"])
    if state["variant"] != PROFESSIONAL:
        return Results(tuple(len(state["mainland"][s]) for s in seats), tuple(state["finished"][:1]))
    scores = tuple(victory_points(state, s) for s in seats)
    finished = state["finished"]

    def rank(seat: int) -> tuple[int, int, int]:
        if seat in finished:
            return scores[seat], 1, -finished.index(seat)
        return scores[seat], 0, -steps_to_go(state, seat)

    best = max(rank(s) for s in seats)
    return Results(scores, tuple(s for s in seats if rank(s) == best))
