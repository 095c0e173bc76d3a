"""The state of a game: its layout, the state before the first roll (rules K1-K4), and the working copy."""

from __future__ import annotations

from atoll import Config, State
from atoll.plugins.kiribati.board import ROWS, columns
from atoll.plugins.kiribati.events import full_deck
from atoll.plugins.kiribati.meta import LARGE_TILES, PROFESSIONAL, SMALL_TILES, animals_in_play


def initial_state(config: Config) -> State:
    """Two 4-turtles in column 1 of rows 1 and 2; rows 3 and 4 wait for a random turtle each.

    Every key of the state is here, so a reader learns the whole state in one place.
    """
    seats = config.seats
    animals = animals_in_play(seats, config.variant, config.options)
    cols = columns(seats)
    board: list[list[object]] = [[None] * cols for _ in range(ROWS)]
    board[0][0] = {"size": 4, "animals": []}
    board[1][0] = {"size": 4, "animals": []}
    return {
        "variant": config.variant,
        "seats": seats,
        "cols": cols,
        "animals": animals,                      # each player's animals, in the rulebook's order
        "board": board,                          # [row][col]: None or {"size", "animals": [[seat, kind]]}
        "supply": {"large": LARGE_TILES - 2, "small": SMALL_TILES},
        "island": [list(animals) for _ in range(seats)],
        "mainland": [[] for _ in range(seats)],  # in the order the animals arrived
        "finished": [],                          # seats with every animal rescued, first first
        "phase": "setup",
        "setup_row": 2,                          # the row whose random turtle comes next
        "turn": 0,                               # the player on turn; seat 0 holds the start-player marker
        "round": 1,
        "dice": [],
        "die": None,
        "moved": [],                             # animals moved this turn
        "placed": False,                         # an animal came from the island this turn
        "extra": 0,                              # second moves left from a feeding station
        "carded": False,                         # the player on turn has played a card this turn
        "answered": [],                          # seats that have answered a card this round
        "pending": None,                         # a card waiting for its answer
        "throw": None,                           # an over-full diving turtle: {"at", "kagu"}
        "clamp": [None] * seats,                 # each seat's animal with the clamp-grip marker
        "tired": [],                             # [seat, animal, turns left] resting or asleep
        "hands": [[] for _ in range(seats)],     # handles of each seat's unplayed kept cards
        "played": [[] for _ in range(seats)],    # each seat's discard pile, faces up
        "opened": {},                            # handle -> face of the cards opened at the end
        "event": None,                           # the event card of this round
        "events_left": full_deck() if config.variant == PROFESSIONAL else [],
        "events_seen": [],
    }


def copy_state(state: State) -> State:
    """The working copy that ``apply`` and ``resolve`` change: a new dict sharing every value with
    ``state``. Rules never change those values in place; they give the copy's keys new values built
    from the old (see :mod:`atoll.plugins.kiribati.pieces`), so ``state`` stays as it was and the two
    states share everything an action did not touch: copying a whole state at every step would cost
    more than most actions do."""
    return dict(state)
