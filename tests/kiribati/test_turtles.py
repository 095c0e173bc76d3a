"""The dice and the turtles: rules K6-K18."""

from __future__ import annotations

import pytest

from atoll import Action, AmbiguousAction, State
from atoll.engine import LocalResolver, Match
from atoll.testing import RiggedResolver
from tests.kiribati.scenario import GAME, act, action, at, riders, sea, texts


def test_the_player_rolls_both_dice_and_chooses_one() -> None:
    """K6: two dice are rolled; the player picks one of them."""
    match = Match(GAME, GAME.configure(2, "children"), RiggedResolver(picks=[4, 4], rolls=[2, 5]))
    for _ in range(3):
        match.advance()
    assert sorted(match.texts(0)) == ["die 2", "die 5"]


def test_a_double_is_one_choice() -> None:
    """K6: with both dice alike there is one die to choose."""
    assert texts(sea(turtles={"c1r1": (4, [])}, dice=(3, 3))) == ["die 3"]


def test_dice_1_to_4_drift_any_turtle_of_that_row_or_put_a_new_one_in() -> None:
    """K7: any turtle of the row may drift; with column 1 free, a new turtle of any side may enter."""
    state = act(sea(turtles={"c2r3": (4, []), "c4r3": (2, [])}, dice=(3, 6)), "die 3")
    assert texts(state) == [
        "new 1 row 3",
        "new 2 row 3",
        "new 3 row 3",
        "new 4 row 3",
        "turtle c2r3",
        "turtle c4r3",
    ]
    after = act(state, "new 3 row 3")
    assert at(after, "c1r3")["size"] == 3
    assert after["supply"] == {"large": 4, "small": 5}


def test_a_die_action_is_compulsory() -> None:
    """K7: the player must do the die's action; there is no way to skip it."""
    state = act(sea(turtles={"c1r2": (4, [])}, dice=(2, 2)), "die 2")
    assert texts(state) == ["turtle c1r2"]


def test_no_new_turtle_while_column_1_is_taken() -> None:
    """K7: a new turtle enters only on the row's first place."""
    state = act(sea(turtles={"c1r1": (4, [])}, dice=(1, 1)), "die 1")
    assert texts(state) == ["turtle c1r1"]


def test_an_empty_supply_forces_a_drift() -> None:
    """K8: with no tile in the supply the turtle must drift, even into the open sea."""
    state = sea(turtles={"c5r1": (4, ["red kagu"])}, supply=(0, 0), dice=(1, 1))
    state = act(state, "die 1")
    assert texts(state) == ["turtle c5r1"]
    after = act(state, "turtle c5r1")
    assert at(after, "c5r1") is None
    assert after["island"][0] == ["lizard", "kagu", "rabbit"]


def test_nothing_happens_when_the_row_and_the_supply_are_empty() -> None:
    """K9: an empty row and an empty supply: the die does nothing, the animals come next."""
    state = sea(turtles={"c1r1": (4, ["red kagu"])}, supply=(0, 0), dice=(4, 4))
    after = act(state, "die 4")
    assert after["phase"] == "animals"
    assert after["board"] == state["board"]


def test_a_drifting_turtle_pushes_the_turtles_in_front_of_it() -> None:
    """K10 (our decision): the chosen turtle moves and pushes the one right in front, and that one the
    next; the front one does not move instead of it."""
    state = act(
        sea(turtles={"c1r2": (4, []), "c2r2": (3, []), "c3r2": (2, []), "c5r2": (1, [])}, dice=(2, 2)),
        "die 2",
    )
    after = act(state, "turtle c1r2")
    assert [t and t["size"] for t in after["board"][1]] == [None, 4, 3, 2, 1]


def test_a_turtle_pushed_off_the_board_returns_to_the_supply_and_its_animals_swim_home() -> None:
    """K11: beyond the last column a turtle goes to the supply; its animals swim to the island."""
    state = sea(turtles={"c4r1": (4, ["blue rabbit"]), "c5r1": (2, ["red kagu", "blue lizard"])}, dice=(1, 1))
    after = act(state, "die 1", "turtle c4r1")
    assert at(after, "c5r1")["size"] == 4
    assert riders(after, "c5r1") == ["blue rabbit"]
    assert after["supply"] == {"large": 5, "small": 6}
    assert after["island"] == [["lizard", "kagu", "rabbit"], ["lizard", "kagu"]]


