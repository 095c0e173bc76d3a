"""Moving the animals, their abilities, and winning: rules K19-K28."""

from __future__ import annotations

from typing import Any

from atoll import End, State
from tests.kiribati.scenario import GAME, act, at, moves, riders, sea, texts


def animals_step(**kwargs: Any) -> State:
    """A position in red's animal step, the die's turtle action done."""
    state = sea(dice=(4, 4), **kwargs)
    state.update(phase="animals", die=4)
    return state


def test_each_animal_moves_at_most_once_and_done_ends_the_turn() -> None:
    """K19: an animal that has moved may not move again; `done` passes the turn on."""
    state = animals_step(
        turtles={
            "c1r1": (4, ["red kagu"]),
            "c1r2": (4, []),
            "c1r3": (4, []),
            "c4r2": (4, ["red lizard"]),
            "c4r3": (4, []),
        }
    )
    state = act(state, "kagu c1r2")
    assert texts(state) == ["done", "lizard c4r3"]
    after = act(state, "done")
    assert after["turn"] == 1 and after["phase"] == "roll"


def test_animals_may_stay_where_they_are() -> None:
    """K19: moving is never compulsory."""
    state = animals_step(turtles={"c1r1": (4, ["red kagu"]), "c1r2": (4, [])})
    assert "done" in texts(state)


def test_a_player_who_can_do_nothing_passes_at_once() -> None:
    """K19: with no move and no card to play, the turn passes by itself."""
    state = sea(turtles={"c3r3": (1, ["red kagu"])}, supply=(0, 0), dice=(4, 4))
    assert texts(state) == ["die 4"]
    after = act(state, "die 4")
    assert after["turn"] == 1 and after["phase"] == "roll"


def test_one_animal_from_the_island_onto_any_turtle_of_row_1() -> None:
    """K20: any island animal may go onto any row-1 turtle with a free place; not to row 2."""
    state = animals_step(turtles={"c1r1": (4, []), "c3r1": (1, ["blue kagu"]), "c1r2": (4, [])})
    assert texts(state) == ["done", "kagu c1r1", "lizard c1r1", "rabbit c1r1"]


def test_only_one_animal_comes_from_the_island_each_turn() -> None:
    """K20: after one animal came from the island, the others stay there."""
    state = animals_step(
        turtles={"c1r1": (4, []), "c2r1": (4, []), "c4r3": (4, ["red lizard"]), "c4r4": (4, [])}
    )
    state = act(state, "kagu c1r1")
    assert texts(state) == ["done", "lizard c4r4"]


def test_the_animal_from_the_island_must_come_first() -> None:
    """K20: once another animal has moved, nobody comes from the island this turn."""
    state = animals_step(
        turtles={"c1r1": (4, ["red kagu"]), "c1r2": (4, []), "c4r3": (4, ["red lizard"]), "c4r4": (4, [])}
    )
    assert "rabbit c1r1" in texts(state)
    state = act(state, "kagu c1r2")
    assert texts(state) == ["done", "lizard c4r4"]


def test_animals_step_orthogonally_onto_turtles_with_room() -> None:
    """K21: north, east, south, west onto a turtle; never diagonally, never onto a full turtle."""
    state = animals_step(
        variant="family",
        turtles={
            "c2r2": (4, ["red lizard"]),
            "c2r3": (4, []),
            "c3r2": (2, []),
            "c2r1": (1, ["blue kagu"]),
            "c1r2": (3, []),
            "c3r3": (4, []),
        },
    )
    assert moves(state, "lizard") == ["lizard c1r2", "lizard c2r3", "lizard c3r2"]


def test_an_animal_in_row_4_may_go_to_the_mainland_and_one_in_row_1_back_to_the_island() -> None:
    """K22: from row 4 onto the mainland (rescued); from row 1 back onto the island."""
    state = animals_step(turtles={"c2r4": (2, ["red kagu"]), "c4r1": (2, ["red rabbit"])})
    assert "kagu mainland" in texts(state) and "rabbit island" in texts(state)
    after = act(state, "kagu mainland", "rabbit island")
    assert after["mainland"][0] == ["kagu"]
    assert after["island"][0] == ["lizard", "rabbit"]
    assert riders(after, "c2r4") == [] and riders(after, "c4r1") == []


