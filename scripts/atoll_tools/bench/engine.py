"""``scripts/bench engine [--json]``: how fast each installed game plays, through the engine and bare.

For every game the registry lists it measures, in one run:

- ``playouts_per_s``: random games through the engine (:class:`Match`, :func:`run`,
  one random bot per seat, a :class:`LocalResolver`);
- ``baseline_playouts_per_s``: the same games (same seeds, so the same moves) driven
  through the game's API in a bare loop, without the match, its log, ledger and checks;
- ``ratio``: the first over the second, the share of the bare speed the engine keeps;
- ``fast_playouts_per_s``: random games on the game's fast path (:mod:`atoll.fast`), where it
  offers one, and ``fast_vs_engine``, that over ``playouts_per_s`` (today's path);
- ``search_iterations_per_s``: search-bot iterations at the decisions of random games (on the
  fast path where offered), and ``search_ms_per_decision``, what a decision costs at the default
  budget; ``first_decision``: iterations a second at the game's first decision with and without
  the fast path, alternating.

Then ``targets`` holds issues 16's and 32's targets, each a figure against a baseline measured in
the same run: with ``--metaxnet PATH``, 2-seat Kariba games through ``atoll sim --workers 1``
against the bare engine of github.com/metaxnet/kariba (run from a clone at PATH, never copied into
atoll; :func:`sim_against_metaxnet`); Kariba's fast playouts against a bare minimal Kariba engine
(:func:`minimal_kariba`) and against the engine; Kiribati's (family) against the engine; the search
bot's iterations at Kariba's first decision; ``atoll sim --workers 2`` against ``--workers 1`` (wall
time: the one figure that other work on the machine skews). Two runs are made by hand, not in every
benchmark: the search bot's duel at a time budget, ``scripts/bench engine --duel 200`` (see
:mod:`atoll_tools.bench.duel`), and the kit's fast-path check on thousands of games, ``scripts/bench
engine --kit GAME --games N``.

Measurements alternate, and every other time is the process's CPU time, so other work on a
shared machine skews neither the rates nor their ratios.
"""

from __future__ import annotations

import argparse
import importlib.util
import inspect
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from atoll.bots.random_bot import RandomBot
from atoll.bots.search import DEFAULT_ITERATIONS, SearchBot
from atoll.engine.local import LocalResolver
from atoll.engine.loop import observe, run
from atoll.engine.match import Match
from atoll.engine.observation import Observation
from atoll.errors import AtollError
from atoll.fast import RandomDraws
from atoll.game import Game
from atoll.jsondata import JSON
from atoll.registry import load_registry
from atoll.sim import CHANCE, default_workers, derive_seed, simulate
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


def minimal_kariba(rng: random.Random, seats: int = 2) -> list[int]:
    """The baseline of issue 16: a bare minimal Kariba engine, one function playing one random game
    over a list hand and an 8-slot waterhole, no API. Returns the cards each seat won."""
    deck = [animal for animal in range(1, 9) for _ in range(8)]
    rng.shuffle(deck)
    hands = [deck[seat * 5: seat * 5 + 5] for seat in range(seats)]
    top, turn = seats * 5, 0
    hole = [0] * 8
    won = [0] * seats
    while True:
        hand = hands[turn]
        plays = [(animal, n) for animal in sorted(set(hand)) for n in range(1, hand.count(animal) + 1)]
        animal, count = plays[rng.randrange(len(plays))]
        for _ in range(count):
            hand.remove(animal)
        hole[animal - 1] += count
        if hole[animal - 1] >= 3:
            if animal == 1:
                victim = 8 if hole[7] else 0
            else:
                victim = next((weaker for weaker in range(animal - 1, 0, -1) if hole[weaker - 1]), 0)
            if victim:
                won[turn] += hole[victim - 1]
                hole[victim - 1] = 0
        want = min(5 - len(hand), 64 - top)
        hand.extend(deck[top: top + want])
        top += want
        if not hand:
            return won
        turn = (turn + 1) % seats


def fast_playout(game: Game, config: Config, index: int) -> Results | None:
    """One random game on the game's fast path (chance and choices from one generator); ``None``
    if the game offers none."""
    rng = random.Random(index)
    simulator = game.simulator(config, RandomDraws(rng))
    if simulator is None:
        return None
    results, _ = simulator.playout(rng)
    if results is None:
        raise AtollError(f"{game.info.name}: a fast playout did not end")
    return results


def _alternate(runs: dict[str, Callable[[int], object]], seconds: float) -> dict[str, float]:
    """Run each of ``runs`` on games 0, 1, ... in turn for about ``seconds`` of CPU each; each run's
    rate per CPU second."""
    spent = dict.fromkeys(runs, 0.0)
    index = 0
    while index < 3 or sum(spent.values()) < len(runs) * seconds:
        for name, run_one in runs.items():
            started = time.process_time()
            run_one(index)
            spent[name] += time.process_time() - started
        index += 1
    return {name: index / spent[name] if spent[name] else 0.0 for name in runs}


