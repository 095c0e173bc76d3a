"""Kariba's words and pictures: action texts, log lines, what each seat sees, and the drawing."""

from __future__ import annotations

from atoll import Fragments
from tests.kariba.scenario import GAME, play, set_hole, start


def _text(fragments: Fragments) -> str:
    return "".join(text for _, text in fragments)


def test_the_log_names_the_cards_played_and_the_cards_chased() -> None:
    """K6: the log says what was played and what it chased away, in public words."""
    match = start([[7, 7, 1, 3, 6], [8, 8, 8, 2, 2]])
    set_hole(match, {7: 2, 4: 2})
    line = GAME.describe_log(match.state, 0, match.parse(0, "play 2 rhino"))
    assert line == "seat 0 plays 2 rhino cards and chases away 2 giraffe cards"
    assert GAME.describe_log(match.state, 0, match.parse(0, "play 1 mouse")) == "seat 0 plays 1 mouse card"


def test_the_log_names_the_face_up_card_taken_but_not_the_card_drawn() -> None:
    """K16, K19: a face-up card taken is public; a card drawn from the pile is not."""
    match = start([[7, 7, 1, 3, 6], [8, 8, 8, 2, 2]], pile=[3, 5, 8], variant="experienced")
    play(match, "play 2 rhino")
    assert GAME.describe_log(match.state, 0, match.parse(0, "take zebra")) == "seat 0 takes the face-up zebra"
    assert GAME.describe_log(match.state, 0, match.parse(0, "draw pile")) == "seat 0 draws from the pile"


def test_a_seat_sees_its_own_cards_and_only_the_sizes_of_the_others() -> None:
    """K2: only a hand's owner sees its faces; the others see how many cards it holds."""
    match = start([[7, 7, 1, 3, 6], [8, 8, 8, 2, 2]])
    assert match.view(0)["hand"] == [1, 3, 6, 7, 7]
    assert match.view(1)["hand"] == [2, 2, 8, 8, 8]
    assert match.view(None)["hand"] == []
    assert match.view(None)["hand_sizes"] == [5, 5]


def test_a_view_does_not_depend_on_the_faces_a_seat_cannot_see() -> None:
    """K2: two deals that differ only in seat 0's hand look the same to seat 1 and to a spectator."""
    one = start([[7, 7, 1, 3, 6], [8, 8, 8, 2, 2]])
    other = start([[4, 4, 4, 5, 5], [8, 8, 8, 2, 2]])
    assert one.view(1) == other.view(1)
    assert one.view(None) == other.view(None)
    assert one.view(0) != other.view(0)


def test_the_drawing_shows_the_waterhole_the_players_the_pile_and_the_hand() -> None:
    """K5: the board shows each place with its count, hand sizes, scores, the pile and your hand."""
    match = start([[7, 7, 1, 3, 6], [8, 8, 8, 2, 2]], pile=[3, 5, 8], variant="experienced")
    set_hole(match, {7: 2, 4: 2})
    fragments = GAME.render(match.view(0))
    assert all(isinstance(style, str) and isinstance(text, str) for style, text in fragments)
    text = " ".join(_text(fragments).split())
    for line in ["7 rhino ## 2", "8 elephant 0", "Draw pile: 51 cards",
                 "Face-up: zebra ostrich elephant", "seat 0 (you): 5 in hand, 0 won <- to play",
                 "seat 1: 5 in hand, 0 won", "Your hand: mouse zebra leopard rhino rhino"]:
        assert line in text


def test_a_spectator_sees_no_hand_and_the_end_names_the_winners() -> None:
    """K14: the board of a finished game names every winner."""
    match = start([[7, 7, 7, 7, 7], [8, 8, 8, 2, 2]])
    match.state = {**match.state, "top": 64, "won": [0, 2]}
    set_hole(match, {6: 2})
    play(match, "play 5 rhino")
    text = _text(GAME.render(match.view(None)))
    assert "game over: seat 0, seat 1 win" in text
    assert "Your hand" not in text
