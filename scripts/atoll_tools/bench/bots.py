"""``scripts/bench bots [--json]``: the search bot at a time budget against each game's own bot and random.

For every installed game (or those of ``--games``), one search bot thinking ``--think`` CPU seconds a
decision (default 1) sits with two bots of another kind at a 3-seat table, the seats rotating from
game to game (game ``i`` seats the search bot at seat ``i % 3``); ``--rounds`` games are played
against the game's own bot (where a plugin offers one) and as many against the random bot. The
figure is the search bot's **win share**: 1 for a game it won alone, ``1/k`` for a win shared by
``k`` seats, averaged over the games, with a 95% confidence interval (normal approximation, clipped
to 0-1); the baseline, the same in every run, is the fair share of a 3-seat table, one game in three,
and the ratio is the share over it (issue 32 wants at least 1.0x against each).

The games are spread over ``--workers`` processes (default: every core). Each search bot times its
decisions by its own process's CPU time, so other work on the machine makes the run slower but
neither bot weaker. A full run (100 games each, four games) takes hours; ``--rounds 6`` shows the
trend in minutes. Each game's line goes to stderr as it ends.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TextIO

from atoll.bots.base import BotKind
from atoll.bots.search import thinking_kind
from atoll.errors import AtollError
from atoll.game import Game
from atoll.jsondata import JSON
from atoll.registry import Registry, load_registry
from atoll.sim import Outcome, default_workers, play_game
from atoll.types import Config

#: Seats at every bench table: the search bot and two of the other kind.
SEATS = 3
#: The fair share of a 3-seat table, the baseline of every figure.
FAIR_SHARE = 1 / SEATS
#: z of a two-sided 95% interval.
Z95 = 1.96


@dataclass(frozen=True)
class Match:
    """One pairing to play: the game, its configuration, and the bot kinds by position (search first)."""

    game: Game
    config: Config
    kinds: tuple[BotKind, ...]
    against: str


def credit(outcome: Outcome) -> float:
    """The search bot's (position 0's) share of game ``outcome``'s win."""
    seat = outcome.seat_of[0]
    return 1 / len(outcome.winners) if seat in outcome.winners else 0.0


def share_interval(credits: Sequence[float]) -> tuple[float, float, float]:
    """The mean credit and its 95% confidence interval, clipped to 0-1."""
    n = len(credits)
    mean = sum(credits) / n
    spread = math.sqrt(sum((c - mean) ** 2 for c in credits) / (n - 1)) if n > 1 else 0.5
    half = Z95 * spread / math.sqrt(n)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def own_kinds(found: Registry, game: str) -> list[str]:
    """The bot kinds a plugin made for ``game`` alone (the game's own bots)."""
    return sorted(kind.name for kind in found.bots_for(game) if kind.games is not None)


def matches(found: Registry, names: Sequence[str], think: float, against: Sequence[str]) -> list[Match]:
    """The pairings: for each game, the search bot against each of ``against`` (``own``: the game's own
    bots, skipped where it has none; any other word: that bot kind)."""
    search = thinking_kind(think)
    out: list[Match] = []
    for name in names:
        game = found.game(name)
        config = game.configure(SEATS)
        for word in against:
            for kind in own_kinds(found, name) if word == "own" else [word]:
                other = found.bot(kind, name)
                out.append(Match(game, config, (search, other, other), kind))
    return out


#: The pairing a pool worker plays, set at the fork.
_MATCH: list[Match] = []


def _adopt(match: Match) -> None:
    _MATCH[:] = [match]


def _play(index: int) -> Outcome:
    [match] = _MATCH
    return play_game(match.game, match.config, match.kinds, 0, index, rotate=True)


