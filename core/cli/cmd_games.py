"""``atoll games``: list the installed games."""

from __future__ import annotations

import argparse
import json

from atoll.cli.common import registry
from atoll.jsondata import JSON

HELP = "list the installed games: name, title, seats, variants and where each comes from"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``games`` options."""
    parser.add_argument("--json", action="store_true", help="print a JSON list of objects")


def run(args: argparse.Namespace) -> int:
    """List the games."""
    # a game name several plugins claim is a line of the listing, and a warning under --json
    found = registry(quiet=args.json, conflicts=args.json)
    rows: list[dict[str, JSON]] = []
    for name in sorted(found.games):
        installed = found.games[name]
        info = installed.game.info
        rows.append({
            "name": info.name, "title": info.title, "min_seats": info.min_seats,
            "max_seats": info.max_seats, "variants": list(info.variants),
            "default_variant": info.default_variant, "source": installed.source,
            "plugin": installed.plugin, "summary": info.summary,
            "bots": sorted(b.name for b in found.bots_for(name)),
        })
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    if not rows and not found.conflicts:
        print("no games installed")
        return 0
    lines = {name: f"{name:<16} {conflict.reason}" for name, conflict in found.conflicts.items()}
    for row in rows:
        seats = f"{row['min_seats']}-{row['max_seats']} seats"
        variants = ", ".join(row["variants"])
        name, title, source = row["name"], row["title"], row["source"]
        lines[str(name)] = f"{name:<16} {title:<28} {seats:<11} variants: {variants}  (from {source})"
    for name in sorted(lines):
        print(lines[name])
    return 0
