"""The board, the tokens and the obstacles as we designed them (rules S1-S5)."""

from __future__ import annotations

import itertools

import pytest

from atoll import Chance, Decision, IllegalAction, MalformedInput, Roll
from atoll.plugins.survival.board import CORNERS, FIXED, NEIGHBOURS, PLACES, STARTS, distance
from atoll.plugins.survival.meta import ANIMALS, POINTS, PREDATORS
from atoll.plugins.survival.obstacles import footprint, layouts
from tests.survival.scenario import GAME, act, moves_of, position, roll, started


def test_s1_the_board_is_a_hexagon_of_91_places_named_a1_to_k11() -> None:
    """S1: 91 places; column letters a-k, row numbers 1-11; a corner has three neighbours, others six."""
    assert len(PLACES) == 91
    assert {"a1", "f6", "k11", "a6", "k6"} <= set(PLACES)
    assert "a7" not in PLACES and "k1" not in PLACES
    assert sorted(NEIGHBOURS["e5"]) == ["d4", "d5", "e4", "e6", "f5", "f6"]
    assert sorted(NEIGHBOURS["a1"]) == ["a2", "b1", "b2"]


def test_s1_a_typed_path_goes_from_neighbour_to_neighbour() -> None:
    """S1: the places of the path e4 e5 f5 f6 g6 g7 are each next to the one before."""
    path = ["e4", "e5", "f5", "f6", "g6", "g7"]
    assert all(b in NEIGHBOURS[a] for a, b in itertools.pairwise(path))
    assert distance("a1", "k11") == 10


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_s2_a_die_draws_who_starts_before_anybody_places_or_moves(seats: int) -> None:
    """S2: the game opens with a die of one side per seat; no predator is on the board yet."""
    state = GAME.setup(GAME.configure(seats))
    assert GAME.next(state) == Chance(Roll(1, seats))
    assert all(GAME.legal_actions(state, seat, {}) == [] for seat in range(seats))
    assert state["predators"] == [None] * seats and state["at"] == {}


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_s2_with_red_drawn_the_predators_start_on_their_corners_in_seat_order(seats: int) -> None:
    """S2: opposite corners for two, every other corner for three, two opposite pairs for four."""
    state = started(seats, 0)
    assert state["predators"] == list(STARTS[seats])
    assert set(STARTS[seats]) <= set(CORNERS)
    assert {p: tuple(t) for p, t in state["at"].items()} == {
        p: (seat, "predator") for seat, p in enumerate(STARTS[seats])}


def test_s2_the_start_corners_go_round_in_the_order_of_play_from_the_seat_drawn() -> None:
    """S2: with blue drawn among four, blue takes a1, green k11, yellow f1 and red f11."""
    assert started(4, 1)["predators"] == ["f11", "a1", "k11", "f1"]
    assert started(3, 2)["predators"] == ["k6", "f11", "a1"]


@pytest.mark.parametrize(("seats", "first"), [(2, 1), (3, 2), (4, 0), (4, 3)])
def test_s2_the_seat_drawn_places_the_first_prey(seats: int, first: int) -> None:
    """S2: the die's value names the seat that starts (1 red, 2 blue, ...)."""
    state = started(seats, first)
    assert (state["phase"], state["turn"], state["first"]) == ("place", first, first)
    assert GAME.next(state) == Decision(first)


@pytest.mark.parametrize("values", [[0], [5], [1, 2], [True]])
def test_s2_a_draw_outside_the_seats_is_refused(values: list[object]) -> None:
    """S2: with four seats the draw is one value 1-4."""
    with pytest.raises(MalformedInput, match="who starts"):
        GAME.resolve(GAME.setup(GAME.configure(4)), Roll(1, 4), {"values": values})


def test_s2_the_seat_drawn_moves_first_and_begins_every_round() -> None:
    """S2, S13: with green drawn, a round runs green, red, blue; blue's turn ends it."""
    tokens = {"a1": "red predator", "a5": "red zebra", "k6": "blue predator", "k10": "blue zebra",
              "f11": "green predator", "j6": "green zebra"}
    state = roll(position(tokens, seats=3, turn=1, first=2), 1, 2)
    assert state["round"] == 1
    state = act(state, "predator 1 prey 2")
    state = act(state, f"predator {moves_of(state, 'predator')[0]}")
    state = act(state, f"zebra {moves_of(state, 'zebra')[0]}")
    state = act(state, f"zebra {moves_of(state, 'zebra')[0]}")
    assert (state["phase"], state["turn"], state["round"]) == ("roll", 2, 2)


def test_s2_with_four_players_the_first_two_to_move_start_on_opposite_corners() -> None:
    """S2: with red drawn, red a1 and blue k11 face each other across the board; green f1 and
    yellow f11 start on the corners between them."""
    state = started(4, 0)
    assert state["predators"] == ["a1", "k11", "f1", "f11"]
    assert distance("a1", "k11") == 10 and distance("f1", "f11") == 10


def test_s3_eight_fixed_obstacles_take_no_token() -> None:
    """S3: eight fixed obstacles; nobody places or steps on one."""
    assert len(set(FIXED)) == 8 and set(FIXED) <= set(PLACES)
    state = started(2)
    with pytest.raises(IllegalAction, match="free place"):
        GAME.apply(state, {"do": "place", "animal": "zebra", "at": "e6"})
    tokens = {"d5": "red predator", "a2": "red zebra", "k11": "blue predator", "e2": "blue zebra"}
    state = roll(position(tokens), 1, 2)
    state = act(state, "predator 1 prey 2")
    assert "e6" not in moves_of(state, "predator")


def test_s4_each_player_has_a_predator_and_five_prey_worth_one_to_five() -> None:
    """S4: impala 1, warthog 2, zebra 3, kudu 4, buffalo 5; every predator moves alike."""
    assert [POINTS[a] for a in ANIMALS] == [1, 2, 3, 4, 5]
    assert len(set(PREDATORS)) == 4
    state = GAME.setup(GAME.configure(3))
    assert state["unplaced"] == [list(ANIMALS)] * 3


def test_s5_movable_obstacles_cover_whole_places_inside_the_board_clear_of_fixed_ones() -> None:
    """S5: obstacle 2 (thornbush) at d5 turn 0 covers c5 d5 e5; turned once, c4 d5 e6; none sticks out."""
    assert footprint(2, "d5", 0) == ("c5", "d5", "e5")
    assert footprint(2, "d5", 1) == ("c4", "d5", "e6")
    assert footprint(1, "k11", 0) is None
    assert [len(layouts(n)) > 0 for n in (1, 2, 3, 4)] == [True] * 4
    assert all(not set(placed) & set(FIXED) for n in (1, 2, 3, 4) for *_, placed in layouts(n))
