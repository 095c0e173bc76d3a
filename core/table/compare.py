"""Comparing copies of one table's log: where the host signed two different entries for one position.

A host signs each entry's place, ``(table, seq, head)``. Two copies of one table's log (the logs of two
peers) that hold, at one position, entries whose heads differ and whose host signatures both verify
under the same host key are proof that the host showed the two peers two different histories: it is
named, on evidence anyone can check again from the two files. :func:`compare_command` is ``atoll audit
LOG1 LOG2 ...``; each copy is also audited alone (:func:`~atoll.table.audit.audit_log`).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from atoll.game import Game
from atoll.pin import GamePin
from atoll.table.audit import DamagedLog, EquivocatedCopy, audit_command, replayed
from atoll.table.table import Table


@dataclass(frozen=True)
class Signed:
    """One copy's entry at the fork: the file, its position, the head there and the host's signature
    over it (the first entry at or after the fork whose own host signature verifies), its author's
    identity (hex) and kind."""

    file: Path
    seq: int
    head: str
    host_sig: str
    author: str
    kind: str


@dataclass(frozen=True)
class Fork:
    """The host (hex identity) signed two different heads for position ``seq``: ``sides`` show them."""

    host: str
    seq: int
    sides: tuple[Signed, Signed]


def find_fork(copies: list[tuple[Path, Table]]) -> Fork | None:
    """The first position where two copies hold different entries that the same host signed, if any."""
    for index, (path_a, a) in enumerate(copies):
        for path_b, b in copies[index + 1 :]:
            seq = _first_difference(a, b)
            if seq is None or a.log.host_at(seq).encode() != b.log.host_at(seq).encode():
                continue  # one is a prefix of the other, or two seats took the table over at once
            sides = (_signed(path_a, a, seq), _signed(path_b, b, seq))
            if sides[0] is not None and sides[1] is not None:
                return Fork(a.log.host_at(seq).encode().hex(), seq, (sides[0], sides[1]))
    return None


def _first_difference(a: Table, b: Table) -> int | None:
    """The first position both copies hold with different heads (``None``: they agree where both hold)."""
    for seq, (left, right) in enumerate(zip(a.log.entries, b.log.entries, strict=False)):
        if left.head != right.head:
            return seq
    return None


def _signed(path: Path, table: Table, seq: int) -> Signed | None:
    """The first entry of ``table`` at or after ``seq`` whose own host signature verifies (its head
    chains from the forked entry, so the signature commits the host to the fork)."""
    for entry in table.log.entries[seq:]:
        if table.log.signed_by_host(entry.seq, entry.head, entry.host_sig):
            message = entry.message
            return Signed(path, entry.seq, entry.head, entry.host_sig, message.author, str(message.kind))
    return None


def fork_lines(fork: Fork, fingerprint: Callable[[bytes], str]) -> list[str]:
    """The evidence, in words a person can check again from the files."""
    lines = [
        f"the host (identity {fingerprint(bytes.fromhex(fork.host))}) signed two different histories at "
        f"entry {fork.seq}: it showed these copies different logs (the host cheated)"
    ]
    for side in fork.sides:
        lines.append(
            f"  {side.file}, entry {side.seq}: head {side.head}, host signature {side.host_sig} "
            f"(a {side.kind} of {fingerprint(bytes.fromhex(side.author))})"
        )
    return lines


def compare_command(
    paths: list[Path],
    games: Callable[[str], Game],
    fingerprint: Callable[[bytes], str],
    *,
    as_json: bool,
    installed: Callable[[str], GamePin | None] | None = None,
) -> int:
    """``atoll audit LOG1 LOG2 ...``: exit 1 naming the host when two copies fork under its signature,
    2 when a file is not a valid table log or the files are logs of different tables; otherwise the
    verdict of auditing the longest copy alone (:func:`~atoll.table.audit.audit_command`)."""
    copies: list[tuple[Path, Table]] = []
    for path in paths:
        try:
            copies.append((path, replayed(path, games)[1]))
        except EquivocatedCopy as exc:  # the copy up to where it holds the proof itself
            copies.append((path, exc.table))
        except DamagedLog as exc:
            return _say(as_json, 2, "invalid", f"not a valid table log: {exc}")
    tables = {table.id for _, table in copies}
    if len(tables) > 1:
        problem = f"these are logs of {len(tables)} different tables, not copies of one"
        return _say(as_json, 2, "invalid", problem)
    fork = find_fork(copies)
    if fork is None:
        longest = max(copies, key=lambda copy: len(copy[1].log.entries))[0]
        return audit_command(longest, games, fingerprint, {}, as_json=as_json, installed=installed)
    if as_json:
        print(json.dumps({
            "ok": False, "outcome": "host equivocated", "host": fingerprint(bytes.fromhex(fork.host)),
            "fork": {"seq": fork.seq, "copies": [
                {"file": str(s.file), "seq": s.seq, "head": s.head, "host_signature": s.host_sig,
                 "author": fingerprint(bytes.fromhex(s.author)), "kind": s.kind} for s in fork.sides]},
        }))
    else:
        print("\n".join(fork_lines(fork, fingerprint)), file=sys.stderr)
    return 1


def _say(as_json: bool, status: int, outcome: str, problem: str) -> int:
    if as_json:
        print(json.dumps({"ok": False, "outcome": outcome, "problem": problem}))
    else:
        print(problem, file=sys.stderr)
    return status

