"""The table log: an append-only, hash-chained list of signed entries that every peer keeps.

An entry is ``{"seq", "prev", "msg", "host"}``: ``msg`` is an author's signed envelope (see
:mod:`atoll.net.envelope`), ``prev`` the head before it, and ``host`` the host's signature over
``(table, seq, head)``, where ``head`` is the hash of ``prev`` and the message's bytes. The host signs
where each message sits; it cannot change a message. Two host-signed heads for one ``seq`` that differ
are proof that the host showed two histories (:class:`HostEquivocated`). Every message names the head
its author had seen (``seen``: seq, head and the host's signature on it), so a peer that was shown
another history than the author catches the host with that proof.

Each peer writes every entry to its ``log.jsonl`` (one entry a line, flushed and fsynced) before the
game acts on it.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from nacl.exceptions import BadSignatureError
from nacl.signing import SigningKey, VerifyKey

from atoll.net.encoding import canonical_bytes, parse_json, strict_hex
from atoll.net.envelope import Envelope, Unauthenticated, open_fields, own_envelope

_HEAD_DOMAIN = b"atoll-table/head\x00"
_SIGN_DOMAIN = b"atoll-table/sequence\x00"


class BadEntry(ValueError):
    """A log entry that does not check (bad host signature, wrong place in the chain, bad message)."""


class BadHostSignature(BadEntry):
    """An entry whose host signature does not verify (all else about it checked)."""


class HostEquivocated(ValueError):
    """The host signed two different heads for one position: the proof is in ``evidence``."""

    def __init__(self, message: str, evidence: dict[str, Any]) -> None:
        super().__init__(message)
        self.evidence = evidence


def genesis(table: str) -> str:
    """The head before the first entry of ``table``."""
    return hashlib.sha256(_HEAD_DOMAIN + table.encode()).hexdigest()


def next_head(prev: str, message: bytes) -> str:
    """The head after appending ``message`` (its signed bytes) to a log whose head was ``prev``."""
    return hashlib.sha256(_HEAD_DOMAIN + bytes.fromhex(prev) + hashlib.sha256(message).digest()).hexdigest()


def sequencing_bytes(table: str, seq: int, head: str) -> bytes:
    """What the host signs for the entry at ``seq``: the table, the position and the head after it."""
    return _SIGN_DOMAIN + canonical_bytes({"table": table, "seq": seq, "head": head})


@dataclass(frozen=True)
class Entry:
    """One checked log entry: its place, the heads around it, the host's signature and the message."""

    seq: int
    prev: str
    head: str
    host_sig: str
    message: Envelope

    def to_json(self) -> dict[str, Any]:
        """The entry as it travels and is stored."""
        return {"seq": self.seq, "prev": self.prev, "msg": self.message.to_json(), "host": self.host_sig}

    def to_bytes(self) -> bytes:
        """The canonical encoding of :meth:`to_json`, put together around the message's own bytes
        (keys in sorted order: host, msg, prev, seq) instead of parsing and encoding them again."""
        return b"".join(
            (
                b'{"host":',
                canonical_bytes(self.host_sig),
                b',"msg":',
                self.message.raw,
                b',"prev":',
                canonical_bytes(self.prev),
                b',"seq":',
                str(self.seq).encode(),
                b"}",
            )
        )

    def seen(self) -> dict[str, Any]:
        """The ``seen`` field of a message written by a peer whose log ends with this entry."""
        return {"seq": self.seq, "head": self.head, "host": self.host_sig}


def sequence(host: SigningKey, table: str, seq: int, prev: str, message: Envelope) -> Entry:
    """The host places ``message`` at ``seq`` after head ``prev`` and signs the new head."""
    head = next_head(prev, message.raw)
    signature = host.sign(sequencing_bytes(table, seq, head)).signature.hex()
    return Entry(seq, prev, head, signature, message)


