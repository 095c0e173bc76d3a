"""Step announcements: what the table does next, derived by every peer from the game log alone.

Each function returns the announcement's fields (without ``n``; :func:`numbered` adds the next
step number). Every peer derives the same announcements from the same log, and every message of a
step signs its announcement (through ``seen``), so a peer whose log differs is refused, not obeyed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from atoll.chance import Deal, Pick, Request, Reveal, Roll, Shuffle
from atoll.errors import ProtocolViolation
from atoll.fair.primitives.randomness import position
from atoll.fair.steps.history import StepRecord
from atoll.fair.steps.record import Record
from atoll.jsondata import JSON


def numbered(record: Record, fields: Mapping[str, JSON]) -> StepRecord:
    """``fields`` as the record's next step."""
    return {"n": record.n + 1, **fields}


def for_chance(record: Record, request: Request) -> list[dict[str, JSON]]:
    """The steps that answer a chance request: a draw (after a new chain epoch when one is due, and
    for dice under a cup after the owner's commitment), a shuffle, a deal or a reveal."""
    if isinstance(request, Roll | Pick):
        draw = record.draws + 1
        epoch, _ = position(draw, record.chains.length)
        steps: list[dict[str, JSON]] = []
        if epoch > record.epochs:
            steps.append({"step": "chain", "epoch": epoch})
        if isinstance(request, Roll) and request.to is not None:
            steps.append({"step": "cup", "request": request.to_json()})
        steps.append({"step": "draw", "draw": draw, "request": request.to_json()})
        return steps
    if isinstance(request, Shuffle):
        return [{"step": "shuffle", "pile": request.pile, "faces": list(request.faces)}]
    if isinstance(request, Deal):
        return [{"step": "deal", "to": [[seat, list(handles)] for seat, handles in request.to]}]
    if isinstance(request, Reveal):
        return [{"step": "reveal", "handles": list(request.handles)}]
    raise ProtocolViolation(f"no fair step answers a {request.kind.value} request")


def for_seal(seat: int, handles: Sequence[str]) -> dict[str, JSON]:
    """The step in which ``seat`` commits to a sealed decision under ``handles``."""
    return {"step": "seal", "seat": seat, "handles": list(handles)}


def for_seal_together(seats: Sequence[int], first: int) -> dict[str, JSON]:
    """The one step in which every seat of a simultaneous decision commits to its choice, in any order;
    the seat at place ``k`` of ``seats`` seals under handles ``s<seat>-<first + k>.<i>``."""
    return {"step": "seal", "seats": list(seats), "first": first}


def for_prove(seat: int, claims: Mapping[str, JSON]) -> dict[str, JSON]:
    """The step in which ``seat`` shows the hidden things an action claims (handle -> face)."""
    return {"step": "prove", "seat": seat, "claims": dict(claims)}





def for_finish() -> dict[str, JSON]:
    """The last step: every seat opens its seed."""
    return {"step": "finish"}
