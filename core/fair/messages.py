"""Protocol messages: plain JSON objects with one envelope, built, signed and checked in one place.

Every message names the protocol version, the table, the step it belongs to (``n``, the table's
step counter, and ``step``, the step's name), its author ``seat`` and its ``kind``; the payload is
``body``. The author signs the whole envelope with its Ed25519 key, so a message cannot be moved to
another table or step, and a replayed one is refused by the envelope check before its body is read.
Bytes travel as lowercase hex; nothing is ever pickled.
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from typing import Any

from nacl.exceptions import BadSignatureError
from nacl.signing import SigningKey, VerifyKey

from atoll.errors import CheatDetected, ProtocolViolation
from atoll.fair.hashing import PROTOCOL_VERSION, hash_bytes
from atoll.jsondata import JSON

#: A protocol message: a JSON object with the fields listed in :func:`make`.
Message = dict[str, Any]

_FIELDS = ("v", "table", "n", "step", "seat", "kind", "body")


def make(table: str, n: int, step: str, seat: int, kind: str, body: Mapping[str, JSON]) -> Message:
    """An unsigned message of ``seat`` for step ``n`` (named ``step``) of ``table``."""
    return {"v": PROTOCOL_VERSION, "table": table, "n": n, "step": step, "seat": seat, "kind": kind,
            "body": dict(body)}


def signed_bytes(message: Mapping[str, JSON]) -> bytes:
    """The bytes a signature covers: a domain-separated hash of the envelope without ``sig``."""
    return hash_bytes("message", {k: message.get(k) for k in _FIELDS})


def sign(message: Message, key: SigningKey) -> Message:
    """``message`` with its author's signature added under ``sig``."""
    signed = dict(message)
    signed["sig"] = key.sign(signed_bytes(message)).signature.hex()
    return signed


def author(message: JSON) -> int:
    """The seat a message claims as author; :class:`ProtocolViolation` if it has none."""
    if not isinstance(message, dict) or not isinstance(message.get("seat"), int):
        raise ProtocolViolation(f"not a protocol message (no author seat): {str(message)[:120]}")
    seat: int = message["seat"]
    return seat


def check_envelope(message: JSON, *, table: str, n: int, seats: int) -> Message:
    """Check the envelope of ``message`` for step ``n`` of ``table``; return it.

    A message of another version, table or earlier step is a replay and is blamed on its claimed
    author (:class:`CheatDetected`); a malformed one or one for a later step is a
    :class:`ProtocolViolation`.
    """
    seat = author(message)
    if not 0 <= seat < seats:
        raise ProtocolViolation(f"message names seat {seat}, but the table has seats 0-{seats - 1}")
    missing = [f for f in (*_FIELDS, "sig") if f not in message]
    if missing or not isinstance(message["body"], dict) or not isinstance(message["n"], int):
        raise ProtocolViolation(f"malformed message from seat {seat}: missing or bad {missing or 'body'}")
    if message["v"] != PROTOCOL_VERSION:
        raise CheatDetected(seat, f"sent a message of protocol {message['v']!r}, not {PROTOCOL_VERSION!r}")
    if message["table"] != table:
        raise CheatDetected(seat, f"replayed a message of table {message['table']!r} at table {table!r}")
    if message["n"] < n:
        raise CheatDetected(
            seat, f"replayed a message of step {message['n']} ({message['step']}) at step {n}")
    if message["n"] > n:
        raise ProtocolViolation(f"seat {seat} sent a message for step {message['n']} during step {n}")
    checked: Message = message
    return checked


def check_signature(message: Message, key: VerifyKey) -> None:
    """Check the author's signature on ``message``; :class:`CheatDetected` names the author if wrong."""
    seat = author(message)
    try:
        signature = bytes.fromhex(str(message.get("sig", "")))
        key.verify(signed_bytes(message), signature)
    except (ValueError, BadSignatureError) as exc:
        raise CheatDetected(seat, f"message {message.get('kind')!r} of step {message.get('n')} "
                                  "does not carry its author's signature") from exc


def hex_bytes(seat: int, value: JSON, size: int, what: str) -> bytes:
    """Decode ``value`` as exactly ``size`` bytes of hex; :class:`CheatDetected` names ``seat`` if not."""
    if not isinstance(value, str) or len(value) != 2 * size:
        raise CheatDetected(seat, f"{what} must be {size} bytes of hex, got {str(value)[:80]!r}")
    try:
        return bytes.fromhex(value)
    except ValueError as exc:
        raise CheatDetected(seat, f"{what} is not hex: {value[:80]!r}") from exc


def same(a: str, b: str) -> bool:
    """Constant-time comparison of two hex strings (commitments, links, MACs)."""
    return hmac.compare_digest(a.encode(), b.encode())