class TableLog:
    """A peer's copy of the table log: checks each entry against the chain before keeping it."""

    def __init__(self, table: str, host_key: bytes, path: Path | None = None) -> None:
        self.table = table
        self.host = VerifyKey(host_key)
        """The host that signs the entries now."""
        self._hosts: list[tuple[int, VerifyKey]] = [(0, self.host)]
        self.entries: list[Entry] = []
        self._heads: list[str] = []
        self._seen_ids: set[tuple[str, int]] = set()
        self._own: dict[bytes, Envelope] = {}
        """Messages this peer signed that the log does not hold yet, by their bytes (see :meth:`sent`)."""
        self._vouched: dict[int, tuple[str, bytes, Any]] = {}
        """Position -> the head the host's signature on a later entry covers, the canonical bytes of
        the message there (made once) and that message object itself (see :meth:`vouch`)."""
        self._refused: dict[int, dict[str, Any]] = {}
        """Position -> the signed head of an entry the host signed there that this log refused (a
        message already held, another table's, a view it never signed): another entry it signs for
        that position proves two histories (see :meth:`check`)."""
        self._file: IO[str] | None = None
        self.path = path
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            self._file = path.open("a", encoding="utf-8", newline="\n")  # the same bytes on Windows

    @property
    def head(self) -> str:
        """The head after the last entry (the genesis head while empty)."""
        return self._heads[-1] if self._heads else genesis(self.table)

    def seen(self) -> dict[str, Any]:
        """The ``seen`` field for a message written now."""
        if not self.entries:
            return {"seq": -1, "head": genesis(self.table), "host": ""}
        return self.entries[-1].seen()

    def host_at(self, seq: int) -> VerifyKey:
        """The host that signed (or signs) the entry at ``seq``."""
        return next(key for start, key in reversed(self._hosts) if start <= seq)

    def hand_over(self, seq: int, host_key: bytes) -> None:
        """From entry ``seq`` on, ``host_key`` signs the entries (a seat took the table over)."""
        self.host = VerifyKey(host_key)
        self._hosts.append((seq, self.host))

    def sent(self, data: bytes) -> None:
        """``data`` is a message this peer has just sealed: when it comes back in an entry, its author's
        signature (this peer's own, over exactly these bytes) is not checked again."""
        self._own[data] = own_envelope(data)

    def sealed(self, data: bytes) -> Envelope | None:
        """The envelope of ``data`` if it is a message this peer sealed that the log does not hold yet."""
        return self._own.get(data)

    def vouch(self, entries: list[Any], *, search: bool = False) -> int:
        """Check the host's signature once for a run of entries that follow this log: on the last
        entry (with ``search``: on the first entry after the first whose signature verifies), over
        the head the hash chain of the run leads to. That head covers every entry before it in the
        run, so their own host signatures are not checked again when :meth:`check` takes them (each
        entry's place, author and message still are). Returns how many entries are vouched for
        (0: none, and the entries are checked one by one as ever).

        A peer calls it for the entries the host sent in one frame; the audit, with ``search``, for
        an entry whose own host signature does not verify (a host may sign only the last of a frame's
        entries correctly: the log is still its word, and the audit says so as a live peer took it).
        A run that holds a ``host`` entry (the table changing hands) is never vouched for.
        """
        self._vouched = {}
        run: list[tuple[int, str, bytes, Any]] = []
        head, signature = self.head, None
        try:
            for seq, data in enumerate(entries, start=len(self.entries)):
                if not isinstance(data, dict) or data.get("seq") != seq or data.get("prev") != head:
                    break
                message = data.get("msg")
                if not isinstance(message, dict) or message.get("kind") == "host":
                    break
                raw = canonical_bytes(message)
                head = next_head(head, raw)
                run.append((seq, head, raw, message))
                signature = data.get("host")
                # searching, each signature is checked as the chain reaches it, up to the first that holds
                if search and len(run) > 1 and self.signed_by_host(seq, head, signature):
                    return self._vouch_for(run)
        except (TypeError, ValueError, RecursionError):
            return 0
        if not search and run and self.signed_by_host(run[-1][0], head, signature):
            return self._vouch_for(run)
        return 0

    def signed_by_host(self, seq: int, head: str, signature: Any, *, host: VerifyKey | None = None) -> bool:
        """Whether ``signature`` is the host's (at ``seq``, or ``host``) over ``head`` at ``seq``."""
        try:
            signed = sequencing_bytes(self.table, seq, head)
            (host or self.host_at(seq)).verify(signed, strict_hex(signature, 64, "host signature"))
        except (ValueError, TypeError, BadSignatureError):
            return False
        return True

    def _vouch_for(self, run: list[tuple[int, str, bytes, Any]]) -> int:
        self._vouched = {seq: (head, raw, message) for seq, head, raw, message in run}
        return len(run)

    def check(
        self, data: dict[str, Any], *, new_host: bytes | None = None, parsed_strictly: bool = False
    ) -> Entry:
        """Check the entry ``data`` as the next one; return it (not yet kept). Raises BadEntry.

        ``new_host`` is the identity of a seat taking the table over with this entry (its ``host``
        message): the entry is then signed by that seat, and every later one too.
        ``parsed_strictly``: ``data`` was read by :func:`~atoll.net.envelope.decode` (no floats in it).
        """
        if not isinstance(data, dict) or sorted(data) != ["host", "msg", "prev", "seq"]:
            raise BadEntry(f"an entry has the fields seq, prev, msg and host: {str(data)[:120]}")
        seq, prev = data["seq"], data["prev"]
        if type(seq) is not int or seq != len(self.entries):
            raise BadEntry(f"entry {seq!r} arrived where entry {len(self.entries)} belongs")
        vouched_head, encoded, vouched_message = self._vouched.pop(seq, (None, None, None))
        if vouched_message is not data["msg"]:  # only what was vouched for, the very object
            vouched_head = encoded = None
        try:
            message = open_fields(
                data["msg"], own=self._own, parsed_strictly=parsed_strictly, encoded=encoded
            )
            head = next_head(strict_hex(prev, 32, "prev").hex(), message.raw)
        except (Unauthenticated, ValueError, TypeError) as exc:
            raise BadEntry(f"entry {seq}: {exc}") from exc
        if new_host is not None or vouched_head != head:
            try:
                (self.host if new_host is None else VerifyKey(new_host)).verify(
                    sequencing_bytes(self.table, seq, head), strict_hex(data["host"], 64, "host signature")
                )
            except (ValueError, TypeError, BadSignatureError) as exc:
                raise BadHostSignature(f"entry {seq}: {exc}") from exc
        try:
            if message.table != self.table:
                raise BadEntry(f"entry {seq} carries a message of table {message.table!r}")
            # what the author saw is checked before the chain: a host that forked this peer's history
            # away from the author's is caught by the author's signed view of it
            self.check_seen(message, before=seq)
            if prev == self.head and self.holds(message):
                raise BadEntry(f"entry {seq} repeats message {message.n} of {message.author[:16]}")
        except BadEntry:
            if prev == self.head and new_host is None and self.signed_by_host(seq, head, data["host"]):
                # the host signed this entry for this position: a second one there is a fork
                self._refused[seq] = {"seq": seq, "head": head, "host": data["host"]}
            raise
        if new_host is None and seq in self._refused:
            self._refused_before(seq, head, data["host"])
        if prev != self.head:
            if seq > 0 and (new_host is not None or vouched_head != head):
                # the host signed this entry after another head than the one it signed for this peer
                # at the position before: two histories under its signature
                raise HostEquivocated(
                    f"the host signed two different histories at entry {seq - 1}",
                    {"seq": seq - 1, "ours": self.entries[seq - 1].seen(), "next": data},
                )
            raise BadEntry(f"entry {seq} does not follow this peer's head")
        return Entry(seq, prev, head, data["host"], message)

    def _refused_before(self, seq: int, head: str, signature: Any) -> None:
        """Raise HostEquivocated if the host signed another entry at ``seq`` that this log refused, and
        signed this one (``head``) too: two signed heads for one position, whatever made the first
        wrong. An honest host signs one entry a position: a repeated message, say, it never places."""
        theirs = self._refused.pop(seq)
        if theirs["head"] != head and self.signed_by_host(seq, head, signature):
            raise HostEquivocated(
                f"the host signed two different entries at entry {seq}, one of them refused",
                {"seq": seq, "ours": {"seq": seq, "head": head, "host": signature}, "theirs": theirs},
            )

    def check_sequenced(self, entry: Entry) -> Entry:
        """Check an entry this host has just placed and signed itself, as the next one.

        Both signatures were made or checked in this process a moment ago (the author's when the
        message arrived, the host's by signing), so only the place in the chain is checked here.
        """
        if entry.seq != len(self.entries) or entry.prev != self.head:
            raise BadEntry(f"entry {entry.seq} does not follow this host's head at {len(self.entries)}")
        if entry.message.table != self.table:
            raise BadEntry(f"entry {entry.seq} carries a message of table {entry.message.table!r}")
        self.check_seen(entry.message, before=entry.seq)
        if self.holds(entry.message):
            message = entry.message
            raise BadEntry(f"entry {entry.seq} repeats message {message.n} of {message.author[:16]}")
        return entry

    def check_seen(self, message: Envelope, *, before: int) -> None:
        """The head a message says its author saw must be one of this log's, before position ``before``.

        A head signed by the host that differs from ours at the same place is the host's equivocation.
        """
        seen = message.seen
        if sorted(seen) != ["head", "host", "seq"] or type(seen["seq"]) is not int:
            raise BadEntry(f"message {message.n} of {message.author[:16]} has a malformed 'seen'")
        seq = seen["seq"]
        if seq == -1:
            if seen["head"] != genesis(self.table):
                raise BadEntry(f"message {message.n} of {message.author[:16]} claims another genesis")
            return
        if not 0 <= seq < before:
            raise BadEntry(
                f"message {message.n} of {message.author[:16]} claims to have seen entry {seq}, "
                f"but sits at {before}"
            )
        if seen["head"] == self._heads[seq]:
            return
        try:
            self.host_at(seq).verify(
                sequencing_bytes(self.table, seq, str(seen["head"])),
                strict_hex(seen["host"], 64, "host signature"),
            )
        except (ValueError, BadSignatureError) as exc:
            raise BadEntry(
                f"message {message.n} of {message.author[:16]} names a head the host never signed"
            ) from exc
        raise HostEquivocated(
            f"the host signed two different histories at entry {seq}",
            {"seq": seq, "ours": self.entries[seq].seen(), "theirs": seen, "message": message.to_json()},
        )

    def fork_proved(self, evidence: Any, *, host: VerifyKey | None = None) -> bool:
        """Whether ``evidence`` (a :class:`HostEquivocated`'s, from this peer or another) proves that the
        host of this table signed two different heads for one position: ``ours`` a signed head
        (``seq``, ``head``, ``host``), and either ``theirs``, another signed head at the same
        position, or ``next``, a signed entry at the position after whose ``prev`` is another head.
        Only the host's own signatures are read, so anyone can check it with nothing but the log's
        host keys. ``host``: the host the signatures must be of (by default whoever signed there)."""
        if not isinstance(evidence, dict):
            return False
        ours, theirs, after = evidence.get("ours"), evidence.get("theirs"), evidence.get("next")
        seq = evidence.get("seq")
        if type(seq) is not int or seq < 0 or not isinstance(ours, dict) or ours.get("seq") != seq:
            return False
        if not self.signed_by_host(seq, str(ours.get("head")), ours.get("host"), host=host):
            return False
        if isinstance(theirs, dict):
            other = str(theirs.get("head"))
            return theirs.get("seq") == seq and other != ours.get("head") and \
                self.signed_by_host(seq, other, theirs.get("host"), host=host)
        if not isinstance(after, dict) or after.get("seq") != seq + 1 or after.get("prev") == ours["head"]:
            return False
        try:
            prev = strict_hex(after.get("prev"), 32, "prev").hex()
            head = next_head(prev, canonical_bytes(after.get("msg")))
        except (TypeError, ValueError):
            return False
        return self.signed_by_host(seq + 1, head, after.get("host"), host=host)

    def fork_in_view(self, seen: Any) -> dict[str, Any] | None:
        """The proof that the host signed two histories, if ``seen`` (another copy's view of the log: a
        position, its head and the host's signature) is a head the host signed at a position this log
        holds, other than this log's own; else ``None``."""
        if not isinstance(seen, dict):
            return None
        seq = seen.get("seq")
        if type(seq) is not int or not 0 <= seq < len(self.entries) or seen.get("head") == self._heads[seq]:
            return None
        evidence = {"seq": seq, "ours": self.entries[seq].seen(), "theirs": seen}
        return evidence if self.fork_proved(evidence) else None

    def holds(self, message: Envelope) -> bool:
        """Whether this log already holds ``message`` (its author and number; a replay if so)."""
        return self.holds_number(message.author, message.n)

    def holds_number(self, author: str, n: int) -> bool:
        """Whether this log holds message number ``n`` of ``author`` (hex identity)."""
        return (author, n) in self._seen_ids

    def took(self, message: Envelope) -> None:
        """Count ``message`` as held: the table took it in from inside an entry (a refusal that brings
        a late seat's message), so it is refused as a repeat if it comes again on its own."""
        self._seen_ids.add((message.author, message.n))

    def keep(self, entry: Entry) -> None:
        """Append a checked entry: written and fsynced before the caller acts on it."""
        if self._file is not None:
            self._file.write(entry.to_bytes().decode("ascii") + "\n")
            self._file.flush()
            os.fsync(self._file.fileno())
        self.remember(entry)

    def remember(self, entry: Entry) -> None:
        """Hold a checked entry that is on disk already (a log read back after a restart)."""
        self._own.pop(entry.message.raw, None)
        self.entries.append(entry)
        self._heads.append(entry.head)
        self._seen_ids.add((entry.message.author, entry.message.n))

    def close(self) -> None:
        """Close the log file."""
        if self._file is not None:
            self._file.close()
            self._file = None


