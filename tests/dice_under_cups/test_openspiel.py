"""Dice Under Cups through the OpenSpiel bridge: stable action ids, one chance node per die under a cup."""

from __future__ import annotations

import pytest

from atoll.authoring.examples.dice_under_cups import DiceUnderCups

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel (the open-spiel package) is not installed")

from atoll.openspiel import register  # noqa: E402

GAME = DiceUnderCups()


@pytest.mark.parametrize(("seats", "variant"), [(2, "short"), (3, "standard")])
def test_openspiel_random_sim_test_passes_with_stable_action_ids(seats: int, variant: str) -> None:
    loaded = pyspiel.load_game(register(GAME), {"players": seats, "variant": variant})
    assert loaded.num_distinct_actions() == GAME.action_id_count(GAME.configure(seats, variant))
    pyspiel.random_sim_test(loaded, num_sims=2, serialize=True, verbose=False)


def test_openspiel_rolls_each_die_under_a_cup_as_one_chance_node_of_six_outcomes() -> None:
    state = pyspiel.load_game(register(GAME), {"players": 2, "variant": "short"}).new_initial_state()
    for face in (3, 3, 5, 5):  # two dice under seat 0's cup, then two under seat 1's
        assert state.is_chance_node()
        assert [a for a, _ in state.chance_outcomes()] == list(range(6))
        state.apply_action(face - 1)
    assert state.current_player() == 0
    assert '"mine":[3,3]' in state.observation_string(0)
    assert '"mine":[5,5]' in state.observation_string(1)
