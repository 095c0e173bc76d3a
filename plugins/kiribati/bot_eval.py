"""How good a Kiribati position is for one seat: the heuristic the Kiribati bot steers by.

The score reads only public facts (the board, the island, the mainland, the round, card
counts) and the scoring seat's own kept cards, so a bot may call it on its observation.
Each seat's *progress* counts its animals by how far north they stand, less what they
risk losing before the seat's next turn (a turtle at the east edge, a 1-turtle, a full
turtle that may dive), plus a little for a way north and for kept cards. The position's
score is the seat's progress against the leading opponent's and the field's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from atoll import Knowledge, State
from atoll.plugins.kiribati.board import ROWS
from atoll.plugins.kiribati.meta import ANIMAL_POINTS, CARD_POINTS, PROFESSIONAL, ROUNDS
from atoll.plugins.kiribati.pieces import Turtle

#: The board as the state holds it: [row][column], a turtle or ``None``.
Board = list[list[Turtle | None]]

#: Professional: an animal's progress is counted in units of its victory points divided by this.
POINTS_UNIT = 7.0
#: Professional: the victory points an opponent's unseen kept card is worth on average.
UNSEEN_CARD_POINTS = 1.5
#: A won (children, family) or lost game, far beyond any progress.
DECIDED = 1000.0


@dataclass(frozen=True)
class Weights:
    """The evaluation's tunable numbers (progress units: a rescued animal is worth ``rescued``)."""

    #: An animal on a turtle in rows r1, r2, r3, r4.
    row: tuple[float, float, float, float] = (2.0, 4.0, 6.0, 8.0)
    #: An animal on the mainland.
    rescued: float = 10.0
    #: Chance, per opponent turn, that a turtle at the east edge is pushed into the open sea.
    edge: float = 0.25
    #: The same for a turtle one place from the edge with a turtle right in front of it.
    near_edge: float = 0.04
    #: Chance, per opponent turn, that a 1-turtle dives under.
    sink: float = 0.12
    #: Chance, per opponent turn, that a turtle with no free place dives and throws an animal off.
    crowded: float = 0.05
    #: An animal on a turtle with a way north (a turtle with room right ahead).
    way_north: float = 0.8
    #: A seat with animals on the island and room on a turtle of row r1.
    island_access: float = 0.6
    #: Each turn an animal still has to rest or sleep.
    tired: float = 1.0
    #: A kept card not yet played (children has none; professional adds its victory points).
    card: float = 0.8
    #: Weight of the leading opponent's progress, and of every opponent's.
    lead: float = 0.5
    field: float = 0.2


DEFAULT_WEIGHTS = Weights()


def evaluate(state: State, seat: int, known: Knowledge, weights: Weights = DEFAULT_WEIGHTS) -> float:
    """The position's score for ``seat``: higher is better; ``known`` holds the seat's kept cards."""
    seats: int = state["seats"]
    if state["variant"] != PROFESSIONAL and state["finished"]:
        return DECIDED if state["finished"][0] == seat else -DECIDED
    progress = progress_by_seat(state, seat, known, weights)
    others = [progress[s] for s in range(seats) if s != seat]
    return progress[seat] - weights.lead * max(others) - weights.field * sum(others)


