"""Kariba through the OpenSpiel bridge: stable action ids, tensors, resampling, and OpenSpiel's ISMCTS bot.

The full measure is run by hand: ISMCTS at 50 simulations a move against uniform random,
50 games, seats alternating, won 49, drew 0 and lost 1 (347 s of CPU; 2026-11-23)::

    .venv/bin/python -c "from tests.kariba.test_spiel import ismcts_results as r; x = r(50, 50); \
        print(x.count(1.0), x.count(0.5), x.count(0.0))"

The suite plays six games at 20 simulations.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel (the open-spiel package) is not installed")
np = pytest.importorskip("numpy")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from atoll.openspiel import register  # noqa: E402
from atoll.plugins.kariba import Kariba  # noqa: E402
from atoll.plugins.kariba.spiel import ID_COUNT  # noqa: E402

NAME = register(Kariba())
#: Kariba's deck in order: eight mice, eight meerkats, ... eight elephants (animal = outcome + 1).
SORTED = [animal for animal in range(1, 9) for _ in range(8)]


def load(seats: int = 2, variant: str = "standard") -> Any:
    return pyspiel.load_game(NAME, {"players": seats, "variant": variant})


def dealt(deck: list[int], seats: int = 2) -> Any:
    """The state after shuffling ``deck`` (deck.0 first) and dealing it: seat 0 holds deck.0-4."""
    state = load(seats).new_initial_state()
    for animal in deck:
        if not state.is_chance_node():  # the last cards of one animal are drawn without a node
            break
        state.apply_action(animal - 1)
    assert state.current_player() == 0
    return state


def swapped(deck: list[int], first: int, second: int, count: int = 5) -> list[int]:
    """``deck`` with its cards ``first..first+count`` and ``second..second+count`` exchanged."""
    out = list(deck)
    out[first:first + count] = deck[second:second + count]
    out[second:second + count] = deck[first:first + count]
    return out


def random_games(game: Any, count: int, seed: int = 0) -> Any:
    """Every decision state of ``count`` random games."""
    rng = random.Random(seed)
    for _ in range(count):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, weights)[0])
                continue
            yield state
            state.apply_action(rng.choice(state.legal_actions()))


# -- action ids -------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["standard", "experienced"])
def test_an_action_id_names_one_move_in_every_state(variant: str) -> None:
    game = load(3, variant)
    assert game.num_distinct_actions() == ID_COUNT
    texts: dict[int, set[str]] = {}
    for state in random_games(game, 4):
        for action in state.legal_actions():
            texts.setdefault(action, set()).add(state.action_to_string(action))
    assert all(len(names) == 1 for names in texts.values()), texts
    assert texts.get(0, {"play 1 mouse"}) == {"play 1 mouse"}
    assert texts.get(6, {"play 2 meerkat"}) == {"play 2 meerkat"}


def test_the_draws_have_ids_after_every_play() -> None:
    texts = {state.action_to_string(a): a for state in random_games(load(2, "experienced"), 3)
             for a in state.legal_actions()}
    assert texts["draw pile"] == 40
    assert all(texts[name] == 40 + animal for animal, name in enumerate(
        ("take mouse", "take meerkat", "take zebra", "take giraffe", "take ostrich", "take leopard",
         "take rhino", "take elephant"), 1) if name in texts)


# -- tensors -------------------------------------------------------------------------------


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_a_tensor_has_one_shape_through_a_whole_game(seats: int) -> None:
    game = load(seats, "experienced")
    shape, information = game.observation_tensor_shape(), game.information_state_tensor_shape()
    for state in random_games(game, 1, seed=seats):
        for seat in range(seats):
            assert len(state.observation_tensor(seat)) == shape[0]
            assert len(state.information_state_tensor(seat)) == information[0]
            assert all(0.0 <= x <= 1.0 for x in state.observation_tensor(seat))


def test_a_tensor_changes_with_the_cards_the_seat_holds() -> None:
    mine = dealt(SORTED)
    other = dealt(swapped(SORTED, 0, 54))  # seat 0 holds rhinos and elephants instead of mice
    assert mine.observation_tensor(0) != other.observation_tensor(0)
    assert mine.information_state_tensor(0) != other.information_state_tensor(0)


def test_a_tensor_does_not_change_with_cards_the_seat_cannot_see() -> None:
    mine = dealt(SORTED)
    other = dealt(swapped(SORTED, 5, 54))  # only seat 1's hand differs
    assert mine.observation_tensor(0) == other.observation_tensor(0)
    assert mine.information_state_tensor(0) == other.information_state_tensor(0)
    assert mine.observation_tensor(1) != other.observation_tensor(1)


def test_the_information_tensor_remembers_the_cards_played() -> None:
    state = dealt(SORTED)
    before = state.information_state_tensor(1)[-8:]
    play = next(a for a in state.legal_actions() if state.action_to_string(a) == "play 3 mouse")
    state.apply_action(play)
    after = state.information_state_tensor(1)[-8:]
    assert after[0] - before[0] == pytest.approx(3 / 8)
    assert after[1:] == before[1:]


# -- resampling -------------------------------------------------------------------------------


def test_a_resampled_state_keeps_the_seats_hand_and_information_state() -> None:
    state = next(s for i, s in enumerate(random_games(load(3), 1, seed=5)) if i == 6)
    seat = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(1, 0.0, 1.0)
    for _ in range(5):
        sample = state.resample_from_infostate(seat, sampler)
        assert sample.information_state_string(seat) == state.information_state_string(seat)
        assert sample.observation_tensor(seat) == state.observation_tensor(seat)
        assert sample.legal_actions() == state.legal_actions()


def test_a_resampled_state_deals_the_other_hands_afresh() -> None:
    state = dealt(SORTED)
    sampler = pyspiel.UniformProbabilitySampler(2, 0.0, 1.0)
    others = {str(state.resample_from_infostate(0, sampler).observation_tensor(1)) for _ in range(10)}
    assert len(others) > 5


def test_resampling_never_reads_the_faces_hidden_from_the_seat() -> None:
    """Two deals that differ only in seat 1's cards give seat 0 the same samples."""
    first = dealt(SORTED).resample_from_infostate(0, pyspiel.UniformProbabilitySampler(3, 0.0, 1.0))
    second = dealt(swapped(SORTED, 5, 54)).resample_from_infostate(0, pyspiel.UniformProbabilitySampler(
        3, 0.0, 1.0))
    assert first.observation_tensor(1) == second.observation_tensor(1)
    assert str(first).split("\n")[1:3] == str(second).split("\n")[1:3]  # what each seat knows, the truth


