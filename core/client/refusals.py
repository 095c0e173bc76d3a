"""Reading what a person typed as one legal action, or saying why it is none, in the game's words.

Shared by every :class:`~atoll.client.source.TableSource`: a local game and a network table refuse
a text the same way (an ambiguous beginning names the candidates; a text that fits nothing gets the
game's own reason, else the legal texts).
"""

from __future__ import annotations

from collections.abc import Mapping

from atoll.client.matching import short_form
from atoll.client.source import Refused
from atoll.engine.match import Match
from atoll.errors import AmbiguousAction, UnknownAction
from atoll.types import Action

#: Legal texts a refusal lists before it says how many there are.
LISTED = 8


def parse_typed(match: Match, seat: int, texts: Mapping[str, Action], text: str) -> Action:
    """The legal action of ``seat`` that ``text`` names: its text, a unique beginning, an alias or a
    natural short form (``texts`` are the legal texts now). Raises :class:`Refused` with the reason."""
    try:
        return match.parse(seat, text)
    except AmbiguousAction as exc:
        raise Refused(f"{exc}; type more of it", _candidates(text, list(texts))) from exc
    except UnknownAction as exc:
        meant = short_form(text, list(texts))
        if len(meant) != 1:
            raise _refusal(match, seat, text, list(texts), meant) from exc
        return texts[meant[0]]


def _candidates(text: str, texts: list[str]) -> list[str]:
    wanted = " ".join(text.lower().split())
    return [t for t in texts if t.lower().startswith(wanted)] or short_form(text, texts)


def _refusal(match: Match, seat: int, text: str, texts: list[str], meant: list[str]) -> Refused:
    if len(meant) > 1:
        return Refused(f"{text.strip()!r} could be any of: {', '.join(meant)}; type more of it", meant)
    reason = match.game.explain_illegal(match.state, seat, match.knowledge(seat), text.strip())
    if reason:
        return Refused(f"{text.strip()!r} is not possible now: {reason}")
    more = f", … ({len(texts)} in all; Tab lists them)" if len(texts) > LISTED else ""
    listed = ", ".join(texts[:LISTED]) + more
    return Refused(f"{text.strip()!r} is not a legal action now; legal: {listed}")
