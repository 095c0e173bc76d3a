"""Public words for what chance did and for sealed choices, so the log can show them.

A game describes its own actions (``describe_log``); chance and sealed choices
are the engine's, so the client words them itself, from public facts only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from atoll.chance import Deal, Pick, Request, Reveal, Roll, Shuffle
from atoll.jsondata import JSON


def describe_chance(request: Request, outcome: Mapping[str, JSON], names: Sequence[str]) -> str:
    """One log line for a resolved chance ``request``; ``names`` are the seats' display names."""
    if isinstance(request, Roll) and request.to is not None:
        dice = "a die" if request.count == 1 else f"{request.count} dice"
        return f"chance: rolled {dice} (d{request.sides}) under {names[request.to]}'s cup, unseen"
    if isinstance(request, Roll):
        values = ", ".join(str(v) for v in outcome.get("values", []))
        dice = "a die" if request.count == 1 else f"{request.count} dice"
        return f"chance: rolled {dice} (d{request.sides}): {values}"
    if isinstance(request, Pick):
        picked = ", ".join(_word(v) for v in outcome.get("picked", []))
        return f"chance: picked {picked}"
    if isinstance(request, Shuffle):
        return f"chance: shuffled the {request.pile} ({len(request.faces)} cards, face down)"
    if isinstance(request, Deal):
        parts = [f"{len(handles)} to {names[seat]}" for seat, handles in request.to if handles]
        return f"chance: dealt cards face down: {', '.join(parts)}"
    assert isinstance(request, Reveal)
    faces = outcome.get("faces", {})
    shown = ", ".join(f"{handle} is {_word(faces.get(handle))}" for handle in request.handles)
    return f"chance: revealed {shown}"


def describe_sealed(name: str, text: str | None = None) -> str:
    """A log line for a sealed (secret) choice; ``text`` only in the chooser's own log."""
    if text is None:
        return f"{name}: made a secret choice"
    return f"{name}: made a secret choice ({text}; only you know it)"


def _word(value: JSON) -> str:
    return value if isinstance(value, str) else repr(value)
