"""The transcript of a fair game: who the seats are, every protocol step and every signed message.

A transcript is the whole protocol side of a game in order: a header naming the table and each
seat's long-term identity key (with its :func:`~atoll.fair.identity.fingerprint`), then *step*
entries (what the table was doing: a draw for a roll, a seal, a deal...; every peer derives them
from the game log) each followed by its *message* entries (each signed by its author seat).

Heads. The table's history is hashed one step at a time, so every peer reaches the same head
whatever order a step's messages arrived in::

    head[-1] = genesis(table, seats, chain length, identity keys)
    seen[n]  = H(head[n-1], announcement of step n)        # what every message of step n signs
    head[n]  = H(seen[n], sorted content digests of step n's messages)

Every message carries ``seen`` for its step, so it vouches for the whole history before it and for
the announcement it answers: an announcement changed in a file no longer matches the messages
signed for it, and a seat that signs two histories is caught (equivocation). The JSON form::

    {"format": "atoll-fair-transcript", "version": 2, "table", "seats", "chain_length",
     "identities": [{"seat", "key", "fingerprint"}...], "entries": [{"step": {...}} | {"msg": {...}}...],
     "head"}

:func:`atoll.fair.audit.audit` re-checks a transcript from this alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from atoll.errors import CorruptSave, MalformedInput
from atoll.fair.hashing import hash_hex
from atoll.fair.identity import KEY_SIZE
from atoll.fair.messages import Message, content_digest, same
from atoll.jsondata import JSON, clone, strict_hex
from atoll.net.encoding import fingerprint

FORMAT = "atoll-fair-transcript"
VERSION = 2

#: One step of the protocol as the table announced it: ``{"n", "step", ...}``.
StepRecord = dict[str, Any]

_HEADER = ("format", "version", "table", "seats", "chain_length", "identities", "entries", "head")


class DamagedTranscript(CorruptSave):
    """A transcript that is not a valid record of a game: damaged, cut, or holding unauthenticated
    entries. Nobody is blamed; ``entry`` is the index of the first bad entry, if one is to blame."""

    def __init__(self, message: str, entry: int | None = None) -> None:
        super().__init__(f"transcript entry {entry}: {message}" if entry is not None else message)
        self.entry = entry


def genesis(table: str, seats: int, chain_length: int, identities: Sequence[bytes]) -> str:
    """The head before the first step: binds the table, its size and every seat's identity key."""
    return hash_hex("transcript/genesis", {"table": table, "seats": seats, "chain_length": chain_length,
                                           "identities": [key.hex() for key in identities]})


def step_seen(head: str, step: StepRecord) -> str:
    """``seen`` of a step: the head before it folded with its announcement."""
    return hash_hex("transcript/step", {"prev": head, "step": step})


def step_head(seen: str, digests: Iterable[str]) -> str:
    """The head after a step: its ``seen`` folded with its messages' content digests, in sorted order."""
    return hash_hex("transcript/messages", {"seen": seen, "messages": sorted(digests)})


