"""The state of a game: every key in one place (rules S2, S6), and where the tokens stand."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from atoll import Config, State
from atoll.plugins.survival.meta import ANIMALS, SNAKE


def initial_state(config: Config) -> State:
    """Every prey still to be placed and the draw for who starts (S2) to come; the draw puts the
    predators on their corners."""
    seats = config.seats
    return {
        "seats": seats,
        "phase": "draw",                       # draw, place, roll, assign, move, over
        "first": None,                         # the seat drawn to start (S2): it places and moves first
        "snake": config.variant == SNAKE,      # prey placed in snake order, not turn order (S6)
        "turn": 0,                             # the seat placing or on turn
        "round": 0,                            # rounds of turns begun (0 while placing)
        "clock": 0,                            # turns begun, for who kept prey longest (S18)
        "predators": [None] * seats,           # each predator's place; None before the draw, once out
        "prey": [{} for _ in range(seats)],    # each seat's prey on the board: animal -> place
        "unplaced": [list(ANIMALS) for _ in range(seats)],
        "caught": [[] for _ in range(seats)],  # [owner, animal] each seat's predator caught, in order
        "out": [None] * seats,                 # the clock when a seat lost its last prey
        "obstacles": {},                       # movable obstacles out: "1".."4" -> {"at", "turn"}
        "walls": [],                           # the places the movable obstacles cover, sorted
        "at": {},                              # place -> [seat, token]
        "dice": [],
        "predator_die": 0,
        "predator_left": 0,                    # steps the predator still owes this turn
        "prey_left": 0,                        # steps the prey still owe this turn
        "obstacle_due": False,                 # doubles: an obstacle must still be placed or moved
        "touched": [],                         # places the player on turn touched this turn (S10)
        "path": [],                            # the predator's places this turn, start first
    }


def occupants(state: State) -> Mapping[str, Sequence[Any]]:
    """Place -> [seat, ``"predator"`` or the prey animal] for every token on the board.

    The state keeps this index (``"at"``) beside ``predators`` and ``prey`` because every rule asks
    it: rebuilding it at each step cost more than the rest of a step."""
    at: Mapping[str, Sequence[Any]] = state["at"]
    return at


def index_tokens(state: State) -> dict[str, list[Any]]:
    """The ``"at"`` index built afresh from ``predators`` and ``prey`` (for set-ups made by hand)."""
    found: dict[str, list[Any]] = {}
    for seat, place in enumerate(state["predators"]):
        if place is not None:
            found[place] = [seat, "predator"]
    for seat, prey in enumerate(state["prey"]):
        for animal, place in prey.items():
            found[place] = [seat, animal]
    return found


def in_game(state: State) -> list[int]:
    """The seats that still have prey (before and while placing: every seat)."""
    if state["phase"] in ("draw", "place"):
        return list(range(state["seats"]))
    return [seat for seat in range(state["seats"]) if state["prey"][seat]]
