"""Every command writes only under ATOLL_HOME: run with HOME an empty folder (and the working folder and
TMPDIR empty too), nothing appears anywhere but in ATOLL_HOME and the paths a command was given.
(`atoll join` has a root of its own, as the other machine at the table would.)"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from atoll_tools.soak import free_port_pair

from atoll.cli.main import COMMANDS

#: The commands this test runs (every command of `atoll --help` but `share`, which its own tests cover).
COVERED = {"audit", "games", "host", "join", "new-plugin", "play", "replay", "saves", "share", "sim",
           "watch"}


def files_under(folder: Path) -> set[Path]:
    return {path for path in folder.rglob("*")}


def test_every_command_writes_only_under_atoll_home(tmp_path: Path) -> None:
    assert set(COMMANDS) == COVERED, "a new command: run it below too"
    atoll_home, home, cwd, tmp, asked = (tmp_path / name for name in ("atoll", "home", "cwd", "tmp", "asked"))
    for folder in (home, cwd, tmp, asked):
        folder.mkdir()
    env = {**os.environ, "ATOLL_HOME": str(atoll_home), "HOME": str(home), "TMPDIR": str(tmp),
           "USERPROFILE": str(home)}
    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
        env.pop(name, None)

    def atoll(*args: str, timeout: float = 120, root: Path = atoll_home) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "atoll", *args], cwd=cwd, capture_output=True, text=True,
                              env={**env, "ATOLL_HOME": str(root)}, stdin=subprocess.DEVNULL, timeout=timeout)

    def ok(done: subprocess.CompletedProcess[str]) -> None:
        assert done.returncode == 0, f"{done.args}: {done.stdout[-1500:]}{done.stderr[-1500:]}"

    ok(atoll("--version"))
    ok(atoll("games"))
    ok(atoll("play", "kariba", "--seed", "5", "--name", "Ann"))  # input closed: saved, then left
    [save] = (atoll_home / "games").glob("kariba-*.jsonl")
    ok(atoll("saves"))
    ok(atoll("replay", str(save)))
    ok(atoll("play", "kariba", "--seed", "6", "--save", str(asked / "asked.jsonl")))
    ok(atoll("sim", "kariba", "--games", "4", "--workers", "2", "--search-iterations", "5", "--bots",
             "search,random"))
    ok(atoll("new-plugin", "dice_race", str(asked / "plugin")))
    # sharing looks for its wheels under ATOLL_HOME (preparing them needs the network: tests/share)
    unprepared = atoll("share", "--no-announce", "--port", "0")
    assert unprepared.returncode == 2 and str(atoll_home / "wheels") in unprepared.stderr, unprepared.stderr

    port = free_port_pair()
    host = subprocess.Popen(
        [sys.executable, "-m", "atoll", "host", "kariba", "--seats", "2", "--bots", "1", "--headless",
         "--bind", "127.0.0.1", "--port", str(port), "--no-announce", "--quiet"],
        cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True,
    )
    watcher: subprocess.Popen[str] | None = None
    try:
        time.sleep(0.3)
        # the big screen, from a root of its own too, before the last seat is taken
        watcher = subprocess.Popen(
            [sys.executable, "-m", "atoll", "watch", "--address", f"127.0.0.1:{port}", "--web", "127.0.0.1:0",
             "--linger", "0", "--quiet"], cwd=cwd, env={**env, "ATOLL_HOME": str(tmp_path / "atoll-watch")},
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
        assert watcher.stdout is not None
        page = watcher.stdout.readline().split()[-1]
        deadline = time.monotonic() + 60
        while b'"seats":[]' in urllib.request.urlopen(page + "state", timeout=10).read():  # not seated yet
            assert time.monotonic() < deadline, "the watcher did not reach the table"
            time.sleep(0.1)
        # the seat's own root: one machine's folder holds one seat of a table
        ok(atoll("join", "--address", f"127.0.0.1:{port}", "--bot", "random", "--quiet", timeout=180,
                 root=tmp_path / "atoll-seat"))
        assert host.wait(timeout=60) == 0, host.communicate()[0][-2000:]
        assert watcher.wait(timeout=60) == 0, watcher.communicate()[0][-2000:]
    finally:
        for process in (host, watcher):
            if process is not None and process.poll() is None:
                process.kill()
                process.wait()
    log = next((atoll_home / "tables").glob("*/log.jsonl"))
    ok(atoll("audit", str(log)))

    assert files_under(home) == set()
    assert files_under(cwd) == set()
    assert files_under(tmp) == set()
    # the save asked for, its lock (kept beside it: decision 0016) and the plugin
    assert {path.name for path in asked.iterdir()} == {"asked.jsonl", ".asked.jsonl.lock", "plugin"}
    assert (atoll_home / "identity.key").is_file() and (atoll_home / "games").is_dir()
    assert next((tmp_path / "atoll-seat" / "tables").glob("*/log.jsonl")).read_bytes() == log.read_bytes()
