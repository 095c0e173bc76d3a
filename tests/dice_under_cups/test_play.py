"""Dice Under Cups as a plugin author ships it: the conformance kit, OpenSpiel, and whole games on the
local and the fair resolver (audited), with its own bot and atoll's search bot."""

from __future__ import annotations

import pytest

from atoll.authoring.examples import dice_under_cups
from atoll.authoring.examples.dice_under_cups import DiceUnderCups
from atoll.authoring.examples.dice_under_cups.bots import OddsBot
from atoll.bots.random_bot import RandomBot
from atoll.bots.search import SearchBot
from atoll.engine import LocalResolver, Match, run
from atoll.registry import load_registry
from atoll.testing import ConformanceCase, conformance_cases
from tests.fair.helpers import played_through

GAME = DiceUnderCups()
REGISTRY = load_registry(extra=[("dice_under_cups", dice_under_cups)])
CASES = conformance_cases(GAME, seats=[2, 3, 6], playouts=1)


@pytest.mark.parametrize("case", CASES, ids=str)
def test_dice_under_cups_follows_the_game_api(case: ConformanceCase) -> None:
    case.run()


@pytest.mark.parametrize("seats", [2, 6])
def test_a_whole_game_of_odds_bots_ends_with_one_seat_holding_dice(seats: int) -> None:
    match = Match(GAME, GAME.configure(seats), LocalResolver(seats))
    run(match, [OddsBot() for _ in range(seats)])
    end = match.results()
    assert end is not None and len(end.results.winners) == 1
    assert sum(end.results.scores) == end.results.scores[end.results.winners[0]] > 0


def test_a_whole_game_on_the_fair_protocols_re_checks_in_full() -> None:
    seats = 3
    _, record = played_through(GAME.info.name, [OddsBot(), RandomBot(1), OddsBot(margin=2.0)], "short",
                               registry=REGISTRY)
    assert record.seats == seats and record.deck.card_count() == 0 and record.draws >= 2 * seats


def test_the_search_bot_plays_dice_it_cannot_see_by_guessing_them() -> None:
    match = Match(GAME, GAME.configure(2, "short"), LocalResolver(4))
    run(match, [SearchBot(3, iterations=40), OddsBot()])
    assert match.results() is not None
