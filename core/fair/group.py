"""The prime-order group for the mental deck: Ed25519's subgroup of order L, through libsodium (PyNaCl).

Points are 32-byte encodings (RFC 8032, section 5.1.2) and scalars are ints in ``1..L-1``. Every
point that arrives from outside goes through :func:`point_from_hex` (or :func:`check_point`), which
refuses encodings that are not canonical, not on the curve, of small order, outside the prime-order
subgroup, or the identity; every scalar from outside goes through :func:`scalar_from_hex`, which
refuses zero and values not reduced mod L. Only libsodium's ``_noclamp`` operations are used, so a
scalar means exactly the integer it encodes.
"""

from __future__ import annotations

from collections.abc import Iterable

from nacl import bindings as _na
from nacl import exceptions as _nacl_errors

from atoll.errors import MalformedInput
from atoll.fair.hashing import GROUP_ORDER, hash_bytes
from atoll.jsondata import JSON, strict_hex

#: The group order L (RFC 8032): a prime, 2^252 + 27742317777372353535851937790883648493.
ORDER = GROUP_ORDER

#: The encoding of the identity element (0, 1); never accepted from outside.
IDENTITY = (1).to_bytes(32, "little")

#: The RFC 8032 base point B, the generator G of the subgroup.
BASE = bytes.fromhex("5866666666666666666666666666666666666666666666666666666666666666")

Point = bytes


class GroupError(MalformedInput):
    """A byte string or number that is not a valid group element or nonzero scalar."""


def is_element(data: bytes) -> bool:
    """True when ``data`` encodes a point of the prime-order subgroup other than the identity."""
    return (
        isinstance(data, bytes)
        and len(data) == 32
        and data != IDENTITY
        and bool(_na.crypto_core_ed25519_is_valid_point(data))
    )


def check_point(data: bytes) -> Point:
    """Return ``data`` if it is a valid non-identity subgroup element; raise :class:`GroupError` if not."""
    if not is_element(data):
        raise GroupError(f"not a valid group element: {_show(data)}")
    return data


def point_from_hex(text: JSON) -> Point:
    """Decode and validate a point written as 64 hex digits."""
    try:
        data = strict_hex(text, 32, "a point")
    except MalformedInput as exc:
        raise GroupError(str(exc)) from exc
    return check_point(data)


def encoding_from_hex(text: JSON) -> bytes:
    """Decode 64 hex digits as a point's 32-byte encoding *without* checking that it is an element.

    Only for points that every one go through :func:`mul` (libsodium's checked multiplication, which
    refuses exactly what :func:`check_point` refuses) before anything relies on them, as a proof's
    verification does: checking each of them first would double the cost of that check.
    """
    try:
        return strict_hex(text, 32, "a point")
    except MalformedInput as exc:
        raise GroupError(str(exc)) from exc


def point_to_hex(point: Point) -> str:
    """Encode a point as lowercase hex."""
    return point.hex()


def check_scalar(value: int) -> int:
    """Return ``value`` if it is a scalar in ``1..L-1``; zero and unreduced values raise."""
    if not isinstance(value, int) or isinstance(value, bool) or not 0 < value < ORDER:
        raise GroupError(f"not a nonzero scalar below the group order: {value!r:.80}")
    return value


def scalar_from_hex(text: JSON) -> int:
    """Decode and validate a scalar written as 64 hex digits (32 bytes, little-endian)."""
    try:
        value = int.from_bytes(strict_hex(text, 32, "a scalar"), "little")
    except MalformedInput as exc:
        raise GroupError(str(exc)) from exc
    return check_scalar(value)


def scalar_to_hex(value: int) -> str:
    """Encode a scalar in ``1..L-1`` as 64 hex digits (32 bytes, little-endian)."""
    return check_scalar(value).to_bytes(32, "little").hex()


def scalar_from_bytes(data: bytes) -> int:
    """Reduce a 64-byte string (a hash or fresh randomness) to a nonzero scalar."""
    if len(data) < 48:
        raise GroupError("a scalar needs at least 48 random bytes to be close to uniform")
    value = int.from_bytes(data, "little") % ORDER
    if value == 0:
        raise GroupError("random bytes reduced to the zero scalar; draw again")
    return value


def inverse(value: int) -> int:
    """The inverse of a nonzero scalar mod L."""
    return pow(check_scalar(value), -1, ORDER)


def mul(scalar: int, point: Point) -> Point:
    """``scalar * point``. libsodium refuses a point outside the subgroup and an identity result."""
    try:
        return _na.crypto_scalarmult_ed25519_noclamp(_scalar_bytes(scalar), point)
    except (_nacl_errors.RuntimeError, _nacl_errors.TypeError, _nacl_errors.ValueError) as exc:
        raise GroupError(f"not a valid group element: {_show(point)} (cannot multiply it)") from exc


def base_mul(scalar: int) -> Point:
    """``scalar * G`` for the base point G."""
    try:
        return _na.crypto_scalarmult_ed25519_base_noclamp(_scalar_bytes(scalar))
    except _nacl_errors.RuntimeError as exc:
        raise GroupError("scalar times the base point gave the identity") from exc


def add(p: Point, q: Point) -> Point:
    """``p + q`` (both must be on the curve; the result may be any curve point, even the identity)."""
    try:
        return _na.crypto_core_ed25519_add(p, q)
    except (_nacl_errors.RuntimeError, _nacl_errors.TypeError, _nacl_errors.ValueError) as exc:
        raise GroupError(f"cannot add {_show(p)} and {_show(q)}: not curve points") from exc


def sub(p: Point, q: Point) -> Point:
    """``p - q``."""
    try:
        return _na.crypto_core_ed25519_sub(p, q)
    except (_nacl_errors.RuntimeError, _nacl_errors.TypeError, _nacl_errors.ValueError) as exc:
        raise GroupError(f"cannot subtract {_show(q)} from {_show(p)}: not curve points") from exc


def total(points: Iterable[Point]) -> Point:
    """The sum of ``points`` (the identity for none)."""
    result = IDENTITY
    for point in points:
        result = point if result == IDENTITY else add(result, point)
    return result


def combination(scalars: Iterable[int], points: Iterable[Point]) -> Point:
    """``sum(s_i * P_i)``: one libsodium multiplication per term (libsodium has no multi-exponentiation)."""
    return total(mul(s, p) for s, p in zip(scalars, points, strict=True))


def hash_to_point(purpose: str, context: JSON) -> Point:
    """Hash ``context`` to a subgroup point whose discrete log nobody knows.

    Random-oracle construction as in RFC 9380 (hash_to_curve): two independent 32-byte field
    encodings through libsodium's Elligator 2 map (``from_uniform``, which clears the cofactor),
    added. Never ``i * G``: a card point's relation to any other point is unknown.
    """
    wide = hash_bytes(purpose, context, 64)
    encode = _na.crypto_core_ed25519_from_uniform
    point = add(encode(wide[:32]), encode(wide[32:]))
    if point == IDENTITY:  # probability about 2^-252; refusing keeps every derived point valid
        raise GroupError(f"hash of {purpose!r} context gave the identity")
    return point


def _scalar_bytes(value: int) -> bytes:
    return check_scalar(value).to_bytes(32, "little")


def _show(data: object) -> str:
    if isinstance(data, bytes):
        return data.hex()[:16] + "..." if len(data) > 8 else data.hex()
    return repr(data)[:40]