def test_the_sixth_column_is_the_last_with_five_players() -> None:
    """K11: with five players a turtle leaves only beyond column 6."""
    state = act(sea(seats=5, turtles={"c5r1": (4, [])}, dice=(1, 1)), "die 1", "turtle c5r1")
    assert at(state, "c6r1")["size"] == 4


def test_turtles_drift_only_east() -> None:
    """K12: every turtle action of a die moves a turtle one place east (or puts one in column 1)."""
    state = act(sea(turtles={"c3r2": (4, [])}, dice=(5, 5)), "die 5")
    assert all(t.startswith(("new", "turtle c3r2", "pass")) for t in texts(state))
    after = act(state, "turtle c3r2")
    assert at(after, "c4r2")["size"] == 4 and at(after, "c3r2") is None


def test_die_5_acts_on_any_row() -> None:
    """K13: a 5 drifts a turtle of any row or puts a new one into any free first place."""
    state = act(sea(turtles={"c1r1": (4, []), "c2r4": (2, [])}, supply=(0, 1), dice=(5, 5)), "die 5")
    assert texts(state) == [
        "new 1 row 2",
        "new 1 row 3",
        "new 1 row 4",
        "new 2 row 2",
        "new 2 row 3",
        "new 2 row 4",
        "pass",
        "turtle c1r1",
        "turtle c2r4",
    ]


def test_die_6_lets_any_turtle_dive_or_float() -> None:
    """K14: a 6 lets any turtle dive or float (or, "may", none: see the next test)."""
    state = act(sea(turtles={"c1r1": (4, []), "c3r3": (1, [])}, dice=(6, 6)), "die 6")
    assert texts(state) == ["dive c1r1", "dive c3r3", "float c3r3", "pass"]


@pytest.mark.parametrize("die", [5, 6])
def test_on_a_5_or_a_6_the_player_may_leave_the_turtles_be(die: int) -> None:
    """K13, K14: on a 5 the player "may" move a turtle, on a 6 "may" let one dive or float: `pass`
    leaves every turtle as it is and goes on to the animals."""
    state = sea(turtles={"c1r1": (4, ["red kagu"]), "c1r2": (4, [])}, dice=(die, die))
    after = act(state, f"die {die}", "pass")
    assert after["board"] == state["board"] and after["supply"] == state["supply"]
    assert after["phase"] == "animals" and "kagu c1r2" in texts(after)
    assert GAME.describe_log(act(state, f"die {die}"), 0, {"do": "pass"}) == "red: pass (no turtle moves)"


@pytest.mark.parametrize("die", [1, 2, 3, 4])
def test_on_1_to_4_a_turtle_must_move(die: int) -> None:
    """K7: a die of 1-4 must move a turtle of its row (or put one in); there is no pass."""
    state = act(sea(turtles={"c1r1": (4, []), "c1r2": (4, []), "c1r3": (4, []), "c1r4": (4, [])},
                    dice=(die, die)), f"die {die}")
    assert "pass" not in texts(state) and texts(state)


def test_diving_turns_a_4_into_a_3_and_a_2_into_a_1() -> None:
    """K15: 4 -> 3 and 2 -> 1 by turning the tile over."""
    state = sea(turtles={"c1r1": (4, []), "c2r2": (2, [])}, dice=(6, 6))
    after = act(state, "die 6", "dive c1r1")
    assert at(after, "c1r1")["size"] == 3 and after["supply"] == state["supply"]
    after = act(state, "die 6", "dive c2r2")
    assert at(after, "c2r2")["size"] == 1 and after["supply"] == state["supply"]


def test_diving_exchanges_a_3_for_a_small_tile_from_the_supply() -> None:
    """K15: 3 -> 2 swaps the large tile for a small one from the supply."""
    state = sea(turtles={"c1r1": (3, ["red kagu"])}, supply=(2, 2), dice=(6, 6))
    after = act(state, "die 6", "dive c1r1")
    assert at(after, "c1r1")["size"] == 2
    assert after["supply"] == {"large": 3, "small": 1}
    assert riders(after, "c1r1") == ["red kagu"]


def test_a_1_turtle_dives_away_and_its_animal_swims_home() -> None:
    """K15: a diving 1-turtle goes to the supply; its animal swims back to the island."""
    state = sea(turtles={"c2r3": (1, ["blue lizard"])}, supply=(1, 1), dice=(6, 6))
    after = act(state, "die 6", "dive c2r3")
    assert at(after, "c2r3") is None
    assert after["supply"] == {"large": 1, "small": 2}
    assert "lizard" in after["island"][1]


