"""`atoll host --bots N` stopped by a signal stops its bot processes too (issue 30: after SIGTERM they
ran on): a real host, its real bot processes, a real signal."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.commands import ATOLL, env_for

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc for children")


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` and that have not exited (zombies left out)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # gone meanwhile
            continue
        state, parent = stat.rsplit(")", 1)[1].split()[:2]
        if int(parent) == pid and state != "Z":
            found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_host_stopped_by_a_signal_leaves_no_bot_process_running(
    tmp_path: Path, stop: signal.Signals
) -> None:
    # three seats, two bots, no person: the bots sit down and the table waits for its third seat
    host = subprocess.Popen(
        [*ATOLL, "host", "kariba", "--seats", "3", "--headless", "--bots", "2", "--bot-kind", "random",
         "--no-announce", "--bind", "127.0.0.1", "--quiet"],
        env=env_for(tmp_path), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )
    bots: list[int] = []
    try:
        deadline = time.monotonic() + 30
        while len(bots) < 2 and time.monotonic() < deadline and host.poll() is None:
            time.sleep(0.1)
            bots = children(host.pid)
        assert len(bots) == 2, f"the host started {bots}"
        time.sleep(1.0)  # the bots are at the table, waiting
        host.send_signal(stop)
        output, _ = host.communicate(timeout=20)
        survivors = [pid for pid in bots if alive(pid)]
        assert survivors == [], f"bot processes {survivors} still run after {stop.name}"
        assert host.returncode == 130 and b"atoll host: interrupted" in output, output
    finally:
        for pid in [*bots, host.pid]:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        host.wait(timeout=10)
