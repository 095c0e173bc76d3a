"""The host's person at the table screen when a seat takes the table over (decision 0020, "The host's
person plays on unasked"): the host is paused (SIGSTOP) past the host timeout while Bea and Cid play on,
a seat takes the table over, the host wakes (SIGCONT) and steps down. With no key pressed, the screen
closes by itself and a new table screen opens with the person's seat under the new host, saying what
happened; the person moves there. Real processes on loopback, tmux at 80x24."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.commands import ATOLL, env_for
from tests.tui.test_tmux import ROOT, YOUR_TURN, Terminal

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None,
                                reason="tmux is not installed (apt-get install tmux)")

#: The host's person plays a seat; the seats take the table over after 3 s without hearing the host.
HOST = ["host", "kariba", "--seats", "3", "--host-timeout", "3", "--no-announce", "--bind", "127.0.0.1",
        "--player", "Ann"]


@contextmanager
def hosting_in_tmux(root: Path) -> Iterator[tuple[Terminal, list[subprocess.Popen[bytes]]]]:
    """``atoll host`` in an 80x24 tmux window, its home under ``root``; a list for the seats' processes.
    Everything is stopped afterwards, also on failure (a paused host is woken first to be killed)."""
    term = Terminal(f"atoll-test-{uuid.uuid4().hex[:12]}")
    env = env_for(root / "Ann")
    command = shlex.join(["env", f"ATOLL_HOME={env['ATOLL_HOME']}", f"HOME={env['HOME']}",
                          *ATOLL, *HOST]) + "; sleep 120"
    seats: list[subprocess.Popen[bytes]] = []
    try:
        term.tmux("new-session", "-d", "-s", "play", "-x", "80", "-y", "24", "-c", str(ROOT), command)
        yield term, seats
    finally:
        for pid in _children(int(term.tmux("list-panes", "-t", "play", "-F", "#{pane_pid}").strip() or 0)):
            for sig in (signal.SIGCONT, signal.SIGKILL):
                _signal(pid, sig)
        for seat in seats:
            _signal(-seat.pid, signal.SIGKILL)
            seat.wait(timeout=10)
        subprocess.run(["tmux", "-L", term.socket, "kill-server"], capture_output=True, timeout=10)
        socket = Path(os.environ.get("TMUX_TMPDIR", "/tmp")) / f"tmux-{os.getuid()}" / term.socket
        socket.unlink(missing_ok=True)


def _signal(pid: int, sig: signal.Signals) -> None:
    """Send ``sig`` to ``pid`` (a negative one: its process group), if it still runs."""
    try:
        if pid < 0:
            os.killpg(-pid, sig)
        else:
            os.kill(pid, sig)
    except ProcessLookupError:
        pass


def _children(pid: int) -> list[int]:
    """The processes ``pid`` started (the host under the window's shell)."""
    try:
        return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except (OSError, ValueError):
        return []


def _took_over(roots: list[Path]) -> bool:
    """Whether a seat's copy of the table logs a ``host`` entry (a seat took the table over)."""
    for log in (log for root in roots for log in root.glob("home/tables/*/log.jsonl")):
        text = log.read_text(errors="replace")
        if '"kind":"host"' in text or '"kind": "host"' in text:
            return True
    return False


def _until(check: Callable[[], bool], timeout: float, what: str) -> None:
    """Wait until ``check()`` holds; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not happen within {timeout:g} s")
        time.sleep(0.1)


def test_the_hosts_person_plays_on_under_the_seat_that_took_the_table_over_without_pressing_a_key(
    tmp_path: Path,
) -> None:
    with hosting_in_tmux(tmp_path) as (term, seats):
        joined = term.wait_for(re.compile(r"atoll join --address (\S+)"), timeout=60)
        found = re.search(r"atoll join --address (\S+)", joined)
        assert found is not None
        for name in ("Bea", "Cid"):
            with (tmp_path / f"{name}.out").open("wb") as said:  # the child holds its own copy
                seats.append(subprocess.Popen(
                    [*ATOLL, "join", "--address", found.group(1), "--bot", "random", "--name", name],
                    env=env_for(tmp_path / name), stdin=subprocess.DEVNULL, stdout=said,
                    stderr=subprocess.STDOUT, start_new_session=True))
        term.wait_for(YOUR_TURN, timeout=60)  # the game is under way, and Ann is asked to move
        (host,) = _children(int(term.tmux("list-panes", "-t", "play", "-F", "#{pane_pid}").strip()))
        os.kill(host, signal.SIGSTOP)  # paused, not dead: its sockets stay open
        try:
            _until(lambda: _took_over([tmp_path / "Bea", tmp_path / "Cid"]), 30, "a seat's take-over")
        finally:
            os.kill(host, signal.SIGCONT)
        # no key is sent from here on: the screen closes by itself, says why below it, and the seat plays on
        # in a new one (at the same turn: the game waited on Ann's move throughout)
        _until(lambda: "over from this machine" in _below(term) and _full_screen(term), 30,
               "the new table screen, over the line that says why")
        below = _below(term)
        assert below.count("over from this machine") == 1, below
        assert re.search(r"that seat hosts the table now, and this machine plays on as a peer \(this host's "
                         r"own log is kept as \S+/log\.jsonl\.before-1\)", below), below
        screen = term.wait_for(YOUR_TURN, timeout=30)
        assert "game over" not in screen and "the game stopped" not in screen, screen
        hand = re.search(r"^Your hand: (\w+)", screen, re.MULTILINE)
        assert hand is not None, screen
        term.type(f"play 1 {hand.group(1)}", "Enter")
        term.wait_for(f"you played: play 1 {hand.group(1)}", timeout=30)  # the new host took it
        assert _full_screen(term)


def _full_screen(term: Terminal) -> bool:
    """Whether a full screen is open in the window (tmux's alternate screen)."""
    return term.tmux("display-message", "-p", "-t", "play", "#{alternate_on}").strip() == "1"


def _below(term: Terminal) -> str:
    """What was printed below the full screen open in the window (the window itself, when none is
    open), wrapped lines joined."""
    try:
        return term.tmux("capture-pane", "-p", "-J", "-a", "-t", "play")
    except subprocess.CalledProcessError:  # no full screen open
        return term.printed()
