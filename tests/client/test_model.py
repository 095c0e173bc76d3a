"""The client's model: bots and chance run by themselves, the log, the legal texts, the results."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from atoll.chance import Request, Shuffle
from atoll.client.model import GameModel
from atoll.errors import AmbiguousAction, UnknownAction
from atoll.jsondata import JSON
from atoll.types import Action, State
from tests.client.conftest import stacked_model
from tests.games.highcard import HighCard


def test_chance_runs_by_itself_until_your_first_decision(model: GameModel) -> None:
    added = model.advance()
    assert model.my_turn()
    assert [entry.text for entry in added] == [
        "chance: shuffled the deck (16 cards, face down)",
        "chance: dealt cards face down: 2 to seat 1 (you), 2 to seat 2 (random bot)",
    ]


def test_your_hand_is_part_of_the_board(model: GameModel) -> None:
    model.advance()
    board = "".join(text for _, text in model.board())
    assert "['deck.0', 8], ['deck.1', 1]" in board


def test_a_secret_decision_is_shown_as_such(model: GameModel) -> None:
    model.advance()
    assert model.secret()
    assert model.turn() == "your turn (seat 1): a secret choice"
    assert model.texts() == ["bet high", "bet low"]


def test_a_bots_secret_choice_is_logged_without_its_value(model: GameModel) -> None:
    model.advance()
    model.take("bet high")
    added = model.advance()
    assert [entry.text for entry in added] == ["seat 2 (random bot): made a secret choice"]


def test_your_own_secret_choice_is_logged_with_its_value_for_you(model: GameModel) -> None:
    model.advance()
    model.take("bet low")
    assert model.log[-1].seat == 0
    assert model.log[-1].seen_by(0) == "seat 1 (you): made a secret choice (bet low; only you know it)"


def test_a_unique_beginning_of_a_text_takes_that_action(model: GameModel) -> None:
    model.advance()
    model.take("bet h")
    model.advance()
    action = model.take("PLAY 8")
    assert action == {"play": "deck.0", "reveal": {"deck.0": 8}}


def test_an_unknown_text_is_refused_and_changes_nothing(model: GameModel) -> None:
    model.advance()
    events = list(model.match.events)
    with pytest.raises(UnknownAction, match="legal: bet high, bet low"):
        model.take("fold")
    assert model.match.events == events
    assert model.my_turn()


def test_an_ambiguous_beginning_is_refused_naming_the_candidates(model: GameModel) -> None:
    model.advance()
    with pytest.raises(AmbiguousAction, match="bet high, bet low"):
        model.take("bet")


def test_news_is_what_happened_since_your_last_move() -> None:
    model = stacked_model(seats=3)
    model.advance()
    model.take("bet high")
    model.advance()
    assert [entry.seat for entry in model.news()] == [1, 2]


def test_the_log_line_is_described_before_the_action_is_applied() -> None:
    class Narrated(HighCard):
        def describe_log(self, state: State, seat: int, action: Action) -> str:
            return f"seat {seat} acted on turn {state['turn']}"

    model = stacked_model()
    model.match.game = Narrated()
    model.advance()
    model.take("bet high")
    model.advance()
    model.take("play 8")
    assert model.log[-1].text == "seat 0 acted on turn 0"


def test_a_game_may_word_what_chance_did_itself_seeing_the_state_before() -> None:
    class Narrated(HighCard):
        def describe_chance(self, state: State, request: Request, outcome: Mapping[str, JSON]) -> str | None:
            if isinstance(request, Shuffle):
                return f"the dealer shuffles ({state['phase']})"
            return None  # the client's own words for the rest

    model = stacked_model()
    model.match.game = Narrated()
    model.advance()
    assert [entry.text for entry in model.log[:2]] == [
        "the dealer shuffles (shuffle)",
        "chance: dealt cards face down: 2 to seat 1 (you), 2 to seat 2 (random bot)",
    ]


def test_the_end_names_the_scores_and_the_winner() -> None:
    """High Card: a seat scores its card, plus the die when its bet matches (high: 4-6)."""
    model = stacked_model(rolls=(6,))
    model.advance()
    model.take("bet high")
    model.advance()
    model.take("play 8")
    model.advance()
    results = model.results()
    assert results is not None
    assert results.scores[0] == 14
    assert model.result_lines()[0] == "game over: seat 1 (you) wins"
    assert model.result_lines()[1].split() == ["1st", "seat", "1", "(you):", "14", "points"]
    assert model.result_lines()[2].startswith("2nd   seat 2 (random bot): ")
    assert model.turn() == "the game is over"


def test_bots_must_sit_at_every_other_seat() -> None:
    model = stacked_model()
    with pytest.raises(ValueError, match=r"exactly the seats \[1\]"):
        GameModel(model.match, 0, {})