def progress_by_seat(state: State, seat: int, known: Knowledge, weights: Weights) -> list[float]:
    """Each seat's progress; ``seat``'s kept cards are valued from ``known``, the others' by count."""
    seats: int = state["seats"]
    cols: int = state["cols"]
    board: Board = state["board"]
    professional = state["variant"] == PROFESSIONAL
    left = _turns_left(state) if professional else None
    progress = [0.0] * seats
    # An opponent turn comes between now and each seat's next turn for every other seat.
    exposure = seats - 1
    for row in range(ROWS):
        line = board[row]
        ahead = board[row + 1] if row + 1 < ROWS else None
        for col in range(cols):
            turtle = line[col]
            if turtle is None:
                continue
            size: int = turtle["size"]
            riders: list[list[Any]] = turtle["animals"]
            lost = 0.0  # chance per opponent turn to go home with the turtle
            if col == cols - 1:
                lost += weights.edge
            elif col == cols - 2 and line[col + 1] is not None:
                lost += weights.near_edge
            if size == 1:
                lost += weights.sink
            thrown = weights.crowded if len(riders) >= size else 0.0
            for owner, kind in riders:
                value = weights.row[row]
                if left is not None:
                    value = _professional(value, kind, ROWS - row, left, state, owner)
                risk = lost if state["clamp"][owner] == kind else lost + thrown
                keep = (1.0 - min(risk, 1.0)) ** exposure
                progress[owner] += value * keep
                if ahead is not None and _way_north(board, cols, col, row, kind):
                    progress[owner] += weights.way_north * (1.0 if left is None else _unit(kind))
    room_r1 = any(t is not None and len(t["animals"]) < t["size"] for t in board[0])
    for s in range(seats):
        for kind in state["mainland"][s]:
            progress[s] += weights.rescued * (1.0 if left is None else _unit(kind))
        if room_r1 and state["island"][s]:
            progress[s] += weights.island_access
        progress[s] += _cards(state, s, seat, known, weights, professional)
    for s, _kind, turns in state["tired"]:
        progress[s] -= weights.tired * turns
    return progress


def _unit(kind: str) -> float:
    """Professional: an animal's weight, its victory points over :data:`POINTS_UNIT`."""
    return ANIMAL_POINTS[kind] / POINTS_UNIT


def _professional(
    value: float, kind: str, steps: int, left: Sequence[int], state: State, owner: int
) -> float:
    """An animal's worth when only rescued animals score: nothing (but a tie-break crumb) if it
    cannot reach the mainland in the turns its owner has left."""
    turns = left[owner]
    if owner == state["turn"] and state["phase"] == "animals" and kind not in state["moved"]:
        turns += 1  # it may still step this turn
    if steps > turns:
        return 0.01 * value
    return value * _unit(kind)


def _turns_left(state: State) -> list[int]:
    """Professional: the whole turns each seat still gets (K46: the round in which a player
    rescued every animal is the last)."""
    last = state["round"] if state["finished"] else ROUNDS
    future_rounds = last - state["round"]
    turn, phase = state["turn"], state["phase"]
    out = []
    for s in range(state["seats"]):
        this_round = s > turn or (s == turn and phase in ("event", "roll", "die", "turtle", "throw"))
        out.append(future_rounds + (1 if this_round else 0))
    return out


def _way_north(board: Board, cols: int, col: int, row: int, kind: str) -> bool:
    """Whether a turtle with room stands where the animal could step north (or a rabbit diagonally,
    a monkey by a jump, a koala even onto a full turtle); from row r4 the mainland is always there."""
    ahead = board[row + 1]
    if _has_room(ahead[col], kind):
        return True
    if kind == "rabbit":
        return any(0 <= c < cols and _has_room(ahead[c], kind) for c in (col - 1, col + 1))
    if kind == "monkey" and row + 2 < ROWS and ahead[col] is not None:
        return _has_room(board[row + 2][col], kind)
    return False


def _has_room(turtle: Turtle | None, kind: str) -> bool:
    if turtle is None:
        return False
    return kind == "koala" or len(turtle["animals"]) < turtle["size"]


def _cards(state: State, s: int, seat: int, known: Knowledge, weights: Weights, professional: bool) -> float:
    """Kept cards: an option to play them, and (professional) the victory points they score unplayed."""
    hand: list[str] = state["hands"][s]
    if not professional:
        return weights.card * len(hand)
    point = weights.rescued / POINTS_UNIT  # one victory point in progress units
    if s != seat:
        return len(hand) * (weights.card + UNSEEN_CARD_POINTS * point)
    points = sum(CARD_POINTS.get(str(known.get(h)), 1) for h in hand)
    return weights.card * len(hand) + points * point
