"""What the host sends down a connection: log entries, chat, errors and the welcome, one JSON object each.

A peer sends the host only signed envelopes (:mod:`atoll.net.envelope`). The host's frames are plain
JSON objects with a type ``t``; what matters in them is signed inside (an entry's host and author
signatures, a chat envelope's author signature), so a frame is never trusted for anything else.
"""

from __future__ import annotations

from typing import Any

from atoll.net.envelope import Unauthenticated, canonical_bytes, decode

#: Frame types the host sends.
TYPES = ("welcome", "entry", "chat", "error", "closed", "presence", "need")


def frame(kind: str, **fields: Any) -> bytes:
    """Encode one frame of type ``kind``."""
    if kind not in TYPES:
        raise ValueError(f"unknown frame type {kind!r}")
    return canonical_bytes({"t": kind, **fields})


def read_frame(data: bytes) -> dict[str, Any]:
    """Decode a frame from the host; :class:`Unauthenticated` if it is not one."""
    value = decode(data)
    if value.get("t") not in TYPES:
        raise Unauthenticated(f"unknown frame type {str(value.get('t'))[:20]!r}")
    return value
