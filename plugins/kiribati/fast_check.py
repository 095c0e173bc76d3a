"""Checking the fast path against the rule modules, step by step: cheap enough for thousands of games.

The conformance kit (:func:`atoll.testing.check_fast_path`) proves a game at a time
through the engine, which costs about a second a game; this check plays random games
on the simulator and, at the decisions it samples, asks the rule modules themselves
(:mod:`atoll.plugins.kiribati.turn`) for the legal actions of the simulator's own state
and for the state after the action and the chance the simulator drew, and compares
both with the simulator's: the codes in order, and the whole state (as canonical JSON).
At the end the rules' results of the final state must be the simulator's.

    python -m atoll.plugins.kiribati.fast_check --games 1000 [--every 1] [--seed 0]

checks that many games of every variant and seat count (``--every 1``: every decision).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from typing import Any, TypeVar

from atoll import JSON, Action, Chance, Config, Pick, Reveal, Roll, State
from atoll.jsondata import canonical
from atoll.plugins.kiribati import turn
from atoll.plugins.kiribati.fast import KiribatiSimulator, encode, simulator
from atoll.plugins.kiribati.fast_codes import OVER
from atoll.plugins.kiribati.fast_state import dump
from atoll.plugins.kiribati.game import Kiribati
from atoll.plugins.kiribati.scoring import results

T = TypeVar("T")

#: Every variant and seat count.
CONFIGS = [(variant, seats) for variant in Kiribati.info.variants for seats in range(2, 6)]


class Differs(AssertionError):
    """The simulator and the rules part ways; the message says where and how."""


class RecordingDraws:
    """Draws from a :class:`random.Random` as :class:`atoll.fast.RandomDraws` does, keeping what it drew
    so that the rules can be given the same chance."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.drawn: list[Any] = []

    def die(self, sides: int) -> int:
        """A roll of one die."""
        value = self.rng.randrange(sides) + 1
        self.drawn.append(value)
        return value

    def sample(self, options: Sequence[T], count: int) -> list[T]:
        """``count`` distinct ``options``."""
        picked = self.rng.sample(list(options), count)
        self.drawn.append(picked)
        return picked

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """Kiribati never shuffles."""
        raise Differs("the simulator shuffled: Kiribati never asks for a shuffle")


def rules_step(state: State, seat: int, action: Action, sim: KiribatiSimulator, drawn: list[Any]) -> State:
    """The rules' state after ``seat`` takes ``action`` and chance answers with what ``drawn`` holds (the
    simulator's draws, in order); a keep seals the handles the simulator named."""
    if "secret" in action:
        handles = sim.handles[seat]
        new = turn.apply_action(state, {"sealed": list(handles)})
    else:
        new = turn.apply_action(state, action)
    while True:
        step = turn.next_step(new)
        if not isinstance(step, Chance):
            return new
        request = step.request
        outcome: dict[str, JSON]
        if isinstance(request, Roll):
            outcome = {"values": [drawn.pop(0) for _ in range(request.count)]}
        elif isinstance(request, Pick):
            outcome = {"picked": drawn.pop(0)}
        else:
            assert isinstance(request, Reveal)
            outcome = {"faces": {h: sim.faces[h] for h in request.handles}}
        new = turn.resolve_chance(new, request, outcome)


def _same(sim: KiribatiSimulator, state: State, where: str) -> None:
    mine = canonical(dump(sim))
    if mine != canonical(state):
        raise Differs(f"{where}: the simulator's state\n{mine}\nis not the rules'\n{canonical(state)}")


def check_game(config: Config, seed: int, every: int = 1) -> int:
    """Play the random game ``seed`` on the simulator, checking every ``every``-th decision (from a
    random first one) against the rules; raises :class:`Differs` at the first difference. Returns the
    number of decisions checked."""
    rng = random.Random(seed)
    draws = RecordingDraws(rng)
    sim = simulator(config, draws)
    where = f"kiribati {config.variant} {config.seats} seats, game {seed}"
    offset = rng.randrange(every)
    checked = index = 0
    while sim.phase != OVER:
        codes = sim.legal()
        chosen = codes[rng.randrange(len(codes))]
        if index % every == offset:
            at = f"{where}, decision {index}"
            state = dump(sim)
            seat = sim.seat()
            if turn.actor(state) != seat:
                raise Differs(f"{at}: the simulator asks seat {seat}, the rules {turn.actor(state)}")
            actions = turn.legal(state, seat, sim.faces)
            wanted = [encode(action) for action in actions]
            if codes != wanted:
                raise Differs(f"{at}: the simulator's codes {codes} are not the rules' {wanted}")
            draws.drawn = []
            sim.apply(chosen)
            after = rules_step(state, seat, actions[codes.index(chosen)], sim, draws.drawn)
            _same(sim, after, f"{at}, after {actions[codes.index(chosen)]}")
            checked += 1
        else:
            sim.apply(chosen)
        index += 1
    final = dump(sim)
    if results(final) != sim.results():
        raise Differs(f"{where}: the simulator ends with {sim.results()}, the rules with {results(final)}")
    return checked


def main(argv: Sequence[str] | None = None) -> int:
    """Check many games of every variant and seat count; exit 1 at the first difference."""
    parser = argparse.ArgumentParser(prog="python -m atoll.plugins.kiribati.fast_check",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per variant and seat count")
    parser.add_argument("--every", type=int, default=1, help="check every N-th decision (default: all)")
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed")
    args = parser.parse_args(argv)
    game = Kiribati()
    total = decisions = 0
    for variant, seats in CONFIGS:
        config = game.configure(seats, variant)
        started = time.process_time()
        for seed in range(args.seed, args.seed + args.games):
            try:
                decisions += check_game(config, seed, args.every)
            except Differs as exc:
                print(exc, file=sys.stderr)
                return 1
        total += args.games
        print(f"kiribati {variant} {seats} seats: {args.games} games step as the rules "
              f"({time.process_time() - started:.1f} CPU s)", flush=True)
    print(f"{total} games, {decisions} decisions checked: the simulator steps as the rule modules")
    return 0


if __name__ == "__main__":
    sys.exit(main())
