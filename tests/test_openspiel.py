"""The OpenSpiel adapter: OpenSpiel's own random simulation test on every game, and the mapping.

Every variant and seat count of every installed game (and High Card) runs
``pyspiel.random_sim_test`` with serialization, its game length capped at
:data:`CAP` decisions so that long games stay quick; each game's default
configuration also plays one uncapped game to its natural end.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel (the open-spiel package) is not installed")

from atoll import (  # noqa: E402
    JSON,
    Action,
    Config,
    Decision,
    End,
    Fragments,
    GameInfo,
    IllegalAction,
    Knowledge,
    Request,
    Results,
    State,
    Step,
    Tensors,
)
from atoll.game import Game  # noqa: E402
from atoll.openspiel import BadActionId, BoundExceeded, CutOff, register, register_installed  # noqa: E402
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


class NumberedHighCard(HighCard):
    """High Card with stable action ids: a bet is 0 or 1, playing a card of face f is 1 + f."""

    info = GameInfo("highcard_numbered", "High Card (numbered)", 2, 4)

    def legal_actions(self, state: State, seat: int, known: Knowledge) -> list[Action]:
        """One play per face: two copies of a card are one move."""
        by_face: dict[str, Action] = {}
        for action in super().legal_actions(state, seat, known):
            by_face.setdefault(str(action.get("secret") or action["reveal"][action["play"]]), action)
        return list(by_face.values())

    def action_id_count(self, config: Config) -> int:
        return 10

    def action_id(self, state: State, action: Action) -> int:
        if "secret" in action:
            return 0 if action["secret"] == ["high"] else 1
        return 1 + int(action["reveal"][action["play"]])


class ClashingHighCard(NumberedHighCard):
    """High Card whose two bets share an id."""

    info = GameInfo("highcard_clashing", "High Card (clashing ids)", 2, 4)

    def action_id(self, state: State, action: Action) -> int:
        return 0 if "secret" in action else super().action_id(state, action)


class Ladder(Game):
    """Climb or stop, up to the top rung; whoever stops loses. Random play stops within a few rungs,
    a climber goes on for :data:`RUNGS` decisions: a legal game far longer than random games."""

    info = GameInfo("ladder", "Ladder", 2, 2)
    RUNGS = 200

    def setup(self, config: Config) -> State:
        return {"rung": 0, "stopped": None}

    def next(self, state: State) -> Step:
        if state["stopped"] is not None:
            return End(Results((0, 0), (1 - state["stopped"],)))
        if state["rung"] == self.RUNGS:
            return End(Results((0, 0), ()))
        return Decision(state["rung"] % 2)

    def legal_actions(self, state: State, seat: int, known: Knowledge) -> list[Action]:
        return [{"climb": True}, {"stop": True}] if seat == state["rung"] % 2 else []

    def apply(self, state: State, action: Action) -> State:
        if action == {"climb": True}:
            return {"rung": state["rung"] + 1, "stopped": None}
        if action == {"stop": True}:
            return {"rung": state["rung"], "stopped": state["rung"] % 2}
        raise IllegalAction(f"climb or stop, not {action!r}")

    def resolve(self, state: State, request: Request, outcome: Mapping[str, JSON]) -> State:
        raise IllegalAction("the ladder has no chance")

    def view(self, state: State, seat: int | None, known: Knowledge) -> dict[str, JSON]:
        return dict(state)

    def render(self, view: Mapping[str, JSON]) -> Fragments:
        return [("", str(view))]

    def describe(self, state: State, action: Action) -> str:
        return "climb" if "climb" in action else "stop"


class DeclaredLadder(Ladder):
    """The ladder, knowing its length."""

    info = GameInfo("ladder_declared", "Ladder (declared)", 2, 2)

    def length_bound(self, config: Config) -> int:
        return self.RUNGS


class ShortLadder(Ladder):
    """The ladder, declaring a bound shorter than its longest game."""

    info = GameInfo("ladder_short", "Ladder (short)", 2, 2)

    def length_bound(self, config: Config) -> int:
        return 50


def climb(state: Any) -> Any:
    """Always climb, to the end."""
    while not state.is_terminal():
        state.apply_action(next(a for a in state.legal_actions() if state.action_to_string(a) == "climb"))
    return state


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


@pytest.mark.filterwarnings("ignore::atoll.openspiel.CutOff")  # CAP cuts long games on purpose
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


def test_a_game_cut_off_at_max_game_length_is_reported_and_scored_a_draw() -> None:
    game = pyspiel.load_game(register(HighCard()), params(2, max_game_length=1))
    with pytest.warns(CutOff, match="atoll_highcard: a game was cut off after 1 decisions"):
        state = play_until(game.new_initial_state(), lambda s: s.is_terminal())
    assert state.cut_off()
    assert str(state).endswith("decisions 1 cut True")
    assert state.returns() == [0.5, 0.5]


def test_a_game_that_ends_by_its_rules_is_not_cut_off() -> None:
    state = play_until(pyspiel.load_game(register(HighCard()), params(2)).new_initial_state(),
                       lambda s: s.is_terminal())
    assert not state.cut_off()


# -- declared bounds -------------------------------------------------------------------


def test_random_games_are_what_the_length_is_measured_from() -> None:
    assert pyspiel.load_game(register(Ladder())).max_game_length() < Ladder.RUNGS


def test_a_game_longer_than_the_measured_bound_is_cut_off_and_reported() -> None:
    game = pyspiel.load_game(register(Ladder()))
    with pytest.warns(CutOff, match="declare Game.length_bound"):
        state = climb(game.new_initial_state())
    assert state.cut_off()
    assert state.returns() == [0.5, 0.5]


def test_a_game_longer_than_the_measured_bound_is_not_cut_when_it_declares_its_bound() -> None:
    game = pyspiel.load_game(register(DeclaredLadder()))
    assert game.max_game_length() == Ladder.RUNGS
    state = climb(game.new_initial_state())
    assert not state.cut_off()
    assert len(state.history()) == Ladder.RUNGS
    assert state.returns() == [0.5, 0.5]  # the top reached: nobody stopped, nobody won


def test_a_game_that_goes_past_its_declared_bound_is_an_error_not_a_draw() -> None:
    game = pyspiel.load_game(register(ShortLadder()))
    with pytest.raises(BoundExceeded, match="went past 50 decisions, the game's own length_bound"):
        climb(game.new_initial_state())


def test_a_smaller_max_game_length_than_declared_cuts_the_game_off() -> None:
    game = pyspiel.load_game(register(DeclaredLadder()), {"max_game_length": 10})
    with pytest.warns(CutOff):
        state = climb(game.new_initial_state())
    assert state.cut_off() and len(state.history()) == 10


# -- action ids ---------------------------------------------------------------------------


def test_without_stable_ids_an_action_is_a_position_in_the_sorted_legal_list() -> None:
    game = pyspiel.load_game(register(HighCard()), params(2))
    assert game.num_distinct_actions() == HighCard().action_bound(Config(2, "standard", {}))
    state = play_until(game.new_initial_state(), lambda s: not s.is_chance_node())
    assert state.legal_actions() == [0, 1]


def test_stable_ids_name_one_move_in_every_state() -> None:
    game = pyspiel.load_game(register(NumberedHighCard()), params(3))
    assert game.num_distinct_actions() == 10
    texts: dict[int, set[str]] = {}  # id -> the moves it named, without the card's handle
    rng = random.Random(0)
    for _ in range(20):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, weights)[0])
                continue
            for action in state.legal_actions():
                texts.setdefault(action, set()).add(state.action_to_string(action).split(" (")[0])
            state.apply_action(rng.choice(state.legal_actions()))
    assert texts[0] == {"bet high"} and texts[1] == {"bet low"}
    assert all(texts[1 + face] == {f"play {face}"} for face in range(1, 9) if 1 + face in texts)


def test_random_sim_test_passes_with_stable_ids() -> None:
    pyspiel.random_sim_test(pyspiel.load_game(register(NumberedHighCard()), params(2)), num_sims=5,
                            serialize=True, verbose=False)


def test_two_legal_actions_sharing_an_id_are_refused() -> None:
    game = pyspiel.load_game(register(ClashingHighCard()), params(2))
    state = play_until(game.new_initial_state(), lambda s: not s.is_chance_node())
    with pytest.raises(BadActionId, match="share action id 0"):
        state.legal_actions()


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


# -- resampling -------------------------------------------------------------------------------


def bets_made(second: str) -> Any:
    """High Card at seat 0's play: seat 0 bet high, seat 1 bet ``second``."""
    state = play_until(pyspiel.load_game(register(HighCard()), params(2)).new_initial_state(),
                       lambda s: not s.is_chance_node())
    for bet in ("high", second):
        texts = {state.action_to_string(a): a for a in state.legal_actions()}
        state.apply_action(texts[f"bet {bet}"])
    assert state.current_player() == 0
    return state


