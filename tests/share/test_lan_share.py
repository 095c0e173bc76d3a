"""Installing from a friend's laptop on the simulated LAN: machine 1 shares a prepared folder,
machine 2, which knows no other package index, installs atoll into a fresh venv with the line
machine 1 printed, and plays at a table machine 1 hosts.

Runs only inside network namespaces (``../shared/tools/lan``), never on this machine's interfaces.
The folder is prepared once, online, for this machine's platform and Python only.
"""

from __future__ import annotations

import json
import os
import queue
import shlex
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from atoll.authoring.new_plugin import generate
from tests.net.test_discovery import LAN_TOOL, lan_unavailable, simulated_lan
from tests.share.test_server import pip_env
from tests.test_new_plugin import can_build_wheels_offline, run, sibling_venv

WAIT = 60.0  # seconds before a missing line counts as a hang, not a timing target
INSTALL_TIMEOUT = 300
GAME_TIMEOUT = 240


@pytest.fixture(scope="module")
def prepared(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A folder of wheels for this platform and Python, made once by ``atoll share --prepare --local``
    where a third-party game plugin is installed too; the folder and that environment's python."""
    if lan_unavailable():
        pytest.skip(str(lan_unavailable()))
    if not can_build_wheels_offline():
        pytest.skip("the plugin cannot be installed offline: setuptools older than 70.1 and no `wheel`")
    home = tmp_path_factory.mktemp("preparing")
    env = dict(os.environ, ATOLL_HOME=str(home / "atoll"))
    probe = subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
         "--dest", str(home / "probe"), "pluggy"],
        env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    if probe.returncode != 0:
        pytest.skip(
            f"pip cannot reach a package index here, so no folder can be prepared: {probe.stderr[-300:]}"
        )
    # the plugin goes into a venv beside the project's, never into it (it would show up in every test)
    python = sibling_venv(home / "venv")
    generate("dice_race", home / "plugin")
    plugged = run(python, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation", home / "plugin")
    assert plugged.returncode == 0, plugged.stderr
    folder = home / "wheels"
    done = subprocess.run(
        [str(python), "-m", "atoll.cli.main", "share", "--prepare", "--local", "--folder", str(folder)],
        env=env, capture_output=True, text=True, timeout=INSTALL_TIMEOUT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return folder, python


@pytest.fixture
def lan2() -> Iterator[str]:
    """A simulated LAN of two hosts (its tag), taken down afterwards, also on failure."""
    with simulated_lan(2, "s") as tag:
        yield tag


class Machines:
    """Processes started on the simulated hosts, every one ended when the test ends."""

    def __init__(self, tag: str) -> None:
        self.tag = tag
        self.processes: list[subprocess.Popen[str]] = []

    def env(self, home: Path, **extra: str) -> dict[str, str]:
        return dict(os.environ, LAN_TAG=self.tag, ATOLL_HOME=str(home), **extra)

    def start(self, host: int, argv: list[str], env: dict[str, str]) -> subprocess.Popen[str]:
        process = subprocess.Popen(
            [str(LAN_TOOL), "exec", str(host), *argv],
            env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        self.processes.append(process)
        return process

    def run(
        self, host: int, argv: list[str], env: dict[str, str], timeout: float
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(LAN_TOOL), "exec", str(host), *argv],
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )

    def end_all(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.kill()
            process.communicate()


def lines_of(process: subprocess.Popen[str]) -> queue.Queue[str]:
    """The process's output lines, read in the background."""
    lines: queue.Queue[str] = queue.Queue()
    assert process.stdout is not None
    threading.Thread(target=lambda: [lines.put(line) for line in process.stdout], daemon=True).start()  # type: ignore[union-attr]
    return lines


def wait_for_line(lines: queue.Queue[str], start: str, seen: list[str]) -> str:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            break
        seen.append(line)
        if line.strip().startswith(start):
            return line.strip()
    raise AssertionError(f"no line starting {start!r} within {WAIT:g} s; got {seen}")


def test_a_laptop_without_atoll_installs_it_from_a_friends_share_and_joins_the_friends_table(
    prepared: tuple[Path, Path], lan2: str, tmp_path: Path
) -> None:
    folder, sharing_python = prepared
    machines = Machines(lan2)
    venv = tmp_path / "fresh"
    # the venv is made while the index starts and is browsed for (it needs no network); without a pip
    # of its own, which this pip installs into (--python): ensurepip would take 15 s of a loaded CI
    making = subprocess.Popen(
        [sys.executable, "-m", "venv", "--without-pip", str(venv)], stdout=subprocess.DEVNULL, text=True
    )
    machines.processes.append(making)
    try:
        share = machines.start(
            1,
            [
                str(sharing_python),
                "-m",
                "atoll.cli.main",
                "share",
                "--folder",
                str(folder),
                "--bind",
                "10.213.0.1",
            ],
            machines.env(tmp_path / "m1"),
        )  # fmt: skip
        shared = lines_of(share)
        seen: list[str] = []
        pip_line = wait_for_line(shared, "pip install", seen)
        wait_for_line(shared, "announced on the LAN", seen)

        # machine 2 finds the index over DNS-SD, under its own service type
        browse = machines.run(
            2,
            [sys.executable, "-m", "atoll.share.announce", "browse", "--interface", "10.213.0.2"],
            machines.env(tmp_path / "m2"),
            timeout=WAIT,
        )
        found = [json.loads(line) for line in browse.stdout.splitlines()]
        assert [share["url"] for share in found] == ["http://10.213.0.1:8473/simple/"], browse.stderr

        # the table opens on machine 1 while machine 2 installs atoll
        host = machines.start(
            1,
            [sys.executable, "-m", "atoll.cli.main", "host", "kariba", "--seats", "2", "--bots", "1",
             "--headless", "--bind", "10.213.0.1", "--port", "5555", "--name", "shared party", "--quiet"],
            machines.env(tmp_path / "m1"),
        )  # fmt: skip

        # a fresh venv, and pip told of no index but the printed one, with no cache
        assert making.wait(timeout=120) == 0
        python = venv / "bin" / "python"
        command = shlex.split(pip_line)
        assert command[:2] == ["pip", "install"] and command[-2:] == ["atoll", "atoll-dice-race"]
        installed = machines.run(
            2,
            [sys.executable, "-m", "pip", "--python", str(python), *command[1:], "--no-cache-dir"],
            dict(pip_env(tmp_path), LAN_TAG=lan2, ATOLL_HOME=str(tmp_path / "m2")),
            timeout=INSTALL_TIMEOUT,
        )
        assert installed.returncode == 0, installed.stdout[-2000:] + installed.stderr[-2000:]
        # every wheel came from the share: one for each project, this platform's (but pip's, which
        # is there for pipx)
        wheels = {wheel.name for wheel in folder.glob("*.whl") if not wheel.name.startswith("pip-")}
        assert {wait_for_line(shared, "sent ", seen).split()[1] for _ in wheels} == wheels

        joined = machines.run(
            2,
            [
                str(venv / "bin" / "atoll"),
                "join",
                "--address",
                "10.213.0.1:5555",
                "--bot",
                "random",
                "--quiet",
            ],
            machines.env(tmp_path / "m2", HOME=str(tmp_path)),
            timeout=GAME_TIMEOUT,
        )
        assert joined.returncode == 0, joined.stderr[-2000:]
        games = machines.run(
            2, [str(venv / "bin" / "atoll"), "games", "--json"], machines.env(tmp_path / "m2"), timeout=WAIT
        )
        assert "dice_race" in {game["name"] for game in json.loads(games.stdout)}, games.stderr
        _, err = host.communicate(timeout=GAME_TIMEOUT)
        assert host.returncode == 0, err[-2000:]
        logs = [next((tmp_path / machine).rglob("log.jsonl")).read_bytes() for machine in ("m1", "m2")]
        assert logs[0] == logs[1] and logs[0].count(b"\n") > 10
    finally:
        machines.end_all()
