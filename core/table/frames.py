"""What the host sends down a connection: log entries, chat, errors and the welcome, one JSON object each.

A peer sends the host only signed envelopes (:mod:`atoll.net.envelope`). The host's frames are plain
JSON objects with a type ``t`` (:class:`atoll.wire.Frame`, which lists each type's fields); what
matters in them is signed inside, so a frame is never trusted for anything else.
"""

from __future__ import annotations

from typing import Any

from atoll.net.encoding import canonical_bytes
from atoll.net.envelope import MAX_FRAME, Unauthenticated, decode
from atoll.wire import Frame

#: Frame types the host sends (their fields: :class:`atoll.wire.Frame`).
TYPES = frozenset(Frame)


def frame(kind: Frame, **fields: Any) -> bytes:
    """Encode one frame of type ``kind`` (its fields as :mod:`atoll.wire` lists them)."""
    if kind not in TYPES:
        raise ValueError(f"unknown frame type {kind!r}")
    return canonical_bytes({"t": str(kind), **fields})


#: Entries one ``entries`` frame holds at most (what a peer vouches for with one host signature).
BATCH_ENTRIES = 64

#: Entries one signed ``entries`` message holds at most (a peer's to a new host, or given to a seat).
ENTRIES_PER_MESSAGE = 16

_ENTRY_OPEN = b'{"entry":'
_ENTRY_CLOSE = b',"t":"entry"}'
_ENTRIES_OPEN = b'{"entries":['
_ENTRIES_CLOSE = b'],"t":"entries"}'


def entry_frame(entry: bytes) -> bytes:
    """The ``entry`` frame around a log entry's canonical bytes (as :func:`frame` would encode it)."""
    return _ENTRY_OPEN + entry + _ENTRY_CLOSE


def batched(frames: list[bytes], limit: int = MAX_FRAME) -> list[bytes]:
    """``frames`` for one connection, in order, with each run of ``entry`` frames put together in
    ``entries`` frames (``{"entries": [...], "t": "entries"}``) of at most ``limit`` bytes and
    :data:`BATCH_ENTRIES` entries.

    A peer takes the entries of one frame in a row, with one wake-up of its transport and its loop
    instead of one per entry; what each entry is and how it is checked does not change (its
    signatures are inside it, the frame around it is trusted for nothing).
    """
    out: list[bytes] = []
    run: list[bytes] = []
    size = len(_ENTRIES_OPEN) + len(_ENTRIES_CLOSE)

    def close_run() -> None:
        nonlocal size
        if len(run) == 1:
            out.append(entry_frame(run[0]))
        elif run:
            out.append(_ENTRIES_OPEN + b",".join(run) + _ENTRIES_CLOSE)
        run.clear()
        size = len(_ENTRIES_OPEN) + len(_ENTRIES_CLOSE)

    for data in frames:
        if not (data.startswith(_ENTRY_OPEN) and data.endswith(_ENTRY_CLOSE)):
            close_run()
            out.append(data)
            continue
        entry = data[len(_ENTRY_OPEN) : -len(_ENTRY_CLOSE)]
        if run and (size + 1 + len(entry) > limit or len(run) == BATCH_ENTRIES):
            close_run()
        run.append(entry)
        size += len(entry) + 1
    close_run()
    return out


def read_frame(data: bytes) -> dict[str, Any]:
    """Decode a frame from the host; :class:`Unauthenticated` if it is not one."""
    # an entry's frame holds a message of up to MAX_MESSAGE bytes and more; its signatures cover the
    # canonical re-encoding of what is signed, so a repeated key cannot slip anything past them
    value = decode(data, limit=MAX_FRAME, repeated_keys=True)
    if value.get("t") not in TYPES:
        raise Unauthenticated(f"unknown frame type {str(value.get('t'))[:20]!r}")
    return value
