"""The log's line for chance in the game's words: a game may read the state after the outcome (the
winner of a revealed round), and a game that words chance from the state before is asked as before."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from types import ModuleType

from atoll import JSON, End, Game, Request, Reveal, State, hookimpl
from atoll.client.local import new_local_table
from atoll.client.local_table import LocalTable
from atoll.client.saves import read_save
from atoll.registry import load_registry
from atoll.tui.replay import frames
from tests.client.test_local_table import play_out
from tests.games import highcard


class WinnerNamed(highcard.HighCard):
    """High Card whose line for the opened bets names the winners, read from the state after."""

    def describe_chance_after(
        self, state: State, request: Request, outcome: Mapping[str, JSON], after: State
    ) -> str | None:
        end = self.next(after)
        if isinstance(request, Reveal) and isinstance(end, End):
            winners = " and ".join(f"player {w + 1}" for w in end.results.winners)
            return f"the bets are open: {winners} win"
        return None


class OldWords(highcard.HighCard):
    """High Card written before the state after was offered: it words chance from the state before."""

    def describe_chance(self, state: State, request: Request, outcome: Mapping[str, JSON]) -> str | None:
        return f"the bets are open in phase {state['phase']}" if isinstance(request, Reveal) else None


def finished(game: Game, path: Path) -> LocalTable:
    plugin = ModuleType("words")
    plugin.atoll_games = hookimpl(lambda: [game])  # type: ignore[attr-defined]
    found = load_registry(entry_points=False, extra=[("words", plugin)])
    source = new_local_table(found, "highcard", seed=5, bots=["random"], save_path=path)
    play_out(source)
    assert source.results() is not None
    return source


def test_the_log_names_the_winner_the_game_reads_from_the_state_after_chance(tmp_path: Path) -> None:
    source = finished(WinnerNamed(), tmp_path / "game.jsonl")
    results = source.results()
    assert results is not None
    winners = " and ".join(f"player {w + 1}" for w in results.winners)
    assert [line.text for line in source.log() if line.text.startswith("the bets")] == [
        f"the bets are open: {winners} win"
    ]


def test_the_replay_words_chance_from_the_state_after_as_the_table_did(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    source = finished(WinnerNamed(), path)
    replayed = [f.line.text for f in frames(WinnerNamed(), read_save(path).saved) if f.line is not None]
    assert [text for text in replayed if text.startswith("the bets")] == [
        line.text for line in source.log() if line.text.startswith("the bets")
    ]


def test_a_game_that_words_chance_from_the_state_before_only_is_asked_as_before(tmp_path: Path) -> None:
    source = finished(OldWords(), tmp_path / "game.jsonl")
    assert "the bets are open in phase open" in [line.text for line in source.log()]
