"""The search bot on the fast path: it searches the game's simulator where one is offered."""

from __future__ import annotations

import itertools
import random

from atoll.bots.determinize import Sampler
from atoll.bots.search import SearchBot
from atoll.engine import LocalResolver, Match
from atoll.engine.loop import observe
from atoll.engine.observation import Observation
from atoll.plugins.kariba import Kariba
from atoll.plugins.survival import Survival
from atoll.types import Chance, Decision
from tests.bots.positions import play_until
from tests.games.highcard import HighCard


def _first_decision(seed: int) -> Observation:
    game = Kariba()
    match = Match(game, game.configure(2), LocalResolver(seed))
    while isinstance(match.step(), Chance):
        match.advance()
    step = match.step()
    assert isinstance(step, Decision)
    return observe(match, step.seat)


def test_the_fast_search_reports_the_moves_the_full_api_search_reports() -> None:
    observation = _first_decision(2)
    fast = SearchBot(1).search(observation, 40)
    full = SearchBot(1, fast=False).search(observation, 40)
    assert [m.text for m in fast] == [m.text for m in full]
    assert [m.action for m in fast] == [m.action for m in full]
    assert sum(m.visits for m in fast) == 40


def test_a_seed_gives_the_same_moves_on_the_fast_path() -> None:
    observation = _first_decision(5)
    assert SearchBot(9).search(observation, 60) == SearchBot(9).search(observation, 60)


def test_a_timed_search_thinks_until_its_clock_has_run_out_reading_it_now_and_then() -> None:
    reads = itertools.count()
    bot = SearchBot(1, seconds=25.0, clock=lambda: float(next(reads)))  # each reading takes a second
    bot.search(_first_decision(3))
    assert next(reads) == 26  # at the start, then until the clock shows 25 seconds more
    assert bot.last_iterations > 100


def test_a_game_without_a_fast_path_is_searched_through_its_api() -> None:
    game = HighCard()
    match = Match(game, game.configure(2), LocalResolver(4))
    while not isinstance(match.step(), Decision):
        match.advance()
    step = match.step()
    assert isinstance(step, Decision)
    observation = observe(match, step.seat)
    assert Sampler(observation).simulator(random.Random(0)) is None
    assert sum(m.visits for m in SearchBot(1).search(observation, 30)) == 30


def test_a_judged_leaf_is_judged_once_its_movers_turn_is_over() -> None:
    """Survival: a turn is a die and single steps; the finished turn hands the dice to another seat."""
    observation = _survival_turn(seed=4)
    simulator = Sampler(observation).simulator(random.Random(1))
    assert simulator is not None and simulator.seat() == observation.seat
    played = SearchBot(1)._finish_turn(simulator, observation.seat)
    assert played >= 2  # the die, then at least one step
    assert simulator.seat() != observation.seat


def _survival_turn(seed: int) -> Observation:
    """The first choice of a die in a 3-seat Survival game played at random."""
    game = Survival()
    mover = random.Random(seed)
    return play_until(
        Match(game, game.configure(3), LocalResolver(seed)), lambda seen: mover.choice(seen.legal),
        lambda seen: seen.state["phase"] == "assign" and len(seen.legal) > 1,
    )
