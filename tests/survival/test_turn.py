"""A turn: the roll, the dice split, steps, never twice, blocking, catching (rules S7-S13)."""

from __future__ import annotations

import pytest

from atoll import Chance, IllegalAction, Roll
from tests.survival.scenario import GAME, act, moves_of, position, roll, texts

#: Red's predator in the open at d8, two red prey in the top left; blue far away.
BASE = {
    "d8": "red predator", "a2": "red impala", "b2": "red zebra",
    "k11": "blue predator", "e2": "blue zebra", "k8": "blue kudu",
}


def test_s7_a_turn_begins_with_a_roll_of_two_dice() -> None:
    """S7: the player on turn must throw both dice: the game asks chance for two dice."""
    assert GAME.next(position(BASE)) == Chance(Roll(2, 6))


def test_s7_one_die_goes_to_the_predator_and_the_other_to_the_prey() -> None:
    """S7: after 5 and 2 the player chooses; the predator owes its die, the prey the other."""
    state = roll(position(BASE), 5, 2)
    assert texts(state) == ["predator 2 prey 5", "predator 5 prey 2"]
    state = act(state, "predator 5 prey 2")
    assert (state["predator_left"], state["prey_left"]) == (5, 2)


def test_s7_doubles_need_no_choice() -> None:
    """S7: with doubles both get the same number; the moves start at once."""
    state = roll(position(BASE), 3, 3)
    assert (state["phase"], state["predator_left"], state["prey_left"]) == ("move", 3, 3)


def test_s8_the_predator_moves_exactly_its_die_one_step_at_a_time() -> None:
    """S8: three steps for a 3; then it has no step left while the prey still owe theirs."""
    state = act(roll(position(BASE), 3, 1), "predator 3 prey 1", "predator d7", "predator d6")
    assert state["predator_left"] == 1 and moves_of(state, "predator")
    state = act(state, "predator d5")
    assert moves_of(state, "predator") == [] and state["turn"] == 0 and state["prey_left"] == 1


def test_s9_the_prey_die_is_split_among_the_prey_in_any_way() -> None:
    """S9: with 3 for the prey, the zebra takes two steps and the impala one; then no prey step is left."""
    state = act(roll(position(BASE), 1, 3), "predator 1 prey 3", "zebra c2", "zebra d2", "impala a3")
    assert state["prey"][0] == {"impala": "a3", "zebra": "d2"}
    assert moves_of(state, "zebra") == moves_of(state, "impala") == []
    assert moves_of(state, "predator")


def test_s9_prey_and_predator_steps_come_in_any_order() -> None:
    """S9: a prey step before, between and after the predator's steps."""
    state = act(roll(position(BASE), 2, 3), "predator 2 prey 3", "zebra c2", "predator d7", "impala a3",
                "predator d6", "zebra d2")
    assert state["phase"] == "roll" and state["turn"] == 1


def test_s10_no_token_enters_a_place_twice_in_a_turn() -> None:
    """S10: the predator cannot step back to where it started."""
    state = act(roll(position(BASE), 3, 1), "predator 3 prey 1", "predator d7")
    assert "d8" not in moves_of(state, "predator")


def test_s10_no_token_enters_a_place_another_of_the_players_tokens_left() -> None:
    """S10 (our decision): the places are touched by the player, not by one token: the impala may not
    step where the zebra stood this turn."""
    state = act(roll(position(BASE), 1, 3), "predator 1 prey 3", "zebra c2")
    assert "b2" not in moves_of(state, "impala")
    assert moves_of(state, "impala") == ["a1", "a3", "b3"]


def test_s11_one_token_per_place_and_no_jumping() -> None:
    """S11: prey step only to free neighbouring places; the impala cannot go onto the zebra."""
    state = roll(position(BASE), 1, 3)
    state = act(state, "predator 1 prey 3")
    assert moves_of(state, "impala") == ["a1", "a3", "b3"]
    with pytest.raises(IllegalAction, match="cannot step to 'b2'"):
        GAME.apply(state, {"do": "step", "token": "impala", "to": "b2"})
    with pytest.raises(IllegalAction, match="cannot step to 'c4'"):
        GAME.apply(state, {"do": "step", "token": "impala", "to": "c4"})


def test_s11_a_predator_cannot_enter_its_own_prey_or_another_predator() -> None:
    """S11: own prey and other predators block the predator."""
    tokens = {"d8": "red predator", "d7": "red impala", "e8": "blue predator", "e2": "blue zebra"}
    state = act(roll(position(tokens), 1, 2), "predator 1 prey 2")
    assert moves_of(state, "predator") == ["c7", "c8", "d9", "e9"]


def test_s11_a_blocked_predator_moves_as_far_as_it_can_and_stops() -> None:
    """S11: with a 5 but only a two-place corridor, the predator goes two places and its move ends."""
    tokens = {"a1": "red predator", "b1": "red impala", "b2": "red warthog", "b3": "red zebra",
              "a4": "red kudu", "b4": "red buffalo", "k11": "blue predator", "e2": "blue zebra"}
    state = act(roll(position(tokens), 5, 1), "predator 5 prey 1")
    assert moves_of(state, "predator") == ["a2"]
    state = act(state, "predator a2", "predator a3")
    assert moves_of(state, "predator") == [] and state["turn"] == 0
    state = act(state, "buffalo c4")
    assert (state["phase"], state["turn"]) == ("roll", 1)


