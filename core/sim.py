"""Simulation: many bot-only games of one game, played through the engine, and their tally.

Every game's chance and every bot's generator get their own seed derived from
(seed, game index, seat), so the same arguments give the same games and the
same tally on any machine (only the timing differs).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from atoll.bots.base import Bot, BotKind
from atoll.engine.local import LocalResolver
from atoll.engine.loop import run
from atoll.engine.match import Match
from atoll.errors import MalformedInput
from atoll.game import Game
from atoll.jsondata import JSON
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


def simulate(
    game: Game,
    config: Config,
    kinds: Sequence[BotKind],
    *,
    games: int,
    seed: int = 0,
    rotate: bool = False,
    on_game: Callable[[int], None] | None = None,
) -> SimReport:
    """Play ``games`` games of ``game`` with one bot of ``kinds`` per seat and tally them.

    With ``rotate``, game ``i`` seats bot ``p`` of ``kinds`` at seat ``(p + i) % seats``,
    so every bot plays every seat equally often. ``on_game(done)`` is called after each game.
    """
    seats = config.seats
    if len(kinds) != seats:
        raise MalformedInput(f"{len(kinds)} bots for {seats} seats; give one per seat")
    if games < 1:
        raise MalformedInput(f"a simulation plays at least one game, not {games}")
    wins, bot_wins = [0] * seats, [0] * seats
    scores = [0] * seats
    shared = turns = 0
    started = time.perf_counter()
    for index in range(games):
        shift = index % seats if rotate else 0
        seat_of = [(position + shift) % seats for position in range(seats)]
        agents: list[Bot | None] = [None] * seats
        for position, kind in enumerate(kinds):
            seat = seat_of[position]
            agents[seat] = kind.make(game, seat, derive_seed(seed, index, seat))
        match = Match(game, config, LocalResolver(derive_seed(seed, index, CHANCE)))
        end = run(match, [a for a in agents if a is not None])
        results = end.results
        for seat in results.winners:
            wins[seat] += 1
        for position in range(seats):
            if seat_of[position] in results.winners:
                bot_wins[position] += 1
        shared += len(results.winners) > 1
        for seat, score in enumerate(results.scores[:seats]):
            scores[seat] += score
        turns += sum(1 for event in match.events if "seat" in event)
        if on_game is not None:
            on_game(index + 1)
    return SimReport(
        game.info.name, config.variant, seats, tuple(k.name for k in kinds), seed, rotate, games,
        tuple(wins), tuple(bot_wins), shared, tuple(s / games for s in scores), turns / games,
        time.perf_counter() - started,
    )


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

