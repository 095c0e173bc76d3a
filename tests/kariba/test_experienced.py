"""Kariba K15-K19: the experienced variant's three face-up cards, drawing from them, replenishing."""

from __future__ import annotations

import pytest

from atoll import IllegalAction
from tests.kariba.scenario import GAME, hand, play, seat_to_move, snapshot, start, texts

HANDS = [[7, 7, 1, 3, 6], [8, 8, 8, 2, 2]]


def test_three_cards_are_turned_face_up_after_the_deal() -> None:
    """K15: the top three cards of the pile, after the deal, lie face up beside it."""
    match = start(HANDS, pile=[3, 5, 8], variant="experienced")
    assert match.view(1)["row"] == [3, 5, 8]
    assert match.view(None)["pile"] == 64 - 10 - 3
    assert hand(match, 0) == [1, 3, 6, 7, 7]


def test_a_player_chooses_each_card_from_the_pile_or_the_face_up_cards() -> None:
    """K16: after playing, seat 0 draws one card at a time, choosing the pile or a face-up card."""
    match = start(HANDS, pile=[3, 5, 8], variant="experienced")
    play(match, "play 2 rhino")
    assert seat_to_move(match) == 0
    assert texts(match) == ["draw pile", "take zebra", "take ostrich", "take elephant"]


def test_face_up_cards_of_one_animal_are_one_choice() -> None:
    """K16: two face-up zebras give one action, `take zebra`."""
    match = start(HANDS, pile=[3, 3, 8], variant="experienced")
    play(match, "play 2 rhino")
    assert texts(match) == ["draw pile", "take zebra", "take elephant"]


def test_taking_and_drawing_mix_until_the_hand_holds_five() -> None:
    """K16: take a zebra, then draw the top of the pile; with five cards the turn is over."""
    match = start(HANDS, pile=[3, 5, 8, 2, 6], variant="experienced")
    play(match, "play 2 rhino")
    play(match, "take zebra")
    assert seat_to_move(match) == 0
    play(match, "draw pile")
    assert hand(match, 0) == [1, 2, 3, 3, 6]
    assert seat_to_move(match) == 1


def test_drawing_stops_at_five_even_with_face_up_cards_left() -> None:
    """K16: a player who played one card takes one card and stops; the other face-up cards stay."""
    match = start(HANDS, pile=[3, 5, 8], variant="experienced")
    play(match, "play 1 mouse")
    play(match, "take elephant")
    assert seat_to_move(match) == 1
    assert match.view(1)["hand_sizes"] == [5, 5]
    assert match.view(1)["row"][:2] == [3, 5]


def test_when_the_face_up_cards_run_out_the_rest_comes_from_the_pile() -> None:
    """K16: seat 0 plays five rhinos, takes all three face-up cards and gets two more from the pile."""
    match = start([[7, 7, 7, 7, 7], [8, 8, 8, 2, 2]], pile=[3, 5, 8, 1, 6], variant="experienced")
    play(match, "play 5 rhino")
    for text in ["take zebra", "take ostrich", "take elephant"]:
        play(match, text)
    assert hand(match, 0) == [1, 3, 5, 6, 8]
    assert seat_to_move(match) == 1


def test_face_up_cards_taken_are_replaced_after_the_turn_not_during_it() -> None:
    """K17: the gap stays open while seat 0 draws; after its turn the next pile card fills it."""
    match = start(HANDS, pile=[3, 5, 8, 2, 6], variant="experienced")
    play(match, "play 2 rhino")
    play(match, "take zebra")
    assert match.view(0)["row"] == [5, 8]
    assert texts(match) == ["draw pile", "take ostrich", "take elephant"]
    play(match, "draw pile")
    assert match.view(1)["row"] == [5, 8, 6]
    assert match.view(1)["pile"] == 64 - 10 - 3 - 2


def test_with_the_pile_empty_the_gaps_stay_open() -> None:
    """K17: once the pile's last card is drawn, no card is left to replace a face-up card taken."""
    match = start(HANDS, pile=[3, 5, 8], variant="experienced")
    match.state = {**match.state, "top": 63}
    play(match, "play 2 rhino")
    play(match, "take zebra")
    play(match, "draw pile")
    assert seat_to_move(match) == 1
    assert match.view(1)["row"] == [5, 8] and match.view(1)["pile"] == 0


