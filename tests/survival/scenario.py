"""Helpers that set up Survival positions and play them by the texts a player types.

Positions are written as the rules page speaks: ``position(tokens={"d4": "red zebra",
"e5": "blue predator"})`` puts red's zebra on d4 and blue's predator on e5. Every token of
the game is listed; a seat whose predator is not listed has none on the board.
"""

from __future__ import annotations

from collections.abc import Mapping

from atoll import Action, Roll, State
from atoll.plugins.survival import Survival
from atoll.plugins.survival.meta import COLOURS
from atoll.plugins.survival.obstacles import walls
from atoll.plugins.survival.state import index_tokens
from atoll.plugins.survival.turn import apply_action, legal

GAME = Survival()


def position(
    tokens: Mapping[str, str],
    *,
    seats: int = 2,
    turn: int = 0,
    first: int = 0,
    obstacles: Mapping[int, tuple[str, int]] | None = None,
    caught: Mapping[int, list[list[object]]] | None = None,
) -> State:
    """The state at the roll of ``turn``'s turn with exactly these tokens on the board, ``first`` the
    seat drawn to start (rule S2)."""
    state = GAME.setup(GAME.configure(seats))
    predators: list[str | None] = [None] * seats
    prey: list[dict[str, str]] = [{} for _ in range(seats)]
    for place, token in tokens.items():
        colour, kind = token.split(maxsplit=1)
        seat = COLOURS.index(colour)
        if kind == "predator":
            predators[seat] = place
        else:
            prey[seat][kind] = place
    state.update(
        predators=predators, prey=prey, unplaced=[[] for _ in range(seats)], phase="roll", turn=turn,
        first=first, round=1, clock=1,
        obstacles={str(n): {"at": at, "turn": t} for n, (at, t) in (obstacles or {}).items()},
    )
    state["at"] = index_tokens(state)
    state["walls"] = walls(state["obstacles"])
    if caught:
        state["caught"] = [list(caught.get(seat, [])) for seat in range(seats)]
    return state


def started(seats: int, first: int = 0, variant: str = "standard") -> State:
    """A new game of ``seats`` players once the draw for who starts (rule S2) gave ``first``."""
    state = GAME.setup(GAME.configure(seats, variant))
    return GAME.resolve(state, Roll(1, seats), {"values": [first + 1]})


def roll(state: State, a: int, b: int) -> State:
    """The state after the dice of the player on turn show ``a`` and ``b``."""
    return GAME.resolve(state, Roll(2, 6), {"values": [a, b]})


def texts(state: State) -> list[str]:
    """The texts of the legal actions of the player on turn, sorted."""
    return sorted(GAME.describe(state, a) for a in legal(state, state["turn"]))


def action(state: State, text: str) -> Action:
    """The legal action of the player on turn whose text is ``text``."""
    for candidate in legal(state, state["turn"]):
        if GAME.describe(state, candidate) == text:
            return candidate
    raise AssertionError(f"{text!r} is not legal; legal: {texts(state)[:30]}")


def act(state: State, *steps: str) -> State:
    """Play ``steps`` (texts) one after another from ``state``."""
    for text in steps:
        state = apply_action(state, action(state, text))
    return state


def moves_of(state: State, token: str) -> list[str]:
    """The places ``token`` (``"predator"`` or an animal) of the player on turn may step to, sorted."""
    return sorted(t.split()[1] for t in texts(state) if t.split()[0] == token)
