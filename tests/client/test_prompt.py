"""The prompt client, headless: lines go in through a pipe, and the session's result comes out."""

from __future__ import annotations

from pathlib import Path

import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from atoll.client.console import Console
from atoll.client.local import start_local_game
from atoll.client.model import GameModel
from atoll.client.prompt import ActionCompleter, Ending, PromptClient, SessionResult
from atoll.engine import LocalResolver, load, replay, save
from atoll.registry import load_registry
from atoll.types import Action, State
from tests.client.conftest import stacked_model
from tests.games.highcard import HighCard

#: A whole two-seat game of High Card for seat 0 with the stacked deck.
WHOLE_GAME = "bet high\nplay 8\n"


def play(model: GameModel, typed: str, folder: Path) -> SessionResult:
    """Run a session on ``typed`` (then the end of input), saving into ``folder``."""
    resolver = model.match.resolver
    assert isinstance(resolver, LocalResolver)

    def saver() -> Path:
        path = folder / "game.jsonl"
        save(model.match, path, seed=model.seed, faces=resolver.faces())
        return path

    with create_pipe_input() as pipe:
        pipe.send_text(typed)
        pipe.close()
        return PromptClient(model, Console(DummyOutput()), saver, input=pipe, output=DummyOutput()).run()


def shown(result: SessionResult) -> str:
    return "\n".join(result.transcript)


def test_a_whole_game_is_played_from_typed_lines_and_saved(model: GameModel, tmp_path: Path) -> None:
    result = play(model, WHOLE_GAME, tmp_path)
    assert result.ending is Ending.FINISHED
    assert model.results() is not None
    assert result.saved == tmp_path / "game.jsonl"
    assert replay(HighCard(), load(tmp_path / "game.jsonl")).state == model.match.state


def test_the_end_shows_the_scores_the_winner_and_where_the_game_was_saved(
    model: GameModel, tmp_path: Path
) -> None:
    result = play(model, WHOLE_GAME, tmp_path)
    said = model.result_lines()
    assert result.transcript[-3 - len(said):-2] == ("the game is over", *said)
    assert result.transcript[-1] == f"replay it with: atoll replay {tmp_path / 'game.jsonl'}"


def test_before_each_decision_the_board_news_and_turn_are_shown(model: GameModel, tmp_path: Path) -> None:
    result = play(model, "", tmp_path)
    assert result.transcript[:4] == (
        "phase bet hand [['deck.0', 8], ['deck.1', 1]]",
        "so far:\n  chance: shuffled the deck (16 cards, face down)\n"
        "  chance: dealt cards face down: 2 to seat 1 (you), 2 to seat 2 (random bot)",
        "your turn (seat 1): a secret choice",
        "this choice is secret: the others learn only that you made it, until the game reveals it",
    )


def test_the_others_moves_since_your_last_one_are_shown(model: GameModel, tmp_path: Path) -> None:
    result = play(model, "bet high\n", tmp_path)
    assert "since your last move:\n  seat 2 (random bot): made a secret choice" in result.transcript


def test_an_unknown_action_is_explained_and_asked_again(model: GameModel, tmp_path: Path) -> None:
    result = play(model, "fold\n" + WHOLE_GAME, tmp_path)
    assert "'fold' is not a legal action now; legal: bet high, bet low" in result.transcript
    assert result.ending is Ending.FINISHED


def test_an_ambiguous_beginning_lists_the_candidates(model: GameModel, tmp_path: Path) -> None:
    result = play(model, "bet\n", tmp_path)
    assert "'bet' could be any of: bet high, bet low" in result.transcript
    assert model.my_turn() and model.secret()


def test_help_explains_the_texts_and_the_commands(model: GameModel, tmp_path: Path) -> None:
    result = play(model, "help\n", tmp_path)
    assert "a unique beginning is enough" in shown(result)
    assert "quit   leave the game" in shown(result)


def test_board_draws_the_board_again(model: GameModel, tmp_path: Path) -> None:
    result = play(model, "board\n", tmp_path)
    assert result.transcript.count("phase bet hand [['deck.0', 8], ['deck.1', 1]]") == 2


def test_log_shows_the_whole_game_so_far(model: GameModel, tmp_path: Path) -> None:
    result = play(model, "bet low\nlog\n", tmp_path)
    assert "the game so far:" in shown(result)
    assert "seat 1 (you): made a secret choice (bet low; only you know it)" in shown(result)


