"""Auditing a table's log offline: every signature, the hash chain, every move and every fairness proof.

:func:`audit_log` reads a ``log.jsonl`` that a peer wrote and plays it back through a read-only
:class:`~atoll.table.table.Table`: exactly the checks a live peer makes, plus the end of the game,
where every seat opens its seeds and the whole game is re-checked against them. A file that is not a
valid log (unreadable, cut, an entry that does not chain or is not signed) is *damaged*: nobody is
blamed for it. A cheat is named only when its author validly signed it.

The ``open`` entry pins the game's build (:mod:`atoll.pin`); an audit under an install whose game
differs from it says so, and which verdict that makes unreliable, instead of blaming anyone: the
signatures and the chain check the same under any install, the moves and results do not.

A clean audit means the log is internally consistent and signed by the keys it lists (the host's and
each seat's, shown as fingerprints); it does not prove the game happened, or who was at the table:
compare the fingerprints with the people you played.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from atoll.game import Game
from atoll.net.encoding import canonical_bytes, normal_fingerprint, parse_json, strict_hex
from atoll.net.envelope import Unauthenticated, open_envelope
from atoll.numbering import seat_label
from atoll.pin import GamePin, differs
from atoll.table.log import BadEntry, HostEquivocated, read_log
from atoll.table.reasons import EndReason
from atoll.table.table import Table


class DamagedLog(ValueError):
    """The file is not a valid table log; the message names the line."""


@dataclass
class LogAudit:
    """What the audit found: ``clean`` only when everything checked and the game reached its end."""

    table: str
    host: str
    """The host's fingerprint."""
    seats: list[tuple[str, str]] = field(default_factory=list)
    """(name, fingerprint) of each seat as it sat down, in seat order."""
    handed: list[tuple[int, str, str, int]] = field(default_factory=list)
    """Each seat handed over: (seat, the new holder's name, its fingerprint, the entry from which only
    the holder's messages count for the seat), in log order."""
    game: str = ""
    variant: str = ""
    entries: int = 0
    results: dict[str, object] | None = None
    cheat: str | None = None
    """What a seat (or the host) signed wrong, when an explicit check named it."""
    blame: int | None = None
    """The seat :attr:`cheat` names, or the seat that ran out of time in a forfeit."""
    ended: str | None = None
    """Why the game ended early with nobody accused: a seat ran out of time (a forfeit, or an abort
    nobody can be named for), a seat left, the game's plugin or atoll itself failed."""
    reason: EndReason | None = None
    """The reason the game ended early, if it did: the verdict follows it, never the words."""
    refused: list[str] = field(default_factory=list)
    vouched: list[int] = field(default_factory=list)
    """Entries whose own host signature does not verify, each the first of a run that a later
    signature of the host covers (the entries of the run are taken on that signature)."""
    pinned: GamePin | None = None
    """The build of the game the ``open`` entry pins (``None``: a log of an earlier version)."""
    installed: GamePin | None = None
    """The build of that game installed where the audit runs (``None``: not installed, or not asked)."""
    hosts_replaced: list[tuple[int, str]] = field(default_factory=list)
    """Each host the table moved away from without naming it: (the entry of the next host's ``host``, why)."""
    hosts_named: list[tuple[int, str]] = field(default_factory=list)
    """Each host the log names and moves away from to the next seat: (the entry, what it did)."""
    differs: str | None = None
    """What differs between the two, when they differ: the game-dependent verdict is then unreliable."""

    @property
    def clean(self) -> bool:
        """Whether the log checks in full and the game finished."""
        return self.cheat is None and self.results is not None


def audit_log(
    path: Path,
    games: Callable[[str], Game],
    fingerprint: Callable[[bytes], str],
    installed: Callable[[str], GamePin | None] | None = None,
) -> LogAudit:
    """Audit the table log at ``path``; raises :class:`DamagedLog` for a file that is not a valid log.
    ``installed`` gives the pin of a game as installed here (the registry's ``installed_pin``): the
    report says when it is not the build the log pins (nothing is compared without it)."""
    try:
        vouched, table = replayed(path, games)
    except EquivocatedCopy as exc:  # cannot happen in one file, but a log is hostile input
        report = LogAudit(exc.table.id, fingerprint(exc.table.log.host_at(0).encode()))
        report.cheat = f"the host: {exc}"
        report.entries = len(exc.table.log.entries)
        return report
    report = LogAudit(table.id, fingerprint(table.log.host_at(0).encode()), vouched=vouched)
    if table.pinned is not None:
        game, report.pinned = table.pinned
        if installed is not None:
            report.installed = installed(game)
            report.differs = differs(game, report.pinned, report.installed)
    report.entries = len(table.log.entries)
    for event in table.events:
        if event.refused:
            report.refused.append(f"entry {event.seq}: {event.text}")
    if table.lobby is not None:
        report.game, report.variant = table.lobby.game, table.lobby.variant
        lobby = table.lobby
        report.seats = [
            (lobby.names.get(a, "?"), fingerprint(bytes.fromhex(a)))
            for a in lobby.first_holders()
        ]
        report.handed = [
            (h.seat, lobby.names.get(h.after, "?"), fingerprint(bytes.fromhex(h.after)), h.seq)
            for h in lobby.handed
        ]
    report.hosts_named = [(seq, named.text) for seq, named in table.hosts_named]
    report.hosts_replaced = list(table.hosts_replaced)
    if table.hosts_named:  # the table moved away from a host it named: the log names it, as a cheat
        report.reason, report.cheat = table.hosts_named[0][1].reason, table.hosts_named[0][1].text
    ending = table.ending
    if ending is not None:
        report.reason = ending.reason
        if ending.reason.accuses:
            report.cheat = ending.text
            report.blame = ending.seat
        else:
            report.ended = ending.text
            report.blame = ending.seat if ending.reason is EndReason.FORFEIT else None
        return report
    end = table.results()
    if end is not None and table.closed:
        report.results = end.results.to_json()
    return report


