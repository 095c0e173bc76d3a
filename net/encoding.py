"""The textual forms every layer shares: canonical JSON, strict lowercase hex, and key fingerprints.

They live at the bottom (``atoll.net`` imports nothing of the engine), so the table protocol, the fair
protocols, the audit and the transport all encode and name keys through the same few functions.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from typing import Any

#: Bytes of a raw Ed25519 public key.
PUBLIC_KEY_SIZE = 32

_FINGERPRINT_BYTES = 15
_FINGERPRINT_GROUP = 4
_LOWER_HEX = re.compile(r"[0-9a-f]*")

# One encoder made once: ``json.dumps`` with these options builds a new encoder on every call, and
# the fair protocols encode thousands of small contexts per game.
CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False)


def canonical_bytes(value: Any) -> bytes:
    """The canonical JSON encoding (sorted keys, no spaces, ASCII only, no NaN) of ``value``.

    Equal data gives equal bytes on every machine, and any change to a field, a key or a type changes
    them: what a signature over a whole message covers. ``TypeError``/``ValueError`` for non-JSON data.
    """
    return CANONICAL.encode(value).encode()


def parse_json(data: str | bytes, *, integers: bool = False) -> Any:
    """``json.loads(data)`` for text read from a file or a peer: whatever is wrong with it (not UTF-8,
    not JSON, nested past the parser's depth, an integer of thousands of digits; with ``integers``, a
    number that is not an integer) is a ``ValueError`` whose message says what in a few words, never
    another exception."""
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
    except UnicodeDecodeError as exc:
        shown = exc.object[exc.start : exc.start + 1]
        raise ValueError(f"not UTF-8 text (byte {exc.start + 1} is {shown!r})") from None
    try:
        return (_INTEGERS if integers else _ANY).decode(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not JSON ({exc.msg}, column {exc.colno})") from None
    except RecursionError:
        raise ValueError("not JSON this program can read (nested too deeply)") from None
    except ValueError as exc:  # an integer past Python's digit limit
        raise ValueError(f"not JSON this program can read ({exc})") from None


def _not_an_integer(text: str) -> Any:
    raise ValueError(f"numbers are integers, not {text[:20]!r}")


_ANY = json.JSONDecoder()
_INTEGERS = json.JSONDecoder(parse_float=_not_an_integer, parse_constant=_not_an_integer)


def strict_hex(value: Any, size: int, what: str = "value") -> bytes:
    """``value`` as exactly ``size`` bytes written as ``2*size`` lowercase hex digits; ``ValueError``
    otherwise (upper case, spaces, a sign, a prefix or a wrong length), so one byte string has exactly
    one text and a relay cannot re-encode a field without changing it."""
    if not isinstance(value, str) or len(value) != 2 * size or not _LOWER_HEX.fullmatch(value):
        shown = value[:80] if isinstance(value, str) else type(value).__name__
        raise ValueError(f"{what} must be {size} bytes as {2 * size} lowercase hex digits, got {shown!r}")
    return bytes.fromhex(value)


def fingerprint(public_key: bytes) -> str:
    """A short, readable name for a raw Ed25519 public key, e.g. ``ab3d-x7qk-m2pa-9zzf-k3qz-7rma``.

    SHA-256 of the 32 raw bytes, first 15 bytes (120 bits), base32 lowercase (24 letters, no
    padding), in six groups of four joined by ``-``: short enough to read aloud, far too long to match
    by trying keys. People compare these to know they sit at the same table.
    """
    if len(public_key) != PUBLIC_KEY_SIZE:
        raise ValueError(f"a public key is {PUBLIC_KEY_SIZE} bytes, got {len(public_key)}")
    digest = hashlib.sha256(public_key).digest()[:_FINGERPRINT_BYTES]
    text = base64.b32encode(digest).decode().rstrip("=").lower()
    return "-".join(text[i : i + _FINGERPRINT_GROUP] for i in range(0, len(text), _FINGERPRINT_GROUP))


def normal_fingerprint(text: str) -> str:
    """``text`` as :func:`fingerprint` writes it (people may type upper case, spaces or no dashes)."""
    bare = "".join(ch for ch in text.lower() if ch.isalnum())
    return "-".join(bare[i : i + _FINGERPRINT_GROUP] for i in range(0, len(bare), _FINGERPRINT_GROUP))