def test_once_the_pile_is_empty_nobody_draws_not_even_face_up_cards() -> None:
    """K18: "when the draw pile is empty, continue playing without refreshing your hand": the
    face-up cards left are not taken either, and the turn ends after the play."""
    match = start(HANDS, pile=[3, 5, 8], variant="experienced")
    match.state = {**match.state, "top": 64}
    play(match, "play 2 rhino")
    assert seat_to_move(match) == 1
    assert match.view(1)["hand_sizes"] == [3, 5] and match.view(1)["row"] == [3, 5, 8]


def test_the_last_card_drawn_from_the_pile_ends_the_drawing() -> None:
    """K18: a player who draws the pile's last card draws no more, though face-up cards remain."""
    match = start(HANDS, pile=[3, 5, 8, 4], variant="experienced")
    match.state = {**match.state, "top": 63}
    play(match, "play 2 rhino")
    play(match, "draw pile")
    assert seat_to_move(match) == 1 and match.view(1)["hand_sizes"] == [4, 5]


def test_the_game_ends_when_a_player_has_played_the_last_card_though_face_up_cards_remain() -> None:
    """K18, K13: with the pile empty, the player who empties the hand ends the game at once."""
    match = start([[7, 7, 7, 7, 7], [8, 8, 8, 2, 2]], pile=[3, 5, 8], variant="experienced")
    match.state = {**match.state, "top": 64}
    play(match, "play 5 rhino")
    assert match.results() is not None


def test_a_card_taken_face_up_is_known_to_everybody() -> None:
    """K19: the others see the zebra seat 0 took; playing it later shows no hidden card."""
    match = start(HANDS, pile=[3, 5, 8, 2], variant="experienced")
    play(match, "play 2 rhino")
    play(match, "take zebra")
    play(match, "draw pile")
    assert match.view(1)["shown"] == [[3], []]
    play(match, "play 2 meerkat")
    play(match, "draw pile")
    play(match, "draw pile")
    assert match.texts(0)["play 1 zebra"]["reveal"] == {}
    assert list(match.texts(0)["play 2 zebra"]["reveal"].values()) == [3]
    with pytest.raises(IllegalAction, match="face up first"):
        GAME.apply(match.state, {"play": ["deck.3"], "reveal": {"deck.3": 3}})
    play(match, "play 1 zebra")
    assert match.view(1)["shown"] == [[], []]
    assert match.view(1)["hole"][3 - 1] == 1


def test_draws_that_are_not_allowed_are_refused_and_change_nothing() -> None:
    """K16: only a draw from the pile or a face-up card is legal while drawing; nothing else changes."""
    match = start(HANDS, pile=[3, 5, 8], variant="experienced")
    play(match, "play 2 rhino")
    before = snapshot(match)
    for action in [
        {"play": ["deck.2"], "reveal": {"deck.2": 1}},
        {"take": "deck.20"},
        {"take": "deck.0"},
        {"draw": "row"},
    ]:
        with pytest.raises(IllegalAction):
            GAME.apply(match.state, action)
    assert snapshot(match) == before


def test_of_two_face_up_cards_of_one_animal_the_first_is_taken() -> None:
    """K16: `take zebra` takes the first face-up zebra; asking for the second by name is refused."""
    match = start(HANDS, pile=[3, 3, 8], variant="experienced")
    play(match, "play 2 rhino")
    assert match.parse(0, "take zebra") == {"take": "deck.10"}
    before = snapshot(match)
    with pytest.raises(IllegalAction, match="take the first face-up 3 instead"):
        GAME.apply(match.state, {"take": "deck.11"})
    assert snapshot(match) == before


def test_drawing_from_an_empty_pile_is_refused() -> None:
    """K12, K16, K18: `draw pile` is illegal once the pile is empty, as is taking a face-up card."""
    match = start(HANDS, pile=[3, 5, 8], variant="experienced")
    match.state = {**match.state, "top": 64}
    before = snapshot(match)
    for action in ({"draw": "pile"}, {"take": match.state["row"][0]}):
        with pytest.raises(IllegalAction, match="not a Kariba play"):
            GAME.apply(match.state, action)
    with pytest.raises(IllegalAction, match="pile: it is empty"):
        GAME.apply({**match.state, "phase": "draw"}, {"draw": "pile"})
    assert snapshot(match) == before
