"""The departure of the arks and the scores (rules A22-A27), as pure functions over the state.

At departure every tile on the arks is public, so everything here reads faces from
``state["public"]``; :func:`ark_points` also serves the bot, on faces it knows.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from itertools import combinations

from atoll import Results, State
from atoll.plugins.animals_on_board.meta import FULL, HERD_POINTS, number_of, order, species_of


def ark_points(tiles: Iterable[str]) -> int:
    """A25: the points of departing tiles: a single scores its number, a herd animal five.

    Tiles of a species held exactly twice score nothing (A23 discards them).
    """
    tiles = list(tiles)
    counts = Counter(species_of(t) for t in tiles)
    points = 0
    for tile in tiles:
        count = counts[species_of(tile)]
        if count == 1:
            points += number_of(tile)
        elif count >= 3:
            points += HERD_POINTS
    return points


def species_on_board(tiles: Iterable[str]) -> int:
    """A26: how many different species an ark carries (the first tie-break)."""
    return len({species_of(t) for t in tiles})


def discard_pairs(new: State) -> None:
    """A23: every species an ark holds exactly twice goes back to the box."""
    public = new["public"]
    arks, discarded = [], []
    for ark, lost in zip(new["arks"], new["discarded"], strict=True):
        counts = Counter(species_of(public[h]) for h in ark)
        pairs = [h for h in ark if counts[species_of(public[h])] == 2]
        arks.append(sorted((h for h in ark if h not in pairs), key=lambda h: order(public[h])))
        discarded.append([*lost, *pairs])
    new["arks"], new["discarded"] = arks, discarded


def next_cut(new: State) -> None:
    """A24: the next ark (in seat order) still over ten is cut by its owner; else the game is over."""
    over = [seat for seat, ark in enumerate(new["arks"]) if len(ark) > FULL]
    if over:
        new["phase"], new["turn"] = "cut", over[0]
    else:
        new["phase"] = "over"


def cut_options(state: State, seat: int) -> list[list[str]]:
    """A24: every way to cut ``seat``'s ark to ten tiles without leaving a species at exactly two.

    Each option is the handles discarded, in ark order; the options come in a stable order.
    """
    public = state["public"]
    ark = state["arks"][seat]
    excess = len(ark) - FULL
    if excess <= 0:
        return []
    counts = Counter(species_of(public[h]) for h in ark)
    options = []
    for discard in combinations(ark, excess):
        left = counts.copy()
        left.subtract(species_of(public[h]) for h in discard)
        if 2 not in left.values():
            options.append(list(discard))
    return options


def score(state: State, seat: int) -> int:
    """A25: ``seat``'s points: its departing tiles and its crates."""
    public = state["public"]
    return ark_points(public[h] for h in state["arks"][seat]) + int(state["crates"][seat])


def results(state: State) -> Results:
    """A26: the most points win; a tie goes to more species on board, then the win is shared."""
    scores = tuple(score(state, seat) for seat in range(state["seats"]))
    public = state["public"]
    ranks = [(scores[s], species_on_board(public[h] for h in state["arks"][s])) for s in range(len(scores))]
    best = max(ranks)
    return Results(scores, tuple(seat for seat, rank in enumerate(ranks) if rank == best))
