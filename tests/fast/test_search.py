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
from atoll.types import Chance, Decision
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
