"""Fair-protocol messages: one strict encoding of an unsigned body, bound to one step of one history.

A message is a JSON object with exactly these fields (no other field is accepted):

=======  =====================================================================================
``v``     protocol version (:data:`~atoll.fair.primitives.hashing.PROTOCOL_VERSION`)
``table`` the table id
``n``     the step number (the table's step counter, from 0)
``step``  the step's name (:class:`atoll.wire.Step`)
``seat``  the author seat
``kind``  what the message is (:class:`atoll.wire.FairKind`)
``seen``  the record head the author had seen when the step began: it covers every earlier step
          with its messages and this step's announcement, so a message is bound to one history
``body``  the payload (a JSON object)
=======  =====================================================================================

A fair message carries no signature: at a table it travels as the body of a ``fair`` envelope that
the seat's long-term identity signs (:mod:`atoll.net.envelope`), checked before anything reads it,
and kept in every peer's log as the evidence against that seat (docs/decisions/0010). The table
refuses a fair message whose ``seat`` is not the envelope author's seat.

Bytes travel as lowercase hex of exactly the right length (:func:`atoll.jsondata.strict_hex`);
nothing is ever pickled. :func:`parse` checks the shape; failing raises :class:`MalformedMessage`,
which blames nobody.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from atoll.errors import MalformedInput, ProtocolViolation
from atoll.fair.primitives.hashing import PROTOCOL_VERSION, hash_hex_canonical
from atoll.jsondata import JSON, canonical, strict_hex
from atoll.numbering import seat_label
from atoll.wire import FAIR_FIELDS, FairKind

#: A protocol message: a JSON object with exactly the fields of :data:`FIELDS`.
Message = dict[str, Any]

#: Every field of a message, in the order the table above lists them.
FIELDS = FAIR_FIELDS

#: The kinds of message the protocols send.
KINDS = frozenset(FairKind)

#: Bytes of a record head (the ``seen`` field).
HEAD_SIZE = 32


class MalformedMessage(ProtocolViolation):
    """A message that is not one of this table's fair messages: malformed encoding, an unknown or
    missing field, another table, a seat that is not at the table. Drop it; nobody is blamed."""


class NotForThisStep(ProtocolViolation):
    """A seat's message of another step or of another history than this peer's: drop it.

    A relay can replay an old message at any time, so this blames nobody; a seat that signs two
    different messages for one slot is caught separately, as equivocation.
    """


def make(table: str, n: int, step: str, seat: int, kind: str, seen: str, body: Mapping[str, JSON]) -> Message:
    """A message of ``seat`` for step ``n`` (named ``step``) of ``table``."""
    return {"v": PROTOCOL_VERSION, "table": table, "n": n, "step": step, "seat": seat, "kind": kind,
            "seen": seen, "body": dict(body)}


def covered_text(message: Mapping[str, JSON]) -> bytes:
    """The canonical encoding of every field: what :func:`content_digest` hashes (a caller that has
    it already passes it on instead of encoding the message again)."""
    return canonical({f: message.get(f) for f in FIELDS}).encode()


def content_digest(message: Mapping[str, JSON], covered: bytes | None = None) -> str:
    """A digest of the message: two messages of one seat for one slot with different digests are
    equivocation. ``covered``: :func:`covered_text` of ``message``, if the caller has it."""
    text = covered_text(message) if covered is None else covered
    return hash_hex_canonical("message/content", text)


def parse(message: JSON, *, table: str, seats: int) -> Message:
    """Check that ``message`` is one well-formed message of ``table``; raise :class:`MalformedMessage` if not.

    Only the shape is checked here (exact fields, types, strict hex): the envelope around it, checked
    by the table, says who wrote it.
    """
    return parse_covered(message, table=table, seats=seats)[0]


def parse_covered(message: JSON, *, table: str, seats: int) -> tuple[Message, bytes]:
    """:func:`parse`, and the message's :func:`covered_text`: plain JSON is checked by encoding it, and
    that encoding is what the content digest needs next."""
    if not isinstance(message, dict):
        raise MalformedMessage(f"not a protocol message: {str(message)[:80]}")
    if set(message) != set(FIELDS):
        extra, missing = sorted(set(message) - set(FIELDS)), sorted(set(FIELDS) - set(message))
        raise MalformedMessage(f"refused a message with unknown fields {extra} or missing fields {missing}")
    seat, n = message["seat"], message["n"]
    if not _is_int(seat) or not 0 <= seat < seats:
        raise MalformedMessage(f"refused a message naming no seat of this table: {seat!r}")
    if not _is_int(n) or n < 0:
        raise MalformedMessage(f"refused a message with step number {n!r}")
    if message["v"] != PROTOCOL_VERSION:
        raise MalformedMessage(f"refused a message of protocol {str(message['v'])[:40]!r}, "
                              f"not {PROTOCOL_VERSION}")
    if message["table"] != table:
        other = str(message["table"])[:60]
        raise MalformedMessage(f"refused a message of table {other!r} at table {table!r}")
    kind = message["kind"]
    if not isinstance(message["step"], str) or not isinstance(kind, str) or kind not in KINDS:
        raise MalformedMessage(f"refused a message of unknown kind {str(message['kind'])[:40]!r}")
    if not isinstance(message["body"], dict):
        raise MalformedMessage("refused a message whose body is not a JSON object")
    try:
        strict_hex(message["seen"], HEAD_SIZE, "seen")
        covered = covered_text(message)  # every field is plain JSON
    except MalformedInput as exc:
        raise MalformedMessage(f"refused a message in {seat_label(seat)}'s name: {exc}") from exc
    parsed: Message = message
    return parsed, covered


def _is_int(value: JSON) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
