"""Simulation: many bot-only games of one game, and their tally.

Every game's chance and every bot's generator get their own seed derived from
(seed, game index, seat), so the same arguments give the same games and the
same tally on any machine, in one process or spread over a process pool or a
Ray cluster (only the timing differs): each game is played on its own, and the
outcomes are tallied in game order.

Games are played through the engine; when every seat is the built-in random bot
and the game offers a simulator (:meth:`Game.simulator <atoll.game.Game.simulator>`),
they are played on the fast path instead, which plays the very same games (its
chance draws from the local resolver's stream, its legal list is in the order of
the engine's, and the random bot's generator picks the same index).
"""

from __future__ import annotations

import gc
import hashlib
import importlib
import logging
import multiprocessing
import os
import pickle
import random
import signal
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from atoll import system
from atoll.bots.base import Bot, BotKind
from atoll.bots.random_bot import make_random_bot
from atoll.engine.local import LocalResolver
from atoll.engine.loop import StuckGame, run
from atoll.engine.match import Match
from atoll.errors import MalformedInput
from atoll.game import Game
from atoll.jsondata import JSON
from atoll.numbering import seat_label
from atoll.randomness import Stream
from atoll.registry import Registry
from atoll.types import Config

#: The seat label under which a game's chance gets its seed (seats are 0, 1, ...).
CHANCE = "chance"


def derive_seed(seed: int, game_index: int, role: int | str) -> int:
    """A 64-bit seed for one game's chance (``role`` = :data:`CHANCE`) or one seat's bot."""
    text = f"atoll.sim:{seed}:{game_index}:{role}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


def bot_kinds(registry: Registry, game: str, names: Sequence[str], seats: int) -> list[BotKind]:
    """The bot kind for each seat: one name for every seat, or exactly one name per seat."""
    if not names:
        raise MalformedInput("no bot kind given; name one kind for every seat, or one per seat")
    if len(names) == 1:
        names = list(names) * seats
    elif len(names) != seats:
        raise MalformedInput(
            f"{len(names)} bot kinds ({', '.join(names)}) for {seats} seats: "
            f"name one kind for every seat, or exactly {seats}, one per seat"
        )
    return [registry.bot(name, game) for name in names]


