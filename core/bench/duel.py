"""``scripts/bench engine --duel N``: the search bot on the fast path against today's search bot,
both thinking the same CPU time a decision, over ``N`` games with the bots changing seats each game.

It is run by hand (200 2-seat Kariba games at 0.1 s a decision take about ten minutes of CPU), not
in the test suite: the figure is the share of games the fast-path bot wins.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from atoll.bots.base import BotKind
from atoll.bots.search import SearchBot
from atoll.jsondata import JSON
from atoll.registry import load_registry
from atoll.sim import simulate


def timed_kind(seconds: float, *, fast: bool) -> BotKind:
    """A search bot kind thinking ``seconds`` of CPU a decision, on the fast path or through the API."""
    name = "search-fast" if fast else "search-api"
    return BotKind(
        name, f"search bot, {seconds} s a decision, {'fast path' if fast else 'full API'}",
        lambda game, seat, seed: SearchBot(seed, seconds=seconds, fast=fast),
    )


def duel(game_name: str, games: int, seconds: float, seed: int = 0, seats: int = 2) -> dict[str, JSON]:
    """Play ``games`` games, fast-path search bot against full-API search bot, seats rotating."""
    game = load_registry().game(game_name)
    config = game.configure(seats)
    kinds = [timed_kind(seconds, fast=True)] + [timed_kind(seconds, fast=False)] * (seats - 1)
    report = simulate(game, config, kinds, games=games, seed=seed, rotate=True)
    fast_wins, api_wins = report.bot_wins[0], sum(report.bot_wins[1:])
    return {
        "game": game_name, "seats": seats, "games": games, "seconds_per_decision": seconds, "seed": seed,
        "fast_wins": fast_wins, "api_wins": api_wins, "shared": report.shared,
        "fast_win_share": round(fast_wins / games, 3), "wall_seconds": round(report.seconds, 1),
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Run the duel and print its figures."""
    parser = argparse.ArgumentParser(prog="scripts/bench engine --duel", description=__doc__.splitlines()[0])
    parser.add_argument("--duel", type=int, default=200, metavar="GAMES", help="games to play (default 200)")
    parser.add_argument("--game", default="kariba", help="the game (default kariba)")
    parser.add_argument("--budget", type=float, default=0.1, help="CPU seconds a decision (default 0.1)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    figures = duel(args.game, args.duel, args.budget, args.seed)
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print(f"{figures['games']} games of {args.game}, {args.budget} s a decision: fast-path search bot "
              f"won {figures['fast_wins']}, full-API search bot {figures['api_wins']}, "
              f"shared {figures['shared']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
