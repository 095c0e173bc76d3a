"""The command line as a user runs it: `atoll games` and `atoll replay`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from atoll.engine import LocalResolver, Match, run, save
from atoll.registry import load_registry


def atoll(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "atoll.cli.main", *args], capture_output=True, text=True, timeout=120
    )


def test_games_json_lists_every_installed_game_with_the_promised_fields() -> None:
    out = atoll("games", "--json")
    assert out.returncode == 0, out.stderr
    rows = {row["name"]: row for row in json.loads(out.stdout)}
    assert set(rows) == set(load_registry().games)
    kariba = rows["kariba"]
    assert kariba["title"] == "Kariba"
    assert (kariba["min_seats"], kariba["max_seats"]) == (2, 4)
    assert kariba["variants"] == ["standard", "experienced"]
    assert kariba["source"] == "atoll"


def test_games_prints_one_line_a_game() -> None:
    out = atoll("games")
    assert out.returncode == 0, out.stderr
    assert any(line.startswith("kariba") for line in out.stdout.splitlines())


def test_replay_prints_the_final_result(tmp_path: Path) -> None:
    registry = load_registry()
    game = registry.game("kariba")
    match = Match(game, game.configure(2), LocalResolver(4))
    bots = [registry.bot("random", "kariba").make(game, seat, seat) for seat in range(2)]
    run(match, bots)
    path = tmp_path / "kariba.jsonl"
    save(match, path, seed=4, faces=match.resolver.faces())  # type: ignore[attr-defined]
    out = atoll("replay", str(path))
    assert out.returncode == 0, out.stderr
    assert "every step checks" in out.stdout
    assert "winner:" in out.stdout


def test_replay_of_a_corrupt_file_fails_with_a_reason(tmp_path: Path) -> None:
    path = tmp_path / "broken.jsonl"
    path.write_text("not json\n")
    out = atoll("replay", str(path))
    assert out.returncode == 2
    assert "not JSON" in out.stderr


@pytest.mark.parametrize("command", ["games", "replay"])
def test_every_command_has_help(command: str) -> None:
    out = atoll(command, "--help")
    assert out.returncode == 0 and "usage:" in out.stdout
