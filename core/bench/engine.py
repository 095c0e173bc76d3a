"""``scripts/bench engine [--json]``: how fast each installed game plays, through the engine and bare.

For every game the registry lists it measures, in one run:

- ``playouts_per_s``: random games through the engine (:class:`Match`, :func:`run`,
  one random bot per seat, a :class:`LocalResolver`);
- ``baseline_playouts_per_s``: the same games (same seeds, so the same moves) driven
  through the game's API in a bare loop, without the match, its log, ledger and checks;
- ``ratio``: the first over the second, the share of the bare speed the engine keeps;
- ``search_iterations_per_s``: search-bot iterations at the decisions of random games,
  and ``search_ms_per_decision``, what a decision costs at the default budget.

Engine and bare playouts alternate, and every time is the process's CPU time, so other work on a
shared machine skews neither the rates nor their ratio.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from typing import TextIO

from atoll.bots.random_bot import RandomBot
from atoll.bots.search import DEFAULT_ITERATIONS, SearchBot
from atoll.engine.local import LocalResolver
from atoll.engine.loop import observe, run
from atoll.engine.match import Match
from atoll.errors import AtollError
from atoll.game import Game
from atoll.jsondata import JSON
from atoll.registry import load_registry
from atoll.sim import CHANCE, derive_seed
from atoll.types import Chance, Config, Decision, Knowledge, Results

#: Search iterations per measured decision: small, so that many positions of a game are sampled.
SEARCH_CHUNK = 10


def engine_playout(game: Game, config: Config, index: int) -> tuple[Results, int]:
    """One random game through the engine; its results and number of decisions."""
    match = Match(game, config, LocalResolver(derive_seed(0, index, CHANCE)))
    bots = [RandomBot(derive_seed(0, index, seat)) for seat in range(config.seats)]
    end = run(match, bots)
    return end.results, sum(1 for event in match.events if "seat" in event)


def bare_playout(game: Game, config: Config, index: int, max_steps: int = 100_000) -> Results:
    """The same game as :func:`engine_playout` driven through the game API alone."""
    resolver = LocalResolver(derive_seed(0, index, CHANCE))
    rngs = [random.Random(derive_seed(0, index, seat)) for seat in range(config.seats)]
    known: list[dict[str, JSON]] = [{} for _ in range(config.seats)]
    state = game.setup(config)
    seals = 0
    for _ in range(max_steps):
        step = game.next(state)
        if isinstance(step, Decision):
            seat = step.seat
            seen: Knowledge = known[seat]
            action = rngs[seat].choice(game.legal_actions(state, seat, seen))
            if step.secret:
                values = action["secret"]
                handles = [f"s{seat}-{seals}.{i}" for i in range(len(values))]
                seals += 1
                resolver.seal(seat, handles, values)
                known[seat].update(zip(handles, values, strict=True))
                state = game.apply(state, {"sealed": handles})
            else:
                state = game.apply(state, action)
        elif isinstance(step, Chance):
            resolution = resolver.resolve(step.request)
            state = game.resolve(state, step.request, resolution.outcome)
            for seat, faces in resolution.privately.items():
                known[seat].update(faces)
        else:
            return step.results
    raise AtollError(f"{game.info.name}: a bare playout did not end within {max_steps} steps")


def measure_playouts(game: Game, config: Config, seconds: float) -> dict[str, JSON]:
    """Engine and bare playouts of the same games, alternating, for about ``2 * seconds``."""
    engine_time = bare_time = 0.0
    decisions = index = 0
    while index < 3 or engine_time + bare_time < 2 * seconds:
        started = time.process_time()
        results, steps = engine_playout(game, config, index)
        middle = time.process_time()
        bare = bare_playout(game, config, index)
        engine_time += middle - started
        bare_time += time.process_time() - middle
        if bare != results:
            raise AtollError(f"{game.info.name}: game {index} ended differently through the engine and bare")
        decisions += steps
        index += 1
    engine_rate, bare_rate = index / engine_time, index / bare_time
    return {
        "playouts": index, "mean_decisions": round(decisions / index, 1),
        "playouts_per_s": round(engine_rate, 1), "baseline_playouts_per_s": round(bare_rate, 1),
        "ratio": round(engine_rate / bare_rate, 3),
    }


def measure_search(game: Game, config: Config, seconds: float) -> dict[str, JSON]:
    """Search-bot iterations per second over the decisions of random games, for about ``seconds``."""
    iterations, spent, index = 0, 0.0, 0
    while spent < seconds:
        match = Match(game, config, LocalResolver(derive_seed(1, index, CHANCE)))
        mover = random.Random(index)
        while spent < seconds and not match.results():
            step = match.step()
            if isinstance(step, Chance):
                match.advance()
                continue
            assert isinstance(step, Decision)
            observation = observe(match, step.seat)
            if len(observation.legal) > 1:
                bot = SearchBot(derive_seed(1, index, step.seat))
                started = time.process_time()
                bot.search(observation, SEARCH_CHUNK)
                spent += time.process_time() - started
                iterations += SEARCH_CHUNK
            match.act(step.seat, mover.choice(observation.legal))
        index += 1
    rate = iterations / spent if spent else 0.0
    return {
        "search_iterations": iterations, "search_iterations_per_s": round(rate, 1),
        "search_ms_per_decision": round(1000 * DEFAULT_ITERATIONS / rate, 1) if rate else None,
    }


def bench(names: Sequence[str] | None, seconds: float, progress: TextIO) -> dict[str, dict[str, JSON]]:
    """Measure every installed game (or those ``names``d) and return the figures by game name."""
    found = load_registry()
    for problem in found.problems:
        print(f"bench: warning: {problem}", file=progress)
    chosen = sorted(found.games) if not names else list(names)
    out: dict[str, dict[str, JSON]] = {}
    for name in chosen:
        game = found.game(name)
        config = game.configure()
        print(f"{name}: random playouts through the engine and bare ...", file=progress, flush=True)
        figures = measure_playouts(game, config, seconds)
        print(f"{name}: search iterations ...", file=progress, flush=True)
        figures.update(measure_search(game, config, seconds))
        out[name] = {"seats": config.seats, "variant": config.variant, **figures}
    return out


def table(figures: dict[str, dict[str, JSON]]) -> str:
    """The figures as a text table."""
    head = (f"{'game':<16} {'engine/s':>10} {'bare/s':>10} {'ratio':>7} "
            f"{'search it/s':>12} {'ms/decision':>12}")
    lines = [head, "-" * len(head)]
    for name, row in figures.items():
        lines.append(
            f"{name:<16} {row['playouts_per_s']:>10} {row['baseline_playouts_per_s']:>10} "
            f"{row['ratio']:>7} {row['search_iterations_per_s']:>12} {row['search_ms_per_decision']!s:>12}"
        )
    lines.append(
        "engine/s and bare/s: random playouts per CPU second through the engine and through a bare loop "
        "over the game API;\nratio = engine/bare; ms/decision: CPU time of a search-bot decision at "
        f"the default budget of {DEFAULT_ITERATIONS} iterations."
    )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print a table (or one JSON object keyed by game)."""
    parser = argparse.ArgumentParser(prog="scripts/bench engine", description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object keyed by game name")
    parser.add_argument("--games", help="comma-separated game names (default: every installed game)")
    parser.add_argument(
        "--seconds", type=float, default=3.0,
        help="seconds per measurement (engine and bare share twice this; default 3)",
    )
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.games.split(",") if n.strip()] if args.games else None
    try:
        figures = bench(names, args.seconds, sys.stderr)
    except AtollError as exc:
        print(f"bench engine: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(figures, indent=2) if args.json else table(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