class EquivocatedCopy(HostEquivocated):
    """A copy that holds the host's equivocation, with the table replayed up to it."""

    def __init__(self, exc: HostEquivocated, table: Table) -> None:
        super().__init__(str(exc), exc.evidence)
        self.table = table


def replayed(path: Path, games: Callable[[str], Game]) -> tuple[list[int], Table]:
    """The table log at ``path`` played back through a read-only :class:`Table`, every entry checked
    as a live peer checks it; with the positions of runs taken on a later host signature (decision
    0009). Raises :class:`DamagedLog` for a file that is not a valid log, and a
    :class:`EquivocatedCopy` (with the table replayed up to it) for one that holds the host's
    equivocation."""
    try:
        entries = read_log(path)
    except (OSError, BadEntry) as exc:
        raise DamagedLog(str(exc)) from exc
    if not entries:
        raise DamagedLog(f"{path}: empty; a table log starts with the host's 'open' entry")
    try:
        first = open_envelope(canonical_bytes(entries[0].get("msg")))
        host_key = strict_hex(first.author, 32, "host key")
    except (Unauthenticated, ValueError, TypeError) as exc:
        raise DamagedLog(f"{path}, line 1: not a signed 'open' entry ({exc})") from exc
    table = Table(first.table, host_key, None, games)
    try:
        # an entry whose own host signature fails is taken if a later one covers it, as a live peer
        # takes the entries of one frame on the signature of the last (decision 0009)
        return table.take_stored(entries, table.receive), table
    except BadEntry as exc:
        raise DamagedLog(f"{path}, line {len(table.log.entries) + 1}: {exc}") from exc
    except HostEquivocated as exc:
        raise EquivocatedCopy(exc, table) from exc


def report_lines(path: Path, report: LogAudit) -> list[str]:
    """What ``atoll audit`` prints for a table log."""
    lines = [
        f"{path}: table {report.table}: {report.game} ({report.variant}), {report.entries} entries",
        f"  host: identity {report.host}",
    ]
    lines += [f"  {seat_label(seat)}: {name}, identity {fp}" for seat, (name, fp) in enumerate(report.seats)]
    lines += [
        f"  {seat_label(seat)} handed over at entry {seq}: from there on {name}, identity {fp}"
        for seat, name, fp, seq in report.handed
    ]
    if report.pinned is None:
        lines.append("  game build: not pinned (a log of an earlier atoll): the rules played are not named")
    else:
        lines.append(f"  game build: {report.pinned.describe()}")
        if report.differs is not None:
            here = report.installed.describe() if report.installed is not None else "not installed"
            lines.append(f"  installed here: {here}")
    lines += [f"  the host is named at entry {seq} and the next seat hosts the table: {text}"
              for seq, text in report.hosts_named]
    lines += [f"  the next seat hosts the table from entry {seq}: {text}"
              for seq, text in report.hosts_replaced]
    lines += [f"  refused (changed nothing): {text}" for text in report.refused[:20]]
    if report.vouched:
        shown = ", ".join(str(seq) for seq in report.vouched[:20])
        lines.append(
            f"  the host's own signature does not verify on entries {shown}; a later signature of the host "
            "covers each, and the entries up to it (a host that signs its relays carelessly, or a damaged "
            "file)"
        )
    if report.differs is not None:
        return lines  # the verdict is said once, as unreliable (_game_differs_line)
    if report.cheat is not None:
        lines.append(f"  does not check: {report.cheat}")
    elif report.ended is not None:
        lines.append(f"  every entry checks, but the game ended early: {report.ended}")
    elif report.results is None:
        lines.append("  the game did not reach its end in this log")
    else:
        lines.append(f"  every signature, entry, move and fairness proof checks; results {report.results}")
    return lines


