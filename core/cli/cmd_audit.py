"""``atoll audit FILE``: re-check a table's log (``log.jsonl``) from the file alone.

Exit status: 0 the log checks in full and the game reached its end (it is internally consistent and
signed by the identities it prints: it does not show that this game happened, so compare the
fingerprints, or pass ``--expect``); 1 a seat cheated, named; 2 not a valid table log (damaged, cut,
forged, another kind of file, or not signed by the expected identities), or a log whose pinned game
differs from the one installed here (its verdict would be unreliable), blaming nobody; 3 the game
did not reach its end, or ended early with no seat accused: a seat ran out of time (a forfeit names it
as late, not as a cheat) or left, or the game's plugin or atoll itself failed (named; the details go
to ``faults.log`` in the data folder). The verdict follows the end's reason
(:class:`~atoll.table.reasons.EndReason`), never its words.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from atoll.cli.common import registry

HELP = ("re-check a table's log (every signature, entry, move, roll, shuffle, card, commitment and seed) "
        "from the file alone; exits 0 if it is consistent and signed by the identities it prints, 1 naming "
        "a seat that cheated, 2 if the file is not a valid table log, 3 if the game did not reach its end "
        "or ended early with no seat accused (one ran out of time or left; the game's plugin failed)")

#: Files of atoll's that are not table logs, by the ``format`` of their first line.
OTHER_FORMATS = {
    "atoll-game": "a saved local game (atoll play): it holds no signatures to audit; "
                  "'atoll replay FILE' steps through it, checking every rule",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``audit`` options."""
    parser.add_argument("file", type=Path, nargs="+",
                        help="a network table's log ($ATOLL_HOME/tables/<table id>/log.jsonl); with "
                             "several copies of one table's log, where the host signed two different "
                             "entries for one position is shown as evidence naming the host (exit 1)")
    parser.add_argument("--expect", action="append", default=[], type=_expectation,
                        metavar="SEAT=FINGERPRINT",
                        help="the identity fingerprint a seat (counted from 1, as audit lists them) must "
                             "have (repeatable); any other is refused (exit 2)")
    parser.add_argument("--json", action="store_true", help="print the result as one JSON object")


def run(args: argparse.Namespace) -> int:
    """Audit the table log and say what the outcome means; returns the exit status."""
    from atoll.table.audit import audit_command, is_table_log

    for path in args.file:
        if not is_table_log(path):
            problem = f"{path}: {_what_it_is(path)}; atoll audit reads a table's log.jsonl"
            if args.json:
                print(json.dumps({"ok": False, "outcome": "invalid", "problem": problem}))
            else:
                print(problem, file=sys.stderr)
            return 2
    from atoll.net.encoding import fingerprint

    found = registry(quiet=args.json)
    if len(args.file) > 1:
        from atoll.table.compare import compare_command

        return compare_command(args.file, found.game, fingerprint, as_json=args.json,
                               installed=found.installed_pin)
    return audit_command(args.file[0], found.game, fingerprint, dict(args.expect), as_json=args.json,
                         installed=found.installed_pin)


def _what_it_is(path: Path) -> str:
    """One phrase naming a file that is not a table log."""
    try:
        with path.open("rb") as handle:
            first = handle.readline(1 << 20)
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    try:
        value = json.loads(first.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return "is not a table log (its first line is not JSON text)"
    if isinstance(value, dict) and isinstance(value.get("format"), str):
        if _holds_fair_transcript(path):
            return ("is a fair game saved by an earlier atoll (with an 'atoll-fair-transcript'), a format "
                    "this version no longer reads")
        known = OTHER_FORMATS.get(value["format"])
        if known is not None:
            return f"is {known}"
        return f"is a file of format {str(value['format'])[:40]!r}, not a table log"
    return "is not a table log (its first line is not a log entry)"


#: Bytes read from the end of a file for an earlier atoll's footer (a transcript of a long game fits).
_TAIL = 8 << 20


def _holds_fair_transcript(path: Path) -> bool:
    """Whether the last line of ``path`` holds an earlier atoll's fair transcript."""
    try:
        with path.open("rb") as handle:  # the footer only: the file may be large, and is not a log
            handle.seek(max(0, handle.seek(0, 2) - _TAIL))
            last = handle.read().rstrip(b"\n").rsplit(b"\n", 1)[-1]
        footer = json.loads(last.decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return False
    fair = footer.get("fair") if isinstance(footer, dict) else None
    return isinstance(fair, dict) and fair.get("format") == "atoll-fair-transcript"


def _expectation(text: str) -> tuple[int, str]:
    seat, sep, fingerprint = text.partition("=")
    if not sep or not seat.strip().isdigit() or int(seat) < 1 or not fingerprint.strip():
        raise argparse.ArgumentTypeError(
            f"expected SEAT=FINGERPRINT with seats counted from 1, e.g. 1=k3qz-7rma-..., not {text!r}"
        )
    return int(seat) - 1, fingerprint.strip()  # the log's seats count from 0