def play_match(match: Match, rounds: int, workers: int, progress: TextIO, start: int = 0) -> dict[str, JSON]:
    """Play ``rounds`` games of ``match`` (games ``start`` on) and return its figures."""
    started = time.perf_counter()
    outcomes: list[Outcome] = []
    forking = "fork" in multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if forking else None)
    with context.Pool(min(workers, rounds), initializer=_adopt, initargs=(match,)) as pool:
        for outcome in pool.imap_unordered(_play, range(start, start + rounds)):
            outcomes.append(outcome)
            print(json.dumps({"game": match.game.info.name, "against": match.against, "index": outcome.index,
                              "search_seat": outcome.seat_of[0], "scores": list(outcome.scores),
                              "winners": list(outcome.winners)}), file=progress, flush=True)
    credits = [credit(o) for o in sorted(outcomes, key=lambda o: o.index)]
    share, low, high = share_interval(credits)
    return {
        "game": match.game.info.name, "variant": match.config.variant, "against": match.against,
        "games": rounds, "won": sum(1 for c in credits if c == 1),
        "shared": sum(1 for c in credits if 0 < c < 1),
        "share": round(share, 3), "low": round(low, 3), "high": round(high, 3),
        "baseline": round(FAIR_SHARE, 3), "ratio": round(share / FAIR_SHARE, 2), "met": share >= FAIR_SHARE,
        "seconds": round(time.perf_counter() - started, 1),
    }


def bench(
    names: Sequence[str] | None, think: float, rounds: int, workers: int, against: Sequence[str],
    progress: TextIO, start: int = 0,
) -> dict[str, JSON]:
    """Every pairing's figures, and how the run was made."""
    found = load_registry()
    chosen = sorted(found.games) if not names else list(names)
    rows = []
    for match in matches(found, chosen, think, against):
        print(f"{match.game.info.name}: search ({think:g} s) against two {match.against} bots, "
              f"{rounds} games ...", file=progress, flush=True)
        rows.append(play_match(match, rounds, workers, progress, start))
    return {"think": think, "seats": SEATS, "rounds": rounds, "start": start, "workers": workers,
            "matches": rows}


def table(report: dict[str, JSON]) -> str:
    """The figures as a text table."""
    head = (f"{'game':<17} {'against':<10} {'games':>5} {'won':>4} {'shared':>6} {'share':>6} "
            f"{'95% interval':>13} {'ratio':>6}  {'wall s':>7}")
    lines = [f"one search bot ({report['think']} s a decision) and two others, {SEATS} seats rotating",
             head, "-" * len(head)]
    rows = report["matches"]
    assert isinstance(rows, list)
    for row in rows:
        assert isinstance(row, dict)
        mark = "" if row["met"] else "  below 1/3"
        lines.append(
            f"{row['game']:<17} {row['against']:<10} {row['games']:>5} {row['won']:>4} {row['shared']:>6} "
            f"{row['share']:>6.3f} {row['low']:>6.3f}-{row['high']:<6.3f} {row['ratio']:>5.2f}x  "
            f"{row['seconds']:>7.0f}{mark}"
        )
    lines.append("share: the search bot's part of the wins (a win shared by k seats counts 1/k); ratio: the "
                 "share over the fair share of 3 seats, 1/3 (wanted: at least 1.0x)")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the matches and print a table (or one JSON object)."""
    parser = argparse.ArgumentParser(prog="scripts/bench bots", description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--games", help="comma-separated game names (default: every installed game)")
    parser.add_argument("--think", type=float, default=1.0, help="CPU seconds a search decision (default 1)")
    parser.add_argument("--rounds", type=int, default=100, help="games per pairing (default 100)")
    parser.add_argument("--against", default="own,random",
                        help="comma-separated: own (the game's own bots) and bot kinds (default: own,random)")
    parser.add_argument("--start", type=int, default=0,
                        help="the index of the first game (default 0): a long run split into parts plays "
                             "the games of one run")
    parser.add_argument("--workers", type=int, default=default_workers(),
                        help="processes playing games (default: every core)")
    args = parser.parse_args(argv)
    if not args.think > 0 or args.rounds < 2 or args.workers < 1 or args.start < 0:
        parser.error("--think must be above 0, --rounds at least 2, --workers at least 1, --start at least 0")
    names = [n.strip() for n in args.games.split(",") if n.strip()] if args.games else None
    against = [a.strip() for a in args.against.split(",") if a.strip()]
    try:
        figures = bench(names, args.think, args.rounds, args.workers, against, sys.stderr, args.start)
    except AtollError as exc:
        print(f"bench bots: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(figures, indent=2) if args.json else table(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