def fast_rates(game: Game, config: Config, seconds: float) -> tuple[float, float] | None:
    """Random playouts a CPU second on the fast path and through the engine, alternating (``None`` if
    the game offers no fast path)."""
    if game.simulator(config, RandomDraws(random.Random(0))) is None:
        return None
    rates = _alternate({
        "fast": lambda index: fast_playout(game, config, index),
        "engine": lambda index: engine_playout(game, config, index),
    }, seconds)
    return rates["fast"], rates["engine"]


def first_decision(game: Game, config: Config, seed: int = 1) -> Observation:
    """The observation at the first decision of a seeded game that offers a choice."""
    match = Match(game, config, LocalResolver(seed))
    mover = random.Random(seed)
    while not match.results():
        step = match.step()
        if isinstance(step, Chance):
            match.advance()
            continue
        assert isinstance(step, Decision)
        observation = observe(match, step.seat)
        if len(observation.legal) > 1:
            return observation
        match.act(step.seat, mover.choice(observation.legal))
    raise AtollError(f"{game.info.name}: a game without a single choice")


def first_decision_rates(game: Game, config: Config, seconds: float) -> tuple[float, float]:
    """Search iterations a CPU second at the first decision, on the fast path (where offered) and
    through the full API, in alternating chunks."""
    observation = first_decision(game, config)
    fast, api = SearchBot(1), SearchBot(1, fast=False)
    rates = _alternate({
        "fast": lambda index: fast.search(observation, SEARCH_CHUNK),
        "api": lambda index: api.search(observation, SEARCH_CHUNK),
    }, seconds)
    return rates["fast"] * SEARCH_CHUNK, rates["api"] * SEARCH_CHUNK


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


def kariba_rates(game: Game, seconds: float) -> dict[str, float]:
    """2-seat Kariba random playouts a CPU second on the fast path, in :func:`minimal_kariba` and
    through the engine, alternating."""
    config = game.configure(2, "standard")
    return _alternate({
        "fast": lambda index: fast_playout(game, config, index),
        "minimal": lambda index: minimal_kariba(random.Random(index)),
        "engine": lambda index: engine_playout(game, config, index),
    }, seconds)


#: The files of metaxnet/kariba (github.com/metaxnet/kariba) its bare engine needs.
METAXNET_FILES = ("kariba.py", "DefaultPlayers.py", "KaribaPlayer.py")
#: Games of a measured chunk: ``atoll sim`` is timed as a whole simulation of this many games.
SIM_CHUNK = 50


