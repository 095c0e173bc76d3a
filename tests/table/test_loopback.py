"""Tables over ZeroMQ on loopback: a headless host and bot peers, each a separate process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from atoll.net.identity import fingerprint
from atoll.table.audit import audit_log
from tests.table.harness import REGISTRY

#: A variant that keeps random games short where a game has one (Kiribati's ends after 15 rounds).
SHORT = {"kiribati": "professional"}
#: Every built-in game at every seat count it allows, up to five seats.
CASES = [
    (name, seats)
    for name in sorted(REGISTRY.games)
    for seats in range(REGISTRY.game(name).info.min_seats, min(REGISTRY.game(name).info.max_seats, 5) + 1)
]


def host(home: Path, *args: str, timeout: float = 240) -> subprocess.CompletedProcess[str]:
    """Run ``atoll host`` (headless, loopback, no announcement) to the end of its game."""
    env = dict(os.environ, ATOLL_HOME=str(home))
    command = [
        sys.executable,
        "-m",
        "atoll.cli.main",
        "host",
        *args,
        "--headless",
        "--bind",
        "127.0.0.1",
        "--no-announce",
        "--quiet",
    ]
    with subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    ) as process:
        try:
            out, err = process.communicate(timeout=timeout)
        finally:
            if process.poll() is None:
                os.killpg(process.pid, 9)  # the host and the bots it started
                process.wait()
    return subprocess.CompletedProcess(command, process.returncode, out, err)


@pytest.mark.parametrize(("game", "seats"), CASES)
def test_bot_peers_finish_a_game_with_identical_logs_that_audit_clean(
    tmp_path: Path, game: str, seats: int
) -> None:
    variant = ["--variant", SHORT[game]] if game in SHORT else []
    done = host(tmp_path, game, "--seats", str(seats), "--bots", str(seats), "--bot-kind", "random", *variant)
    assert done.returncode == 0, done.stderr[-2000:]
    logs = sorted(tmp_path.rglob("log.jsonl"))
    assert len(logs) == seats + 1  # the host's copy and one per bot
    assert len({log.read_bytes() for log in logs}) == 1
    report = audit_log(logs[0], REGISTRY.game, fingerprint)
    assert report.clean, report.cheat
    assert len(report.seats) == seats


def test_a_log_with_one_byte_changed_is_a_damaged_file_naming_its_line(tmp_path: Path) -> None:
    from atoll.table.audit import DamagedLog

    done = host(tmp_path, "kariba", "--seats", "2", "--bots", "2")
    assert done.returncode == 0, done.stderr[-2000:]
    log = sorted(tmp_path.rglob("log.jsonl"))[0]
    lines = log.read_text().splitlines()
    lines[5] = lines[5].replace('"at":', '"at" :', 1) if '"at":' in lines[5] else lines[5][:-2] + "0}"
    log.write_text("\n".join(lines) + "\n")
    with pytest.raises(DamagedLog, match="line 6"):
        audit_log(log, REGISTRY.game, fingerprint)
