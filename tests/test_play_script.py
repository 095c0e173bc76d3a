"""`scripts/play`: with no game named it starts the main game, Kiribati (family), and options alone
apply to that game; a game named goes to `atoll play` as it is. Run for real, input closed at once."""

from __future__ import annotations

import os
import subprocess
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
        (("kariba", "--seed", "5"), "Kariba, 2 seats, variant standard; you are seat 0"),
    ],
    ids=["nothing", "options-alone", "a-later-variant-wins", "a-game-named"],
)
def test_scripts_play_starts_the_main_game_unless_told_another(
    args: tuple[str, ...], first_line: str, tmp_path: Path
) -> None:
    assert play_script(*args, data=tmp_path) == first_line
