"""``atoll replay FILE``: play a saved game back and print its final state and result."""

from __future__ import annotations

import argparse
from pathlib import Path

from atoll.cli.common import registry
from atoll.engine import load, replay
from atoll.game import Game

HELP = "play a saved game back, checking every step, and print its final state and result"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``replay`` options."""
    parser.add_argument("file", type=Path, help="a saved game (JSON lines, as `atoll play --save` writes)")


def plain(game: Game, fragments_of: dict[str, object]) -> str:
    """A view rendered as plain text."""
    return "".join(text for _, text in game.render(fragments_of))


def run(args: argparse.Namespace) -> int:
    """Replay the file."""
    saved = load(args.file)
    game = registry().game(saved.game)
    match = replay(game, saved)
    print(plain(game, match.view(None)))
    end = match.results()
    if end is None:
        print(f"replayed {len(saved.events)} events of {game.info.title}; the game was not finished")
        return 0
    results = end.results
    scores = ", ".join(f"{name} {score}" for name, score in
                       zip(game.seat_names(saved.config), results.scores, strict=True))
    winners = ", ".join(game.seat_names(saved.config)[s] for s in results.winners) or "nobody"
    print(f"replayed {len(saved.events)} events of {game.info.title}: every step checks")
    print(f"scores: {scores}")
    print(f"winner: {winners}")
    return 0