@dataclass(frozen=True)
class Outcome:
    """How one game of a simulation went: what the tally needs, small enough to send between processes.

    ``seat_of[p]`` is the seat the ``p``-th bot sat at; ``decisions`` counts the seats' decisions.
    """

    index: int
    seat_of: tuple[int, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    decisions: int


def seating(index: int, seats: int, rotate: bool) -> tuple[int, ...]:
    """The seat of each bot in game ``index``: with ``rotate``, bot ``p`` sits at ``(p + index) % seats``."""
    shift = index % seats if rotate else 0
    return tuple((position + shift) % seats for position in range(seats))


def fast_path_applies(game: Game, config: Config, kinds: Sequence[BotKind]) -> bool:
    """Whether the games can be played on the game's simulator: every seat is the built-in random
    bot (whose choices the fast path reproduces) and the game offers one."""
    if not all(kind.make is make_random_bot for kind in kinds):
        return False
    return game.simulator(config, Stream.from_int(0)) is not None


def play_game(
    game: Game, config: Config, kinds: Sequence[BotKind], seed: int, index: int, rotate: bool,
    *, fast: bool = False, max_steps: int = 100_000,
) -> Outcome:
    """Play game ``index`` of a simulation; ``fast`` plays it on the game's simulator (see
    :func:`fast_path_applies`), which gives the same outcome as the engine."""
    seats = config.seats
    seat_of = seating(index, seats, rotate)
    chance_seed = derive_seed(seed, index, CHANCE)
    if fast:
        simulator = game.simulator(config, Stream.from_int(chance_seed))
        if simulator is None:
            raise MalformedInput(f"{game.info.name} offers no simulator; play it without the fast path")
        # The same generators as the random bots': Random(seed).choice(legal) picks the same index
        # from a list in the engine's order, so both paths play the same game.
        choosers = [random.Random(derive_seed(seed, index, seat)) for seat in range(seats)]
        ended, decisions = simulator.playout_seats(choosers, max_steps)
        if ended is None:
            if decisions >= max_steps:
                raise StuckGame(f"{game.info.name}: no end after {max_steps} decisions")
            stuck = seat_label(simulator.seat())
            raise StuckGame(f"{game.info.name}: {stuck} must decide but has no legal action")
        results = ended
    else:
        agents: list[Bot | None] = [None] * seats
        for position, kind in enumerate(kinds):
            seat = seat_of[position]
            agents[seat] = kind.make(game, seat, derive_seed(seed, index, seat))
        match = Match(game, config, LocalResolver(chance_seed))
        results = run(match, [a for a in agents if a is not None], max_steps=max_steps).results
        decisions = sum(1 for event in match.events if "seat" in event)
    return Outcome(index, seat_of, tuple(results.scores[:seats]), tuple(results.winners), decisions)


def play_games(
    game: Game, config: Config, kinds: Sequence[BotKind], seed: int, rotate: bool,
    indices: Sequence[int], fast: bool,
) -> list[Outcome]:
    """Play the games ``indices`` of a simulation: one task of a pool or of a Ray cluster."""
    return [play_game(game, config, kinds, seed, index, rotate, fast=fast) for index in indices]


@dataclass(frozen=True)
class SimReport:
    """The tally of a simulation.

    ``wins[s]`` counts the games seat ``s`` won (a shared win counts for every
    winner); with ``rotate`` the bots change seats each game and ``bot_wins[i]``
    counts the wins of the ``i``-th bot of ``bots`` wherever it sat.
    """

    game: str
    variant: str
    seats: int
    bots: tuple[str, ...]
    seed: int
    rotate: bool
    games: int
    wins: tuple[int, ...]
    bot_wins: tuple[int, ...]
    shared: int
    mean_scores: tuple[float, ...]
    mean_turns: float
    seconds: float

    @property
    def games_per_s(self) -> float:
        """Games played per second of wall time."""
        return self.games / self.seconds if self.seconds > 0 else 0.0

    def to_json(self) -> dict[str, JSON]:
        """The report as one JSON object (only ``seconds`` and ``games_per_s`` vary between runs)."""
        return {
            "game": self.game, "variant": self.variant, "seats": self.seats, "bots": list(self.bots),
            "seed": self.seed, "rotate": self.rotate, "games": self.games, "wins": list(self.wins),
            "bot_wins": list(self.bot_wins), "shared": self.shared,
            "mean_scores": [round(s, 3) for s in self.mean_scores],
            "mean_turns": round(self.mean_turns, 3), "seconds": round(self.seconds, 3),
            "games_per_s": round(self.games_per_s, 3),
        }


def default_workers() -> int:
    """Every core this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


#: The most games in one task of a pool or a cluster.
MAX_CHUNK = 64


def chunks(games: int, workers: int) -> list[range]:
    """The game indices cut into tasks, shrinking as the games left do (guided scheduling): the first
    large, so sending them costs little, the last of one game each, so no worker idles long while
    another plays out a big last task (with even tasks of 62 games, a pool of two waited on average
    half a task at the end of 1,000 Kiribati games)."""
    out: list[range] = []
    start = 0
    while start < games:
        size = max(1, min(MAX_CHUNK, (games - start) // (4 * workers)))
        out.append(range(start, min(games, start + size)))
        start += size
    return out


def simulate(
    game: Game,
    config: Config,
    kinds: Sequence[BotKind],
    *,
    games: int,
    seed: int = 0,
    rotate: bool = False,
    on_game: Callable[[int], None] | None = None,
    workers: int = 1,
    ray: str | None = None,
    fast: bool | None = None,
) -> SimReport:
    """Play ``games`` games of ``game`` with one bot of ``kinds`` per seat and tally them.

    With ``rotate``, game ``i`` seats bot ``p`` of ``kinds`` at seat ``(p + i) % seats``,
    so every bot plays every seat equally often. ``on_game(done)`` is called as games finish.
    ``workers`` > 1 plays them in a pool of that many processes, and ``ray`` (a cluster's
    address, or ``local``) as tasks on a Ray cluster; either way the tally is the same.
    ``fast`` chooses the fast path (default: wherever :func:`fast_path_applies`).
    """
    check(config, kinds, games, workers)
    use_fast = fast_path_applies(game, config, kinds) if fast is None else fast
    started = time.perf_counter()
    outcomes: list[Outcome] = []
    if ray is not None:
        outcomes.extend(_on_ray(ray, game, config, kinds, seed, rotate, games, use_fast, on_game))
    elif workers == 1:
        for index in range(games):
            outcomes.append(play_game(game, config, kinds, seed, index, rotate, fast=use_fast))
            if on_game is not None:
                on_game(index + 1)
    else:
        outcomes.extend(_in_pool(game, config, kinds, seed, rotate, games, workers, use_fast, on_game))
    return tally(game, config, kinds, seed, rotate, outcomes, time.perf_counter() - started)


def check(config: Config, kinds: Sequence[BotKind], games: int, workers: int) -> None:
    """Refuse a simulation that cannot run, saying what to change."""
    if len(kinds) != config.seats:
        raise MalformedInput(f"{len(kinds)} bots for {config.seats} seats; give one per seat")
    if games < 1:
        raise MalformedInput(f"a simulation plays at least one game, not {games}")
    if workers < 1:
        raise MalformedInput(f"a simulation needs at least one worker, not {workers}")


def tally(
    game: Game, config: Config, kinds: Sequence[BotKind], seed: int, rotate: bool,
    outcomes: Sequence[Outcome], seconds: float,
) -> SimReport:
    """The report of a simulation from its games' outcomes, counted in game order (whatever order
    they finished in, so the report is the same however they were spread)."""
    seats = config.seats
    wins, bot_wins, scores = [0] * seats, [0] * seats, [0] * seats
    shared = turns = 0
    for outcome in sorted(outcomes, key=lambda o: o.index):
        for seat in outcome.winners:
            wins[seat] += 1
        for position in range(seats):
            if outcome.seat_of[position] in outcome.winners:
                bot_wins[position] += 1
        shared += len(outcome.winners) > 1
        for seat, score in enumerate(outcome.scores):
            scores[seat] += score
        turns += outcome.decisions
    played = len(outcomes)
    return SimReport(
        game.info.name, config.variant, seats, tuple(k.name for k in kinds), seed, rotate, played,
        tuple(wins), tuple(bot_wins), shared, tuple(s / played for s in scores), turns / played, seconds,
    )


# --- a process pool ------------------------------------------------------------------------------

#: What a pool worker plays: set once in each worker process by :func:`_adopt` (handed over at the
#: fork, or pickled once per worker where workers are spawned), not pickled with every task.
_WORKER: list[tuple[Game, Config, Sequence[BotKind]]] = []


def _adopt(game: Game, config: Config, kinds: Sequence[BotKind]) -> None:
    # Ctrl-C reaches the whole process group: the parent alone answers it, by ending the pool.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER[:] = [(game, config, kinds)]


def _play_chunk(task: tuple[int, bool, range, bool]) -> list[Outcome]:
    seed, rotate, indices, fast = task
    [(game, config, kinds)] = _WORKER
    return play_games(game, config, kinds, seed, rotate, indices, fast)


def _in_pool(
    game: Game, config: Config, kinds: Sequence[BotKind], seed: int, rotate: bool, games: int,
    workers: int, fast: bool, on_game: Callable[[int], None] | None,
) -> Iterator[Outcome]:
    tasks = [(seed, rotate, indices, fast) for indices in chunks(games, workers)]
    # fork hands the game and bots to the workers as they are; spawned workers (Windows, macOS)
    # get them pickled, so a plugin's bot kind around a closure is refused with what to do.
    forking = system.fork_is_safe() and "fork" in multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if forking else "spawn")
    if not forking:
        try:
            pickle.dumps((game, config, kinds))
        except Exception as exc:
            raise MalformedInput(
                f"these bots cannot be sent to worker processes here ({exc}); use --workers 1"
            ) from None
    done = 0
    # The workers share the parent's memory until they write to it; a collection in a worker would
    # write to every object it visits and copy their pages. Frozen, the parent's objects are skipped.
    gc.freeze()
    try:
        # Leaving the block terminates the workers: at once on an error or an interrupt, and after
        # the last result otherwise (they have nothing left to do by then).
        pool = context.Pool(min(workers, len(tasks)), initializer=_adopt, initargs=(game, config, kinds))
        with pool:
            for outcomes in pool.imap_unordered(_play_chunk, tasks):
                yield from outcomes
                done += len(outcomes)
                if on_game is not None:
                    on_game(done)
    finally:
        gc.unfreeze()  # the parent's own objects are collected again


# --- a Ray cluster -------------------------------------------------------------------------------

#: What ``--ray`` takes to start a Ray instance on this machine instead of joining a cluster.
LOCAL_RAY = "local"


def _on_ray(
    address: str, game: Game, config: Config, kinds: Sequence[BotKind], seed: int, rotate: bool,
    games: int, fast: bool, on_game: Callable[[int], None] | None,
) -> Iterator[Outcome]:
    """Play the games as Ray tasks. Ray pickles the game and the bots by reference to their modules,
    so every machine of the cluster needs the same atoll and game plugins installed."""
    try:
        ray: Any = importlib.import_module("ray")
    except ImportError:
        raise MalformedInput(
            "--ray needs Ray, which is not installed: pip install 'atoll[ray]' (on every machine "
            "of the cluster), or leave out --ray to use this machine's cores"
        ) from None
    started_here = not ray.is_initialized()
    if started_here:
        target = None if address == LOCAL_RAY else address
        try:
            ray.init(address=target, include_dashboard=False, log_to_driver=False,
                     logging_level=logging.WARNING)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise MalformedInput(f"cannot reach the Ray cluster at {address!r}: {exc}") from None
    try:
        play = ray.remote(_play_ray_chunk)
        work = ray.put((game, config, kinds))
        cluster_cpus = int(ray.cluster_resources().get("CPU", 1))
        pending = [play.remote(work, seed, rotate, task, fast) for task in chunks(games, cluster_cpus)]
        done = 0
        try:
            while pending:
                finished, pending = ray.wait(pending, num_returns=1)
                outcomes: list[Outcome] = ray.get(finished[0])
                yield from outcomes
                done += len(outcomes)
                if on_game is not None:
                    on_game(done)
        finally:
            for ref in pending:  # on an error or an interrupt, start no more games
                ray.cancel(ref)
    finally:
        if started_here:
            ray.shutdown()


def _play_ray_chunk(
    work: tuple[Game, Config, Sequence[BotKind]], seed: int, rotate: bool, indices: range, fast: bool
) -> list[Outcome]:
    game, config, kinds = work
    return play_games(game, config, kinds, seed, rotate, indices, fast)


def summary(report: SimReport, seat_names: Sequence[str]) -> str:
    """The report as lines of text for a terminal."""
    lines = [
        f"{report.games} games of {report.game} ({report.variant}), {report.seats} seats, "
        f"seed {report.seed}{', bots rotating seats' if report.rotate else ''}",
    ]
    for seat in range(report.seats):
        bot = "" if report.rotate else f" ({report.bots[seat]})"
        lines.append(
            f"  {seat_names[seat]}{bot}: {report.wins[seat]} wins ({_percent(report.wins[seat], report)}),"
            f" mean score {report.mean_scores[seat]:.2f}"
        )
    if report.rotate:
        for position, name in enumerate(report.bots):
            won = report.bot_wins[position]
            lines.append(f"  bot {position + 1} ({name}): {won} wins ({_percent(won, report)})")
    lines.append(f"shared wins: {report.shared}; mean length {report.mean_turns:.1f} decisions")
    lines.append(f"{report.games_per_s:.3g} games/s ({report.seconds:.2f} s)")
    return "\n".join(lines)


def _percent(count: int, report: SimReport) -> str:
    return f"{100 * count / report.games:.1f}%"