def test_quit_asks_and_saves_when_told_to(model: GameModel, tmp_path: Path) -> None:
    result = play(model, "quit\ny\ny\n", tmp_path)
    assert result.ending is Ending.QUIT
    assert result.saved is not None and result.saved.exists()
    assert model.results() is None


def test_quit_without_saving_leaves_no_file(model: GameModel, tmp_path: Path) -> None:
    result = play(model, "quit\ny\nn\n", tmp_path)
    assert result.ending is Ending.QUIT
    assert result.saved is None
    assert "left without saving" in result.transcript
    assert not (tmp_path / "game.jsonl").exists()


def test_answering_no_to_quit_goes_on_with_the_game(model: GameModel, tmp_path: Path) -> None:
    result = play(model, "quit\nn\n" + WHOLE_GAME, tmp_path)
    assert result.ending is Ending.FINISHED


def test_ctrl_d_leaves_and_saves_the_game(model: GameModel, tmp_path: Path) -> None:
    result = play(model, "bet high\n\x04", tmp_path)
    assert result.ending is Ending.CLOSED
    assert result.saved is not None
    assert len(load(result.saved).events) == len(model.match.events)


def test_ctrl_c_asks_before_leaving(model: GameModel, tmp_path: Path) -> None:
    result = play(model, "\x03n\n" + WHOLE_GAME, tmp_path)
    assert "going on" in result.transcript
    assert result.ending is Ending.FINISHED


def test_ctrl_c_twice_leaves_and_saves(model: GameModel, tmp_path: Path) -> None:
    result = play(model, "\x03\x03", tmp_path)
    assert result.ending is Ending.QUIT
    assert result.saved is not None


def test_a_command_word_that_is_also_a_legal_text_is_the_action(tmp_path: Path) -> None:
    class Quitters(HighCard):
        def describe(self, state: State, action: Action) -> str:
            text = super().describe(state, action)
            return "quit" if text == "bet low" else text

    model = stacked_model()
    model.match.game = Quitters()
    result = play(model, "quit\n", tmp_path)
    mine = [entry.seen_by(0) for entry in model.log if entry.seat == 0]
    assert mine == ["seat 1 (you): made a secret choice (quit; only you know it)"]
    assert result.ending is Ending.CLOSED


def test_the_completer_offers_the_legal_texts_then_the_commands() -> None:
    completer = ActionCompleter(lambda: ["play 8 (deck.0)", "play 1 (deck.1)", "pass"])
    found = completer.get_completions(Document("P"), CompleteEvent(completion_requested=True))
    assert [c.text for c in found] == ["play 8 (deck.0)", "play 1 (deck.1)", "pass"]
    found = completer.get_completions(Document("q"), CompleteEvent(completion_requested=True))
    assert [c.text for c in found] == ["quit"]


@pytest.mark.parametrize("typed", ["PLAY 8", "play   8"])
def test_case_and_spaces_do_not_matter(model: GameModel, tmp_path: Path, typed: str) -> None:
    result = play(model, f"bet high\n{typed}\n", tmp_path)
    assert result.ending is Ending.FINISHED


def test_the_game_is_saved_before_each_of_your_turns(model: GameModel, tmp_path: Path) -> None:
    saved_at: list[int] = []
    with create_pipe_input() as pipe:
        pipe.send_text(WHOLE_GAME)
        pipe.close()
        client = PromptClient(model, Console(DummyOutput()), lambda: tmp_path / "game.jsonl", input=pipe,
                              output=DummyOutput(), autosave=lambda: saved_at.append(len(model.match.events)))
        client.run()
    mine = [n for n, event in enumerate(model.match.events) if event.get("seat") == 0]
    assert saved_at == mine  # each save holds everything up to the player's next action


def test_the_line_client_shows_the_games_rules_cards_and_legend_and_what_is_decided(tmp_path: Path) -> None:
    model = start_local_game(load_registry(), "kiribati", seed=3, seats=2, variant="family", seat=0,
                             bots=["random"]).model
    said = shown(play(model, "rules\ncards\nlegend\n", tmp_path))
    assert "Goal: bring your animals" in said
    assert "Feeding station, 1 point." in said
    assert "an animal and its owner's seat number: R1 is red's rabbit" in " ".join(said.split())
    assert "your turn (red): keep 4 of your 6 action cards; F3 or cards explains" in said