def test_a_resampled_state_keeps_the_seats_own_sealed_choice_and_information_state() -> None:
    state = bets_made("low")
    sampler = pyspiel.UniformProbabilitySampler(0, 0.0, 1.0)
    for _ in range(10):
        sample = state.resample_from_infostate(0, sampler)
        assert sample.snapshot.truth["s0-0.0"] == "high"
        assert sample.information_state_string(0) == state.information_state_string(0)
        assert sample.legal_actions() == state.legal_actions()


def test_a_resampled_state_guesses_the_other_seats_sealed_choice_among_its_legal_ones() -> None:
    state = bets_made("low")
    sampler = pyspiel.UniformProbabilitySampler(0, 0.0, 1.0)
    guesses = {state.resample_from_infostate(0, sampler).snapshot.truth["s1-1.0"] for _ in range(20)}
    assert guesses == {"high", "low"}


def test_resampling_never_reads_what_the_seat_has_not_seen() -> None:
    """Seat 1's bet differs, and seat 0 draws the same samples."""
    first, second = (bets_made(bet).resample_from_infostate(0, pyspiel.UniformProbabilitySampler(5, 0.0, 1.0))
                     for bet in ("high", "low"))
    assert str(first) == str(second)


def test_a_resampled_game_plays_on_to_its_end() -> None:
    sample = bets_made("low").resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0, 0.0, 1.0))
    assert play_until(sample, lambda s: s.is_terminal()).returns()


