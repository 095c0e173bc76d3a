"""``atoll sim GAME``: play many bot games and print the tally."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from typing import TextIO

from atoll.bots.search import DEFAULT_ITERATIONS, search_kind
from atoll.cli.common import (
    add_game_arguments,
    add_think_argument,
    game_name,
    registry,
    use_think,
    variant_name,
)
from atoll.errors import AtollError
from atoll.sim import LOCAL_RAY, bot_kinds, default_workers, simulate, summary

HELP = "play many bot-only games of a game and print wins per seat, mean length and games per second"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``sim`` options."""
    add_game_arguments(parser)
    parser.add_argument(
        "--bots", default="random",
        help="bot kinds, comma-separated: one for every seat, or one per seat (default: random)",
    )
    parser.add_argument("--games", type=int, default=100, help="how many games (default: 100)")
    parser.add_argument("--seed", type=int, default=0, help="the seed; the same seed gives the same games")
    parser.add_argument(
        "--rotate", action="store_true",
        help="move the bots one seat on each game, and count wins per bot as well as per seat",
    )
    parser.add_argument(
        "--search-iterations", type=positive, metavar="N",
        help=f"iterations per decision of the search bot (default: {DEFAULT_ITERATIONS}); "
        "fewer make it weaker and faster, for long evaluations",
    )
    add_think_argument(parser, default=None)
    parser.add_argument(
        "--workers", type=positive, default=default_workers(), metavar="N",
        help="play the games in N processes (default: every core, here %(default)s); "
        "the tally is the same for any N",
    )
    parser.add_argument(
        "--ray", metavar="ADDRESS",
        help="play the games as tasks on the Ray cluster at ADDRESS, or on a Ray instance started here "
        f"with '{LOCAL_RAY}' (needs atoll[ray], and atoll and the game on every machine); "
        "the tally is the same",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def positive(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    try:
        number = int(text)
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, not {text!r}")
    return number


def progress_line(
    total: int, stream: TextIO, clock: Callable[[], float] = time.monotonic
) -> Callable[[int], None] | None:
    """A callback drawing ``done/total`` on one line of ``stream``, with the time left once a few
    seconds have shown the pace; ``None`` if ``stream`` is no terminal."""
    if not stream.isatty():
        return None
    started = clock()
    width = 30
    drawn = 0

    def show(done: int) -> None:
        nonlocal drawn
        filled = width * done // total
        line = f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games"
        elapsed = clock() - started
        if 0 < done < total and elapsed >= 2:
            line += f", {_duration(elapsed * (total - done) / done)} left"
        stream.write(line + " " * max(0, drawn - len(line)))  # wipe a longer line drawn before
        drawn = len(line)
        if done == total:
            stream.write("\r" + " " * drawn + "\r")
        stream.flush()

    return show


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def run(args: argparse.Namespace) -> int:
    """Run the simulation and print its tally."""
    found = registry(quiet=args.json)
    game = found.game(game_name(found, args.game))
    config = game.configure(args.seats, variant_name(game.info.variants, args.variant))
    names = [name.strip() for name in args.bots.split(",") if name.strip()]
    if args.think is not None and args.search_iterations is not None:
        raise AtollError("--think gives the search bot a time, --search-iterations a number of iterations: "
                         "choose one")
    # a bot given time plays as far as the machine lets it: the tally no longer follows from the seed
    kinds = bot_kinds(use_think(found, args.think), game.info.name, names, config.seats)
    if args.search_iterations is not None:
        searching = search_kind(args.search_iterations)
        kinds = [searching if kind.name == "search" else kind for kind in kinds]
    report = simulate(
        game, config, kinds, games=args.games, seed=args.seed, rotate=args.rotate,
        on_game=progress_line(args.games, sys.stderr), workers=args.workers, ray=args.ray,
    )
    if args.json:
        out = report.to_json()
        if args.search_iterations is not None:
            out["search_iterations"] = args.search_iterations
        if args.think is not None:
            out["think"] = args.think
        print(json.dumps(out))
    else:
        print(summary(report, game.seat_names(config)))
    return 0
