"""Running out of prey, the last player with prey, places and the round limit (rules S16-S19)."""

from __future__ import annotations

from atoll.plugins.survival.meta import ROUND_LIMIT
from atoll.plugins.survival.turn import ranking_key
from tests.survival.scenario import GAME, act, position, roll


def test_s16_a_player_without_prey_removes_the_predator_and_plays_no_more() -> None:
    """S16: red catches blue's last prey; blue's predator leaves, and after red comes green."""
    tokens = {"d8": "red predator", "a2": "red zebra", "k11": "blue predator", "d7": "blue zebra",
              "k6": "green predator", "e2": "green zebra"}
    state = act(roll(position(tokens, seats=3), 1, 2), "predator 1 prey 2", "predator d7")
    assert state["predators"][1] is None and state["prey"][1] == {} and state["out"][1] == state["clock"]
    assert "k11" not in state["at"] and state["phase"] == "move"
    state = act(state, "zebra a3", "zebra a4")
    assert (state["phase"], state["turn"]) == ("roll", 2)


def test_s16_a_player_out_of_prey_keeps_the_points_caught() -> None:
    """S16: blue, out of prey, still has the 4 points of the kudu it caught earlier."""
    tokens = {"d8": "red predator", "a2": "red zebra", "k11": "blue predator", "d7": "blue zebra",
              "k6": "green predator", "e2": "green zebra"}
    state = position(tokens, seats=3, caught={1: [[2, "kudu"]]})
    state = act(roll(state, 1, 2), "predator 1 prey 2", "predator d7")
    assert GAME.view(state, None, {})["scores"] == [3, 4, 0]


def test_s17_the_last_player_with_prey_ends_the_game_and_adds_its_own_prey() -> None:
    """S17: red catches blue's last prey; red scores the zebra caught and its own zebra and impala."""
    tokens = {"d8": "red predator", "a2": "red zebra", "b2": "red impala", "k11": "blue predator",
              "d7": "blue zebra"}
    state = act(roll(position(tokens), 1, 2), "predator 1 prey 2", "predator d7")
    results = GAME.next(state).results  # type: ignore[union-attr]
    assert state["phase"] == "over"
    assert results.scores == (3 + 3 + 1, 0) and results.winners == (0,)


def test_s18_a_tie_goes_to_the_player_who_kept_prey_longer() -> None:
    """S18: blue (out earlier, 2 points caught) and red (1 caught + 1 own impala) tie; red, the last
    with prey, wins."""
    tokens = {"d8": "red predator", "b2": "red impala", "k6": "green predator", "d7": "green impala"}
    state = dict(position(tokens, seats=3, caught={1: [[0, "warthog"]]}), out=[None, 0, None])
    state = act(roll(state, 1, 2), "predator 1 prey 2", "predator d7")
    results = GAME.next(state).results  # type: ignore[union-attr]
    assert state["phase"] == "over"
    assert results.scores == (2, 2, 0) and results.winners == (0,)


def test_s18_players_knocked_out_later_rank_above_earlier_ones_on_equal_points() -> None:
    """S18: for every place, equal points go to the one who kept prey longer; the same turn ties."""
    tokens = {"d8": "red predator", "b2": "red impala", "k6": "green predator", "e2": "green impala"}
    state = dict(position(tokens, seats=4), out=[None, 3, None, 5], phase="over")
    keys = [ranking_key(state, seat) for seat in range(4)]
    assert keys[3] > keys[1] and keys[0] == keys[2] > keys[3]
    same = dict(state, out=[None, 5, None, 5])
    assert ranking_key(same, 1) == ranking_key(same, 3)


def test_s19_the_game_ends_after_the_round_limit_and_survivors_add_their_prey() -> None:
    """S19 (our decision): after round 60 every player with prey adds their prey's points."""
    tokens = {"d8": "red predator", "a2": "red impala", "k11": "blue predator", "e2": "blue zebra"}
    state = dict(position(tokens), round=ROUND_LIMIT, turn=1)
    state = act(roll(state, 1, 2), "predator 1 prey 2", "predator j11", "zebra e3", "zebra e4")
    results = GAME.next(state).results  # type: ignore[union-attr]
    assert state["phase"] == "over" and results.scores == (1, 3) and results.winners == (1,)