def _verdict(report: LogAudit) -> str:
    """What the audit found, in a few words (for a report whose verdict is unreliable)."""
    if report.cheat is not None:
        return f"it does not check ({report.cheat})"
    if report.ended is not None:
        return f"the game ended early ({report.ended})"
    if report.results is None:
        return "the game did not reach its end"
    return f"every entry checks, with results {report.results}"


def _game_differs_line(report: LogAudit) -> str:
    """What the audit says when this install's game is not the one the log pins: which verdict that
    makes unreliable, and that nobody is blamed for it."""
    return (
        f"the game installed here differs from the table's: {report.differs}. Under this install "
        f"{_verdict(report)}: a verdict by other rules than the table's, so it is unreliable and blames "
        "nobody (the signatures and the hash chain check the same under any install)"
    )


def is_table_log(path: Path) -> bool:
    """Whether ``path`` looks like a table log (its first line an entry), not a saved local game."""
    try:
        with path.open("rb") as handle:
            first = handle.readline(1 << 20)
        value = parse_json(first)
    except (OSError, ValueError):
        return False
    return isinstance(value, dict) and {"seq", "prev", "msg", "host"} <= set(value)


def audit_command(
    path: Path,
    games: Callable[[str], Game],
    fingerprint: Callable[[bytes], str],
    expect: dict[int, str],
    *,
    as_json: bool,
    installed: Callable[[str], GamePin | None] | None = None,
) -> int:
    """``atoll audit`` on a table log: print the report; exit 0 clean, 1 a named cheat, 2 a damaged or
    unexpected file, or a game this install cannot judge (its build differs from the one the log pins),
    3 a game that did not reach its end, or ended early with nobody accused (a seat that ran out of
    time or left, a plugin or atoll that failed)."""
    try:
        report = audit_log(path, games, fingerprint, installed)
    except DamagedLog as exc:
        return _tell(as_json, 2, "invalid", f"not a valid table log: {exc}", None)
    wrong = [
        f"{seat_label(seat)} has identity {report.seats[seat][1]}, not {fp}"
        for seat, fp in sorted(expect.items())
        if seat >= len(report.seats) or report.seats[seat][1] != normal_fingerprint(fp)
    ]
    lines = report_lines(path, report)
    if wrong:
        return _tell(as_json, 2, "invalid", "; ".join(wrong), report, lines)
    if report.differs is not None:
        return _tell(as_json, 2, "game differs", _game_differs_line(report), report, lines)
    if report.cheat is not None:
        return _tell(as_json, 1, "cheat", report.cheat, report, lines)
    if report.ended is not None:
        return _tell(as_json, 3, _OUTCOMES.get(report.reason, "ended early"), report.ended, report, lines)
    if report.results is None:
        return _tell(as_json, 3, "unfinished", "the game did not reach its end in this log", report, lines)
    if as_json:
        print(json.dumps({"ok": True, "outcome": "consistent", **_fields(report)}))
    else:
        print("\n".join(lines))
        print(
            "exit 0 means: internally consistent and signed by these keys; compare the fingerprints with "
            "the ones your table showed (--expect SEAT=FINGERPRINT)."
        )
    return 0


#: The ``outcome`` of ``--json`` for a game that ended early with nobody accused (else "ended early").
_OUTCOMES: dict[EndReason | None, str] = {
    EndReason.FORFEIT: "forfeited",
    EndReason.ABORTED: "aborted",
    EndReason.PLUGIN_FAULT: "fault",
    EndReason.ATOLL_FAULT: "fault",
}


def _fields(report: LogAudit) -> dict[str, object]:
    return {
        "table": report.table,
        "host": report.host,
        "game": report.game,
        "variant": report.variant,
        "seats": [{"name": n, "fingerprint": f} for n, f in report.seats],
        "handed": [{"seat": s, "name": n, "fingerprint": f, "entry": q} for s, n, f, q in report.handed],
        "entries": report.entries,
        "results": report.results,
        "seat": report.blame if report.differs is None else None,  # no blame under other rules
        "refused": report.refused,
        "pin": report.pinned.to_json() if report.pinned is not None else None,
        "installed_pin": report.installed.to_json() if report.installed is not None else None,
        "game_differs": report.differs,
        "reason": None if report.reason is None else report.reason.name.lower(),
        "hosts_named": [{"entry": q, "text": t} for q, t in report.hosts_named],
        "hosts_replaced": [{"entry": q, "text": t} for q, t in report.hosts_replaced],
    }


def _tell(
    as_json: bool,
    status: int,
    outcome: str,
    problem: str,
    report: LogAudit | None,
    lines: list[str] | None = None,
) -> int:
    if as_json:
        print(
            json.dumps(
                {
                    "ok": False,
                    "outcome": outcome,
                    "problem": problem,
                    **(_fields(report) if report is not None else {}),
                }
            )
        )
    else:
        for line in lines or []:
            print(line, file=sys.stderr)
        print(problem, file=sys.stderr)
    return status
