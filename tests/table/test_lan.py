"""A table on the simulated LAN: the host announces it, bots on other machines find it by name and play.

Runs only inside network namespaces (``../shared/tools/lan``), never on this machine's interfaces.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from atoll.net.identity import fingerprint
from atoll.table.audit import audit_log
from tests.net.test_discovery import LAN_TOOL, lan_unavailable
from tests.table.harness import REGISTRY

_tags = itertools.count()
TIMEOUT = 240


@pytest.fixture
def lan4() -> Iterator[str]:
    """A simulated LAN of four hosts (its tag), taken down afterwards, also on failure."""
    reason = lan_unavailable()
    if reason:
        pytest.skip(reason)
    tag = f"t{os.getpid() % 100000:x}{next(_tags)}"
    subprocess.run([str(LAN_TOOL), "up", "4", tag], check=True, capture_output=True)
    try:
        yield tag
    finally:
        subprocess.run([str(LAN_TOOL), "down", tag], capture_output=True)


def on_host(tag: str, host: int, home: Path, *argv: str) -> subprocess.Popen[str]:
    env = dict(os.environ, LAN_TAG=tag, ATOLL_HOME=str(home))
    return subprocess.Popen(
        [str(LAN_TOOL), "exec", str(host), sys.executable, "-m", *argv],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_bots_on_three_machines_find_the_table_by_name_and_finish_the_game(lan4: str, tmp_path: Path) -> None:
    processes: list[subprocess.Popen[str]] = []
    try:
        host = on_host(
            lan4,
            1,
            tmp_path / "h1",
            "atoll.cli.main",
            "host",
            "kariba",
            "--seats",
            "3",
            "--headless",
            "--name",
            "lan party",
            "--bind",
            "10.213.0.1",
            "--quiet",
        )
        processes.append(host)
        bots = [
            on_host(
                lan4,
                i,
                tmp_path / f"h{i}",
                "atoll.cli.main",
                "join",
                "lan party",
                "--bot",
                "random",
                "--wait",
                "20",
                "--quiet",
            )
            for i in (2, 3, 4)
        ]
        processes += bots
        for bot in bots:
            out, err = bot.communicate(timeout=TIMEOUT)
            assert bot.returncode == 0, err[-2000:]
        out, err = host.communicate(timeout=TIMEOUT)
        assert host.returncode == 0, err[-2000:]
        logs = sorted(tmp_path.rglob("log.jsonl"))
        assert len(logs) == 4 and len({log.read_bytes() for log in logs}) == 1
        assert audit_log(logs[0], REGISTRY.game, fingerprint).clean
        # the table has closed: its announcement is gone
        browse = on_host(
            lan4,
            2,
            tmp_path / "h2",
            "atoll.net.discovery",
            "browse",
            "--timeout",
            "3",
            "--interface",
            "10.213.0.2",
        )
        processes.append(browse)
        out, err = browse.communicate(timeout=60)
        assert "lan party" not in out
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.wait()


def test_when_the_host_dies_the_next_seat_takes_over_announces_the_table_and_the_game_finishes(
    lan4: str, tmp_path: Path
) -> None:
    processes: list[subprocess.Popen[str]] = []
    try:
        host = on_host(
            lan4,
            1,
            tmp_path / "h1",
            "atoll.cli.main",
            "host",
            "kariba",
            "--seats",
            "3",
            "--headless",
            "--name",
            "moving party",
            "--bind",
            "10.213.0.1",
            "--host-timeout",
            "4",
            "--quiet",
        )
        processes.append(host)
        bots = [
            on_host(
                lan4,
                i,
                tmp_path / f"h{i}",
                "atoll.cli.main",
                "join",
                "moving party",
                "--bot",
                "random",
                "--wait",
                "20",
                "--quiet",
            )
            for i in (2, 3, 4)
        ]
        processes += bots
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            logs = list((tmp_path / "h1").rglob("log.jsonl"))
            if logs and logs[0].read_bytes().count(b"\n") >= 30:
                break
            time.sleep(0.05)
        host.kill()  # `lan exec` execs the command: this is the host's own process, killed for good
        host.wait()
        old_fp = audit_log(logs[0], REGISTRY.game, fingerprint).host
        seen: list[dict[str, object]] = []
        while time.monotonic() < deadline and not any(t.get("fingerprint") != old_fp for t in seen):
            browse = on_host(
                lan4,
                3,
                tmp_path / "b",
                "atoll.net.discovery",
                "browse",
                "--timeout",
                "3",
                "--interface",
                "10.213.0.3",
            )
            processes.append(browse)
            out, _ = browse.communicate(timeout=60)
            seen = [json.loads(line) for line in out.splitlines() if '"moving party"' in line]
        assert any(t["fingerprint"] != old_fp for t in seen), "the new host announces the table"
        for bot in bots:
            out, err = bot.communicate(timeout=TIMEOUT)
            assert bot.returncode == 0, err[-2000:]
        logs = sorted(log for i in (2, 3, 4) for log in (tmp_path / f"h{i}").rglob("log.jsonl"))
        assert len(logs) == 3 and len({log.read_bytes() for log in logs}) == 1
        report = audit_log(logs[0], REGISTRY.game, fingerprint)
        assert report.clean, report.cheat
        assert b'"kind":"host"' in logs[0].read_bytes()
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.wait()
