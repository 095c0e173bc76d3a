"""Placing the prey one at a time, in turn order or (a variant) in snake order (rule S6)."""

from __future__ import annotations

import pytest

from atoll import Chance, IllegalAction, Roll
from atoll.plugins.survival.board import FIXED, PLACES
from tests.survival.scenario import GAME, act, started, texts


def placing_order(seats: int, first: int, variant: str) -> list[int]:
    """The seats in the order they place their prey, each placing its first prey left on the first
    free place."""
    state = started(seats, first, variant)
    free = iter(p for p in PLACES if p not in FIXED and p not in state["at"])
    order = []
    while state["phase"] == "place":
        order.append(state["turn"])
        animal = state["unplaced"][state["turn"]][0]
        state = act(state, f"place {animal} {next(free)}")
    return order


def test_s6_prey_are_placed_one_at_a_time_in_turn_order() -> None:
    """S6: as the published rules place them, one at a time in turn order: red, blue, red, blue ..."""
    state = started(2)
    state = act(state, "place zebra d4")
    assert state["turn"] == 1 and state["prey"][0] == {"zebra": "d4"}
    state = act(state, "place buffalo e4")
    assert state["turn"] == 0
    assert placing_order(2, 0, "standard") == [0, 1] * 5


@pytest.mark.parametrize(("first", "order"), [(0, [0, 1, 2, 3]), (2, [2, 3, 0, 1])])
def test_s6_with_four_players_placing_goes_round_from_the_seat_drawn(first: int, order: list[int]) -> None:
    """S6: red, blue, green, yellow, red, ... when red is drawn to start (S2); from green when green is."""
    assert placing_order(4, first, "standard") == order * 5


def test_s6_snake_variant_places_one_prey_then_two_each() -> None:
    """S6, snake variant (our design): red places one prey, then blue two, then red two, and so on."""
    assert placing_order(2, 0, "snake") == [0, 1, 1, 0, 0, 1, 1, 0, 0, 1]


@pytest.mark.parametrize(("first", "snake"), [
    (0, [0, 1, 2, 3, 3, 2, 1, 0, 0, 1, 2, 3]),
    (2, [2, 3, 0, 1, 1, 0, 3, 2, 2, 3, 0, 1]),
])
def test_s6_snake_variant_with_four_players_turns_back_at_the_seat_before_the_first(
        first: int, snake: list[int]) -> None:
    """S6, snake variant: red, blue, green, yellow, yellow, green, blue, red, red, ... when red is
    drawn to start (S2); from green when green is."""
    assert placing_order(4, first, "snake")[:12] == snake


def test_s6_any_prey_left_may_go_on_any_free_place() -> None:
    """S6: five prey times every place that is no obstacle and holds no token (two predators)."""
    state = started(2)
    free = len(PLACES) - len(FIXED) - 2
    assert len(texts(state)) == 5 * free


def test_s6_first_come_first_served_a_taken_place_is_refused() -> None:
    """S6: a place taken by another prey (or a predator) cannot be placed on."""
    state = act(started(2), "place zebra d4")
    assert not any(t.endswith(" d4") for t in texts(state))
    with pytest.raises(IllegalAction, match="free place"):
        GAME.apply(state, {"do": "place", "animal": "zebra", "at": "d4"})
    with pytest.raises(IllegalAction, match="free place"):
        GAME.apply(state, {"do": "place", "animal": "zebra", "at": "k11"})


@pytest.mark.parametrize("first", [0, 1])
def test_s6_the_first_turn_begins_with_the_roll_of_the_seat_drawn_once_all_are_placed(first: int) -> None:
    """S6, S7: when the last prey is down, the seat drawn to start (S2) rolls both dice."""
    state = started(2, first)
    free = iter(p for p in PLACES if p not in FIXED and p not in ("a1", "k11"))
    for _ in range(10):
        animal = state["unplaced"][state["turn"]][0]
        state = act(state, f"place {animal} {next(free)}")
    assert (state["phase"], state["turn"], state["round"]) == ("roll", first, 1)
    assert GAME.next(state) == Chance(Roll(2, 6))
