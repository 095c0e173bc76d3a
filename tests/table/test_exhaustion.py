"""A table's host under a flood of idle connections, as a real process on loopback (issue 25, point 5).

The threat: anyone on the LAN may open connections to a table's port without a key and never say a
word; each holds one of the host's file descriptors. Here the host may hold only 128 of them, and 300
idle connections come while one seat is taken: the host stays up and says that it refuses new
connections, the seat that was taken keeps its place, and once the connections close a new seat sits
and the game is played to the end with identical logs that audit clean.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest

from atoll.net.encoding import fingerprint
from atoll.table.audit import audit_log
from tests.net.loopback import idle_connections
from tests.table.harness import REGISTRY

resource = pytest.importorskip("resource")  # not on Windows

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="lowers RLIMIT_NOFILE of a child"),
    pytest.mark.timeout(120),
]

#: The descriptors the host may hold (soft and hard: it cannot raise them).
LIMIT = 128
#: Idle connections opened against it: more than it may hold.
FLOOD = 300


@contextmanager
def started(
    command: list[str], home: Path, log: Path, limit: int | None = None
) -> Iterator[subprocess.Popen[bytes]]:
    """Start an ``atoll`` command (its output in ``log``, under descriptor ``limit``); killed afterwards
    with everything it started, also on failure."""

    def lower() -> None:
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))

    env = dict(os.environ, ATOLL_HOME=str(home), HOME=str(home))
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "atoll.cli.main", *command],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            preexec_fn=lower,
            start_new_session=True,
        )
    try:
        yield process
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def wait_for(condition: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def sits(home: Path) -> int:
    """How many ``sit`` entries the log under ``home`` holds."""
    return sum(log.read_text().count('"kind":"sit"') for log in home.rglob("log.jsonl"))


def test_a_host_flooded_with_idle_connections_stays_up_keeps_its_seats_and_seats_a_newcomer_after(
    tmp_path: Path,
) -> None:
    homes = {name: tmp_path / name for name in ("host", "first", "second")}
    logs = {name: tmp_path / f"{name}.out" for name in homes}
    hosting = ["host", "kariba", "--seats", "3", "--bot", "random", "--bind", "127.0.0.1", "--no-announce"]
    with ExitStack() as stack:
        host = stack.enter_context(started([*hosting, "--quiet"], homes["host"], logs["host"], LIMIT))
        wait_for(lambda: "join with" in logs["host"].read_text(), "the host's address")
        address = re.search(r"--address (\S+)", logs["host"].read_text())
        assert address is not None
        port = int(address.group(1).split("#")[0].rsplit(":", 1)[1])

        def join(name: str) -> subprocess.Popen[bytes]:
            command = ["join", "--address", address.group(1), "--bot", "random", "--name", name, "--quiet"]
            return stack.enter_context(started(command, homes[name], logs[name]))

        first = join("first")
        wait_for(lambda: sits(homes["host"]) == 2, "the first seat")  # the host's own bot, and the first

        with idle_connections(port, FLOOD):
            # a host's diagnostics are kept in its table's refusals.log (and shown only with --verbose)
            wait_for(lambda: any("refusing new connections" in kept.read_text()
                                 for kept in homes["host"].rglob("refusals.log")), "the host's refusals.log")
            assert host.poll() is None
        second = join("second")

        assert second.wait(60) == 0, logs["second"].read_text()[-2000:]
        assert first.wait(60) == 0, logs["first"].read_text()[-2000:]
        assert host.wait(60) == 0, logs["host"].read_text()[-2000:]
    said = logs["host"].read_text()
    assert "Traceback" not in said and "game over" in said
    tables = sorted(tmp_path.rglob("log.jsonl"))
    assert len(tables) == 3 and len({log.read_bytes() for log in tables}) == 1
    report = audit_log(tables[0], REGISTRY.game, fingerprint)
    assert report.clean, report.cheat
