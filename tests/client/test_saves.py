"""Where games are saved when the player names no file."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from atoll.client.saves import data_dir, new_save_path

WHEN = datetime(2025, 3, 4, 5, 6, 7)


def test_the_data_dir_follows_xdg_data_home(tmp_path: Path) -> None:
    assert data_dir({"XDG_DATA_HOME": str(tmp_path), "HOME": "/nowhere"}) == tmp_path / "atoll"


def test_without_xdg_data_home_the_data_dir_is_under_home(tmp_path: Path) -> None:
    assert data_dir({"HOME": str(tmp_path)}) == tmp_path / ".local" / "share" / "atoll"


def test_a_relative_xdg_data_home_is_ignored(tmp_path: Path) -> None:
    assert data_dir({"XDG_DATA_HOME": "relative", "HOME": str(tmp_path)}) == tmp_path / ".local/share/atoll"


def test_a_save_is_named_after_the_game_and_the_date(tmp_path: Path) -> None:
    path = new_save_path("kariba", WHEN, {"XDG_DATA_HOME": str(tmp_path)})
    assert path == tmp_path / "atoll" / "games" / "kariba-2025-03-04-050607.jsonl"
    assert path.parent.is_dir()


def test_a_new_save_never_takes_the_name_of_an_existing_one(tmp_path: Path) -> None:
    env = {"XDG_DATA_HOME": str(tmp_path)}
    new_save_path("kariba", WHEN, env).write_text("taken")
    assert new_save_path("kariba", WHEN, env).name == "kariba-2025-03-04-050607-2.jsonl"
