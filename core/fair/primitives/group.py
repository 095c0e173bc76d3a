"""The prime-order group for the mental deck: ristretto255 (RFC 9496), through libsodium (rbcl).

ristretto255 is a group of prime order L built on Curve25519 (the same L as Ed25519's subgroup). It
has no cofactor: every element has exactly one 32-byte encoding, and decoding refuses every other
string (a non-canonical or negative field element, or a value that is no element at all). So there
are no small-order points and no points outside the subgroup to guard against, and checking a point
costs one decoding, not a second scalar multiplication as in Ed25519's subgroup
(``docs/decisions/0007-ristretto255-deck-group.md``).

Points are 32-byte encodings and scalars are ints in ``1..L-1``. Every point that arrives from
outside goes through :func:`point_from_hex` (or :func:`check_point`), which refuses what is not an
encoding of an element, and the identity; every scalar from outside goes through
:func:`scalar_from_hex`, which refuses zero and values not reduced mod L. libsodium's ristretto255
multiplications never clamp: below L, a scalar means exactly the integer it encodes.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Callable, Iterable

import rbcl

from atoll.errors import MalformedInput
from atoll.fair.primitives.hashing import GROUP_ORDER, hash_bytes
from atoll.jsondata import JSON, strict_hex

#: The group order L (RFC 9496): a prime, 2^252 + 27742317777372353535851937790883648493.
ORDER = GROUP_ORDER

#: The encoding of the identity element (32 zero bytes); never accepted from outside.
IDENTITY = bytes(32)

#: ristretto255's generator B (RFC 9496, the class of Ed25519's base point; encoding in its appendix A.1).
BASE = bytes.fromhex("e2f2ae0a6abc4e71a884a961c500515f58e30b6aa582dd8db6a65945e08d2d76")

Point = bytes

#: What rbcl raises for a refused operation (RuntimeError) or an argument of the wrong type or length.
_REFUSED = (RuntimeError, TypeError, ValueError)


def _remove_rbcl_library_file() -> None:
    # rbcl writes its bundled libsodium to a new temporary file at each import and never removes it:
    # 2.8 MB left in the temporary directory by every process that plays a deck. Once loaded the file
    # is not needed (POSIX keeps the mapping), so remove it; where a loaded library cannot be removed
    # (Windows), or if a later rbcl keeps it elsewhere, this does nothing.
    path = getattr(sys.modules.get("rbcl._sodium"), "lib_path", None)
    if isinstance(path, str) and os.path.dirname(path) == tempfile.gettempdir():
        with contextlib.suppress(OSError):
            os.unlink(path)


_remove_rbcl_library_file()


class GroupError(MalformedInput):
    """A byte string or number that is not a valid group element or nonzero scalar."""


def is_element(data: bytes) -> bool:
    """True when ``data`` is the canonical encoding of a group element other than the identity."""
    return (
        isinstance(data, bytes)
        and len(data) == 32
        and data != IDENTITY
        and bool(rbcl.crypto_core_ristretto255_is_valid_point(data))
    )


def check_point(data: bytes) -> Point:
    """Return ``data`` if it encodes an element other than the identity; raise :class:`GroupError` if not."""
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

    Only for points that every one go through :func:`mul` before anything relies on them, as a proof's
    verification does. :func:`mul` refuses exactly what :func:`check_point` refuses: libsodium decodes
    its point, refusing any string that is not an element's encoding, and refuses an identity result,
    which every multiple of the identity is (and no multiple of another element by a scalar in
    ``1..L-1`` is, L being prime). Checking each point first as well would add a decoding per point.
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
    """``scalar * point``. libsodium refuses a string that is not an element and an identity result."""
    try:
        return bytes(rbcl.crypto_scalarmult_ristretto255(_scalar_bytes(scalar), point))
    except _REFUSED as exc:
        raise GroupError(f"not a valid group element: {_show(point)} (cannot multiply it)") from exc


def base_mul(scalar: int) -> Point:
    """``scalar * B`` for the generator B."""
    try:
        return bytes(rbcl.crypto_scalarmult_ristretto255_base(_scalar_bytes(scalar)))
    except RuntimeError as exc:
        raise GroupError("scalar times the generator gave the identity") from exc


def add(p: Point, q: Point) -> Point:
    """``p + q`` (both must be elements, the identity included; the result may be the identity)."""
    return _combine(rbcl.crypto_core_ristretto255_add, p, q, f"cannot add {_show(p)} and {_show(q)}")


def sub(p: Point, q: Point) -> Point:
    """``p - q``."""
    return _combine(rbcl.crypto_core_ristretto255_sub, p, q, f"cannot subtract {_show(q)} from {_show(p)}")


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
    """Hash ``context`` to a group element whose discrete log nobody knows.

    RFC 9496's element derivation (section 4.3.4, libsodium's ``from_hash``) over 64 domain-separated hash
    bytes: it maps each half to an element and adds the two, so the result is uniform and behaves as
    a random oracle (as RFC 9380's hash_to_curve does). Never ``i * B``: a card point's relation to
    any other point is unknown.
    """
    point = bytes(rbcl.crypto_core_ristretto255_from_hash(hash_bytes(purpose, context, 64)))
    if point == IDENTITY:  # probability about 2^-252; refusing keeps every derived point valid
        raise GroupError(f"hash of {purpose!r} context gave the identity")
    return point


def _combine(operation: Callable[[bytes, bytes], bytes], p: Point, q: Point, what: str) -> Point:
    try:
        result = bytes(operation(p, q))
    except _REFUSED as exc:
        raise GroupError(f"{what}: not group elements") from exc
    # libsodium refuses a string that is not an element, but rbcl does not pass that on: it returns its
    # untouched, zeroed output buffer, the identity's encoding. A true sum may be the identity too, so
    # only then are the two points checked, the rare case: an honest sum almost never is.
    if result == IDENTITY and not all(rbcl.crypto_core_ristretto255_is_valid_point(x) for x in (p, q)):
        raise GroupError(f"{what}: not group elements")
    return result


def _scalar_bytes(value: int) -> bytes:
    return check_scalar(value).to_bytes(32, "little")


def _show(data: object) -> str:
    if isinstance(data, bytes):
        return data.hex()[:16] + "..." if len(data) > 8 else data.hex()
    return repr(data)[:40]
