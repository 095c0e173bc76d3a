"""Random games from start to end: no error, no stuck state, the bookkeeping always right.

The 300 games per variant and seat count take several minutes (random players wander for
hundreds of rounds in the children's and family games): the suite plays the first 50 of each, and
``scripts/long-runs`` all 300. A few games per variant, checked at every step, run always.
"""

from __future__ import annotations

import pytest

from atoll import End
from atoll.bots.random_bot import RandomBot
from atoll.engine import LocalResolver, Match, run
from tests.kiribati.scenario import GAME, assert_consistent
from tests.long_runs import batches

CONFIGS = [(variant, seats) for variant in GAME.info.variants for seats in range(2, 6)]
GAMES = 300


def play_random(variant: str, seats: int, seed: int, *, check_every_step: bool = False) -> Match:
    """One game between random players through the engine, to its end."""
    match = Match(GAME, GAME.configure(seats, variant), LocalResolver(seed))
    bots = [RandomBot(seed * 10 + seat) for seat in range(seats)]
    on_action = (lambda m, seat, action: assert_consistent(m.state)) if check_every_step else None
    end = run(match, bots, max_steps=500_000, on_action=on_action)
    assert isinstance(end, End)
    assert_consistent(match.state)
    results = end.results
    assert len(results.scores) == seats and results.winners
    if variant != "professional":
        winner = results.winners[0]
        assert results.winners == (winner,) and results.scores[winner] == len(match.state["animals"])
    return match


@pytest.mark.parametrize(("variant", "seats"), [(v, 3) for v in GAME.info.variants])
def test_random_games_keep_their_books_at_every_step(variant: str, seats: int) -> None:
    """A few random games, the invariants checked after every action."""
    for seed in range(3):
        play_random(variant, seats, seed, check_every_step=True)


#: The 300 games of a configuration run in batches, so the test workers share them out evenly.
BATCH = 50


@pytest.mark.slow
@pytest.mark.parametrize("first", batches(GAMES, BATCH))
@pytest.mark.parametrize(("variant", "seats"), CONFIGS)
def test_three_hundred_random_games_end_without_error(variant: str, seats: int, first: int) -> None:
    """300 random games per variant and seat count end properly (K28, K46), 50 to a batch (the
    first batch in the suite, every batch in ``scripts/long-runs``)."""
    for seed in range(first, first + BATCH):
        play_random(variant, seats, seed)
