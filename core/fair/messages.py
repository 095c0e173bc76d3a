"""Protocol messages: one strict encoding, every field signed, authenticated before anything reads them.

A message is a JSON object with exactly these fields (no other field is accepted):

=======  =====================================================================================
``v``     protocol version (:data:`~atoll.fair.hashing.PROTOCOL_VERSION`)
``table`` the table id
``n``     the step number (the table's step counter, from 0)
``step``  the step's name (``"draw"``, ``"deal"``...)
``seat``  the author seat
``kind``  what the message is (:data:`KINDS`)
``seen``  the record head the author had seen when the step began: it covers every earlier step
          with its messages and this step's announcement, so a message is bound to one history
``body``  the payload (a JSON object)
``sig``   the author's Ed25519 signature over :func:`signed_bytes`: every field above
=======  =====================================================================================

Bytes travel as lowercase hex of exactly the right length (:func:`atoll.jsondata.strict_hex`);
nothing is ever pickled. :func:`parse` checks the shape and :func:`verify` the signature; either
failing raises :class:`Unauthenticated`, which is never blamed on anyone (anybody can send bytes in a
seat's name). Only content that verified under the seat's key can make that seat a cheater.
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from typing import Any

from nacl.exceptions import BadSignatureError
from nacl.signing import SigningKey, VerifyKey

from atoll.errors import CheatDetected, MalformedInput, ProtocolViolation
from atoll.fair.hashing import PROTOCOL_VERSION, encode_canonical, hash_hex_canonical
from atoll.fair.identity import SIGNATURE_SIZE
from atoll.jsondata import JSON, canonical, strict_hex
from atoll.wire import FAIR_FIELDS, FairKind

#: A protocol message: a JSON object with exactly the fields of :data:`FIELDS`.
Message = dict[str, Any]

#: Every field of a message, in the order the table above lists them.
FIELDS = FAIR_FIELDS

#: The kinds of message the protocols send.
KINDS = frozenset(FairKind)

#: Bytes of a record head (the ``seen`` field).
HEAD_SIZE = 32


class Unauthenticated(ProtocolViolation):
    """A message that does not authenticate: malformed encoding, an unknown or missing field, another
    table, or a signature that does not verify under the seat's key. Drop it; it is nobody's fault
    that can be shown, since anyone can send bytes in a seat's name."""


class NotForThisStep(ProtocolViolation):
    """A validly signed message of another step or of another history than this peer's: drop it.

    A relay can replay an old message at any time, so this blames nobody; a seat that signs two
    different messages for one slot is caught separately, as equivocation.
    """


def make(table: str, n: int, step: str, seat: int, kind: str, seen: str, body: Mapping[str, JSON]) -> Message:
    """An unsigned message of ``seat`` for step ``n`` (named ``step``) of ``table``."""
    return {"v": PROTOCOL_VERSION, "table": table, "n": n, "step": step, "seat": seat, "kind": kind,
            "seen": seen, "body": dict(body)}


def covered_text(message: Mapping[str, JSON]) -> bytes:
    """The canonical encoding of every field but ``sig``: what :func:`signed_bytes` and
    :func:`content_digest` frame, each under its own tag (a caller needing both encodes it once)."""
    return canonical({f: message.get(f) for f in FIELDS[:-1]}).encode()


def signed_bytes(message: Mapping[str, JSON], covered: bytes | None = None) -> bytes:
    """The bytes a signature covers: every field but ``sig``, canonically encoded, domain-separated.
    ``covered``: :func:`covered_text` of ``message``, if the caller has it."""
    return encode_canonical("message", covered_text(message) if covered is None else covered)


def content_digest(message: Mapping[str, JSON], covered: bytes | None = None) -> str:
    """A digest of what the author signed (not of the signature, which a signer may vary).
    ``covered``: :func:`covered_text` of ``message``, if the caller has it."""
    text = covered_text(message) if covered is None else covered
    return hash_hex_canonical("message/content", text)


def sign(message: Mapping[str, JSON], key: SigningKey) -> Message:
    """``message`` (any old ``sig`` dropped) with its author's signature added under ``sig``."""
    return sign_covering(message, key)[0]


