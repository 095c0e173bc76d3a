"""Signed envelopes: the one canonical encoding of a message on the wire, signed by its author.

Every message a peer sends is a JSON object with exactly the fields of :data:`FIELDS`; ``sig`` is the
author's Ed25519 signature over the canonical encoding of all the other fields, under a domain tag.
:func:`open_envelope` authenticates before it reads: it refuses bytes that are not the canonical
encoding of their own content (so a relay cannot re-encode a genuine message — upper-case hex, spaces,
an extra field — and have it counted as a second one), then checks the signature, and only then hands
the fields out. Unauthenticated input is an :class:`Unauthenticated` error that names nobody.

This module knows nothing about games: ``body`` is opaque JSON to it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from nacl.exceptions import BadSignatureError
from nacl.signing import SigningKey, VerifyKey

from atoll.net.encoding import canonical_bytes, strict_hex

#: The envelope's fields, every one signed but ``sig``.
FIELDS = ("v", "kind", "table", "author", "n", "seen", "body", "sig")

#: Bytes a message may have at most on the wire (a Kariba deck shuffle with proofs fits well inside).
MAX_MESSAGE = 1 << 20

#: Bytes ZeroMQ lets through at most (``MAXMSGSIZE``; a longer message costs its sender the
#: connection, without a word): room for a message at :data:`MAX_MESSAGE` inside the host's entry
#: frame, and for the host to answer a message over :data:`MAX_MESSAGE` with an error frame.
MAX_FRAME = 2 * MAX_MESSAGE

_DOMAIN = b"atoll-envelope/1\x00"
_KIND = re.compile(r"[a-z][a-z0-9/_-]{0,31}")


class Unauthenticated(ValueError):
    """Bytes that are not a validly signed, canonically encoded envelope; blame nobody for them."""


class MessageTooLarge(ValueError):
    """A message its author will not send: over the table's limit (``size`` and ``limit``, in bytes)."""

    def __init__(self, size: int, limit: int, what: str = "message") -> None:
        super().__init__(
            f"{what} of {size} bytes is over the table's limit of {limit} bytes; it was not sent"
        )
        self.size = size
        self.limit = limit


def check_size(data: bytes, what: str = "message", *, limit: int = MAX_MESSAGE) -> bytes:
    """``data`` if it is within ``limit``; :class:`MessageTooLarge` naming both sizes if not."""
    if len(data) > limit:
        raise MessageTooLarge(len(data), limit, what)
    return data


def _no_floats(text: str) -> Any:
    raise Unauthenticated(f"numbers must be integers, not {text[:20]!r}")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        raise Unauthenticated("an object repeats a key")
    return out


def decode(data: bytes, *, limit: int = MAX_MESSAGE, repeated_keys: bool = False) -> dict[str, Any]:
    """Parse ``data`` as one JSON object, strictly (size, integers only, no repeated keys).

    ``repeated_keys=True`` lets a repeated key through (the last one counts) and parses faster, for
    frames whose signed parts are checked over their canonical encoding, where a repeat cannot hide.
    """
    if len(data) > limit:
        raise Unauthenticated(f"message of {len(data)} bytes is over the limit of {limit} bytes")
    try:
        value = _parse(data, _FAST if repeated_keys else _STRICT)
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise Unauthenticated(f"not JSON: {exc}") from exc
    if not isinstance(value, dict):
        raise Unauthenticated("a message is a JSON object")
    return value


# Made once: ``json.loads`` with a hook builds a new decoder (and scanner) on every call.
_STRICT = json.JSONDecoder(
    parse_float=_no_floats, parse_constant=_no_floats, object_pairs_hook=_no_duplicates
)
_FAST = json.JSONDecoder(parse_float=_no_floats, parse_constant=_no_floats)


def _parse(data: bytes | str, decoder: json.JSONDecoder) -> Any:
    """``json.loads(data)`` with ``decoder``'s hooks, reading ``data`` as ``json.loads`` does."""
    if isinstance(data, str):
        if data.startswith("\ufeff"):
            raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", data, 0)
        return decoder.decode(data)
    return decoder.decode(data.decode(json.detect_encoding(data), "surrogatepass"))