# -- OpenSpiel's own search ---------------------------------------------------------------------


def seeded_resampler(seed: int) -> Any:
    """A resampler for ISMCTS drawing from one seeded sampler (its own makes a fresh one each time)."""
    sampler = pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)
    return lambda state, seat: state.resample_from_infostate(seat, sampler)


def ismcts_results(games: int, simulations: int) -> list[float]:
    """ISMCTS's return in each of ``games`` 2-seat games against uniform random, seats alternating."""
    game = load(2)
    results = []
    for number in range(games):
        rng = np.random.RandomState(number)
        bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, simulations, random_state=rng)
        bot.set_resampler(seeded_resampler(number))
        me, chance = number % 2, random.Random(number)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(chance.choices(outcomes, weights)[0])
            elif state.current_player() == me:
                state.apply_action(bot.step(state))
            else:
                state.apply_action(chance.choice(state.legal_actions()))
        results.append(state.returns()[me])
    return results


def test_openspiel_ismcts_beats_uniform_random_at_two_seat_kariba() -> None:
    results = ismcts_results(games=6, simulations=20)
    assert results.count(1.0) >= 5, results


def test_openspiel_ismcts_runs_with_its_own_unseeded_resampling() -> None:
    """Without a resampler, ISMCTS calls ``resample_from_infostate`` with a fresh sampler of its own."""
    game = load(2)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)), 2.0, 10,
                           random_state=np.random.RandomState(0))
    state = dealt(SORTED)
    assert bot.step(state) in state.legal_actions()
