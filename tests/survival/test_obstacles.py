"""Doubles lay or move a movable obstacle, before, during or after the moves (rules S14, S15)."""

from __future__ import annotations

import pytest

from atoll import IllegalAction, State
from atoll.plugins.survival.obstacles import movable_places
from tests.survival.scenario import GAME, act, moves_of, position, roll, texts
from tests.survival.test_turn import BASE

ALL_OUT = {1: ("f4", 0), 2: ("h7", 0), 3: ("d4", 0), 4: ("h10", 0)}


def obstacle_texts(state: State) -> list[str]:
    return [t for t in texts(state) if t.startswith("obstacle ")]


def test_s14_doubles_make_an_obstacle_compulsory() -> None:
    """S14: after all the steps of a doubles turn the turn waits until an obstacle is laid."""
    state = act(roll(position(BASE), 1, 1), "predator d7", "impala a3")
    assert state["turn"] == 0 and texts(state) == obstacle_texts(state) != []
    state = act(state, "obstacle 1 at f4 turn 0")
    assert (state["phase"], state["turn"]) == ("roll", 1)
    assert state["obstacles"] == {"1": {"at": "f4", "turn": 0}}


def test_s14_an_obstacle_may_be_laid_before_or_during_the_moves() -> None:
    """S14: laid first, the steps still follow; no second obstacle is offered."""
    state = roll(position(BASE), 2, 2)
    assert "predator d7" in texts(state)
    state = act(state, "obstacle 2 at d7 turn 0")
    assert obstacle_texts(state) == [] and state["predator_left"] == 2
    assert moves_of(state, "predator") == ["c8", "d9", "e8", "e9"]


def test_s14_obstacles_go_only_on_free_places() -> None:
    """S14: never over a token or another obstacle; a refused layout says why."""
    state = roll(position(BASE), 1, 1)
    assert "obstacle 1 at a2 turn 0" not in texts(state)
    with pytest.raises(IllegalAction, match="a2, b2, which is not free"):
        GAME.apply(state, {"do": "obstacle", "id": 1, "at": "a2", "turn": 0})
    with pytest.raises(IllegalAction, match="does not fit"):
        GAME.apply(state, {"do": "obstacle", "id": 1, "at": "k11", "turn": 0})


def test_s14_each_double_brings_a_new_obstacle_while_some_are_off_the_board() -> None:
    """S14: with the log out, the next doubles choose among the other three."""
    state = roll(position(BASE, obstacles={1: ("f4", 0)}), 1, 1)
    numbers = {t.split()[1] for t in obstacle_texts(state)}
    assert numbers == {"2", "3", "4"}
    with pytest.raises(IllegalAction, match="out already"):
        GAME.apply(state, {"do": "obstacle", "id": 1, "at": "b5", "turn": 0})


def test_s15_once_all_four_are_out_doubles_move_one_to_a_new_position() -> None:
    """S15: any of the four may move, not to where it lies; its old places come free."""
    state = roll(position(BASE, obstacles=ALL_OUT), 1, 1)
    assert {t.split()[1] for t in obstacle_texts(state)} == {"1", "2", "3", "4"}
    assert "obstacle 1 at f4 turn 0" not in texts(state)
    state = act(state, "obstacle 1 at b5 turn 0")
    assert state["obstacles"]["1"] == {"at": "b5", "turn": 0}
    assert movable_places(state) >= {"b5", "c5"} and not movable_places(state) & {"f4", "g4"}