def stored_entries(path: Path) -> list[dict[str, Any]]:
    """The entries a peer wrote before it stopped, to restore its table from.

    A process killed while writing can leave the last line cut short. That entry was never acted on
    (acting waits for the fsync of the whole line), so it is moved aside to ``log.jsonl.torn`` (never
    deleted) and the file is cut back to the last whole entry; the host sends the entry again.
    :class:`UnreadableLine` names a whole line that is not an entry (see :func:`readable_entries`).
    """
    entries, damage = readable_entries(path)
    if damage is not None:
        raise damage
    return entries


def readable_entries(path: Path) -> tuple[list[dict[str, Any]], UnreadableLine | None]:
    """The entries of a peer's log up to its first line that is not one (a torn last line moved aside
    first, as :func:`stored_entries` says), and what is wrong with that line (``None``: nothing)."""
    if not path.exists():
        return [], None
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        cut = data.rfind(b"\n") + 1
        _move_tail(path, cut, path.with_name(path.name + ".torn").open("ab"), data[cut:] + b"\n")
        data = data[:cut]
    return _entries(path, data)


class UnreadableLine(BadEntry):
    """A line of a log file that is not a log entry at all (not UTF-8, not JSON, not an object)."""

    def __init__(self, path: Path, line: int, reason: str) -> None:
        super().__init__(f"{path}, line {line}: {reason}")
        self.path = path
        self.line = line
        self.reason = reason


