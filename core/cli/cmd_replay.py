"""``atoll replay FILE``: step through a saved game in the terminal, or print its final state and
result when the output is not a terminal (or with ``--plain``)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from atoll.cli.common import registry
from atoll.errors import CorruptSave
from atoll.game import Game
from atoll.jsondata import JSON

if TYPE_CHECKING:
    from atoll.engine.save import SavedGame

HELP = "step through a saved game (every step checked), or print its final state and result"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``replay`` options."""
    parser.add_argument("file", type=Path,
                        help="a saved game (as `atoll play` writes; `atoll saves` lists them)")
    parser.add_argument("--plain", action="store_true",
                        help="print the final state and result instead of stepping through the game")


def plain(game: Game, view: dict[str, JSON]) -> str:
    """A view rendered as plain text."""
    return "".join(text for _, text in game.render(view))


def run(args: argparse.Namespace) -> int:
    """Replay the file."""
    from atoll.client.saves import read_save

    saved = read_save(args.file).saved
    game = registry().game(saved.game)
    try:
        return _replay(args, game, saved)
    except CorruptSave as exc:
        problem = str(exc)
        if problem.startswith("line "):  # say which file, as the other save errors do
            problem = f"{args.file}:{problem.removeprefix('line ')}"
        raise CorruptSave(problem) from exc


def _replay(args: argparse.Namespace, game: Game, saved: SavedGame) -> int:
    from atoll.engine import replay

    if not args.plain and sys.stdin.isatty() and sys.stdout.isatty():
        from atoll.cli.cmd_play import full_screen_possible

        if full_screen_possible(args):
            return _step_through(game, saved)
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


def _step_through(game: Game, saved: SavedGame) -> int:
    from atoll.tui.replay import ReplayScreen, frames

    screen = ReplayScreen(game, saved, frames(game, saved))
    screen.app.run()
    return 0
