"""Asked on screen when a player leaves (issue 27, point 3): a host opened with ``--on-leave ask`` is asked,
at its table screen (tmux, 80x24) or line by line, whether to wait for the player, end the game, or hand
the seat to the stand-in watching; one key (or word) answers, and the choice is the host's signed
``decide`` entry in every log. Real processes on loopback, each with its own data folder."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
from atoll_tools.soak import free_port_pair

from atoll.table.log import read_log
from atoll.wire import Kind
from tests.table.test_handover_loopback import atoll, finished, processes, wait_for_entries
from tests.tui.test_tmux import start

QUESTION = "Bea left the table: w: wait for Bea · e: end the game · h: hand the seat to Sam"


def _seated_with_a_stand_in(port: int, tmp_path: Path, started: list[subprocess.Popen[str]]) -> None:
    """Sam, a bot stand-in, watches the table at ``port``; Bea, a bot, takes the other seat."""
    address = f"127.0.0.1:{port}"
    started.append(atoll(tmp_path / "sam", "join", "--address", address, "--stand-in", "random", "--name",
                         "Sam", "--quiet"))
    time.sleep(1.0)  # Sam watches first: the stand-in a leaving seat's secrets are sealed to
    started.append(atoll(tmp_path / "bea", "join", "--address", address, "--bot", "random", "--name", "Bea",
                         "--quiet"))
    wait_for_entries(tmp_path / "bea", 6)


def _bea_leaves(tmp_path: Path, started: list[subprocess.Popen[str]]) -> str:
    """Bea's process stops (Ctrl-C), then she leaves for good with ``atoll join --leave``: what it said."""
    bea = started[-1]
    os.kill(bea.pid, signal.SIGINT)
    bea.communicate(timeout=30)
    leaving = atoll(tmp_path / "bea", "join", "--leave")
    started.append(leaving)
    return finished(leaving, 60)


def _decided(home: Path) -> dict[str, object]:
    log = next(home.rglob("log.jsonl"))
    entry = next(e for e in read_log(log) if e["msg"]["kind"] == Kind.DECIDE)
    return dict(entry["msg"]["body"])


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (apt-get install tmux)")
def test_the_hosts_person_is_asked_at_the_table_screen_and_hands_the_seat_to_the_stand_in(
    tmp_path: Path,
) -> None:
    port = free_port_pair()
    hosting = contextmanager(start)(
        tmp_path, "kariba", "--seats", "2", "--bind", "127.0.0.1", "--port", str(port), "--no-announce",
        "--player", "Ann", "--on-leave", "ask", command_name="host")
    with processes() as started, hosting as term:
        term.wait_for("others join with", timeout=60)
        _seated_with_a_stand_in(port, tmp_path, started)
        said = _bea_leaves(tmp_path, started)
        assert "the host chooses whether to wait for you" in said, said
        screen = term.wait_for("Bea left the table:", timeout=30)
        assert QUESTION in screen, screen  # on one line at 80 columns
        term.type("h")
        screen = term.wait_for("you chose: hand the seat to Sam", timeout=30)
        assert "Bea left the table:" not in screen, screen
        # the log line, wrapped wherever the log pane wraps it (the lines before it come in any order)
        term.wait_for(re.compile(r"Sam\s+takes\s+seat\s+2\s+over"), timeout=30)
    assert _decided(tmp_path / "sam")["choice"] == "hand"


def test_the_hosts_person_is_asked_line_by_line_and_ends_the_game(tmp_path: Path) -> None:
    port = free_port_pair()
    with processes() as started:
        home = tmp_path / "ann"
        host = subprocess.Popen(  # no terminal: the table line by line, the lines typed on its stdin
            [sys.executable, "-m", "atoll.cli.main", "host", "kariba", "--seats", "2", "--bind", "127.0.0.1",
             "--port", str(port), "--no-announce", "--player", "Ann", "--on-leave", "ask"],
            env=dict(os.environ, ATOLL_HOME=str(home), HOME=str(home)), stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
        started.append(host)
        _seated_with_a_stand_in(port, tmp_path, started)
        said = _bea_leaves(tmp_path, started)
        assert "the host chooses whether to wait for you" in said, said
        assert host.stdin is not None and host.stdout is not None
        printed: list[str] = []
        threading.Thread(target=lambda: printed.extend(iter(host.stdout.readline, "")), daemon=True).start()
        asked = "Bea left the table: type w (wait for Bea), e (end the game), h (hand the seat to Sam)"
        seen = _read_until(printed, asked)
        host.stdin.write("end\n")
        host.stdin.flush()
        seen = _read_until(printed, "the game ends here, with no result")
        assert "you chose: end the game" in seen, seen
    assert _decided(tmp_path / "ann")["choice"] == "end"


def _read_until(printed: list[str], text: str, timeout: float = 30) -> str:
    """What a process printed (``printed``, filled as it prints) once ``text`` is in it."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        seen = "".join(printed)
        if text in seen:
            return seen
        time.sleep(0.1)
    raise AssertionError(f"{text!r} was not printed; it printed:\n{''.join(printed)}")
