"""`atoll play` in full screen, as the command runs it: names, saves and errors before the game."""

from __future__ import annotations

import asyncio
from datetime import datetime
from pathlib import Path

import pytest

from atoll.cli import cmd_play
from atoll.cli.main import build_parser
from atoll.client.local_table import LocalTable
from atoll.client.saves import read_save, remembered_name
from atoll.errors import AtollError
from atoll.tui.palette import plain
from atoll.tui.screen import Ending, ScreenResult, TableScreen
from tests.tui.driver import CTRL_C, ENTER, Moves, SizedOutput, drive, first_legal, pipe, registry

WHEN = datetime(2026, 1, 2, 3, 4, 5)


def play(options: list[str], typed: str, data: Path) -> ScreenResult:
    """`atoll play OPTIONS` full screen in this process, ``typed`` sent at once."""
    args = build_parser(["play"]).parse_args(["play", "--bot-delay", "0", *options])
    with pipe() as keys:
        keys.send_text(typed)
        return cmd_play.play_screen(args, registry(), input=keys, output=SizedOutput(),
                                    env={"ATOLL_HOME": str(data / "atoll")}, clock=lambda: WHEN)


def test_leaving_at_once_saves_the_game_to_resume(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = play(["kariba", "--seed", "2", "--bots", "random"], CTRL_C + "y", tmp_path)
    saved = tmp_path / "atoll" / "games" / "kariba-2026-01-02-030405.jsonl"
    assert result.ending is Ending.LEFT
    assert not read_save(saved).finished
    assert f"play --resume {saved}" in capsys.readouterr().out


def test_your_name_is_remembered_for_the_next_game(tmp_path: Path) -> None:
    play(["kariba", "--bots", "random", "--name", "Ann"], CTRL_C + "y", tmp_path)
    assert remembered_name({"ATOLL_HOME": str(tmp_path / "atoll")}) == "Ann"
    play(["kariba", "--bots", "random", "--save", str(tmp_path / "next.jsonl")], CTRL_C + "y", tmp_path)
    assert read_save(tmp_path / "next.jsonl").client["names"] == {"0": "Ann"}


def test_a_save_path_that_cannot_be_written_is_refused_before_the_game(tmp_path: Path) -> None:
    target = tmp_path / "no such folder" / "game.jsonl"
    with pytest.raises(AtollError, match=r"cannot write .*no such folder"):
        play(["kariba", "--save", str(target)], "", tmp_path)


def test_resume_without_a_file_takes_the_newest_unfinished_game(tmp_path: Path) -> None:
    play(["kariba", "--seed", "2", "--bots", "random"], CTRL_C + "y", tmp_path)
    result = play(["--resume"], CTRL_C + "y", tmp_path)
    assert result.ending is Ending.LEFT
    assert any("kariba-2026-01-02-030405.jsonl" in line for line in result.lines)


def test_resume_with_nothing_saved_says_how_to_start(tmp_path: Path) -> None:
    with pytest.raises(AtollError, match="no unfinished game is saved; start one with: atoll play GAME"):
        play(["--resume"], "", tmp_path)


def test_a_match_of_two_games_adds_the_scores_on_the_result_screen(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """`atoll play GAME --match 2`: after the first game the result screen shows the totals so far and
    `r` plays the second; after it, the totals of both games and who won the match."""
    shown: list[str] = []
    finished: list[tuple[int, ...]] = []
    real_run = TableScreen.run

    def moves(table: LocalTable, screen: TableScreen) -> str | None:
        if table.waiting().over:
            shown.append(plain(screen._log_text()))
            results = table.results()
            assert results is not None
            finished.append(results.scores)
            return "r" if len(finished) == 1 else ENTER
        return first_legal(table, screen)

    with pipe() as keys:
        async def driven(screen: TableScreen) -> ScreenResult:
            return await drive(screen, keys, Moves(moves), task=asyncio.ensure_future(real_run(screen)))

        monkeypatch.setattr(TableScreen, "run", driven)
        args = build_parser(["play"]).parse_args(["play", "kariba", "--seed", "2", "--bots", "random",
                                                  "--match", "2", "--bot-delay", "0"])
        result = cmd_play.play_screen(args, registry(), input=keys, output=SizedOutput(),
                                      env={"ATOLL_HOME": str(tmp_path)}, clock=lambda: WHEN)
    assert result.ending is Ending.FINISHED and len(finished) == 2
    first, second = finished
    after_one, after_two = (" ".join(text.split()) for text in shown)  # as read, wrapping aside
    assert "match: game 1 of 2 played" in after_one
    assert f"game 1: player 1 {first[0]}, player 2 {first[1]}" in after_one
    totals = [a + b for a, b in zip(first, second, strict=True)]
    assert "match over after 2 games:" in after_two
    assert f"(totals: player 1 {totals[0]}, player 2 {totals[1]})" in after_two
    assert "match over after 2 games:" in capsys.readouterr().out


def test_a_match_is_not_resumed(tmp_path: Path) -> None:
    """--match starts a new match: with --resume it is refused, saying why."""
    args = build_parser(["play"]).parse_args(["play", "--resume", "--match", "3"])
    with pytest.raises(AtollError, match="--match starts a new match"):
        cmd_play.run(args)