@dataclass
class Transcript:
    """An append-only list of one table's steps and messages, with the identities of its seats."""

    table: str
    seats: int
    chain_length: int
    identities: list[bytes]
    entries: list[dict[str, JSON]] = field(default_factory=list)
    saved_head: str | None = None
    """The head read with the entries (:meth:`from_json`), checked by :meth:`check_head`."""
    line: int | None = None
    """The line of the saved file the transcript was read from, for error messages."""

    def __post_init__(self) -> None:
        """Refuse identities that are not one 32-byte key per seat."""
        if len(self.identities) != self.seats or any(len(k) != KEY_SIZE for k in self.identities):
            raise ValueError(f"one {KEY_SIZE}-byte identity key per seat is needed, for {self.seats} seats")

    def add_step(self, step: StepRecord) -> None:
        """Append a step announcement."""
        self.entries.append({"step": clone(step)})

    def add_message(self, message: Message) -> None:
        """Append a signed message."""
        self.entries.append({"msg": clone(message)})

    def fingerprints(self) -> list[str]:
        """Each seat's identity fingerprint, in seat order."""
        return [fingerprint(key) for key in self.identities]

    def groups(self) -> Iterator[tuple[int, StepRecord, list[tuple[int, Message]]]]:
        """Each step (with its entry index) and the messages after it, each with its entry index."""
        current: tuple[int, StepRecord, list[tuple[int, Message]]] | None = None
        for index, entry in enumerate(self.entries):
            if "step" in entry and isinstance(entry["step"], dict):
                if current is not None:
                    yield current
                current = (index, entry["step"], [])
            elif "msg" in entry and isinstance(entry["msg"], dict) and current is not None:
                current[2].append((index, entry["msg"]))
            else:
                raise DamagedTranscript("neither a step nor a message after one", index)
        if current is not None:
            yield current

    def steps(self) -> Iterator[tuple[StepRecord, list[Message]]]:
        """Each step with the messages that followed it, in order."""
        for _, step, messages in self.groups():
            yield step, [m for _, m in messages]

    @property
    def head(self) -> str:
        """The head of the whole transcript (see the module docstring)."""
        head = genesis(self.table, self.seats, self.chain_length, self.identities)
        for index, step, messages in self.groups():
            try:
                head = step_head(step_seen(head, step), (content_digest(m) for _, m in messages))
            except MalformedInput as exc:  # a float NaN, say: json reads it, canonical JSON has none
                raise DamagedTranscript(f"not plain JSON: {exc}", index) from exc
        return head

    def to_json(self) -> dict[str, JSON]:
        """The transcript as one JSON object."""
        identities = [{"seat": s, "key": k.hex(), "fingerprint": fingerprint(k)}
                      for s, k in enumerate(self.identities)]
        return {"format": FORMAT, "version": VERSION, "table": self.table, "seats": self.seats,
                "chain_length": self.chain_length, "identities": identities,
                "entries": clone(self.entries), "head": self.head}

    @classmethod
    def from_json(cls, data: JSON, line: int | None = None) -> Transcript:
        """Read a transcript written by :meth:`to_json`; :class:`DamagedTranscript` if it does not hold
        together."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise DamagedTranscript("not an atoll fair transcript")
        if data.get("version") != VERSION:
            raise DamagedTranscript(f"fair transcript version {data.get('version')!r} is not {VERSION}")
        if set(data) != set(_HEADER):
            raise DamagedTranscript(f"fair transcript has fields {sorted(data)}, not {sorted(_HEADER)}")
        table, seats, length, entries = (data[k] for k in ("table", "seats", "chain_length", "entries"))
        if not isinstance(table, str) or not _count(seats) or not _count(length):
            raise DamagedTranscript("fair transcript has a bad table id, seat count or chain length")
        if not isinstance(entries, list) or not all(isinstance(e, dict) and len(e) == 1 for e in entries):
            raise DamagedTranscript("fair transcript entries must be objects holding one 'step' or 'msg'")
        transcript = cls(table, seats, length, _identities(data["identities"], seats), clone(entries))
        transcript.saved_head = str(data["head"])
        transcript.line = line
        return transcript

    def check_head(self) -> None:
        """Check that the entries hash to the head saved with them (:class:`DamagedTranscript` if not)."""
        if self.saved_head is not None and not same(self.head, self.saved_head):
            raise DamagedTranscript("the entries do not hash to the transcript's saved head: "
                                    "entries were changed, lost or moved after the game")


def _count(value: JSON) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def _identities(data: JSON, seats: int) -> list[bytes]:
    """The identity keys of the header, each checked against its seat and fingerprint."""
    if not isinstance(data, list) or len(data) != seats:
        raise DamagedTranscript(f"the header must name one identity per seat ({seats})")
    keys = []
    for seat, entry in enumerate(data):
        if not isinstance(entry, dict) or set(entry) != {"seat", "key", "fingerprint"} \
                or entry["seat"] != seat:
            raise DamagedTranscript(f"identity {seat} of the header is not {{seat, key, fingerprint}}")
        try:
            key = strict_hex(entry["key"], KEY_SIZE, f"identity key of seat {seat}")
        except MalformedInput as exc:
            raise DamagedTranscript(str(exc)) from exc
        if entry["fingerprint"] != fingerprint(key):
            raise DamagedTranscript(f"the fingerprint saved for seat {seat} is not its key's")
        keys.append(key)
    return keys