@dataclass(frozen=True)
class Envelope:
    """An authenticated message.

    ``v`` protocol version; ``kind`` what it is; ``table`` the table id; ``author`` the author's
    Ed25519 public key (hex); ``n`` the author's own message counter (so no two messages of one
    author are alike); ``seen`` what the author had seen when it wrote (opaque to this module);
    ``body`` the content; ``raw`` the exact signed bytes as received.
    """

    v: str
    kind: str
    table: str
    author: str
    n: int
    seen: dict[str, Any]
    body: dict[str, Any]
    raw: bytes

    def to_json(self) -> dict[str, Any]:
        """The envelope as the JSON object it was sent as (signature included)."""
        out: dict[str, Any] = json.loads(self.raw)
        return out


def signed_part(fields: dict[str, Any]) -> bytes:
    """The bytes an author signs: the domain tag and the canonical encoding of every field but ``sig``."""
    return _DOMAIN + canonical_bytes({k: fields[k] for k in FIELDS if k != "sig"})


def seal(
    key: SigningKey, *, v: str, kind: str, table: str, n: int, seen: dict[str, Any], body: dict[str, Any]
) -> bytes:
    """Sign a message with ``key`` and return its canonical bytes, ready to send."""
    fields: dict[str, Any] = {
        "v": v,
        "kind": kind,
        "table": table,
        "author": key.verify_key.encode().hex(),
        "n": n,
        "seen": seen,
        "body": body,
    }
    unsigned = canonical_bytes(fields)
    signature = key.sign(_DOMAIN + unsigned).signature.hex()
    # the keys in order, ``sig`` goes just before ``table`` and ``v``, the last two: the canonical
    # encoding of the signed fields is that of the unsigned ones with one member put in (a message is
    # encoded once, not twice; a Kariba shuffle with its proofs runs to many kilobytes)
    tail = b',"table":' + canonical_bytes(table) + b',"v":' + canonical_bytes(v) + b"}"
    if unsigned.endswith(tail):
        return unsigned[: -len(tail)] + b',"sig":"' + signature.encode() + b'"' + tail
    fields["sig"] = signature
    return canonical_bytes(fields)


def open_envelope(data: bytes, *, limit: int = MAX_MESSAGE) -> Envelope:
    """Authenticate ``data`` and return its envelope; :class:`Unauthenticated` if anything is off."""
    if len(data) > limit:
        raise Unauthenticated(f"message of {len(data)} bytes is over the limit of {limit} bytes")
    fields = _canonical_fields(data)
    if fields is None:
        return _open_strictly(data, limit)
    return _verified(fields, data)


def open_fields(
    fields: Any,
    *,
    limit: int = MAX_MESSAGE,
    own: Mapping[bytes, Envelope] | None = None,
    parsed_strictly: bool = False,
    encoded: bytes | None = None,
) -> Envelope:
    """Authenticate an envelope that arrived already parsed, inside a larger JSON object (a log entry).

    Its bytes are the canonical encoding of ``fields``, made once here (the hash chain and the
    signature both cover them), so the object is neither parsed nor encoded a second time; what
    :func:`open_envelope` refuses is refused here too: other fields, a float anywhere, a bad signature.
    ``own`` holds messages this process sealed itself (:func:`own_envelope`), by their bytes: bytes
    found there carry this process's own signature, made over exactly them, which is not checked again.
    ``parsed_strictly``: ``fields`` were read by :func:`decode`, which refuses floats, so they are not
    looked for again. ``encoded``: :func:`canonical_bytes` of ``fields``, if the caller made it already.
    """
    if not isinstance(fields, dict) or len(fields) != len(FIELDS) or not all(k in fields for k in FIELDS):
        keys = sorted(fields) if isinstance(fields, dict) else []
        extra = sorted(set(keys) - set(FIELDS))
        missing = sorted(set(FIELDS) - set(keys))
        raise Unauthenticated(f"envelope fields wrong (missing {missing}, unknown {extra})")
    if not parsed_strictly and not _integers_only(fields):
        raise Unauthenticated("numbers must be integers")
    try:
        data = canonical_bytes(fields) if encoded is None else encoded
    except (TypeError, ValueError, RecursionError) as exc:
        raise Unauthenticated(f"not JSON: {exc}") from exc
    if len(data) > limit:
        raise Unauthenticated(f"message of {len(data)} bytes is over the limit of {limit} bytes")
    mine = own.get(data) if own is not None else None
    return mine if mine is not None else _verified(fields, data)