def test_the_rabbit_also_steps_diagonally() -> None:
    """K23: the rabbit may step onto a diagonally adjacent turtle."""
    state = animals_step(
        turtles={"c2r2": (4, ["red rabbit"]), "c3r3": (4, []), "c1r1": (2, []), "c3r2": (1, [])}
    )
    assert moves(state, "rabbit") == ["rabbit c1r1", "rabbit c3r2", "rabbit c3r3"]


def test_the_monkey_jumps_straight_over_one_turtle() -> None:
    """K24: the monkey jumps over a turtle onto the next one in a straight line."""
    state = animals_step(
        variant="family", turtles={"c1r1": (4, ["red monkey"]), "c2r1": (1, ["blue kagu"]), "c3r1": (2, [])}
    )
    assert "monkey c3r1" in texts(state)
    assert riders(act(state, "monkey c3r1"), "c3r1") == ["red monkey"]


def test_the_monkey_never_jumps_over_open_water() -> None:
    """K24: with water between, there is no jump."""
    state = animals_step(
        variant="family", turtles={"c1r1": (4, ["red monkey"]), "c3r1": (2, []), "c1r2": (4, [])}
    )
    assert "monkey c3r1" not in texts(state)


def test_the_monkey_never_jumps_onto_the_mainland_or_from_the_island() -> None:
    """K24: jumps are over water only: not from row 3 to the mainland, not from the island to row 2."""
    state = animals_step(
        variant="family",
        turtles={"c1r1": (4, []), "c1r2": (4, []), "c3r3": (4, ["red monkey"]), "c3r4": (4, [])},
    )
    monkey = [t for t in texts(state) if t.startswith("monkey")]
    assert "monkey mainland" not in monkey
    assert "monkey c1r2" not in monkey and "monkey c3r4" in monkey


def test_the_koala_displaces_an_animal_from_a_full_turtle() -> None:
    """K25: the koala moves onto a full turtle; the animal it displaces swims back to the island."""
    state = animals_step(
        variant="family", turtles={"c1r1": (4, ["red koala"]), "c1r2": (2, ["blue rabbit", "red lizard"])}
    )
    assert "koala c1r2 bump blue rabbit" in texts(state)
    after = act(state, "koala c1r2 bump blue rabbit")
    assert riders(after, "c1r2") == ["red lizard", "red koala"]
    assert "rabbit" in after["island"][1]


def test_a_koala_never_displaces_a_koala_nor_a_clamped_animal() -> None:
    """K25: no koala is displaced, and neither is an animal holding a clamp grip (K34)."""
    state = animals_step(
        variant="family", turtles={"c1r1": (4, ["red koala"]), "c1r2": (2, ["blue koala", "blue rabbit"])}
    )
    state["clamp"][1] = "rabbit"
    assert not [t for t in texts(state) if "bump" in t]


def test_a_koala_from_the_island_enters_a_turtle_only_if_there_is_a_free_place() -> None:
    """K25 with K20: the rulebook lets an animal come from the island "if there is a free place";
    a koala displaces an animal only when it moves from a turtle, so a full row 1 keeps it ashore."""
    state = animals_step(variant="family", turtles={"c2r1": (1, ["blue kagu"])})
    assert texts(state) == ["done"]
    state = animals_step(variant="family", turtles={"c2r1": (1, ["blue kagu"]), "c3r1": (2, ["blue rabbit"])})
    assert [t for t in texts(state) if t.startswith("koala")] == ["koala c3r1"]


def test_a_kagu_stands_on_the_flooded_place_of_a_3_turtle() -> None:
    """K26: a full 3-turtle still takes a kagu onto its flooded place, but nobody else."""
    state = animals_step(
        variant="family",
        turtles={
            "c1r2": (4, ["red kagu", "red lizard"]),
            "c1r3": (3, ["blue rabbit", "blue koala", "blue lizard"]),
        },
    )
    assert "kagu c1r3" in texts(state) and "lizard c1r3" not in texts(state)
    assert riders(act(state, "kagu c1r3"), "c1r3") == ["blue rabbit", "blue koala", "blue lizard", "red kagu"]


