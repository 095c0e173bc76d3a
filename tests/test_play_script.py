"""`scripts/play`: with no game named it starts the main game, Kiribati (family), and options alone
apply to that game; a game named goes to `atoll play` as it is. Run for real, input closed at once."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def play_script(*args: str, data: Path) -> str:
    """The first line `scripts/play ARGS` prints, its input closed (the venv already made by the suite)."""
    done = subprocess.run(
        [str(ROOT / "scripts" / "play"), *args], stdin=subprocess.DEVNULL, capture_output=True, text=True,
        env={**os.environ, "ATOLL_HOME": str(data / "atoll")}, timeout=120, check=True,
    )
    return done.stdout.splitlines()[0]


@pytest.mark.parametrize(
    ("args", "first_line"),
    [
        ((), "Kiribati, 3 seats, variant family; you are red"),
        (("--seed", "5", "--seats", "4"), "Kiribati, 4 seats, variant family; you are red"),
        (("--variant", "professional"), "Kiribati, 3 seats, variant professional; you are red"),
        (("kariba", "--seed", "5"), "Kariba, 2 seats, variant standard; you are player 1"),
    ],
    ids=["nothing", "options-alone", "a-later-variant-wins", "a-game-named"],
)
def test_scripts_play_starts_the_main_game_unless_told_another(
    args: tuple[str, ...], first_line: str, tmp_path: Path
) -> None:
    assert play_script(*args, data=tmp_path) == first_line


@pytest.mark.parametrize(
    ("args", "first_line"),
    [
        ((), "Kiribati, 3 seats, variant family; you are red"),
        (("kariba", "--seed", "5"), "Kariba, 2 seats, variant standard; you are player 1"),
    ],
    ids=["nothing", "a-game-named"],
)
def test_scripts_play_py_for_windows_does_what_scripts_play_does(
    args: tuple[str, ...], first_line: str, tmp_path: Path
) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "play.py"), *args], stdin=subprocess.DEVNULL,
        capture_output=True, text=True, env={**os.environ, "ATOLL_HOME": str(tmp_path / "atoll")},
        timeout=120, check=True,
    )
    assert done.stdout.splitlines()[0] == first_line


def test_scripts_test_py_for_windows_runs_the_linters_the_type_check_and_the_tests_it_is_given() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "test.py"), "--co", "-q", "tests/test_paths.py"],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert [
        line for line in done.stderr.splitlines() if line.startswith("== ")
    ] == ["== ruff", "== mypy (core, net, plugins)", "== pytest"]
    assert "tests/test_paths.py::test_atoll_home_overrides_every_other_place" in done.stdout
