"""Survival of the Fittest's simulator plays exactly the games of the full API (the conformance
kit's fast-path check): placements, the dice, the predator's longest paths, catches and obstacles."""

from __future__ import annotations

import random

import pytest

from atoll.fast import OVER, RandomDraws, Simulator
from atoll.plugins.survival import Survival
from atoll.plugins.survival.fast import ASSIGN, OBSTACLE, PLACE, PREDATOR_STEP, PREY_STEP, SurvivalSimulator
from atoll.testing import check_fast_path

GAME = Survival()


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_simulator_plays_the_games_of_the_full_api(seats: int) -> None:
    config = GAME.configure(seats)
    for seed in range(8):
        assert check_fast_path(GAME, config, seed, start_at=(seed % 8) / 8)


def test_every_kind_of_decision_has_its_own_codes() -> None:
    """S6 placing, S7 the dice, S8 and S9 steps, S14 obstacles come up in random games."""
    seen: set[int] = set()
    for seed in range(6):
        sim = GAME.simulator(GAME.configure(2), RandomDraws(random.Random(seed)))
        assert sim is not None
        rng = random.Random(seed)
        while sim.seat() != OVER:
            legal = sim.legal()
            seen.update(legal)
            sim.apply(legal[rng.randrange(len(legal))])
    ranges = [(PLACE, ASSIGN), (ASSIGN, PREDATOR_STEP), (PREDATOR_STEP, PREY_STEP), (PREY_STEP, OBSTACLE)]
    assert all(any(low <= code < high for code in seen) for low, high in ranges)
    assert any(code >= OBSTACLE for code in seen)


def test_playing_a_copy_to_the_end_leaves_the_original_where_it_was() -> None:
    sim = GAME.simulator(GAME.configure(3), RandomDraws(random.Random(2)))
    assert sim is not None
    twin = sim.copy(RandomDraws(random.Random(9)))
    results, steps = twin.playout(random.Random(9))
    assert results is not None and steps > 0 and twin.seat() == OVER
    assert sim.seat() == 0 and len(sim.legal()) > 0


@pytest.mark.parametrize("seats", [2, 4])
def test_the_quick_playout_plays_the_game_the_plain_playout_plays(seats: int) -> None:
    for seed in range(4):
        draws = random.Random(seed)
        sim = GAME.simulator(GAME.configure(seats), RandomDraws(draws))
        assert sim is not None
        same = random.Random()
        same.setstate(draws.getstate())  # past the draw for who starts, as the simulator's own
        twin = sim.copy(RandomDraws(same))
        quick = sim.playout(random.Random(seed + 100))
        assert quick[0] is not None
        assert quick == Simulator.playout(twin, random.Random(seed + 100))


def test_the_judgement_is_the_same_with_kept_distances_as_worked_out_afresh() -> None:
    """The estimate keeps each predator's distances while the walls stand (copies share them); at every
    position of random games, obstacles laid included, a copy that keeps none judges alike."""
    rng = random.Random(3)
    laid = 0
    for _ in range(6):
        simulator = GAME.simulator(GAME.configure(3), RandomDraws(rng))
        assert isinstance(simulator, SurvivalSimulator)
        while simulator.seat() != OVER:
            afresh = simulator.copy()
            afresh.reach = {}
            assert simulator.estimate() == afresh.estimate()
            code = rng.choice(simulator.legal())
            laid += code >= OBSTACLE
            simulator.apply(code)
    assert laid > 0
