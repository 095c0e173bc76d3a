"""Sealed choices checked against the rules live: as soon as a decision's slots are all open.

A commitment hides its value, so whether a sealed choice was *legal* (for Kiribati: four distinct
cards of the seat's own six) can only be checked once it is open: when a reveal or a shown card
opens its last slot, when its seat leaves (handing over its openings), or at the end (the seeds).
A :data:`Referee` is asked then. It judges with the faces the table knows by then; if the deciding
seat held cards whose faces are still hidden, a choice that looks illegal is not blamed yet (the
hidden cards might have made it legal) but checked again at the end, when every seed is open.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from atoll.engine.match import Match
from atoll.errors import CheatDetected
from atoll.jsondata import JSON, canonical

#: Checks one sealed decision: ``(seat, handles, faces known so far)``; raises :class:`CheatDetected`
#: naming ``seat`` if the values were not a legal choice in the state the decision was made in.
Referee = Callable[[int, Sequence[str], Mapping[str, JSON]], None]


def match_referee(match: Match) -> Referee:
    """A :data:`Referee` judging by ``match``'s game and ledger (each peer keeps its own match)."""

    def check(seat: int, handles: Sequence[str], faces: Mapping[str, JSON]) -> None:
        seal = next((s for s in match.ledger.seals if list(s.handles) == list(handles)), None)
        if seal is None:
            return  # the engine records the decision after the fair step; it is checked when it opens
        held = [h for h, seats in match.ledger.holders.items() if seat in seats and h not in handles]
        if any(h not in faces for h in held):
            return  # a hidden card of the seat might make it legal: judged at the end, every face open
        known = {h: faces[h] for h in held}
        legal = {canonical(a) for a in match.game.legal_actions(seal.state, seat, known)}
        values = [faces[h] for h in handles]
        if canonical({"secret": values}) not in legal:
            raise CheatDetected(seat, f"sealed {values!r} in {list(handles)}, which was not a legal "
                                      "choice when it was made")

    return check