def metaxnet_engine(source: Path, into: Path) -> Callable[[], object]:
    """metaxnet/kariba's ``game_manager`` between two of its ``RandomPlayer``s (one random 2-seat game),
    from ``source``: a checkout of the repository or its git directory (whose files are copied to
    ``into`` first). It is run from there as it is, never copied into atoll."""
    if all((source / name).is_file() for name in METAXNET_FILES):
        folder = source
    else:
        for name in METAXNET_FILES:
            shown = subprocess.run(["git", "--git-dir", str(source), "show", f"HEAD:{name}"],
                                   capture_output=True, check=False)
            if shown.returncode != 0:
                raise AtollError(f"{source}: neither a checkout nor the git directory of metaxnet/kariba "
                                 f"(no {name}); git clone https://github.com/metaxnet/kariba")
            (into / name).write_bytes(shown.stdout)
        folder = into
    sys.path.insert(0, str(folder))
    try:
        spec = importlib.util.spec_from_file_location("metaxnet_kariba", folder / "kariba.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(folder))
    players = (module.RandomPlayer("A"), module.RandomPlayer("B"))
    return lambda: module.game_manager(*players)


def sim_against_metaxnet(game: Game, source: Path, seconds: float) -> dict[str, float]:
    """2-seat Kariba random games a CPU second through ``atoll sim --workers 1`` (:func:`simulate`, a
    chunk of :data:`SIM_CHUNK` games at a time, start-up excluded) and in metaxnet/kariba's bare engine,
    alternating."""
    config = game.configure(2, "standard")
    kinds = [load_registry().bot("random", game.info.name)] * 2
    with tempfile.TemporaryDirectory() as folder:
        bare = metaxnet_engine(source, Path(folder))

        def theirs(index: int) -> None:
            for _ in range(SIM_CHUNK):
                bare()

        rates = _alternate({
            "sim": lambda index: simulate(game, config, kinds, games=SIM_CHUNK, seed=index, workers=1),
            "metaxnet": theirs,
        }, seconds)
    return {name: rate * SIM_CHUNK for name, rate in rates.items()}


@dataclass(frozen=True)
class WorkersTimes:
    """One simulation of random games on one worker and on two: wall and CPU seconds (this process and
    its workers) of each, and the load average before them."""

    games: int
    one: float
    two: float
    one_cpu: float
    two_cpu: float
    load: float

    @property
    def projected(self) -> float:
        """The speed-up two workers would give with a core each: twice one worker's CPU seconds over the
        pool's (what the pool itself costs, whatever else the machine runs)."""
        return 2 * self.one_cpu / self.two_cpu if self.two_cpu else 0.0


def _cpu_seconds() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def workers_times(game: Game, seconds: float) -> WorkersTimes | None:
    """One simulation of random games with one worker and with two (``None`` if this atoll's
    simulation takes no workers)."""
    if "workers" not in inspect.signature(simulate).parameters:
        return None
    config = game.configure()
    kinds = [load_registry().bot("random", game.info.name)] * config.seats
    load = os.getloadavg()[0]
    games = 16
    while True:  # enough games for about ``seconds`` on one worker
        cpu, started = _cpu_seconds(), time.perf_counter()
        simulate(game, config, kinds, games=games, workers=1)
        one, one_cpu = time.perf_counter() - started, _cpu_seconds() - cpu
        if one >= seconds or games >= 1_000_000:
            break
        games *= 4
    cpu, started = _cpu_seconds(), time.perf_counter()
    simulate(game, config, kinds, games=games, workers=2)
    return WorkersTimes(games, one, time.perf_counter() - started, one_cpu, _cpu_seconds() - cpu, load)


def _target(name: str, what: str, figure: float, baseline: float, wanted: float) -> dict[str, JSON]:
    ratio = figure / baseline if baseline else 0.0
    return {"target": name, "what": what, "figure": round(figure, 1), "baseline": round(baseline, 1),
            "ratio": round(ratio, 2), "wanted": wanted, "met": ratio >= wanted}


def targets(
    games: dict[str, Game], seconds: float, progress: TextIO, metaxnet: Path | None = None
) -> list[dict[str, JSON]]:
    """Issues 16's and 32's targets, each a figure against a baseline measured here (absent games are
    skipped, and the comparison with metaxnet/kariba without ``metaxnet``)."""
    out: list[dict[str, JSON]] = []
    kariba, kiribati = games.get("kariba"), games.get("kiribati")
    if kariba is not None and metaxnet is not None:
        print("targets: Kariba through atoll sim --workers 1 and in metaxnet/kariba's engine ...",
              file=progress, flush=True)
        rates = sim_against_metaxnet(kariba, metaxnet, seconds)
        out.append(_target("kariba_sim_vs_metaxnet", "2-seat random games a CPU second: atoll sim "
                           "--workers 1 / metaxnet/kariba's bare engine", rates["sim"], rates["metaxnet"],
                           1.5))
    if kariba is not None:
        print("targets: Kariba on the fast path, in a minimal engine, through the engine ...",
              file=progress, flush=True)
        rates = kariba_rates(kariba, seconds)
        out.append(_target("kariba_fast_vs_minimal", "2-seat random playouts a CPU second: fast path / "
                           "a bare minimal Kariba engine", rates["fast"], rates["minimal"], 1.0))
        out.append(_target("kariba_fast_vs_today", "2-seat random playouts a CPU second: fast path / "
                           "the engine (today's path)", rates["fast"], rates["engine"], 10.0))
        print("targets: search at Kariba's first decision ...", file=progress, flush=True)
        fast, api = first_decision_rates(kariba, kariba.configure(2), seconds)
        out.append(_target("search_first_decision", "search iterations a CPU second at 2-seat Kariba's "
                           "first decision: fast path / full API", fast, api, 5.0))
    if kiribati is not None:
        print("targets: Kiribati (family) on the fast path and through the engine ...",
              file=progress, flush=True)
        both = fast_rates(kiribati, kiribati.configure(2, "family"), seconds)
        if both is not None:
            out.append(_target("kiribati_fast_vs_today", "family 2-seat random playouts a CPU second: "
                               "fast path / the engine (today's path)", both[0], both[1], 5.0))
    if games:
        name = "kiribati" if kiribati is not None else sorted(games)[0]
        print(f"targets: atoll sim --workers 1 and 2 ({name}) ...", file=progress, flush=True)
        timed = workers_times(games[name], seconds)
        if timed is not None:
            out.append(_target(
                "sim_workers_2_vs_1",
                f"wall seconds of {timed.games} random {name} games: 1 worker / 2 workers, at load "
                f"{timed.load:.1f} on {default_workers()} cores (the wall ratio needs two idle cores; "
                f"the pool's own cost, from CPU seconds, allows {timed.projected:.2f}x)",
                timed.one, timed.two, 1.8,
            ))
    return out


def bench(
    names: Sequence[str] | None, seconds: float, progress: TextIO, metaxnet: Path | None = None
) -> dict[str, JSON]:
    """Measure every installed game (or those ``names``d): figures by game name, and the targets."""
    found = load_registry()
    for problem in found.problems:
        print(f"bench: warning: {problem}", file=progress)
    chosen = sorted(found.games) if not names else list(names)
    out: dict[str, JSON] = {}
    games = {name: found.game(name) for name in chosen}
    for name, game in games.items():
        config = game.configure()
        print(f"{name}: random playouts through the engine and bare ...", file=progress, flush=True)
        figures = measure_playouts(game, config, seconds)
        print(f"{name}: random playouts on the fast path ...", file=progress, flush=True)
        both = fast_rates(game, config, seconds)
        figures["fast_playouts_per_s"] = round(both[0], 1) if both else None
        figures["fast_vs_engine"] = round(both[0] / both[1], 2) if both else None
        print(f"{name}: search iterations ...", file=progress, flush=True)
        figures.update(measure_search(game, config, seconds))
        out[name] = {"seats": config.seats, "variant": config.variant, **figures}
    return {"games": out, "targets": targets(games, seconds, progress, metaxnet)}


def table(report: dict[str, JSON]) -> str:
    """The figures as text tables."""
    head = (f"{'game':<16} {'engine/s':>10} {'bare/s':>10} {'ratio':>7} {'fast/s':>10} {'fast/engine':>12} "
            f"{'search it/s':>12} {'ms/decision':>12}")
    lines = [head, "-" * len(head)]
    rows: dict[str, dict[str, JSON]] = report["games"]
    for name, row in rows.items():
        lines.append(
            f"{name:<16} {row['playouts_per_s']:>10} {row['baseline_playouts_per_s']:>10} "
            f"{row['ratio']:>7} {row['fast_playouts_per_s']!s:>10} {row['fast_vs_engine']!s:>12} "
            f"{row['search_iterations_per_s']:>12} {row['search_ms_per_decision']!s:>12}"
        )
    lines.append(
        "engine/s, bare/s, fast/s: random playouts per CPU second through the engine, through a bare loop "
        "over the game API,\nand on the game's fast path; ratio = engine/bare; ms/decision: CPU time of a "
        f"search-bot decision at the default budget of {DEFAULT_ITERATIONS} iterations.\n"
    )
    found: list[dict[str, JSON]] = report["targets"]
    for target in found:
        mark = "met" if target["met"] else "NOT MET"
        lines.append(f"{target['target']:<24} {target['ratio']:>7}x (wanted {target['wanted']}x, {mark}): "
                     f"{target['what']}: {target['figure']} / {target['baseline']}")
    if not any(target["target"] == "kariba_sim_vs_metaxnet" for target in found):
        lines.append("kariba_sim_vs_metaxnet: not measured; --metaxnet PATH (a clone of "
                     "github.com/metaxnet/kariba, or its git directory) measures it")
    lines.append("the search bot's duel at a time budget: scripts/bench engine --duel 200 (by hand); "
                 "the bots' matches: scripts/bench bots")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print tables (or one JSON object: ``games`` by name, and ``targets``)."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    if any(a == "--duel" or a.startswith("--duel=") for a in arguments):
        from atoll_tools.bench import duel

        return duel.main(arguments)
    if any(a == "--kit" or a.startswith("--kit=") for a in arguments):
        from atoll.testing import fast

        return fast.main(arguments)
    parser = argparse.ArgumentParser(prog="scripts/bench engine", description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object: games by name, and targets")
    parser.add_argument("--games", help="comma-separated game names (default: every installed game)")
    parser.add_argument(
        "--seconds", type=float, default=3.0,
        help="CPU seconds per path measured (default 3)",
    )
    parser.add_argument("--duel", type=int, metavar="GAMES",
                        help="instead: the fast-path search bot against today's at a time budget "
                             "(python -m atoll_tools.bench.duel --help)")
    parser.add_argument("--kit", metavar="GAME",
                        help="instead: the kit's fast-path check on many games of GAME (--games N a "
                             "variant and seat count)")
    parser.add_argument("--metaxnet", type=Path, metavar="PATH",
                        help="also time atoll sim against metaxnet/kariba's bare engine, run from PATH (a "
                             "clone of github.com/metaxnet/kariba, or its git directory)")
    args = parser.parse_args(arguments)
    names = [n.strip() for n in args.games.split(",") if n.strip()] if args.games else None
    try:
        figures = bench(names, args.seconds, sys.stderr, args.metaxnet)
    except AtollError as exc:
        print(f"bench engine: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(figures, indent=2) if args.json else table(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
