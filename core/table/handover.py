"""Handing a seat over: the leaving seat's secrets sealed to the stand-in that takes its seat.

A seat that leaves a table whose host chose :attr:`~atoll.wire.OnLeave.HAND` names, in its signed
``leave``, the first stand-in at the table (a spectator that offered, in its ``watch``, to take a seat)
and seals to that stand-in's identity what the seat's play needs: its master secret (every protocol
secret of the seat derives from it) and the values of its sealed choices. The log then records who
holds the seat from which entry (:class:`HandOver`); from there on only the holder's signed messages
count for the seat. Why a stand-in and never another playing seat:
``docs/decisions/0022-handing-a-seat-over.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from nacl.signing import SigningKey

from atoll.jsondata import canonical
from atoll.net.encoding import parse_json
from atoll.net.sealed import open_sealed, seal_to
from atoll.numbering import seat_label
from atoll.wire import HandOverBox

#: The largest sealed box a ``leave`` may carry, in hex characters (a master secret and the values of
#: a seat's sealed choices take far less).
BOX_LIMIT = 64 * 1024


@dataclass(frozen=True)
class HandOver:
    """Seat ``seat`` passed from identity ``before`` to ``after`` (hex) at log entry ``seq``."""

    seat: int
    before: str
    after: str
    seq: int


def seal_seat(table: str, seat: int, master: bytes, sealed: dict[int, list[Any]], to: str) -> str:
    """What seat ``seat`` of ``table`` needs to be played (``master``, the ``sealed`` values by game
    step), sealed to the identity ``to`` (hex): the ``box`` of a ``leave`` (hex)."""
    box: HandOverBox = {
        "table": table,
        "seat": seat,
        "master": master.hex(),
        "sealed": [[at, values] for at, values in sorted(sealed.items())],
    }
    return seal_to(bytes.fromhex(to), canonical(box).encode()).hex()


def open_seat(key: SigningKey, box: str, table: str, seat: int) -> tuple[bytes, dict[int, list[Any]]]:
    """The master secret and sealed values in ``box``, sealed to ``key``'s identity for seat ``seat`` of
    ``table``; raises ValueError when it does not open, or is for another table or seat."""
    plain = parse_json(open_sealed(key, bytes.fromhex(box)))  # its author may be hostile: ValueError only
    if not isinstance(plain, dict) or plain.get("table") != table or plain.get("seat") != seat:
        raise ValueError(f"the box is not for {seat_label(seat)} of table {table}")
    master = bytes.fromhex(str(plain.get("master")))
    if len(master) != 32:
        raise ValueError("the box's master secret is not 32 bytes")
    sealed: dict[int, list[Any]] = {}
    items = plain.get("sealed", [])
    if not isinstance(items, list):
        raise ValueError("the box's sealed values are not a list")
    for item in items:
        pair = isinstance(item, list) and len(item) == 2
        if not (pair and type(item[0]) is int and isinstance(item[1], list)):
            raise ValueError("the box's sealed values are not [step, values] pairs")
        sealed[item[0]] = item[1]
    return master, sealed


def check_hand_over(body: dict[str, Any], stand_ins: list[str]) -> str:
    """The stand-in a ``leave`` body hands its seat to (hex), once its ``to`` and ``box`` are well
    formed; raises ValueError (nothing changes) otherwise."""
    to, box = body.get("to"), body.get("box")
    if not isinstance(to, str) or to not in stand_ins:
        raise ValueError("a seat is handed only to a stand-in at the table (a spectator that offered)")
    if not isinstance(box, str) or not 0 < len(box) <= BOX_LIMIT or len(box) % 2:
        raise ValueError("a hand-over carries its sealed box as hex")
    try:
        bytes.fromhex(box)
    except ValueError as exc:
        raise ValueError("a hand-over carries its sealed box as hex") from exc
    return to
