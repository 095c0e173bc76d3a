"""Pieces the subcommands share: the registry, warnings about broken plugins, seat checks."""

from __future__ import annotations

import argparse
import sys

from atoll.registry import Registry, load_registry


def registry(*, quiet: bool = False) -> Registry:
    """Load every plugin; unless ``quiet``, warn on stderr about each plugin that failed."""
    found = load_registry()
    if not quiet:
        for problem in found.problems:
            print(f"atoll: warning: {problem}", file=sys.stderr)
    return found


def add_game_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments every command that sets up a game takes: the game, its variant and seats."""
    parser.add_argument("game", help="the game's name, as `atoll games` lists it")
    parser.add_argument("--variant", help="a variant of the game (default: the game's own)")
    parser.add_argument("--seats", type=int, help="how many seats (default: the fewest the game takes)")
