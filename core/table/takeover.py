"""Which history a take-over decides: the one rule every process applies to a seat's ``host`` entry.

A seat takes the table over when its host has been silent for the host timeout; the host may only have
been slow, and come back while some seats still follow it. Every copy then settles it the same way,
from signed entries alone: at the first position where two histories differ, a seat's ``host`` entry
replacing the host there wins over that host's own entry, and of two seats' ``host`` entries, the seat
earlier in seat order wins. Why: ``docs/decisions/0028-one-host-after-a-take-over.md``.
"""

from __future__ import annotations

from typing import Any

from nacl.exceptions import BadSignatureError
from nacl.signing import VerifyKey

from atoll.net.encoding import canonical_bytes, strict_hex
from atoll.net.envelope import Unauthenticated, open_envelope
from atoll.table.log import next_head, sequencing_bytes
from atoll.table.table import Table
from atoll.wire import Kind


def take_over_head(table: Table, data: Any, author: str) -> tuple[int, str] | None:
    """The position and head of ``data`` when it is a ``host`` entry of ``table`` that seat ``author``
    (hex) wrote and signed as the new host, a seat with a standby address; ``None`` otherwise."""
    lobby = table.lobby
    if lobby is None or author not in lobby.seated or author not in lobby.standby:
        return None
    if not isinstance(data, dict):
        return None
    seq, msg = data.get("seq"), data.get("msg")
    if type(seq) is not int or seq < 1 or not isinstance(msg, dict):
        return None
    try:
        message = open_envelope(canonical_bytes(msg))
        head = next_head(strict_hex(data.get("prev"), 32, "prev").hex(), message.raw)
        VerifyKey(bytes.fromhex(author)).verify(
            sequencing_bytes(table.id, seq, head), strict_hex(data.get("host"), 64, "host signature")
        )
    except (Unauthenticated, ValueError, TypeError, BadSignatureError):
        return None
    if message.kind != Kind.HOST or message.author != author or message.table != table.id:
        return None
    return seq, head


def take_over_wins(table: Table, data: Any, author: str) -> int | None:
    """The position from which the ``host`` entry ``data`` of seat ``author`` decides ``table``'s
    history over this copy's (the entries this copy holds from there are set aside; their authors
    send them again), or ``None``: not a take-over signed by ``author``, one on another history, one
    this copy holds already, or one that loses to the take-over this copy holds at that position.

    A copy that holds fewer entries than the take-over's position cannot tell its history from the
    entries before it; it follows the take-over all the same and checks every entry as it arrives."""
    signed = take_over_head(table, data, author)
    if signed is None or table.over():
        return None
    seq, head = signed
    entries = table.log.entries
    if seq - 1 >= len(entries):
        return seq
    replaced = table.log.host_at(seq - 1).encode().hex()
    body = data["msg"].get("body")
    if entries[seq - 1].head != data.get("prev") or author == replaced or not isinstance(body, dict) \
            or body.get("after") != replaced:
        return None
    if seq == len(entries):
        return seq
    ours = entries[seq].message
    if entries[seq].head == head:
        return None
    if ours.kind == Kind.HOST and ours.author != replaced:
        lobby = table.lobby
        assert lobby is not None
        order = lobby.seated
        if ours.author in order and order.index(ours.author) < order.index(author):
            return None  # this copy's take-over there is by a seat earlier in order: it wins
    return seq
