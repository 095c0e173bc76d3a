"""`atoll play`: options, seeds, saving, and piped (non-terminal) input in a real process."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from atoll.cli import cmd_play
from atoll.cli.main import build_parser
from atoll.client.prompt import Ending, SessionResult
from atoll.engine import load, replay
from atoll.errors import AtollError
from atoll.registry import load_registry
from tests.games import highcard

ROOT = Path(__file__).resolve().parents[2]
WHEN = datetime(2025, 1, 2, 3, 4, 5)
#: Every card seat 0 could hold as its first card (deck.0): all but the held one are refused.
PLAY_ANY_FIRST_CARD = "".join(f"play {face} (deck.0)\n" for face in range(1, 9))


def play(options: list[str], typed: str, data: Path) -> SessionResult:
    """Run `atoll play highcard OPTIONS` in this process on ``typed`` lines."""
    args = build_parser(["play"]).parse_args(["play", "highcard", "--bots", "random", *options])
    found = load_registry(entry_points=False, extra=[("highcard", highcard)])
    with create_pipe_input() as pipe:
        pipe.send_text(typed)
        pipe.close()
        return cmd_play.play(args, found, input=pipe, output=DummyOutput(),
                             env={"ATOLL_HOME": str(data / "atoll")}, clock=lambda: WHEN)


def test_play_is_a_subcommand_with_its_options() -> None:
    args = build_parser(["play"]).parse_args(["play", "kariba", "--seats", "3", "--bots", "search,random",
                                      "--seed", "7", "--seat", "2", "--variant", "standard"])
    # --seat counts from 1, as the screens do; the index counts from 0
    assert (args.game, args.seats, args.bots, args.seed, args.seat) == ("kariba", 3, "search,random", 7, 1)


def test_without_save_the_game_goes_to_the_data_dir(tmp_path: Path) -> None:
    result = play(["--seed", "5"], "bet high\n" + PLAY_ANY_FIRST_CARD, tmp_path)
    assert result.ending is Ending.FINISHED
    assert result.saved == tmp_path / "atoll" / "games" / "highcard-2025-01-02-030405.jsonl"
    saved = load(result.saved)
    assert saved.seed == 5
    assert replay(highcard.HighCard(), saved).results() is not None


def test_save_writes_the_named_file(tmp_path: Path) -> None:
    target = tmp_path / "mine.jsonl"
    result = play(["--seed", "5", "--save", str(target)], "bet low\n" + PLAY_ANY_FIRST_CARD, tmp_path)
    assert result.saved == target
    assert load(target).results is not None


def test_an_existing_save_file_is_refused_before_the_game_starts(tmp_path: Path) -> None:
    target = tmp_path / "mine.jsonl"
    target.write_text("keep me")
    with pytest.raises(AtollError, match="already exists; choose a new file name"):
        play(["--save", str(target)], "", tmp_path)
    assert target.read_text() == "keep me"


def test_a_save_file_that_cannot_be_written_falls_back_to_the_data_dir(tmp_path: Path) -> None:
    target = tmp_path / "no such folder" / "mine.jsonl"
    result = play(["--save", str(target)], "", tmp_path / "data")
    assert result.saved is not None and result.saved.parent == tmp_path / "data" / "atoll" / "games"
    assert any(line.startswith(f"could not save to {target}") for line in result.transcript)


def test_a_random_seed_is_printed_so_the_game_can_be_reproduced(tmp_path: Path) -> None:
    result = play([], "", tmp_path)
    assert result.saved is not None
    seed = load(result.saved).seed
    expected = f"seed {seed} (play the same deal again with --seed {seed}); type help for help"
    assert expected in result.transcript


def test_the_same_seed_deals_the_same_game(tmp_path: Path) -> None:
    first = play(["--seed", "11", "--seats", "3"], "bet high\n" + PLAY_ANY_FIRST_CARD, tmp_path / "a")
    second = play(["--seed", "11", "--seats", "3"], "bet high\n" + PLAY_ANY_FIRST_CARD, tmp_path / "b")
    assert first.saved is not None and second.saved is not None
    assert first.saved.read_text() == second.saved.read_text()


def test_piped_input_plays_a_whole_game_in_a_real_process(tmp_path: Path) -> None:
    """stdin is a pipe, not a terminal: lines are read as typed, the end of input is Ctrl-D."""
    env = {**os.environ, "ATOLL_HOME": str(tmp_path / "atoll")}
    done = subprocess.run(
        [sys.executable, "-m", "tests.client.highcard_cli", "--seed", "3", "--bots", "random"],
        input="bet high\n" + PLAY_ANY_FIRST_CARD, capture_output=True, text=True, cwd=ROOT, env=env,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "the game is over" in done.stdout
    saves = list((tmp_path / "atoll" / "games").glob("highcard-*.jsonl"))
    assert len(saves) == 1 and load(saves[0]).results is not None
