"""Where games are saved when the player names no file."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from atoll.client.saves import new_save_path

WHEN = datetime(2025, 3, 4, 5, 6, 7)


def test_a_save_is_named_after_the_game_and_the_date(tmp_path: Path) -> None:
    path = new_save_path("kariba", WHEN, {"ATOLL_HOME": str(tmp_path)})
    assert path == tmp_path / "games" / "kariba-2025-03-04-050607.jsonl"
    assert path.parent.is_dir()


def test_a_new_save_never_takes_the_name_of_an_existing_one(tmp_path: Path) -> None:
    env = {"ATOLL_HOME": str(tmp_path)}
    new_save_path("kariba", WHEN, env).write_text("taken")
    assert new_save_path("kariba", WHEN, env).name == "kariba-2025-03-04-050607-2.jsonl"
