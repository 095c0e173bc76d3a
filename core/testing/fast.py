"""The conformance check of the fast path: a simulator plays exactly the games of the full API.

:func:`check_fast_path` plays a random game through the real engine
(:class:`~atoll.engine.Match` with a :class:`~atoll.engine.LocalResolver`) and
records it; then it plays the same game with the game's :class:`~atoll.fast.Simulator`
twice and compares every decision (the seat to decide, the legal list, code by
code) and the results:

- from set-up, drawing chance from ``Stream.from_int(seed)``, the local
  resolver's own stream, so the same seed must give the same faces and rolls;
- from a decision in the middle, started at the recorded :class:`~atoll.fast.Position`
  (state, the faces dealt so far, each seat's knowledge), with chance replayed from
  the recorded game (:class:`ReplayDraws`); the position must be left as it was.

It also checks that :meth:`~atoll.fast.Simulator.copy` is independent of its original.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from atoll.chance import Pick, Request, Roll, Shuffle
from atoll.engine.local import LocalResolver
from atoll.engine.match import Match
from atoll.errors import AtollError
from atoll.fast import OVER, Position, RandomDraws, Simulator
from atoll.game import Game
from atoll.jsondata import canonical
from atoll.randomness import Stream
from atoll.testing.playout import ConformanceError
from atoll.types import Action, Config, Decision, End, Results, State

T = TypeVar("T")

#: A recorded game that takes more decisions than this has not ended.
MAX_DECISIONS = 20_000


class _Fail(ConformanceError):
    """A difference between the simulator and the full API (check ``fast-path``)."""

    def __init__(self, where: str, detail: str) -> None:
        super().__init__("fast-path", where, detail)


@dataclass
class _Turn:
    """One decision of the recorded game, and the chance answers asked for after it."""

    state: State
    seat: int
    legal: list[Action]
    chosen: int
    position: Position
    draws_after: list[tuple[str, Any]] = field(default_factory=list)


@dataclass
class Recording:
    """A random game played through the engine: its decisions, chance answers and results."""

    turns: list[_Turn]
    opening_draws: list[tuple[str, Any]]
    results: Results


class ReplayDraws:
    """Answers a simulator's chance with the answers the recorded game got, in order; asking for
    anything else (another kind, another die, other options) is a conformance failure."""

    def __init__(self, answers: Sequence[tuple[str, Any]], where: str) -> None:
        self._answers = list(answers)
        self._next = 0
        self._where = where

    def _take(self, kind: str, asked: object) -> Any:
        if self._next >= len(self._answers):
            raise _Fail(self._where, f"the simulator asked chance for {kind} {asked!r}"
                                   " after the game's last chance answer")
        got_kind, value = self._answers[self._next]
        if got_kind != kind:
            raise _Fail(self._where, f"the simulator asked chance for {kind} "
                                   f"{asked!r} where the game asked for {got_kind}")
        self._next += 1
        return value

    def die(self, sides: int) -> int:
        """The next recorded die (of ``sides`` sides)."""
        value: int = self._take(f"a d{sides}", sides)
        return value

    def sample(self, options: Sequence[T], count: int) -> list[T]:
        """The next recorded pick, which must be a pick of ``count`` from these ``options``."""
        wanted, picked = self._take("a pick", (list(options), count))
        if wanted != (list(options), count):
            raise _Fail(self._where,
                                   f"the simulator picked {count} of {list(options)!r}, the game {wanted!r}")
        return list(picked)

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """The faces the recorded shuffle of these ``items`` gave."""
        wanted, faces = self._take("a shuffle", sorted(map(repr, items)))
        if sorted(map(repr, items)) != wanted:
            raise _Fail(self._where, "the simulator shuffled other faces than the game")
        return list(faces)

    def finished(self) -> bool:
        """Whether every recorded answer was used."""
        return self._next == len(self._answers)


def record(game: Game, config: Config, seed: int) -> Recording:
    """Play one random game through the engine and record it (choices from ``random.Random(seed)``)."""
    resolver = LocalResolver(seed)
    match = Match(game, config, resolver)
    rng = random.Random(seed)
    turns: list[_Turn] = []
    opening: list[tuple[str, Any]] = []
    pending_shuffles: list[tuple[list[tuple[str, Any]], int, Shuffle]] = []
    for _ in range(MAX_DECISIONS):
        step = match.step()
        if isinstance(step, End):
            faces = resolver.faces()
            for draws, index, shuffle in pending_shuffles:
                draws[index] = ("a shuffle", (sorted(map(repr, shuffle.faces)),
                                              [faces[h] for h in shuffle.handles()]))
            return Recording(turns, opening, step.results)
        if isinstance(step, Decision):
            legal = match.legal_actions(step.seat)
            chosen = rng.randrange(len(legal))
            position = Position(match.state, resolver.faces(), [dict(k) for k in match.known])
            turns.append(_Turn(match.state, step.seat, legal, chosen, position))
            match.act(step.seat, legal[chosen])
            continue
        draws = turns[-1].draws_after if turns else opening
        request: Request = match.advance()
        outcome = match.events[-1]["outcome"]
        if isinstance(request, Roll):
            draws.extend((f"a d{request.sides}", value) for value in outcome["values"])
        elif isinstance(request, Pick):
            draws.append(("a pick", ((list(request.options), request.count), outcome["picked"])))
        elif isinstance(request, Shuffle):
            draws.append(("a shuffle", None))  # its faces are known once the game is over
            pending_shuffles.append((draws, len(draws) - 1, request))
    raise AtollError(f"{game.info.name}: a random game did not end within {MAX_DECISIONS} decisions")


def check_fast_path(game: Game, config: Config, seed: int = 0, *, start_at: float = 0.5) -> bool:
    """Check that ``game``'s simulator plays the random game of ``seed`` exactly as the full API does,
    from set-up and from the decision ``start_at`` of the way through; ``False`` if the game offers
    no simulator. Raises :class:`~atoll.testing.ConformanceError` naming the first difference."""
    where = f"{game.info.name} ({config.variant}, {config.seats} seats, seed {seed})"
    simulator = game.simulator(config, Stream.from_int(seed))
    if simulator is None:
        return False
    recording = record(game, config, seed)
    _follow(simulator, recording, 0, where, copy_at=len(recording.turns) // 3)
    if recording.turns:
        first = min(len(recording.turns) - 1, int(start_at * len(recording.turns)))
        answers = [a for turn in recording.turns[first:] for a in turn.draws_after]
        replay = ReplayDraws(answers, f"{where}, started at decision {first}")
        position = recording.turns[first].position
        before = canonical([position.state, position.faces, position.known])
        started = game.simulator(config, replay, position)
        if started is None:
            raise _Fail(where, "the game offers a simulator at set-up but not at a position")
        _follow(started, recording, first, f"{where}, started at decision {first}")
        if not replay.finished():
            raise _Fail(where, "the simulator asked chance fewer times than the game")
        if canonical([position.state, position.faces, position.known]) != before:
            raise _Fail(where, f"the simulator started at decision {first} changed the Position it was given")
    return True


def _follow(simulator: Simulator, recording: Recording, first: int, where: str, copy_at: int = -1) -> None:
    """Play the recorded decisions from ``first`` on in ``simulator``, comparing each step."""
    for index in range(first, len(recording.turns)):
        turn = recording.turns[index]
        at = f"{where}, decision {index}"
        if simulator.seat() != turn.seat:
            raise _Fail(at, f"the simulator asks seat {simulator.seat()}, the game "
                                   f"seat {turn.seat}")
        codes = list(simulator.legal())
        wanted = [simulator.code(turn.state, action) for action in turn.legal]
        if codes != wanted:
            raise _Fail(at, f"the simulator's legal codes {codes} are not the game's "
                                   f"legal actions {wanted} (coded)")
        if index == copy_at:
            _check_copy(simulator, codes, at)
        simulator.apply(codes[turn.chosen])
    if simulator.seat() != OVER:
        raise _Fail(where, f"the game ended, the simulator asks seat {simulator.seat()}")
    if simulator.results() != recording.results:
        raise _Fail(where, f"the simulator ends with {simulator.results()}, the game "
                               f"with {recording.results}")


def _check_copy(simulator: Simulator, codes: list[int], at: str) -> None:
    """A copy plays on without changing its original."""
    twin = simulator.copy(RandomDraws(random.Random(0)))
    twin.playout(random.Random(0))
    if simulator.legal() != codes or simulator.seat() == OVER:
        raise _Fail(at, "playing on a copy changed the simulator it was copied from")



def main(argv: Sequence[str] | None = None) -> int:
    """``scripts/bench engine --kit GAME [--games N]``: the fast-path check on many random games of
    every variant and seat count (the suite checks a few; thousands are run by hand)."""
    import argparse

    from atoll.registry import load_registry

    parser = argparse.ArgumentParser(prog="scripts/bench engine --kit", description=main.__doc__)
    parser.add_argument("--kit", dest="game", required=True, metavar="GAME", help="the game to check")
    parser.add_argument("--games", type=int, default=100, help="games per variant and seat count")
    args = parser.parse_args(argv)
    game = load_registry().game(args.game)
    checked = 0
    for variant in game.info.variants:
        for seats in range(game.info.min_seats, game.info.max_seats + 1):
            config = game.configure(seats, variant)
            for seed in range(args.games):
                if not check_fast_path(game, config, seed, start_at=(seed % 10) / 10):
                    print(f"{args.game} offers no simulator")
                    return 1
                checked += 1
            print(f"{args.game} {variant} {seats} seats: {args.games} games alike", flush=True)
    print(f"{checked} games of {args.game} played alike through the full API and the simulator")
    return 0
