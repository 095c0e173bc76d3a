"""Drawing the board: every animal on a turtle is drawn, in every step (rules K15, K18, K26)."""

from __future__ import annotations

from atoll import State
from tests.kiribati.scenario import GAME, act, sea


def drawn(state: State, seat: int | None = 0) -> str:
    """The board as plain text, as ``seat`` (``None``: a spectator) sees it."""
    return "".join(text for _, text in GAME.render(GAME.view(state, seat, {})))


def test_a_full_2_turtle_without_a_kagu_is_drawn_while_an_animal_is_thrown_off() -> None:
    """K18: diving a full 2-turtle with no kagu aboard, both animals stay drawn until one is thrown."""
    state = sea(variant="family", turtles={"c2r2": (2, ["red monkey", "blue lizard"])}, dice=(6, 6))
    state = act(state, "die 6", "dive c2r2")
    assert state["phase"] == "throw"
    for seat in (0, 1, None):
        assert "(M1|L2)" in drawn(state, seat)


def test_every_animal_of_a_diving_3_turtle_with_a_kagu_is_drawn_in_the_throw_step() -> None:
    """K26: a 3-turtle carrying four (a kagu on the flooded place) dives to a 2: all four are drawn."""
    riders = ["red monkey", "blue lizard", "red rabbit", "blue kagu"]
    state = act(sea(variant="family", turtles={"c3r1": (3, riders)}, dice=(6, 6)), "die 6", "dive c3r1")
    assert state["phase"] == "throw"
    assert "(M1L2|R1K2)" in drawn(state)


def test_a_1_turtle_with_two_kagus_is_not_drawn_like_a_2_turtle() -> None:
    """K15, K26: the flooded place of a 1-turtle carries nobody; two kagus on it wait to be thrown."""
    state = sea(variant="family", turtles={"c2r2": (2, ["red kagu", "blue kagu"])}, dice=(6, 6))
    diving = act(state, "die 6", "dive c2r2")
    assert "(K1|K2)" in drawn(diving)
    assert "(K1K2)" in drawn(state)


def test_a_kagu_on_a_3_turtles_flooded_place_is_drawn_in_its_place() -> None:
    """K26: a 3-turtle holding four shows the kagu on the flooded (fourth) place."""
    state = sea(turtles={"c1r1": (3, ["red kagu", "blue kagu", "red rabbit", "blue rabbit"])})
    assert "(K1R1R2K2)" in drawn(state)
    assert "(K1____~~)" in drawn(sea(turtles={"c1r1": (3, ["red kagu"])}))
