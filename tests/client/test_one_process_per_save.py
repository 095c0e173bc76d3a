"""One process per saved game: a second `atoll play --resume` on a save that another process plays is
refused in one line naming it, exit 2, and the save is not touched (issue 25)."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

from tests.commands import ATOLL, InTerminal, env_for, run_in_terminal


def _settled(path: Path) -> bytes:
    """``path``'s bytes once they have not changed for a second and a half."""
    seen, since = path.read_bytes(), time.monotonic()
    while time.monotonic() - since < 1.5:
        time.sleep(0.1)
        now = path.read_bytes()
        if now != seen:
            seen, since = now, time.monotonic()
    return seen


def test_a_second_play_resume_of_a_save_is_refused_naming_the_first_and_leaves_the_save_alone(
    tmp_path: Path,
) -> None:
    env = env_for(tmp_path)
    typed = "play 1 mouse\nplay 1 meerkat\nplay 1 giraffe\n"
    made = subprocess.run([*ATOLL, "play", "kariba", "--plain", "--seed", "3", "--bots", "random"],
                          input=typed.encode(), env=env, capture_output=True, timeout=120)
    assert made.returncode == 0, made.stderr
    (save,) = tmp_path.rglob("games/kariba-*.jsonl")
    first = InTerminal(["play", "--resume", str(save)], env)
    try:
        assert first.read_until("F1 help", 60), first.output[-2000:]
        kept = _settled(save)  # the bots have moved and the first process waits for its person
        second = run_in_terminal(["play", "--resume", str(save)], env, timeout=60)
        assert second.status == 2, second.output
        told = second.output.strip()
        assert f"is in use by process {first.process.pid} (atoll play --resume {save})" in told
        assert len(told.splitlines()) == 1 and "Traceback" not in told
        assert save.read_bytes() == kept
    finally:
        first.stop()
