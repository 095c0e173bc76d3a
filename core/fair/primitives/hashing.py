"""Domain-separated hashing for atoll.fair: one hash over a whole canonical context, and hash-to-scalar.

Every commitment, Fiat–Shamir challenge and derived key in ``atoll.fair`` goes through this module, so
two uses of the hash can never collide: the input is always ``PROTOCOL_VERSION``, a purpose tag and the
canonical JSON of a context (bytes written as hex). A context names where a value belongs (table id,
deck id, step, seat) and what it covers (inputs, outputs, commitments); :func:`make_context` builds one
with those fields so every caller spells them the same way.
"""

from __future__ import annotations

import functools
import hashlib
from typing import Any

from atoll.errors import MalformedInput
from atoll.jsondata import JSON, canonical

#: Protocol version; part of every hash so a message from another version never verifies. 2: the
#: mental deck's points are ristretto255 encodings (docs/decisions/0007-ristretto255-deck-group.md).
PROTOCOL_VERSION = "atoll-fair/2"

#: Order L of ristretto255 (RFC 9496), the deck's group (Ed25519's subgroup's too); scalars live in Z/L.
GROUP_ORDER = 2**252 + 27742317777372353535851937790883648493


def encode(purpose: str, context: JSON) -> bytes:
    """Return the exact bytes hashed for ``purpose`` over ``context`` (version, tag, canonical JSON).

    Lengths prefix the version and the tag, so no choice of tag can shift bytes into the context.
    """
    if not purpose or not isinstance(purpose, str):  # before the context is read, as ever
        raise MalformedInput(f"hash purpose must be a non-empty string, got {purpose!r}")
    return encode_canonical(purpose, canonical(context).encode())


def encode_canonical(purpose: str, text: bytes) -> bytes:
    """:func:`encode` of a context given by its canonical JSON encoding ``text`` (for a caller that has
    it already, so that it is not encoded twice)."""
    if not purpose or not isinstance(purpose, str):
        raise MalformedInput(f"hash purpose must be a non-empty string, got {purpose!r}")
    return _prefix(purpose) + len(text).to_bytes(8, "big") + text


@functools.lru_cache(maxsize=256)  # a few dozen purposes, each hashed thousands of times a game
def _prefix(purpose: str) -> bytes:
    """The version and ``purpose``, each after its length: what every hash for ``purpose`` begins with."""
    return b"".join(len(p).to_bytes(8, "big") + p for p in (PROTOCOL_VERSION.encode(), purpose.encode()))


def hash_bytes(purpose: str, context: JSON, size: int = 64) -> bytes:
    """Domain-separated hash of ``context`` for ``purpose``: SHA-512, cut to ``size`` (1..64) bytes."""
    return _digest(encode(purpose, context), size)


def hash_hex(purpose: str, context: JSON, size: int = 32) -> str:
    """Like :func:`hash_bytes` but as lowercase hex, the form commitments travel in messages."""
    return hash_bytes(purpose, context, size).hex()


def hash_hex_canonical(purpose: str, text: bytes, size: int = 32) -> str:
    """:func:`hash_hex` of a context given by its canonical JSON encoding ``text`` (see
    :func:`encode_canonical`)."""
    return _digest(encode_canonical(purpose, text), size).hex()


def _digest(data: bytes, size: int) -> bytes:
    if not 1 <= size <= 64:
        raise MalformedInput(f"hash size must be 1..64 bytes, got {size}")
    return hashlib.sha512(data).digest()[:size]


def hash_to_scalar(purpose: str, context: JSON) -> int:
    """Hash ``context`` to a nonzero scalar mod ``GROUP_ORDER`` (64 bytes reduced: bias below 2^-250).

    A zero result (probability about 2^-252) is replaced by re-hashing with a counter, so the
    function is total and deterministic.
    """
    counter = 0
    while True:
        ctx = context if counter == 0 else {"retry": counter, "context": context}
        value = int.from_bytes(hash_bytes(purpose, ctx), "little") % GROUP_ORDER
        if value:
            return value
        counter += 1


def hash_to_int(purpose: str, context: JSON, bound: int) -> int:
    """Hash ``context`` to an integer in ``range(bound)`` without modulo bias (rejection on 512 bits)."""
    if bound < 1:
        raise MalformedInput(f"bound must be at least 1, got {bound}")
    limit = (1 << 512) - ((1 << 512) % bound)
    counter = 0
    while True:
        value = int.from_bytes(hash_bytes(purpose, {"counter": counter, "context": context}), "big")
        if value < limit:
            return value % bound
        counter += 1


def make_context(
    *,
    table: str,
    deck: str | None = None,
    step: str,
    seat: int | None = None,
    inputs: JSON = None,
    outputs: JSON = None,
    commitments: JSON = None,
    **extra: Any,
) -> dict[str, JSON]:
    """Build the standard context dict: where a value belongs and everything it must be bound to.

    ``table`` and ``deck`` are ids, ``step`` names the protocol step (e.g. ``"shuffle/2"``), ``seat``
    the author; ``inputs``, ``outputs`` and ``commitments`` are JSON (bytes as hex). ``extra`` keys
    are added as they are (e.g. ``draw=3``).
    """
    context: dict[str, JSON] = {
        "version": PROTOCOL_VERSION,
        "table": table,
        "deck": deck,
        "step": step,
        "seat": seat,
        "inputs": inputs,
        "outputs": outputs,
        "commitments": commitments,
    }
    for key, value in extra.items():
        if key in context:
            raise MalformedInput(f"context key {key!r} given twice")
        context[key] = value
    return context