def test_a_3_turtle_cannot_dive_without_a_small_tile_so_another_must() -> None:
    """K16: no small tile in the supply: the 3-turtle is no choice; another turtle dives."""
    state = act(sea(turtles={"c1r1": (3, []), "c2r2": (4, [])}, supply=(4, 0), dice=(6, 6)), "die 6")
    assert texts(state) == ["dive c2r2", "float c1r1", "pass"]


def test_a_turtle_whose_overflow_all_holds_a_clamp_grip_cannot_dive() -> None:
    """K16: if the animal that would be thrown off holds a clamp grip, the turtle cannot dive."""
    state = sea(turtles={"c1r1": (1, []), "c2r2": (2, ["red kagu", "blue rabbit"])}, dice=(6, 6))
    state["clamp"] = ["kagu", "rabbit"]
    assert "dive c2r2" not in texts(act(state, "die 6"))
    state["clamp"] = ["kagu", None]
    assert "dive c2r2" in texts(act(state, "die 6"))


def test_floating_turns_1_into_2_and_3_into_4_and_swaps_a_2_for_a_large_tile() -> None:
    """K17: 1 -> 2 and 3 -> 4 turn over; 2 -> 3 takes a large tile from the supply; 4 cannot float."""
    state = sea(turtles={"c1r1": (1, []), "c1r2": (2, []), "c1r3": (3, []), "c1r4": (4, [])}, dice=(6, 6))
    assert "float c1r4" not in texts(act(state, "die 6"))
    assert at(act(state, "die 6", "float c1r1"), "c1r1")["size"] == 2
    assert at(act(state, "die 6", "float c1r3"), "c1r3")["size"] == 4
    swapped = act(state, "die 6", "float c1r2")
    assert at(swapped, "c1r2")["size"] == 3
    assert swapped["supply"] == {"large": state["supply"]["large"] - 1, "small": state["supply"]["small"] + 1}


def test_a_2_turtle_cannot_float_without_a_large_tile() -> None:
    """K17: 2 -> 3 needs a large tile in the supply."""
    state = act(sea(turtles={"c1r2": (2, [])}, supply=(0, 3), dice=(6, 6)), "die 6")
    assert texts(state) == ["dive c1r2", "pass"]


def test_the_player_on_turn_chooses_who_is_thrown_off_a_full_diving_turtle() -> None:
    """K18: a full turtle dives; the player on turn throws one animal off, and it swims home."""
    state = sea(turtles={"c1r1": (4, []), "c2r2": (2, ["red kagu", "blue rabbit"])}, dice=(6, 6))
    state = act(state, "die 6", "dive c2r2")
    assert state["phase"] == "throw"
    assert texts(state) == ["throw blue rabbit", "throw red kagu"]  # red may throw its own
    after = act(state, "throw red kagu")
    assert riders(after, "c2r2") == ["blue rabbit"]
    assert "kagu" in after["island"][0]
    assert after["throw"] is None and after["phase"] == "animals"


def test_a_turtle_that_is_not_full_dives_without_throwing() -> None:
    """K18: only a full turtle throws animals off."""
    state = sea(turtles={"c1r1": (4, []), "c2r2": (4, ["red kagu", "blue rabbit"])}, dice=(6, 6))
    state = act(state, "die 6", "dive c2r2")
    assert state["phase"] == "animals"
    assert riders(state, "c2r2") == ["red kagu", "blue rabbit"]


def typed(state: State, text: str) -> Action:
    """What a player typing ``text`` at the prompt would choose in ``state`` (as the client parses it)."""
    match = Match(GAME, GAME.configure(state["seats"], state["variant"]), LocalResolver(0))
    match.state = state
    return match.parse(state["turn"], text)


def test_turtle_row_n_names_the_one_turtle_of_that_row_that_may_move() -> None:
    """Texts to type: `turtle row 3` is `turtle c2r3` when that is the row's only turtle."""
    state = act(sea(turtles={"c2r3": (4, []), "c1r2": (2, [])}, dice=(3, 6)), "die 3")
    assert typed(state, "turtle row 3") == action(state, "turtle c2r3")


def test_turtle_row_n_is_refused_naming_the_places_when_two_turtles_may_move() -> None:
    state = act(sea(turtles={"c2r3": (4, []), "c4r3": (2, [])}, dice=(3, 6)), "die 3")
    with pytest.raises(AmbiguousAction, match="turtle c2r3, turtle c4r3"):
        typed(state, "Turtle  Row 3")
