"""Kariba K6-K10: a crowd of three chases the closest weaker animal; the mouse chases the elephant."""

from __future__ import annotations

from tests.kariba.scenario import play, set_hole, start

HANDS = [[7, 7, 1, 3, 6], [8, 8, 8, 2, 2]]


def test_three_cards_chase_the_closest_weaker_animal_skipping_empty_places() -> None:
    """K6, rulebook example I: 2+2 rhinos skip the empty leopard and ostrich places and chase 2 giraffes."""
    match = start(HANDS)
    set_hole(match, {7: 2, 4: 2})
    play(match, "play 2 rhino")
    assert match.view(0)["hole"] == [0, 0, 0, 0, 0, 0, 4, 0]
    assert match.view(0)["won"] == [2, 0]


def test_the_next_player_chases_the_chaser() -> None:
    """K6, rulebook example I: the next player's 3 elephants chase the 4 rhinos."""
    match = start(HANDS)
    set_hole(match, {7: 2, 4: 2})
    play(match, "play 2 rhino")
    play(match, "play 3 elephant")
    assert match.view(1)["hole"] == [0, 0, 0, 0, 0, 0, 0, 3]
    assert match.view(1)["won"] == [2, 4]


def test_only_the_closest_weaker_animal_is_chased() -> None:
    """K6: the rhino chases the giraffes, the closest weaker animal; the meerkats further down stay."""
    match = start(HANDS)
    set_hole(match, {7: 1, 4: 2, 2: 3})
    play(match, "play 2 rhino")
    assert match.view(0)["hole"] == [0, 3, 0, 0, 0, 0, 3, 0]
    assert match.view(0)["won"] == [2, 0]


def test_fewer_than_three_cards_chase_nobody() -> None:
    """K7: two rhinos at the waterhole do not chase the giraffes."""
    match = start(HANDS)
    set_hole(match, {7: 1, 4: 2})
    play(match, "play 1 rhino")
    assert match.view(0)["hole"] == [0, 0, 0, 2, 0, 0, 2, 0]
    assert match.view(0)["won"] == [0, 0]


def test_with_no_weaker_animal_present_nobody_is_chased() -> None:
    """K8: three zebras with only stronger animals around win nothing; the stronger ones stay."""
    match = start(HANDS)
    set_hole(match, {3: 2, 5: 4, 8: 1})
    play(match, "play 1 zebra")
    assert match.view(0)["hole"] == [0, 0, 3, 0, 4, 0, 0, 1]
    assert match.view(0)["won"] == [0, 0]


def test_one_card_added_to_a_crowd_of_three_chases_again() -> None:
    """K9: with 4 leopards already there, one more leopard chases the closest weaker animal."""
    match = start(HANDS)
    set_hole(match, {6: 4, 2: 1})
    play(match, "play 1 leopard")
    assert match.view(0)["hole"] == [0, 0, 0, 0, 0, 5, 0, 0]
    assert match.view(0)["won"] == [1, 0]


def test_the_mouse_chases_the_elephant() -> None:
    """K10, rulebook example II: the fifth mouse chases the 2 elephants, not the rhinos."""
    match = start(HANDS)
    set_hole(match, {1: 4, 7: 3, 8: 2})
    play(match, "play 1 mouse")
    assert match.view(0)["hole"] == [5, 0, 0, 0, 0, 0, 3, 0]
    assert match.view(0)["won"] == [2, 0]


def test_the_mouse_chases_nobody_else() -> None:
    """K10, rulebook example II: with no elephant present the mouse chases nobody, not even the rhinos."""
    match = start(HANDS)
    set_hole(match, {1: 4, 2: 3, 7: 2})
    play(match, "play 1 mouse")
    assert match.view(0)["hole"] == [5, 3, 0, 0, 0, 0, 2, 0]
    assert match.view(0)["won"] == [0, 0]


def test_the_elephant_is_not_chased_by_the_rhino() -> None:
    """K10: only the mouse chases the elephant; three rhinos beside elephants chase nobody."""
    match = start(HANDS)
    set_hole(match, {7: 1, 8: 3})
    play(match, "play 2 rhino")
    assert match.view(0)["hole"] == [0, 0, 0, 0, 0, 0, 3, 3]
    assert match.view(0)["won"] == [0, 0]


def test_the_meerkat_chases_the_mouse() -> None:
    """K6, K10: the mouse is weaker than the meerkat, so three meerkats chase it away."""
    match = start([[3, 3, 3, 3, 3], [2, 2, 1, 1, 1]])
    play(match, "play 1 zebra")
    set_hole(match, {1: 3, 2: 1})
    play(match, "play 2 meerkat")
    assert match.view(1)["hole"] == [0, 3, 0, 0, 0, 0, 0, 0]
    assert match.view(1)["won"] == [0, 3]
