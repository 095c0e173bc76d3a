"""A table on the simulated LAN: the host announces it, bots on other machines find it by name and play.

Runs only inside network namespaces (``../shared/tools/lan``), never on this machine's interfaces.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from atoll.net.encoding import fingerprint
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
        # a browser on machine 3 watches the LAN from before the host dies, so that it sees the
        # new host's announcement even if the rest of the game is short
        env = dict(os.environ, LAN_TAG=lan4, ATOLL_HOME=str(tmp_path / "b"))
        watch = subprocess.Popen(
            [str(LAN_TOOL), "exec", "3", sys.executable, "-m", "atoll.net.discovery", "browse", "--watch",
             "--interface", "10.213.0.3"],
            env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        )  # fmt: skip
        processes.append(watch)
        lines: list[str] = []
        reader = threading.Thread(target=lambda: lines.extend(iter(watch.stdout.readline, "")), daemon=True)  # type: ignore[union-attr]
        reader.start()
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            logs = list((tmp_path / "h1").rglob("log.jsonl"))
            if logs and logs[0].read_bytes().count(b"\n") >= 30:
                break
            time.sleep(0.05)
        host.kill()  # `lan exec` execs the command: this is the host's own process, killed for good
        host.wait()
        old_fp = audit_log(logs[0], REGISTRY.game, fingerprint).host

        def announced_anew() -> bool:
            events = [json.loads(line) for line in list(lines) if '"moving party"' in line]
            return any(e.get("fingerprint") != old_fp for e in events)

        while time.monotonic() < deadline and not announced_anew() and any(b.poll() is None for b in bots):
            time.sleep(0.1)
        time.sleep(0.5)
        assert announced_anew(), f"the new host announces the table; the browser saw {lines}"
        for bot in bots:
            _, err = bot.communicate(timeout=TIMEOUT)
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