# -- tensors --------------------------------------------------------------------------------


class CountingTensors(Tensors):
    """The seat's hand size, as a tensor of ``shape`` (wrong when ``shape`` is not ``(1,)``)."""

    def __init__(self, shape: tuple[int, ...]) -> None:
        self.shape = shape

    def observation_shape(self) -> tuple[int, ...]:
        return self.shape

    def observation(self, state: State, seat: int, known: Knowledge) -> list[float]:
        return [float(len(state["hands"][seat]))]


class TensorHighCard(HighCard):
    """High Card with a one-number tensor."""

    info = GameInfo("highcard_tensor", "High Card (tensor)", 2, 4)
    shape: tuple[int, ...] = (1,)

    def tensors(self, config: Config) -> Tensors:
        return CountingTensors(self.shape)


class MisshapenHighCard(TensorHighCard):
    """High Card whose tensor is not the shape it declares."""

    info = GameInfo("highcard_misshapen", "High Card (misshapen tensor)", 2, 4)
    shape = (2,)


def test_a_game_without_tensors_provides_none() -> None:
    game_type = pyspiel.load_game(register(HighCard()), params(2)).get_type()
    assert not game_type.provides_observation_tensor
    assert not game_type.provides_information_state_tensor


def test_a_games_tensor_reaches_openspiel_in_its_shape() -> None:
    game = pyspiel.load_game(register(TensorHighCard()), params(2))
    assert game.observation_tensor_shape() == [1]
    state = play_until(game.new_initial_state(), lambda s: not s.is_chance_node())
    assert state.observation_tensor(0) == [2.0]
    assert state.information_state_tensor(1) == [2.0]  # by default the observation


def test_a_tensor_that_does_not_fill_its_shape_is_refused() -> None:
    game = pyspiel.load_game(register(MisshapenHighCard()), params(2))
    state = play_until(game.new_initial_state(), lambda s: not s.is_chance_node())
    with pytest.raises(BoundExceeded, match=r"tensor has 1 numbers, but its shape \(2,\) holds 2"):
        state.observation_tensor(0)
