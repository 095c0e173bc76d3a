"""The transcript of a fair game: every protocol step and every signed message, hash-chained.

A transcript is the whole protocol side of a game in order: *step* entries (what the table was
doing: a draw for a roll, a seal, a deal...; every peer derives them from the game log, so they
need no author) and *message* entries (each signed by its author seat). Every entry is folded into
a running hash, so the saved head pins the order and content of the whole list. The JSON form is
one object::

    {"format": "atoll-fair-transcript", "version": 1, "table": ..., "seats": ..., "chain_length": ...,
     "entries": [{"step": {...}} | {"msg": {...}}, ...], "head": "<hex>"}

:func:`atoll.fair.audit.audit` re-checks a transcript from this alone.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from atoll.errors import CorruptSave
from atoll.fair.hashing import hash_hex
from atoll.fair.messages import Message, same
from atoll.jsondata import JSON, clone

FORMAT = "atoll-fair-transcript"
VERSION = 1

#: One step of the protocol as the table announced it: ``{"n", "step", ...}``.
StepRecord = dict[str, Any]


def _genesis(table: str, seats: int, chain_length: int) -> str:
    return hash_hex("transcript/genesis", {"table": table, "seats": seats, "chain_length": chain_length})


def _fold(head: str, entry: Mapping[str, JSON]) -> str:
    return hash_hex("transcript/entry", {"prev": head, "entry": entry})


@dataclass
class Transcript:
    """An append-only, hash-chained list of protocol steps and messages of one table."""

    table: str
    seats: int
    chain_length: int
    entries: list[dict[str, JSON]] = field(default_factory=list)
    head: str = ""
    saved_head: str | None = None
    """The head read with the entries (:meth:`from_json`), checked by :meth:`check_head`."""

    def __post_init__(self) -> None:
        """Fold the given entries into the head."""
        head = _genesis(self.table, self.seats, self.chain_length)
        for entry in self.entries:
            head = _fold(head, entry)
        self.head = head

    def add_step(self, step: StepRecord) -> None:
        """Append a step announcement."""
        self._append({"step": clone(step)})

    def add_message(self, message: Message) -> None:
        """Append a signed message."""
        self._append({"msg": clone(message)})

    def _append(self, entry: dict[str, JSON]) -> None:
        self.entries.append(entry)
        self.head = _fold(self.head, entry)

    def steps(self) -> Iterator[tuple[StepRecord, list[Message]]]:
        """Each step with the messages that followed it, in order."""
        step: StepRecord | None = None
        messages: list[Message] = []
        for number, entry in enumerate(self.entries):
            if "step" in entry:
                if step is not None:
                    yield step, messages
                step, messages = entry["step"], []
            elif "msg" in entry and step is not None:
                messages.append(entry["msg"])
            else:
                raise CorruptSave(f"transcript entry {number} is neither a step nor a message after one")
        if step is not None:
            yield step, messages

    def to_json(self) -> dict[str, JSON]:
        """The transcript as one JSON object."""
        return {"format": FORMAT, "version": VERSION, "table": self.table, "seats": self.seats,
                "chain_length": self.chain_length, "entries": clone(self.entries), "head": self.head}

    @classmethod
    def from_json(cls, data: JSON) -> Transcript:
        """Read a transcript written by :meth:`to_json`; :class:`CorruptSave` if it does not hold together."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise CorruptSave("not an atoll fair transcript")
        if data.get("version") != VERSION:
            raise CorruptSave(f"fair transcript version {data.get('version')!r} is not {VERSION}")
        table, seats, length, entries = (data.get(k) for k in ("table", "seats", "chain_length", "entries"))
        if not isinstance(table, str) or not isinstance(seats, int) or not isinstance(length, int):
            raise CorruptSave("fair transcript has a bad table id, seat count or chain length")
        if not isinstance(entries, list) or not all(isinstance(e, dict) and len(e) == 1 for e in entries):
            raise CorruptSave("fair transcript entries must be objects holding one 'step' or 'msg'")
        transcript = cls(table, seats, length, clone(entries))
        transcript.saved_head = str(data.get("head", ""))
        return transcript

    def check_head(self) -> None:
        """Check that the entries hash to the head saved with them (:class:`CorruptSave` if not)."""
        if self.saved_head is not None and not same(self.head, self.saved_head):
            raise CorruptSave("fair transcript entries do not hash to its saved head: "
                              "entries were changed, lost or moved after the game")
