"""Plain JSON data: a fast deep copy, canonical encoding and a stable hash."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from atoll.errors import MalformedInput
from atoll.net import encoding
from atoll.net.encoding import CANONICAL

#: A JSON value: dict with str keys, list, str, int, bool or None (no floats in rules).
JSON = Any


def clone(value: JSON) -> JSON:
    """Return a deep copy of plain JSON data, several times faster than ``copy.deepcopy``."""
    if isinstance(value, dict):
        return {k: clone(v) for k, v in value.items()}
    if isinstance(value, list):
        return [clone(v) for v in value]
    return value


def same(a: JSON, b: JSON) -> bool:
    """Whether ``a`` and ``b`` are the same JSON data, types included (``True`` is not ``1``, ``1.0``
    is not ``1``), as their canonical encodings would say, without encoding them."""
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(same(v, b[k]) for k, v in a.items())
    if isinstance(a, list | tuple):
        return isinstance(b, list | tuple) and len(a) == len(b) and all(map(same, a, b))
    return type(a) is type(b) and a == b




def canonical(value: JSON) -> str:
    """Encode ``value`` as canonical JSON (sorted keys, no spaces) so equal data gives equal text."""
    try:
        return CANONICAL.encode(value)
    except (TypeError, ValueError) as exc:
        raise MalformedInput(f"not plain JSON data: {exc}") from exc


def digest(value: JSON) -> str:
    """SHA-256 hex digest of the canonical encoding: the same data hashes the same everywhere."""
    return hashlib.sha256(canonical(value).encode()).hexdigest()


def roundtrip(value: JSON) -> JSON:
    """Encode and decode ``value``; used to prove that data survives JSON unchanged."""
    return json.loads(canonical(value))


def strict_hex(value: JSON, size: int, what: str = "value") -> bytes:
    """:func:`atoll.net.encoding.strict_hex`, refusing with :class:`MalformedInput`."""
    try:
        return encoding.strict_hex(value, size, what)
    except ValueError as exc:
        raise MalformedInput(str(exc)) from None
