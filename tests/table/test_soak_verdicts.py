"""How the soak judges a game: a host back after its table moved on and ended is late, not failed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from atoll_tools.soak import Process, came_back_too_late

TAKE_OVER = '{"kind":"host","seq":3}'


def _exited(home: Path, code: int, log_lines: list[str]) -> Process:
    """A Process in ``home`` that has exited with ``code`` and left a table log of ``log_lines``."""
    process = Process(home, [], [])
    folder = home / "tables" / "kariba-0"
    folder.mkdir(parents=True)
    (folder / "log.jsonl").write_text("".join(line + "\n" for line in log_lines))
    process.process = subprocess.Popen([sys.executable, "-c", f"raise SystemExit({code})"])
    process.process.wait()
    return process


def test_a_host_that_gave_up_on_a_table_taken_over_without_itcame_back_too_late(tmp_path: Path) -> None:
    host = _exited(tmp_path / "host", 1, ["a", "b"])
    peer = _exited(tmp_path / "seat0", 0, ["a", "b", "c", TAKE_OVER, "d"])
    assert came_back_too_late(host, [peer])


def test_a_host_that_gave_up_on_a_table_nobody_took_over_has_failed(tmp_path: Path) -> None:
    host = _exited(tmp_path / "host", 1, ["a", "b"])
    peer = _exited(tmp_path / "seat0", 0, ["a", "b", "c"])
    assert not came_back_too_late(host, [peer])


def test_a_host_whose_own_entries_after_the_take_over_lose_to_it_came_back_too_late(tmp_path: Path) -> None:
    # it sequenced for a seat still following it after the take-over (decision 0028: the take-over wins)
    host = _exited(tmp_path / "host", 1, ["a", "b", "c", "x", "y"])
    peer = _exited(tmp_path / "seat0", 0, ["a", "b", "c", TAKE_OVER, "d"])
    assert came_back_too_late(host, [peer])


def test_a_host_that_joined_the_moved_table_and_stopped_before_its_end_came_back_too_late(
    tmp_path: Path,
) -> None:
    host = _exited(tmp_path / "host", 1, ["a", "b", "c", TAKE_OVER])
    peer = _exited(tmp_path / "seat0", 0, ["a", "b", "c", TAKE_OVER, "d"])
    assert came_back_too_late(host, [peer])


def test_a_host_whose_log_differs_before_the_take_over_has_failed(tmp_path: Path) -> None:
    host = _exited(tmp_path / "host", 1, ["a", "x", "c", "y"])
    peer = _exited(tmp_path / "seat0", 0, ["a", "b", "c", TAKE_OVER, "d"])
    assert not came_back_too_late(host, [peer])


def test_a_host_that_finished_normally_is_not_late(tmp_path: Path) -> None:
    host = _exited(tmp_path / "host", 0, ["a", "b"])
    peer = _exited(tmp_path / "seat0", 0, ["a", "b", "c", TAKE_OVER, "d"])
    assert not came_back_too_late(host, [peer])