def test_s11_the_predator_never_stops_short_by_choice() -> None:
    """S11 (our decision): a step into a dead end is refused while a longer path is open."""
    tokens = {"a1": "red predator", "b2": "red impala", "b3": "red warthog", "a3": "red zebra",
              "k11": "blue predator", "e2": "blue zebra"}
    state = act(roll(position(tokens), 2, 1), "predator 2 prey 1")
    assert moves_of(state, "predator") == ["b1"]
    state = act(roll(position(tokens), 1, 2), "predator 1 prey 2")
    assert moves_of(state, "predator") == ["a2", "b1"]


def test_s11_prey_use_their_whole_die_where_a_full_move_exists() -> None:
    """S11: "you cannot move less than the number shown on each dice": with 2 for the prey, the
    impala may not step into the dead end a1 (blue's tokens on b1 and b2) while a3 and b3 lead on."""
    tokens = {"d8": "red predator", "a2": "red impala", "b1": "blue zebra", "b2": "blue kudu",
              "k11": "blue predator"}
    state = act(roll(position(tokens), 1, 2), "predator 1 prey 2")
    assert moves_of(state, "impala") == ["a3", "b3"]
    with pytest.raises(IllegalAction, match="cannot step to 'a1'"):
        GAME.apply(state, {"do": "step", "token": "impala", "to": "a1"})
    state = act(state, "impala a3")
    assert "impala a2" not in texts(state) and moves_of(state, "impala")


def test_s11_mixing_steps_never_stops_the_predator_short() -> None:
    """S9, S11: red's predator on a1 needs a2 for its 2 (its own prey stand on b1 and b2), so the
    zebra may not step onto a2 first and leave the predator stuck; its other steps stay open."""
    tokens = {"a1": "red predator", "b1": "red impala", "b2": "red zebra",
              "k11": "blue predator", "e2": "blue zebra"}
    state = act(roll(position(tokens), 2, 1), "predator 2 prey 1")
    assert moves_of(state, "zebra") == ["b3", "c2"]
    assert moves_of(state, "predator") == ["a2"]
    with pytest.raises(IllegalAction, match="cannot step to 'a2'"):
        GAME.apply(state, {"do": "step", "token": "zebra", "to": "a2"})
    state = act(state, "zebra c2", "predator a2", "predator a3")
    assert (state["phase"], state["turn"]) == ("roll", 1)


def test_s11_when_both_dice_cannot_be_used_in_full_the_predator_goes_first() -> None:
    """S11 (our decision): the predator on a1 and the impala on a3 both need a2 (a log covers b1 and
    b2, a donga a4, b4 and b3): the predator takes it and the impala stays."""
    tokens = {"a1": "red predator", "a3": "red impala", "k11": "blue predator", "e2": "blue zebra"}
    state = position(tokens, obstacles={1: ("b1", 2), 4: ("b4", 3)})
    state = act(roll(state, 1, 2), "predator 1 prey 2")
    assert texts(state) == ["predator a2"]
    state = act(state, "predator a2")
    assert (state["phase"], state["turn"]) == ("roll", 1)


def test_s11_prey_that_cannot_step_end_the_prey_move() -> None:
    """S11: a prey boxed in by other tokens does not move; the turn ends after the predator."""
    tokens = {"d8": "red predator", "a1": "red impala", "k11": "blue predator", "b1": "blue zebra",
              "b2": "blue kudu", "a2": "blue impala"}
    state = act(roll(position(tokens), 2, 3), "predator 2 prey 3")
    assert moves_of(state, "impala") == []
    state = act(state, "predator d7", "predator d6")
    assert (state["phase"], state["turn"]) == ("roll", 1)


def test_s12_the_predator_catches_another_players_prey_by_stepping_on_it() -> None:
    """S12: red's predator steps onto blue's zebra: it leaves the board and red scores 3."""
    tokens = {**BASE, "d7": "blue zebra"}
    del tokens["e2"]
    state = act(roll(position(tokens), 1, 1), "predator d7")
    assert "zebra" not in state["prey"][1] and state["caught"][0] == [[1, "zebra"]]
    assert GAME.view(state, 0, {})["scores"] == [3, 0]


def test_s12_several_prey_are_caught_in_one_turn() -> None:
    """S12 (our decision: every step lands): passing over two prey catches both."""
    tokens = {**BASE, "d7": "blue zebra", "d6": "blue buffalo"}
    del tokens["e2"]
    state = act(roll(position(tokens), 2, 1), "predator 2 prey 1", "predator d7", "predator d6")
    assert state["caught"][0] == [[1, "zebra"], [1, "buffalo"]]
    assert state["predators"][0] == "d6"


def test_s13_the_turn_passes_to_the_next_player_when_everything_is_done() -> None:
    """S13: when predator and prey have no step left the next seat rolls; a new round starts with red."""
    state = act(roll(position(BASE), 1, 1), "predator d7", "impala a3")
    state = act(state, *texts(state)[:1])  # the obstacle of the doubles
    assert (state["phase"], state["turn"], state["round"]) == ("roll", 1, 1)
    state = act(roll(state, 1, 2), "predator 1 prey 2", "predator j11", "zebra e3", "zebra e4")
    assert (state["phase"], state["turn"], state["round"]) == ("roll", 0, 2)
