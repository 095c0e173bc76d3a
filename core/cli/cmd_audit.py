"""``atoll audit FILE``: re-check a saved fair game from its file alone.

Exit status: 0 the file is internally consistent and signed by the identities it prints (it does
not show that this game happened: compare the fingerprints, or pass ``--expect``); 1 a seat cheated
or forfeited, named; 2 not a valid transcript (damaged, cut, forged, or not signed by the expected
identities), naming the line, blaming nobody; 3 the table was aborted and nobody can be blamed.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path
from typing import TextIO

from atoll.cli.common import registry
from atoll.errors import CheatDetected, CorruptSave
from atoll.fair.abort import TableAborted
from atoll.fair.audit import audit
from atoll.fair.saving import load_fair
from atoll.fair.transcript import DamagedTranscript, Transcript

HELP = ("re-check a saved fair game (every signature, roll, shuffle, card, commitment and seed) from the "
        "file alone; exits 0 if it is consistent and signed by the identities it prints, 1 naming a seat "
        "that cheated, 2 if the file is not a valid transcript, 3 if the game was aborted with nobody "
        "to blame")

#: What exit 0 means, said every time, because it is easy to read more into it.
MEANING = ("exit 0 means: internally consistent and signed by these keys. It does not show that this game "
           "happened, nor who held the keys: compare the fingerprints with the ones your table showed "
           "(--expect SEAT=FINGERPRINT).")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``audit`` options."""
    parser.add_argument("file", type=Path,
                        help="a game saved from a fair table (JSON lines with a transcript), or a network "
                             "table's log ($ATOLL_HOME/tables/<table id>/log.jsonl)")
    parser.add_argument("--expect", action="append", default=[], type=_expectation,
                        metavar="SEAT=FINGERPRINT",
                        help="the identity fingerprint a seat must have (repeatable); "
                             "any other is refused (exit 2)")
    parser.add_argument("--json", action="store_true", help="print the result as one JSON object")


def run(args: argparse.Namespace) -> int:
    """Audit the file and say what the outcome means; returns the exit status."""
    from atoll.table.audit import audit_command, is_table_log

    if is_table_log(args.file):
        from atoll.net.encoding import fingerprint

        return audit_command(args.file, registry(quiet=args.json).game, fingerprint, dict(args.expect),
                             as_json=args.json)
    transcript: Transcript | None = None
    try:
        saved, transcript = load_fair(args.file)
        game = registry(quiet=args.json).game(saved.game)
        report = audit(game, saved, transcript, dict(args.expect))
    except CheatDetected as exc:
        return _say(args, 1, "cheat", f"does not check: {exc}", transcript, seat=exc.seat)
    except TableAborted as exc:
        return _say(args, 3, "aborted", str(exc), transcript, seat=None)
    except CorruptSave as exc:
        where = f"{args.file}:{transcript.line}: " if isinstance(exc, DamagedTranscript) and transcript and \
            transcript.line and exc.entry is not None else ""
        return _say(args, 2, "invalid", f"{where}not a valid transcript: {exc}", transcript, seat=None)
    if args.json:
        print(json.dumps({"ok": True, "outcome": "consistent", "meaning": MEANING, **asdict(report)}))
        return 0
    print(f"{args.file}: {report.game} for {report.seats} seats: every step checks "
          f"({report.steps} steps, {report.messages} signed messages, {report.draws} draws, "
          f"{report.cards} cards, {report.sealed} sealed values; every seed opened and re-checked)")
    _print_identities(report.fingerprints, sys.stdout)
    print(MEANING)
    return 0


def _say(args: argparse.Namespace, status: int, outcome: str, problem: str, transcript: Transcript | None,
         *, seat: int | None) -> int:
    prints = transcript.fingerprints() if transcript is not None else []
    if args.json:
        print(json.dumps({"ok": False, "outcome": outcome, "seat": seat, "problem": problem,
                          "fingerprints": prints}))
        return status
    print(f"{args.file}: {problem}", file=sys.stderr)
    _print_identities(prints, sys.stderr)
    return status


def _print_identities(prints: list[str] | tuple[str, ...], out: TextIO) -> None:
    for seat, text in enumerate(prints):
        print(f"  seat {seat}: identity {text}", file=out)


def _expectation(text: str) -> tuple[int, str]:
    seat, sep, fingerprint = text.partition("=")
    if not sep or not seat.strip().isdigit() or not fingerprint.strip():
        raise argparse.ArgumentTypeError(f"expected SEAT=FINGERPRINT, e.g. 1=k3qz-7rma-..., not {text!r}")
    return int(seat), fingerprint.strip()
