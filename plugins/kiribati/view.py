"""What one seat may see: the public board and tables, its own kept cards, the others' card counts."""

from __future__ import annotations

from atoll import JSON, Knowledge, State, clone
from atoll.plugins.kiribati.board import NET_PLACES, place
from atoll.plugins.kiribati.meta import COLOURS, PROFESSIONAL

#: State keys every seat and every spectator may see as they are.
PUBLIC = (
    "variant", "seats", "cols", "animals", "board", "supply", "island", "mainland", "finished", "phase",
    "turn", "round", "dice", "die", "moved", "extra", "answered", "pending", "throw", "clamp", "tired",
    "played", "opened", "event", "events_seen",
)


def view(state: State, seat: int | None, known: Knowledge) -> dict[str, JSON]:
    """``seat``'s view (``None``: a spectator): the public state, each seat's number of unplayed
    cards, and the faces of the seat's own unplayed cards (from what it privately knows)."""
    out: dict[str, JSON] = {key: clone(state[key]) for key in PUBLIC}
    out["seat"] = seat
    out["names"] = list(COLOURS[: state["seats"]])
    out["cards_left"] = [len(hand) for hand in state["hands"]]
    out["events_left"] = len(state["events_left"])
    out["net"] = sorted(place(c, r) for c, r in NET_PLACES) if state["variant"] == PROFESSIONAL else []
    out["hand"] = [] if seat is None else [known[h] for h in state["hands"][seat] if h in known]
    return out
