"""Kiribati's simulator plays exactly the games of the full API, in every variant and seat count."""

from __future__ import annotations

import random

import pytest

from atoll.fast import OVER, RandomDraws, Simulator
from atoll.plugins.kiribati import Kiribati
from atoll.plugins.kiribati.fast import encode, simulator
from atoll.testing import check_fast_path

GAME = Kiribati()
CONFIGS = [(seats, variant) for variant in ("children", "family", "professional") for seats in (2, 3, 4, 5)]


@pytest.mark.parametrize(("seats", "variant"), CONFIGS)
def test_the_simulator_plays_the_games_of_the_full_api(seats: int, variant: str) -> None:
    config = GAME.configure(seats, variant)
    for seed in range(2):
        assert check_fast_path(GAME, config, seed, start_at=0.3 + 0.4 * seed)


def test_a_chosen_set_of_animals_is_simulated_too() -> None:
    config = GAME.configure(2, "children", {"animals": ["monkey", "koala"]})
    assert check_fast_path(GAME, config, 3)


@pytest.mark.parametrize("variant", ["family", "professional"])
def test_the_quick_playout_plays_the_game_the_plain_playout_plays(variant: str) -> None:
    for seed in range(3):
        sim = simulator(GAME.configure(3, variant), RandomDraws(random.Random(seed)))
        twin = sim.copy(RandomDraws(random.Random(seed)))
        sim.draws = RandomDraws(random.Random(seed))
        assert sim.playout(random.Random(seed)) == Simulator.playout(twin, random.Random(seed))
        assert sim.seat() == OVER


def test_codes_tell_apart_what_the_texts_tell_apart() -> None:
    """Distinct texts of one state have distinct codes, and a code names the same text anywhere."""
    config = GAME.configure(3, "professional")
    sim = simulator(config, RandomDraws(random.Random(6)))
    rng = random.Random(6)
    text_of: dict[int, str] = {}
    while sim.seat() != OVER:
        state = sim.state
        actions = GAME.legal_actions(state, sim.seat(), sim.faces)
        codes = [encode(action) for action in actions]
        assert len(set(codes)) == len(codes)
        for code, action in zip(codes, actions, strict=True):
            text = GAME.describe(state, action)
            assert text_of.setdefault(code, text) == text
        sim.apply(codes[rng.randrange(len(codes))])
