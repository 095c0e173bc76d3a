"""atoll on Windows, with Windows's documented behaviour simulated on Linux (tests/platforms/windows.py).

Each seam first fails as Windows would make it fail, then works with atoll's Windows path switched on.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import pytest
import zmq
import zmq.asyncio
from atoll_tools.soak import free_port_pair

from atoll import system
from atoll.app.store import read_secrets, table_files, write_secrets
from atoll.net import eventloop
from atoll.net.durable import fsync_folder
from atoll.net.encoding import fingerprint
from atoll.net.identity import IdentityError, load_identity, login_name, open_profile
from atoll.table.audit import audit_log
from tests.platforms.windows import USERNAME, simulate_windows
from tests.table.harness import REGISTRY

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def windows(monkeypatch: pytest.MonkeyPatch) -> None:
    simulate_windows(monkeypatch)


# --- files ---------------------------------------------------------------------------------------


def test_the_simulated_windows_refuses_to_open_a_folder_to_flush_it(
    windows: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(system, "WINDOWS", False)  # atoll's POSIX path on Windows's behaviour
    with pytest.raises(PermissionError):
        fsync_folder(tmp_path)


def test_an_identity_is_made_where_a_folder_cannot_be_flushed_and_loads_though_it_shows_mode_666(
    windows: None, tmp_path: Path
) -> None:
    home = tmp_path / "atoll"
    made = open_profile(home)
    assert (home / "identity.key").stat().st_mode & 0o777 == 0o666  # what Windows shows
    assert open_profile(home).identity.fingerprint == made.identity.fingerprint


@pytest.mark.skipif(sys.platform == "win32", reason="modes mean nothing on Windows")
def test_on_linux_a_key_others_may_read_is_still_refused(tmp_path: Path) -> None:
    home = tmp_path / "atoll"
    open_profile(home)
    (home / "identity.key").chmod(0o644)
    with pytest.raises(IdentityError, match="chmod 600"):
        load_identity(home)


def test_a_tables_secrets_are_written_once_without_fchmod_or_a_folder_flush(
    windows: None, tmp_path: Path
) -> None:
    assert not hasattr(os, "fchmod")
    files = table_files(tmp_path / "tables", "t1")
    write_secrets(files, {"master": "ab" * 32})
    assert read_secrets(files)["master"] == "ab" * 32


# --- the event loop ------------------------------------------------------------------------------


async def _zmq_round_trip() -> bytes:
    context = zmq.asyncio.Context()
    a, b = context.socket(zmq.PAIR), context.socket(zmq.PAIR)
    try:
        a.bind("inproc://windows-loop")
        b.connect("inproc://windows-loop")
        received = asyncio.ensure_future(b.recv())  # waits on the socket: the loop must watch it
        await asyncio.sleep(0.05)
        await a.send(b"ping")
        return bytes(await asyncio.wait_for(received, 5))
    finally:
        a.close(linger=0)
        b.close(linger=0)
        context.term()


def test_pyzmq_cannot_run_on_the_default_windows_event_loop(windows: None) -> None:
    with pytest.raises(NotImplementedError, match="add_reader"):
        asyncio.run(_zmq_round_trip())


def test_host_and_join_run_pyzmq_on_a_selector_loop_on_windows(windows: None) -> None:
    assert eventloop.run(_zmq_round_trip()) == b"ping"


# --- the terminal and the user -------------------------------------------------------------------


#: A pseudo-terminal stands in for a console; Windows has none to open (its own console is the real thing).
needs_pty = pytest.mark.skipif(not hasattr(os, "openpty"), reason="no pseudo-terminals here")


@contextlib.contextmanager
def console(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Standard input and output on a real terminal (a pseudo-terminal), as in a Windows console.
    Entered inside the test: pytest puts its own capture back between a fixture and the test."""
    leader, follower = os.openpty()
    streams: list[IO[str]] = [os.fdopen(os.dup(follower), "r"), os.fdopen(os.dup(follower), "w")]
    try:
        with monkeypatch.context() as patch:
            patch.setattr(sys, "stdin", streams[0])
            patch.setattr(sys, "stdout", streams[1])
            yield
    finally:
        for stream in streams:
            stream.close()
        os.close(leader)
        os.close(follower)


@needs_pty
def test_a_console_without_term_gets_the_full_screen_client(monkeypatch: pytest.MonkeyPatch) -> None:
    with console(monkeypatch):
        assert system.full_screen_terminal({})


@needs_pty
def test_term_dumb_still_gets_the_line_client(monkeypatch: pytest.MonkeyPatch) -> None:
    with console(monkeypatch):
        assert not system.full_screen_terminal({"TERM": "dumb"})


def test_input_that_is_not_a_terminal_gets_the_line_client(monkeypatch: pytest.MonkeyPatch) -> None:
    read, write = os.pipe()
    with os.fdopen(read, "r") as piped, os.fdopen(write, "w"):
        monkeypatch.setattr(sys, "stdin", piped)
        assert not system.full_screen_terminal({"TERM": "xterm-256color"})


def test_the_default_player_name_is_the_windows_login_name(windows: None) -> None:
    assert login_name("player") == USERNAME


def test_without_any_login_name_the_fallback_is_used(windows: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("USERNAME")
    assert login_name("player") == "player"


# --- a whole table -------------------------------------------------------------------------------


def _start(home: Path, *args: str) -> subprocess.Popen[str]:
    env = dict(os.environ, ATOLL_HOME=str(home), HOME=str(home.parent / "home"))
    return subprocess.Popen(
        [sys.executable, "-m", "tests.platforms.windows", *args],
        cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True,
    )


def test_a_whole_loopback_table_plays_to_a_clean_audit_with_the_windows_paths_switched_on(
    tmp_path: Path,
) -> None:
    port = free_port_pair()
    host = _start(tmp_path / "host", "host", "kariba", "--seats", "2", "--bots", "0", "--headless",
                  "--bind", "127.0.0.1", "--port", str(port), "--no-announce", "--quiet")
    processes = [host]
    try:
        time.sleep(0.3)
        processes += [
            _start(tmp_path / f"seat{i}", "join", "--address", f"127.0.0.1:{port}", "--bot", "random",
                   "--quiet")
            for i in range(2)
        ]
        outputs = [process.communicate(timeout=120)[0] for process in processes]
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.wait()
    assert [process.returncode for process in processes] == [0, 0, 0], outputs
    logs = sorted(tmp_path.glob("*/tables/*/log.jsonl"))
    assert len(logs) == 3 and len({log.read_bytes() for log in logs}) == 1
    report = audit_log(logs[0], REGISTRY.game, fingerprint)
    assert report.clean, report.cheat
    assert [name for name, _ in report.seats] == [USERNAME, USERNAME]  # the default name, from USERNAME
    assert not (tmp_path / "home").exists()
