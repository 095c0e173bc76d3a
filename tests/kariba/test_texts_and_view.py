"""Kariba's words and pictures: action texts, log lines, what each seat sees, and the drawing."""

from __future__ import annotations

import pytest

from atoll import AmbiguousAction, Fragments
from atoll.chance import request_from_json
from atoll.engine import Match
from atoll.plugins.kariba.texts import NAMES
from tests.kariba.scenario import GAME, play, set_hole, start


def _text(fragments: Fragments) -> str:
    return "".join(text for _, text in fragments)


def test_the_log_names_the_cards_played_and_the_cards_chased() -> None:
    """K6: the log says what was played and what it chased away, in public words."""
    match = start([[7, 7, 1, 3, 6], [8, 8, 8, 2, 2]])
    set_hole(match, {7: 2, 4: 2})
    line = GAME.describe_log(match.state, 0, match.parse(0, "play 2 rhino"))
    assert line == "player 1 plays 2 rhino cards and chases away 2 giraffe cards"
    assert GAME.describe_log(match.state, 0, match.parse(0, "play 1 mouse")) == "player 1 plays 1 mouse card"


def test_the_log_names_the_face_up_card_taken_but_not_the_card_drawn() -> None:
    """K16, K19: a face-up card taken is public; a card drawn from the pile is not."""
    match = start([[7, 7, 1, 3, 6], [8, 8, 8, 2, 2]], pile=[3, 5, 8], variant="experienced")
    play(match, "play 2 rhino")
    taken = GAME.describe_log(match.state, 0, match.parse(0, "take zebra"))
    assert taken == "player 1 takes the face-up zebra"
    assert GAME.describe_log(match.state, 0, match.parse(0, "draw pile")) == "player 1 draws from the pile"


def log_of_chance(match: Match) -> list[str]:
    """The game's words for every chance step the match has taken so far."""
    state = GAME.setup(match.config)
    lines = []
    for event in match.events:
        if "request" in event:
            request = request_from_json(event["request"])
            line = GAME.describe_chance(state, request, event["outcome"])
            assert line is not None
            lines.append(line)
            state = GAME.resolve(state, request, event["outcome"])
        else:
            state = GAME.apply(state, event["action"])
    return lines


def test_chance_is_told_in_the_games_words() -> None:
    """K2, K11, K15: the log says the cards were shuffled and dealt, who drew how many cards from
    the pile (not which), and what the face-up row shows, naming animals rather than handles."""
    match = start([[7, 7, 1, 3, 6], [8, 8, 8, 2, 2]], pile=[3, 5, 8, 1, 6, 4], variant="experienced")
    play(match, "play 2 rhino")
    play(match, "draw pile")
    play(match, "take elephant")
    assert log_of_chance(match) == [
        "the 64 cards are shuffled",
        "every player is dealt 5 cards",
        "the face-up row now shows zebra, ostrich, elephant",
        "player 1 draws a card from the pile",
        "the face-up row now shows zebra, ostrich, leopard",
    ]
    standard = start([[7, 7, 1, 3, 6], [8, 8, 8, 2, 2]])
    play(standard, "play 2 rhino")
    assert log_of_chance(standard)[-1] == "player 1 draws 2 cards from the pile"


def test_play_mouse_names_the_one_play_of_mice_in_any_case() -> None:
    """K4: with one mouse in hand, `play mouse` (or `Play Mouse`) plays it; with two elephants,
    `play rhino` is refused, naming the counts to choose from."""
    match = start([[7, 7, 1, 3, 6], [8, 8, 8, 2, 2]])
    assert match.parse(0, "play mouse") == match.parse(0, "play 1 mouse")
    assert match.parse(0, "Play  MOUSE") == match.parse(0, "play 1 mouse")
    with pytest.raises(AmbiguousAction, match="play 1 rhino, play 2 rhino"):
        match.parse(0, "play rhino")


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
                 "Face-up: zebra ostrich elephant", "player 1 (you): 5 in hand, 0 won <- to play",
                 "player 2: 5 in hand, 0 won", "Your hand: mouse zebra leopard rhino rhino"]:
        assert line in text


def test_a_spectator_sees_no_hand_and_the_end_names_the_winners() -> None:
    """K14: the board of a finished game names every winner."""
    match = start([[7, 7, 7, 7, 7], [8, 8, 8, 2, 2]])
    match.state = {**match.state, "top": 64, "won": [0, 2]}
    set_hole(match, {6: 2})
    play(match, "play 5 rhino")
    text = _text(GAME.render(match.view(None)))
    assert "game over: player 1, player 2 win" in text
    assert "Your hand" not in text


def test_the_player_who_draws_reads_which_animals_and_the_others_only_how_many() -> None:
    """K11: the pile's cards are hidden; the one who draws them reads which animals they are
    ("you draw ..."), every other player only that a card was drawn (the public line)."""
    match = start([[7, 7, 1, 3, 6], [8, 8, 8, 2, 2]], pile=[3, 5, 8, 1, 6, 4])
    play(match, "play 1 mouse")
    state = GAME.setup(match.config)
    for event in match.events[:-1]:
        state = (GAME.resolve(state, request_from_json(event["request"]), event["outcome"])
                 if "request" in event else GAME.apply(state, event["action"]))
    draw = match.events[-1]
    request = request_from_json(draw["request"])
    drawn = [match.knowledge(0)[handle] for handle in request.to[0][1]]  # type: ignore[attr-defined]
    mine = GAME.describe_chance_to(state, request, draw["outcome"], 0, match.knowledge(0))
    assert len(drawn) == 1 and mine == f"you draw {'an' if drawn[0] == 5 else 'a'} {NAMES[drawn[0]]}"
    assert GAME.describe_chance_to(state, request, draw["outcome"], 1, match.knowledge(1)) is None
    assert GAME.describe_chance(state, request, draw["outcome"]) == "player 1 draws a card from the pile"