def own_envelope(data: bytes) -> Envelope:
    """The envelope of bytes this process has just made with :func:`seal`, read without checking the
    signature it made itself a moment ago (an Ed25519 check is most of the work of taking in an entry).
    Only for :func:`seal`'s own output: bytes from anywhere else go through :func:`open_envelope`."""
    fields = json.loads(data)
    return _checked(fields, data)


def _verified(fields: Any, data: bytes) -> Envelope:
    """Check the author's signature over ``data`` (the canonical bytes of ``fields``), then the rest."""
    try:
        author = strict_hex(fields["author"], 32, "author key")
        signature = strict_hex(fields["sig"], 64, "signature")
        VerifyKey(author).verify(_signed_slice(data, fields), signature)
    except (ValueError, BadSignatureError) as exc:
        raise Unauthenticated(f"bad signature: {exc}") from exc
    return _checked(fields, data)


def _integers_only(value: Any) -> bool:
    """Whether ``value`` holds no float anywhere (what the strict parsers refuse), walked without
    recursion so a deeply nested value costs no stack."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, float):
            return False
    return True


def _canonical_fields(data: bytes) -> dict[str, Any] | None:
    """The fields of ``data`` when it is the canonical encoding of exactly the envelope's fields, else
    ``None``. The C parser runs without a per-object hook: a repeated key cannot survive the
    comparison with the canonical encoding (the parsed object has one key fewer than the bytes), and
    a float or NaN stops the parse."""
    try:
        fields = _parse(data, _FAST)
        if not isinstance(fields, dict) or len(fields) != len(FIELDS) or not all(k in fields for k in FIELDS):
            return None
        return fields if canonical_bytes(fields) == data else None
    except (ValueError, TypeError, RecursionError):  # Unauthenticated and JSONDecodeError are ValueErrors
        return None


def _signed_slice(data: bytes, fields: dict[str, Any]) -> bytes:
    """:func:`signed_part` cut from the canonical bytes ``data`` instead of encoded again.

    The fields are in key order, so ``data`` ends with ``,"sig":"<sig>","table":<t>,"v":<v>}`` and the
    canonical encoding without ``sig`` is ``data`` with that one member left out.
    """
    tail = b',"table":' + canonical_bytes(fields["table"]) + b',"v":' + canonical_bytes(fields["v"]) + b"}"
    member = b',"sig":' + canonical_bytes(fields["sig"])
    cut = len(data) - len(tail) - len(member)
    if cut > 0 and data[cut : cut + len(member)] == member and data.endswith(tail):
        return _DOMAIN + data[:cut] + tail
    return signed_part(fields)


def _open_strictly(data: bytes, limit: int) -> Envelope:
    """Open ``data`` one check at a time, so bytes that are refused are refused with the exact reason."""
    fields = decode(data, limit=limit)
    if sorted(fields) != sorted(FIELDS):
        extra = sorted(set(fields) - set(FIELDS))
        missing = sorted(set(FIELDS) - set(fields))
        raise Unauthenticated(f"envelope fields wrong (missing {missing}, unknown {extra})")
    if canonical_bytes(fields) != data:
        raise Unauthenticated("not the canonical encoding of its content")
    try:
        author = strict_hex(fields["author"], 32, "author key")
        signature = strict_hex(fields["sig"], 64, "signature")
        VerifyKey(author).verify(signed_part(fields), signature)
    except (ValueError, BadSignatureError) as exc:
        raise Unauthenticated(f"bad signature: {exc}") from exc
    return _checked(fields, data)


def _checked(fields: dict[str, Any], data: bytes) -> Envelope:
    # Only now is anything read: the author vouches for every byte.
    v, kind, table, n, seen, body = (fields[k] for k in ("v", "kind", "table", "n", "seen", "body"))
    if not (
        isinstance(v, str)
        and isinstance(kind, str)
        and _KIND.fullmatch(kind)
        and isinstance(table, str)
        and type(n) is int
        and n >= 0
        and isinstance(seen, dict)
        and isinstance(body, dict)
    ):
        raise Unauthenticated("envelope field of the wrong type")
    return Envelope(v, kind, table, fields["author"], n, seen, body, data)
