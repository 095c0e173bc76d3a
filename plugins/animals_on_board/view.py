"""What one seat of Animals on Board may see: the centre, counts and crates, and its own tiles.

A20: an ark's contents are known to its owner only; the others see how many tiles it holds.
The tiles beyond the tenth lie face up in front of their owner (A19); the arks are shown to
everybody at departure (A22).
"""

from __future__ import annotations

from atoll import JSON, Knowledge, State
from atoll.plugins.animals_on_board import rules, scoring
from atoll.plugins.animals_on_board.meta import FULL, order
from atoll.plugins.animals_on_board.texts import tile_name

#: Phases in which the arks have departed and are shown to all.
DEPARTED = ("cut", "over")


def own_tiles(state: State, seat: int, known: Knowledge) -> list[str]:
    """The faces on ``seat``'s ark that it knows (all of them), in board order.

    Before the kept tiles are opened, the ark is the tile the seat sealed its choice on.
    """
    public = state["public"]
    faces = [public.get(h, known.get(h)) for h in state["arks"][seat]]
    seal = state["seals"][seat]
    if not state["arks"][seat] and seal:
        faces.append(known.get(seal[1]))
    return sorted((f for f in faces if isinstance(f, str)), key=order)


def beyond_ten(state: State, seat: int) -> list[str]:
    """The tiles of ``seat``'s ark beyond the tenth, which lie face up in front of it for everybody
    to see (A19): the last face-up tiles to come aboard. The group that filled the ark brought them,
    and a face-down tile of that group stays hidden on the ark (our decision)."""
    ark, public = state["arks"][seat], state["public"]
    beyond = [public[h] for h in reversed(ark) if h in public][: max(0, len(ark) - FULL)]
    return sorted(beyond, key=order)


def view(state: State, seat: int | None, known: Knowledge) -> dict[str, JSON]:
    """The view of ``seat`` (``None``: a spectator)."""
    public = state["public"]
    departed = state["phase"] in DEPARTED
    hand: list[str] = []
    if seat is not None and state["phase"] == "keep":
        hand = sorted((f for h in state["hands"][seat] if isinstance(f := known.get(h), str)), key=order)
    over = state["phase"] == "over"
    results = scoring.results(state) if over else None
    return {
        "seat": seat,
        "seats": state["seats"],
        "phase": state["phase"],
        "round": state["round"],
        "turn": rules.deciding_seat(state),
        "start": state["start"],
        "final": state["final"],
        "removed": list(state["removed"]),
        "groups": [[tile_name(state, h) for h in group] for group in state["groups"]],
        "pile": rules.pile_left(state) if state["species"] else 0,
        "crates": list(state["crates"]),
        "supply": state["supply"],
        "ark_sizes": [len(ark) for ark in state["arks"]],
        "face_up": [beyond_ten(state, s) for s in range(state["seats"])],
        "out": list(state["out"]),
        "hand": list(hand),
        "ark": own_tiles(state, seat, known) if seat is not None else [],
        "arks": [sorted((public[h] for h in ark), key=order) for ark in state["arks"]] if departed else [],
        "discarded": [sorted((public[h] for h in lost), key=order) for lost in state["discarded"]]
        if departed else [],
        "scores": list(results.scores) if results else [],
        "winners": list(results.winners) if results else [],
    }