def sign_covering(message: Mapping[str, JSON], key: SigningKey) -> tuple[Message, bytes]:
    """:func:`sign`, and the bytes the signature covers."""
    signed = {k: v for k, v in message.items() if k != "sig"}
    covered = signed_bytes(signed)
    signed["sig"] = key.sign(covered).signature.hex()
    return signed, covered


def parse(message: JSON, *, table: str, seats: int) -> Message:
    """Check that ``message`` is one well-formed message of ``table``; raise :class:`Unauthenticated` if not.

    Only the shape is checked here (exact fields, types, strict hex); the signature is :func:`verify`'s.
    """
    return parse_covered(message, table=table, seats=seats)[0]


def parse_covered(message: JSON, *, table: str, seats: int) -> tuple[Message, bytes]:
    """:func:`parse`, and the message's :func:`covered_text`: plain JSON is checked by encoding it, and
    that encoding is what the signature check and the content digest need next."""
    if not isinstance(message, dict):
        raise Unauthenticated(f"not a protocol message: {str(message)[:80]}")
    if set(message) != set(FIELDS):
        extra, missing = sorted(set(message) - set(FIELDS)), sorted(set(FIELDS) - set(message))
        raise Unauthenticated(f"refused a message with unknown fields {extra} or missing fields {missing}")
    seat, n = message["seat"], message["n"]
    if not _is_int(seat) or not 0 <= seat < seats:
        raise Unauthenticated(f"refused a message naming no seat of this table: {seat!r}")
    if not _is_int(n) or n < 0:
        raise Unauthenticated(f"refused a message with step number {n!r}")
    if message["v"] != PROTOCOL_VERSION:
        raise Unauthenticated(f"refused a message of protocol {str(message['v'])[:40]!r}, "
                              f"not {PROTOCOL_VERSION}")
    if message["table"] != table:
        raise Unauthenticated(f"refused a message of table {str(message['table'])[:60]!r} at table {table!r}")
    kind = message["kind"]
    if not isinstance(message["step"], str) or not isinstance(kind, str) or kind not in KINDS:
        raise Unauthenticated(f"refused a message of unknown kind {str(message['kind'])[:40]!r}")
    if not isinstance(message["body"], dict):
        raise Unauthenticated("refused a message whose body is not a JSON object")
    try:
        strict_hex(message["seen"], HEAD_SIZE, "seen")
        strict_hex(message["sig"], SIGNATURE_SIZE, "signature")
        covered = covered_text(message)  # every field but the signature (strict hex) is plain JSON
    except MalformedInput as exc:
        raise Unauthenticated(f"refused a message in seat {seat}'s name: {exc}") from exc
    parsed: Message = message
    return parsed, covered


def verify(message: Message, key: VerifyKey, signed: bytes | None = None) -> None:
    """Check the author's signature on a parsed ``message``; raise :class:`Unauthenticated` if it fails.
    ``signed``: :func:`signed_bytes` of ``message``, if the caller has it."""
    try:
        key.verify(signed_bytes(message) if signed is None else signed, bytes.fromhex(message["sig"]))
    except (BadSignatureError, ValueError) as exc:
        raise Unauthenticated(f"refused a {str(message.get('kind'))[:20]!r} message of step "
                              f"{message.get('n')} in seat {message.get('seat')}'s name: its signature "
                              "does not verify under that seat's key") from exc


def authenticate(message: JSON, key: VerifyKey, *, table: str, seats: int) -> Message:
    """:func:`parse` then :func:`verify`: the one way a message from outside is let in."""
    parsed = parse(message, table=table, seats=seats)
    verify(parsed, key)
    return parsed


def hex_bytes(seat: int, value: JSON, size: int, what: str) -> bytes:
    """Decode signed content as exactly ``size`` bytes of lowercase hex; :class:`CheatDetected` names
    ``seat`` if it is not."""
    try:
        return strict_hex(value, size, what)
    except MalformedInput as exc:
        raise CheatDetected(seat, str(exc)) from exc


def same(a: str, b: str) -> bool:
    """Constant-time comparison of two hex strings (commitments, links, MACs)."""
    return hmac.compare_digest(a.encode(), b.encode())


def _is_int(value: JSON) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
