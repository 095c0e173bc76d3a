"""`atoll play` in full screen, as the command runs it: names, saves and errors before the game."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from atoll.cli import cmd_play
from atoll.cli.main import build_parser
from atoll.client.saves import read_save, remembered_name
from atoll.errors import AtollError
from atoll.tui.screen import Ending, ScreenResult
from tests.tui.driver import CTRL_C, SizedOutput, pipe, registry

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
