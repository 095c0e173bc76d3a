"""Commitments to secret choices: salted, domain-separated SHA-256, opened one slot at a time.

A sealed decision (Kiribati's four kept action cards) commits each value under its own slot (the
handle the game sees): ``SHA-256(version, "commit/seal", table, seat, slot, salt, value)`` with a
32-byte salt derived from the seat's secret seed, so the seed opened at the end opens every salt.
A commitment is opened when an action or a reveal shows its value, and whatever is still closed at
the end is opened with the seed; the audit then replays the game, which checks that the opened
values were a legal secret choice in the state they were sealed in (all distinct, from the seat's
own cards, or whatever the game's rules ask).
"""

from __future__ import annotations

import hashlib

from atoll.errors import CheatDetected, MalformedInput, ProtocolViolation
from atoll.fair.primitives.content import hex_bytes, same
from atoll.fair.primitives.hashing import encode, hash_bytes, make_context
from atoll.jsondata import JSON, canonical
from atoll.numbering import seat_label

#: Bytes of salt in every commitment.
SALT_SIZE = 32
#: Bytes of a commitment (SHA-256).
COMMITMENT_SIZE = 32


def commitment(table: str, seat: int, slot: str, salt: bytes, value: JSON) -> str:
    """The commitment of ``seat`` at ``table`` to ``value`` in ``slot`` under ``salt`` (hex)."""
    if len(salt) != SALT_SIZE:
        raise ValueError(f"a commitment salt is {SALT_SIZE} bytes, not {len(salt)}")
    context = make_context(table=table, step="seal", seat=seat,
                           inputs={"slot": slot, "salt": salt.hex(), "value": value})
    return hashlib.sha256(encode("commit/seal", context)).hexdigest()


def salt_for(secret: bytes, table: str, seat: int, slot: str) -> bytes:
    """The salt ``seat`` uses for ``slot``: derived from its secret seed, fresh for every slot."""
    context = make_context(table=table, step="seal/salt", seat=seat, inputs=secret.hex(), slot=slot)
    return hash_bytes("commit/salt", context, SALT_SIZE)


class SealBox:
    """One seat's sealed values; the values and salts leave it only as openings."""

    def __init__(self, secret: bytes, table: str, seat: int) -> None:
        self._secret = secret
        self.table = table
        self.seat = seat
        self._values: dict[str, JSON] = {}

    def seal(self, slot: str, value: JSON) -> str:
        """Seal ``value`` in ``slot``; returns the commitment to publish."""
        if slot in self._values:
            raise ProtocolViolation(f"slot {slot!r} is already sealed")
        canonical(value)  # refuse what cannot be committed to before anything is published
        self._values[slot] = value
        salt = salt_for(self._secret, self.table, self.seat, slot)
        return commitment(self.table, self.seat, slot, salt, value)

    def has(self, slot: str) -> bool:
        """Whether ``slot`` is sealed here."""
        return slot in self._values

    def value(self, slot: str) -> JSON:
        """The value sealed in ``slot`` (known to its seat only)."""
        return self._values[slot]

    def opening(self, slot: str) -> dict[str, JSON]:
        """What opens ``slot``: its salt and value."""
        if slot not in self._values:
            raise ProtocolViolation(f"{seat_label(self.seat)} has sealed nothing in slot {slot!r}")
        salt = salt_for(self._secret, self.table, self.seat, slot)
        return {"salt": salt.hex(), "value": self._values[slot]}

    def values(self) -> dict[str, JSON]:
        """Every sealed value by slot (opened with the seed at the end)."""
        return dict(self._values)


class CommitmentBook:
    """The public record of commitments: who committed to what, and what has been opened."""

    def __init__(self, table: str) -> None:
        self.table = table
        self._commitments: dict[str, tuple[int, str]] = {}
        self._opened: dict[str, JSON] = {}

    def record(self, seat: int, slot: str, value: JSON) -> None:
        """Record ``seat``'s commitment ``value`` to ``slot``; a slot is committed to once."""
        hex_bytes(seat, value, COMMITMENT_SIZE, f"commitment to slot {slot!r}")
        assert isinstance(value, str)
        if slot in self._commitments:
            raise CheatDetected(seat, f"committed to slot {slot!r}, which is already committed to")
        self._commitments[slot] = (seat, value)

    def owner(self, slot: str) -> int | None:
        """The seat that committed to ``slot``, if any."""
        entry = self._commitments.get(slot)
        return entry[0] if entry else None

    def open(self, seat: int, slot: str, salt: JSON, value: JSON) -> JSON:
        """Check ``seat``'s opening of ``slot``; return the value. A wrong opening is a cheat."""
        entry = self._commitments.get(slot)
        if entry is None:
            raise ProtocolViolation(f"{seat_label(seat)} opened slot {slot!r}, which nobody committed to")
        owner, committed = entry
        if owner != seat:
            raise CheatDetected(seat, f"opened slot {slot!r}, which {seat_label(owner)} committed to")
        salt_bytes = hex_bytes(seat, salt, SALT_SIZE, f"salt of slot {slot!r}")
        try:
            recomputed = commitment(self.table, seat, slot, salt_bytes, value)
        except MalformedInput as exc:
            raise CheatDetected(seat, f"opened slot {slot!r} to a value that is not JSON") from exc
        if not same(recomputed, committed):
            raise CheatDetected(seat, f"opened slot {slot!r} to {value!r}, which is not what it committed to")
        if slot in self._opened and canonical(self._opened[slot]) != canonical(value):
            raise CheatDetected(seat, f"opened slot {slot!r} to two different values")
        self._opened[slot] = value
        return value

    def opened(self) -> dict[str, JSON]:
        """Every opened value by slot."""
        return dict(self._opened)

    def closed(self, seat: int) -> list[str]:
        """``seat``'s slots not opened yet, in the order they were committed."""
        mine = (slot for slot, (owner, _) in self._commitments.items() if owner == seat)
        return [slot for slot in mine if slot not in self._opened]

    def committed(self, slot: str) -> str | None:
        """The published commitment to ``slot``, if any."""
        entry = self._commitments.get(slot)
        return entry[1] if entry else None