def read_log(path: Path) -> list[dict[str, Any]]:
    """The entries of a ``log.jsonl`` file as JSON objects; :class:`UnreadableLine` names the first line
    that is not one (OSError if the file cannot be read)."""
    entries, damage = _entries(path, path.read_bytes())
    if damage is not None:
        raise damage
    return entries


def _entries(path: Path, data: bytes) -> tuple[list[dict[str, Any]], UnreadableLine | None]:
    entries: list[dict[str, Any]] = []
    lines = data.split(b"\n")
    if lines and not lines[-1]:
        lines.pop()  # the end of the last line, not a line
    for number, line in enumerate(lines, 1):
        try:
            value = parse_json(line)
        except ValueError as exc:
            return entries, UnreadableLine(path, number, str(exc))
        if not isinstance(value, dict):
            return entries, UnreadableLine(path, number, "an entry is a JSON object")
        entries.append(value)
    return entries, None


def set_aside_from(path: Path, line: int) -> Path:
    """Move lines ``line`` and after of ``path`` to a new ``<name>.damaged-N`` (never over a file) and
    cut ``path`` back to the lines before it, both fsynced; the new file's path. A peer does this with
    a log damaged at ``line``: the entries there and after come from the host again."""
    data = path.read_bytes()
    cut = 0
    for _ in range(line - 1):
        cut = data.index(b"\n", cut) + 1
    for number in range(1, 10_000):
        aside = path.with_name(f"{path.name}.damaged-{number}")
        try:
            out = aside.open("xb")
        except FileExistsError:
            continue
        _move_tail(path, cut, out, data[cut:])
        folder = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)
        return aside
    raise BadEntry(f"too many set-aside copies of {path}")


def _move_tail(path: Path, cut: int, out: IO[bytes], tail: bytes) -> None:
    """Write ``tail`` (what follows byte ``cut`` of ``path``) to ``out`` and close it, then cut ``path``
    back to ``cut`` bytes, each fsynced: the tail is on disk elsewhere before it leaves ``path``."""
    with out:
        out.write(tail)
        out.flush()
        os.fsync(out.fileno())
    with path.open("r+b") as log_file:
        log_file.truncate(cut)
        log_file.flush()
        os.fsync(log_file.fileno())
