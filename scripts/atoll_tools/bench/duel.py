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
from typing import TextIO

from atoll.bots.search import SearchBot
from atoll.engine.local import LocalResolver
from atoll.engine.loop import run
from atoll.engine.match import Match
from atoll.jsondata import JSON
from atoll.registry import load_registry
from atoll.sim import CHANCE, derive_seed


def duel(
    game_name: str, games: int, seconds: float, seed: int = 0, seats: int = 2, progress: TextIO | None = None
) -> dict[str, JSON]:
    """Play ``games`` games, fast-path search bot against full-API search bot, seats rotating (game
    ``i`` seats the fast bot at ``i % seats``); each game's line goes to ``progress`` as it ends."""
    game = load_registry().game(game_name)
    config = game.configure(seats)
    fast_wins = api_wins = shared = 0
    for index in range(games):
        fast_seat = index % seats
        bots = [SearchBot(derive_seed(seed, index, seat), seconds=seconds, fast=seat == fast_seat)
                for seat in range(seats)]
        match = Match(game, config, LocalResolver(derive_seed(seed, index, CHANCE)))
        results = run(match, bots).results
        fast_wins += fast_seat in results.winners
        api_wins += any(seat != fast_seat for seat in results.winners)
        shared += len(results.winners) > 1
        if progress is not None:
            print(json.dumps({"game": index, "fast_seat": fast_seat, **results.to_json()}), file=progress,
                  flush=True)
    return {
        "game": game_name, "seats": seats, "games": games, "seconds_per_decision": seconds, "seed": seed,
        "fast_wins": fast_wins, "api_wins": api_wins, "shared": shared,
        "fast_win_share": round(fast_wins / games, 3),
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
    figures = duel(args.game, args.duel, args.budget, args.seed, progress=sys.stderr)
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print(f"{figures['games']} games of {args.game}, {args.budget} s a decision: fast-path search bot "
              f"won {figures['fast_wins']}, full-API search bot {figures['api_wins']}, "
              f"shared {figures['shared']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
