"""Tables over ZeroMQ on loopback: a headless host and bot peers, each a separate process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from atoll.net.encoding import fingerprint
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


def audit(log: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "atoll.cli.main", "audit", str(log), *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_atoll_audit_checks_a_table_log_and_tells_a_damaged_file_from_a_cheat(tmp_path: Path) -> None:
    done = host(tmp_path, "kariba", "--seats", "2", "--bots", "2", "--bot-kind", "random")
    assert done.returncode == 0, done.stderr[-2000:]
    log = sorted(tmp_path.rglob("log.jsonl"))[0]
    clean = audit(log)
    assert clean.returncode == 0, clean.stderr
    first = next(line for line in clean.stdout.splitlines() if "seat 1:" in line).split()[-1]
    assert "internally consistent and signed by these keys" in clean.stdout
    assert audit(log, "--expect", f"1={first}").returncode == 0  # seats counted from 1, as listed
    assert audit(log, "--expect", "1=aaaa-bbbb-cccc-dddd-eeee-ffff").returncode == 2
    lines = log.read_text().splitlines()
    entry = json.loads(lines[5])
    entry["msg"]["n"] += 1  # one number changed: the author's signature no longer covers it
    lines[5] = json.dumps(entry)
    log.write_text("\n".join(lines) + "\n")
    damaged = audit(log)
    assert damaged.returncode == 2 and "line 6" in damaged.stderr and "Traceback" not in damaged.stderr
