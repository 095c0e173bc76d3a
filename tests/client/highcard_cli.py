"""Runs `atoll play` with the High Card test game registered, for tests that need a real process.

Usage: python -m tests.client.highcard_cli [atoll play options]   (the game is always highcard)
"""

from __future__ import annotations

import sys

from atoll.cli import cmd_play
from atoll.cli.main import build_parser
from atoll.errors import AtollError
from atoll.registry import load_registry
from tests.games import highcard


def main(argv: list[str]) -> int:
    """Parse ``atoll play highcard ARGV`` and play it with High Card installed."""
    args = build_parser(["play"]).parse_args(["play", "highcard", *argv])
    try:
        cmd_play.play(args, load_registry(extra=[("highcard", highcard)]))
    except AtollError as exc:
        print(f"atoll play: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
