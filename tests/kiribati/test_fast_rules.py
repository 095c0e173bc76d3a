"""Kiribati's simulator steps exactly as the rule modules do, in every variant and seat count.

The conformance kit's engine check (tests/fast/test_kiribati.py) costs about a second a game;
these tests ask the rule modules directly, at the simulator's own state, which is cheap enough
for dozens of games of each variant and seat count in the suite (thousands by hand:
``python -m atoll.plugins.kiribati.fast_check --games 1000``).
"""

from __future__ import annotations

import random

import pytest

from atoll.fast import OVER, Position, RandomDraws
from atoll.jsondata import canonical
from atoll.plugins.kiribati.fast import simulator
from atoll.plugins.kiribati.fast_check import CONFIGS, check_game
from tests.kiribati.scenario import GAME

#: Random games a variant and seat count checked in the suite, each at every EVERY-th decision.
GAMES = {"children": 40, "family": 40, "professional": 60}
EVERY = 97


@pytest.mark.parametrize(("variant", "seats"), CONFIGS)
def test_every_decision_of_a_random_game_is_the_rules_decision(variant: str, seats: int) -> None:
    """The legal codes are the rules' legal actions in their order, and every action and chance
    leaves the state the rules leave, down to the last key."""
    assert check_game(GAME.configure(seats, variant), seed=0, every=1) > 0


@pytest.mark.parametrize(("variant", "seats"), CONFIGS)
def test_dozens_of_random_games_step_as_the_rules(variant: str, seats: int) -> None:
    """Sampled decisions of many games, each game ending with the rules' results."""
    config = GAME.configure(seats, variant)
    checked = sum(check_game(config, seed, EVERY) for seed in range(1, 1 + GAMES[variant]))
    assert checked >= GAMES[variant]


def test_a_chosen_set_of_animals_steps_as_the_rules() -> None:
    assert check_game(GAME.configure(4, "children", {"animals": ["monkey", "rabbit", "koala"]}), 5) > 0


@pytest.mark.parametrize("variant", ["family", "professional"])
def test_a_simulator_started_at_its_own_state_plays_on_alike(variant: str) -> None:
    """Starting at a Position made of a simulator's state and faces gives the same game."""
    config = GAME.configure(3, variant)
    sim = simulator(config, RandomDraws(random.Random(2)))
    rng = random.Random(2)
    for _ in range(150):
        legal = sim.legal()
        sim.apply(legal[rng.randrange(len(legal))])
    assert sim.seat() != OVER
    started = simulator(config, RandomDraws(random.Random(4)), Position(sim.state, dict(sim.faces), [{}] * 3))
    assert canonical(started.state) == canonical(sim.state)
    assert started.legal() == sim.legal()
    twin = sim.copy(RandomDraws(random.Random(4)))
    assert started.playout(random.Random(5)) == twin.playout(random.Random(5))
    assert canonical(started.state) == canonical(twin.state)


def test_playing_on_a_copy_leaves_the_original_as_it_was() -> None:
    sim = simulator(GAME.configure(4, "professional"), RandomDraws(random.Random(7)))
    rng = random.Random(7)
    for _ in range(40):
        legal = sim.legal()
        sim.apply(legal[rng.randrange(len(legal))])
    before = canonical(sim.state)
    twin = sim.copy(RandomDraws(random.Random(1)))
    results, _ = twin.playout(random.Random(1))
    assert results is not None and twin.seat() == OVER
    assert canonical(sim.state) == before and sim.seat() != OVER