def test_a_full_4_turtle_with_a_kagu_dives_without_throwing_anyone_off() -> None:
    """K26: the kagu steps onto the flooded place; nobody is thrown off."""
    full = ["red kagu", "blue rabbit", "blue koala", "red lizard"]
    state = sea(variant="family", turtles={"c1r1": (4, []), "c2r2": (4, full)}, dice=(6, 6))
    after = act(state, "die 6", "dive c2r2")
    assert after["phase"] == "animals"
    assert at(after, "c2r2")["size"] == 3 and riders(after, "c2r2") == full


def test_a_full_4_turtle_without_a_kagu_throws_one_off() -> None:
    """K26 with K18: without a kagu a full 4-turtle diving to 3 throws an animal off."""
    state = sea(
        variant="family",
        turtles={"c2r2": (4, ["red monkey", "blue rabbit", "blue koala", "red lizard"])},
        dice=(6, 6),
    )
    after = act(state, "die 6", "dive c2r2")
    assert after["phase"] == "throw" and len(texts(after)) == 4


def test_when_the_3_turtle_dives_on_the_kagu_on_the_flooded_place_must_go_too() -> None:
    """K26: a 3-turtle carrying four dives to 2: the kagu goes first, then one more animal."""
    full = ["red kagu", "blue rabbit", "blue koala", "red lizard"]
    state = sea(variant="family", turtles={"c2r2": (3, full)}, supply=(2, 2), dice=(6, 6))
    state = act(state, "die 6", "dive c2r2")
    assert texts(state) == ["throw red kagu"]
    state = act(state, "throw red kagu")
    assert texts(state) == ["throw blue koala", "throw blue rabbit", "throw red lizard"]
    state = act(state, "throw blue koala")
    assert riders(state, "c2r2") == ["blue rabbit", "red lizard"] and state["throw"] is None


def test_a_kagu_from_the_island_cannot_use_the_flooded_place() -> None:
    """K26: the kagu's ability does not work when it comes from the island."""
    state = animals_step(
        variant="family",
        turtles={"c1r1": (3, ["blue rabbit", "blue monkey", "blue lizard"]), "c2r2": (1, [])},
    )
    assert "kagu c1r1" not in texts(state)


def test_no_kagu_aboard_makes_room_for_an_animal_from_the_island() -> None:
    """K26 (our decision): "this ability does not apply when moving from the island to the first
    row": a full 3-turtle takes nobody from the island, not even by a kagu aboard stepping onto the
    flooded place; from a turtle, the same lizard finds room that way."""
    aboard = ["blue rabbit", "blue kagu", "blue lizard"]
    state = animals_step(variant="family", turtles={"c1r1": (3, aboard)})
    assert "lizard c1r1" not in texts(state)
    state = animals_step(variant="family", turtles={"c1r1": (3, aboard), "c1r2": (4, ["red lizard"])})
    assert riders(act(state, "lizard c1r1"), "c1r1") == [*aboard, "red lizard"]


def test_a_koala_from_the_island_does_not_displace_anyone_from_a_3_turtle_carrying_four() -> None:
    """K25, K26: a 3-turtle carrying four (a kagu on its flooded place) has no free place, so
    nothing comes from the island onto it, not even a koala."""
    aboard = ["blue rabbit", "blue kagu", "blue lizard", "blue monkey"]
    state = animals_step(variant="family", turtles={"c1r1": (3, aboard)})
    assert not [t for t in texts(state) if t.startswith("koala c1r1")]


def test_the_lizard_has_no_special_ability() -> None:
    """K27: the lizard steps orthogonally only: no diagonal, no jump, no flooded place."""
    state = animals_step(
        turtles={"c2r2": (4, ["red lizard"]), "c3r3": (4, []), "c2r4": (4, []), "c3r2": (3, [])},
    )
    assert moves(state, "lizard") == ["lizard c3r2"]


def test_the_first_to_rescue_every_animal_wins_at_once() -> None:
    """K28: the family game ends the moment a player's last animal reaches the mainland."""
    rescued = ["red monkey", "red lizard", "red kagu", "red rabbit"]
    state = animals_step(variant="family", turtles={"c3r4": (2, ["red koala"])}, mainland=rescued)
    after = act(state, "koala mainland")
    step = GAME.next(after)
    assert isinstance(step, End)
    assert step.results.winners == (0,)
    assert step.results.scores == (5, 0)
