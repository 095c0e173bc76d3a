"""What one seat of Kariba may see: the public table and the faces of its own hand."""

from __future__ import annotations

from atoll import JSON, Knowledge, State
from atoll.plugins.kariba import rules


def view(state: State, seat: int | None, known: Knowledge) -> dict[str, JSON]:
    """The view of ``seat`` (``None``: a spectator).

    Everybody sees the waterhole, the score piles, hand sizes, the pile size, the
    face-up cards and the cards a seat took from them; only ``seat`` sees the rest
    of its own hand.
    """
    public = state["public"]
    hand: list[int] = []
    if seat is not None:
        faces = (rules.face_of(state, h, known) for h in state["hands"][seat])
        hand = sorted(f for f in faces if f is not None)
    over = state["phase"] == "over"
    return {
        "seat": seat,
        "variant": "experienced" if state["experienced"] else "standard",
        "turn": state["turn"],
        "phase": state["phase"],
        "hole": list(state["hole"]),
        "won": list(state["won"]),
        "hand": list(hand),
        "hand_sizes": [len(h) for h in state["hands"]],
        "shown": [sorted(public[h] for h in held if h in public) for held in state["hands"]],
        "pile": rules.pile_size(state),
        "row": [public[h] for h in state["row"]],
        "winners": list(rules.results(state).winners) if over else [],
    }
