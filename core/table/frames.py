"""What the host sends down a connection: log entries, chat, errors and the welcome, one JSON object each.

A peer sends the host only signed envelopes (:mod:`atoll.net.envelope`). The host's frames are plain
JSON objects with a type ``t``; what matters in them is signed inside (an entry's host and author
signatures, a chat envelope's author signature), so a frame is never trusted for anything else.
"""

from __future__ import annotations

from typing import Any

from atoll.net.envelope import MAX_FRAME, Unauthenticated, canonical_bytes, decode

#: Frame types the host sends.
TYPES = ("welcome", "entry", "chat", "error", "closed", "presence", "need")


def frame(kind: str, **fields: Any) -> bytes:
    """Encode one frame of type ``kind``."""
    if kind not in TYPES:
        raise ValueError(f"unknown frame type {kind!r}")
    return canonical_bytes({"t": kind, **fields})


def entry_frame(entry: bytes) -> bytes:
    """The ``entry`` frame around a log entry's canonical bytes (as :func:`frame` would encode it)."""
    return b'{"entry":' + entry + b',"t":"entry"}'


def read_frame(data: bytes) -> dict[str, Any]:
    """Decode a frame from the host; :class:`Unauthenticated` if it is not one."""
    # an entry's frame holds a message of up to MAX_MESSAGE bytes and more; its signatures cover the
    # canonical re-encoding of what is signed, so a repeated key cannot slip anything past them
    value = decode(data, limit=MAX_FRAME, repeated_keys=True)
    if value.get("t") not in TYPES:
        raise Unauthenticated(f"unknown frame type {str(value.get('t'))[:20]!r}")
    return value
