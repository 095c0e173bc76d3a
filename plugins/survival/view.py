"""What a seat sees: everything (the game has no secrets), with names, scores and reach added."""

from __future__ import annotations

from atoll import JSON, State
from atoll.plugins.survival.meta import COLOURS, LETTERS
from atoll.plugins.survival.moves import reach
from atoll.plugins.survival.turn import results, scores


def view(state: State, seat: int | None) -> dict[str, JSON]:
    """The public state, the seat viewing (``None``: a spectator), the seats' names and letters, the
    points so far, where the tokens of the player on turn can go (rule S23) and, at the end, the
    winners."""
    seats = state["seats"]
    over = state["phase"] == "over"
    return {
        **state,
        "seat": seat,
        "names": list(COLOURS[:seats]),
        "letters": list(LETTERS[:seats]),
        "scores": scores(state),
        "reach": reach(state),
        "winners": list(results(state).winners) if over else [],
    }
