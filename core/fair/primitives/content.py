"""Checks of what a seat wrote: hex read strictly in its author's name, and constant-time comparison."""

from __future__ import annotations

import hmac

from atoll.errors import CheatDetected, MalformedInput
from atoll.jsondata import JSON, strict_hex


def hex_bytes(seat: int, value: JSON, size: int, what: str) -> bytes:
    """Decode content ``seat`` wrote as exactly ``size`` bytes of lowercase hex; :class:`CheatDetected`
    names ``seat`` if it is not."""
    try:
        return strict_hex(value, size, what)
    except MalformedInput as exc:
        raise CheatDetected(seat, str(exc)) from exc


def same(a: str, b: str) -> bool:
    """Constant-time comparison of two hex strings (commitments, links, MACs)."""
    return hmac.compare_digest(a.encode(), b.encode())
