"""Kariba's simulator plays exactly the games of the full API (the conformance kit's fast-path check)."""

from __future__ import annotations

import random

import pytest

from atoll.fast import OVER, RandomDraws, Simulator
from atoll.plugins.kariba import Kariba
from atoll.plugins.kariba.fast import DRAW_PILE, TAKE
from atoll.testing import check_fast_path

GAME = Kariba()
CONFIGS = [(seats, variant) for variant in ("standard", "experienced") for seats in (2, 3, 4)]


@pytest.mark.parametrize(("seats", "variant"), CONFIGS)
def test_the_simulator_plays_the_games_of_the_full_api(seats: int, variant: str) -> None:
    config = GAME.configure(seats, variant)
    for seed in range(40):
        assert check_fast_path(GAME, config, seed, start_at=(seed % 10) / 10)


def test_codes_name_a_play_by_animal_and_count_and_a_draw_by_its_source() -> None:
    sim = GAME.simulator(GAME.configure(2, "experienced"), RandomDraws(random.Random(3)))
    assert sim is not None
    rng = random.Random(3)
    seen: set[int] = set()
    while sim.seat() != OVER:
        legal = sim.legal()
        seen.update(legal)
        sim.apply(legal[rng.randrange(len(legal))])
    plays = {code for code in seen if 0 < code < TAKE}
    assert all(1 <= code % 8 <= 5 and 1 <= code // 8 <= 8 for code in plays)
    assert DRAW_PILE in seen and any(code > TAKE for code in seen)


def test_a_random_playout_ends_with_every_card_accounted_for() -> None:
    """K14: the score is the cards won; a playout is a whole game."""
    sim = GAME.simulator(GAME.configure(4), RandomDraws(random.Random(8)))
    assert sim is not None
    results, steps = sim.playout(random.Random(8))
    assert results is not None and sim.seat() == OVER and steps > 0
    assert max(results.scores) == results.scores[results.winners[0]]


@pytest.mark.parametrize("variant", ["standard", "experienced"])
def test_the_quick_playout_plays_the_game_the_plain_playout_plays(variant: str) -> None:
    for seed in range(20):
        sim = GAME.simulator(GAME.configure(3, variant), RandomDraws(random.Random(seed)))
        assert sim is not None
        twin = sim.copy()
        assert sim.playout(random.Random(seed)) == Simulator.playout(twin, random.Random(seed))
