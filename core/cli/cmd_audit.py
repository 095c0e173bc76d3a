"""``atoll audit FILE``: re-check a saved fair game from its transcript alone."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path

from atoll.cli.common import registry
from atoll.errors import CheatDetected
from atoll.fair.audit import audit
from atoll.fair.saving import load_fair

HELP = ("re-check a saved fair game (every roll, shuffle, card, commitment and seed) from its "
        "transcript alone; exits 1 naming the first seat that does not check")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``audit`` options."""
    parser.add_argument("file", type=Path,
                        help="a game saved from a fair table (JSON lines with a transcript)")
    parser.add_argument("--json", action="store_true", help="print the result as one JSON object")


def run(args: argparse.Namespace) -> int:
    """Audit the file: 0 when everything checks, 1 naming the seat when something does not."""
    saved, transcript = load_fair(args.file)
    game = registry(quiet=args.json).game(saved.game)
    try:
        report = audit(game, saved, transcript)
    except CheatDetected as exc:
        if args.json:
            print(json.dumps({"ok": False, "seat": exc.seat, "problem": str(exc)}))
        else:
            print(f"{args.file}: does not check: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps({"ok": True, **asdict(report)}))
        return 0
    print(f"{args.file}: {report.game} for {report.seats} seats: every step checks "
          f"({report.steps} steps, {report.messages} signed messages, {report.draws} draws, "
          f"{report.cards} cards, {report.sealed} sealed values; every seed opened and re-checked)")
    return 0
