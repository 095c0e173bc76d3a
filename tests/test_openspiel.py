"""The OpenSpiel adapter: OpenSpiel's own random simulation test on every game, and the mapping.

Every variant and seat count of every installed game (and High Card) runs
``pyspiel.random_sim_test`` with serialization, its game length capped at
:data:`CAP` decisions so that long games stay quick; each game's default
configuration also plays one uncapped game to its natural end.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel (the open-spiel package) is not installed")

from atoll import Config, GameInfo  # noqa: E402
from atoll.game import Game  # noqa: E402
from atoll.openspiel import BoundExceeded, register, register_installed  # noqa: E402
from atoll.registry import load_registry  # noqa: E402
from tests.games.highcard import HighCard  # noqa: E402

#: Decisions after which the every-configuration sweep cuts a game off.
CAP = 300

REGISTRY = load_registry()
GAMES: list[Game] = [HighCard(), *(REGISTRY.games[name].game for name in sorted(REGISTRY.games))]
CONFIGS = [(game, variant, seats) for game in GAMES for variant in game.info.variants
           for seats in range(game.info.min_seats, game.info.max_seats + 1)]


class TightHighCard(HighCard):
    """High Card claiming at most one legal action per state, which its bets break."""

    info = GameInfo("highcard_tight", "High Card (tight)", 2, 4)

    def action_bound(self, config: Config) -> int:
        return 1


def params(seats: int, variant: str = "standard", **more: int) -> dict[str, object]:
    return {"players": seats, "variant": variant, **more}


def play_until(state: Any, done: Callable[[Any], bool], seed: int = 0) -> Any:
    """Random moves (chance by its probabilities) until ``done(state)``."""
    rng = random.Random(seed)
    while not done(state):
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, weights)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


# -- OpenSpiel's own test ---------------------------------------------------------


@pytest.mark.parametrize("game,variant,seats", CONFIGS,
                         ids=[f"{g.info.name}-{v}-{n}p" for g, v, n in CONFIGS])
def test_random_sim_test_passes_in_every_variant_and_seat_count(game: Game, variant: str, seats: int) -> None:
    name = register(game)
    measured = pyspiel.load_game(name, params(seats, variant)).max_game_length()
    capped = pyspiel.load_game(name, params(seats, variant, max_game_length=min(measured, CAP)))
    pyspiel.random_sim_test(capped, num_sims=2 if measured <= CAP else 1, serialize=True, verbose=False)


@pytest.mark.parametrize("game", GAMES, ids=[g.info.name for g in GAMES])
def test_random_sim_test_plays_the_default_configuration_to_its_end(game: Game) -> None:
    loaded = pyspiel.load_game(register(game))
    pyspiel.random_sim_test(loaded, num_sims=1, serialize=True, verbose=False)


# -- registration ------------------------------------------------------------------


def test_load_game_works_after_registration() -> None:
    assert register(HighCard()) == "atoll_highcard"
    game = pyspiel.load_game("atoll_highcard", params(3, "quick"))
    assert game.num_players() == 3
    assert "variant=quick" in str(game)
    assert game.new_initial_state().is_chance_node()


def test_registering_a_game_twice_keeps_one_name() -> None:
    assert register(HighCard()) == register(HighCard()) == "atoll_highcard"
    assert pyspiel.registered_names().count("atoll_highcard") == 1


def test_every_installed_game_is_registered_under_its_name() -> None:
    assert register_installed() == [f"atoll_{name}" for name in sorted(REGISTRY.games)]


# -- the mapping ---------------------------------------------------------------------


def test_a_shuffle_draws_one_card_at_a_time_weighted_by_copies_left() -> None:
    state = pyspiel.load_game(register(HighCard()), params(2)).new_initial_state()
    assert state.chance_outcomes() == [(face, 2 / 16) for face in range(8)]
    state.apply_action(0)
    assert state.chance_outcomes() == [(0, 1 / 15), *((face, 2 / 15) for face in range(1, 8))]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 3) == "next card of deck: 4"


def test_a_die_is_a_chance_node_with_one_outcome_per_side() -> None:
    game = pyspiel.load_game(register(HighCard()), params(2))
    state = play_until(game.new_initial_state(), lambda s: s.is_chance_node() and len(s.history()) > 16)
    assert state.chance_outcomes() == [(side, 1 / 6) for side in range(6)]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 5) == "a die shows 6"


def test_a_sealed_bet_is_a_decision_of_its_seat() -> None:
    game = pyspiel.load_game(register(HighCard()), params(2))
    state = play_until(game.new_initial_state(), lambda s: not s.is_chance_node())
    assert state.current_player() == 0
    assert [state.action_to_string(0, a) for a in state.legal_actions()] == ["bet high", "bet low"]


def test_a_seats_information_state_does_not_change_with_another_seats_cards() -> None:
    """Seat 0 is dealt deck.0-1 and seat 1 deck.2-3; swapping deck.2-3 with the undealt deck.4-5
    changes what seat 1 knows, and nothing seat 0 knows."""
    game = pyspiel.load_game(register(HighCard()), params(2))
    order = [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7]
    swapped = [0, 0, 2, 2, 1, 1, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7]
    states = []
    for deck in (order, swapped):
        state = game.new_initial_state()
        for face in deck:
            if state.is_chance_node():
                state.apply_action(face)
        assert state.current_player() == 0
        states.append(state)
    assert states[0].information_state_string(0) == states[1].information_state_string(0)
    assert states[0].observation_string(0) == states[1].observation_string(0)
    assert states[0].information_state_string(1) != states[1].information_state_string(1)


def test_the_winners_share_a_return_of_one() -> None:
    game = pyspiel.load_game(register(HighCard()), params(3))
    for seed in range(10):
        returns = play_until(game.new_initial_state(), lambda s: s.is_terminal(), seed).returns()
        winners = [r for r in returns if r > 0]
        assert sum(returns) == pytest.approx(1)
        assert all(r == pytest.approx(1 / len(winners)) for r in winners)


def test_a_game_cut_off_at_max_game_length_is_a_draw() -> None:
    game = pyspiel.load_game(register(HighCard()), params(2, max_game_length=1))
    state = play_until(game.new_initial_state(), lambda s: s.is_terminal())
    assert str(state).endswith("decisions 1 cut True")
    assert state.returns() == [0.5, 0.5]


def test_a_serialized_state_comes_back_the_same() -> None:
    game = pyspiel.load_game(register(HighCard()), params(2))
    state = play_until(game.new_initial_state(), lambda s: len(s.history()) > 16)
    _, again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(again) == str(state)
    assert again.history() == state.history()


def test_more_legal_actions_than_action_bound_is_refused() -> None:
    game = pyspiel.load_game(register(TightHighCard()), params(2))
    state = play_until(game.new_initial_state(), lambda s: not s.is_chance_node())
    with pytest.raises(BoundExceeded, match="2 legal actions, more than action_bound"):
        state.legal_actions()
