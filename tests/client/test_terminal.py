"""One real terminal: `atoll play` in tmux, with a typed action that changes the board."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


class Terminal:
    """A tmux server of our own (its own socket) running one command in a 120x40 window."""

    def __init__(self, socket: str) -> None:
        self.socket = socket

    def tmux(self, *args: str) -> str:
        done = subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True,
                              timeout=10, check=True)
        return done.stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "play")

    def wait_for(self, text: str, timeout: float = 20) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.1)
        raise AssertionError(f"{text!r} did not appear; the screen shows:\n{self.screen()}")

    def type(self, line: str) -> None:
        self.tmux("send-keys", "-t", "play", "-l", line)
        self.tmux("send-keys", "-t", "play", "Enter")


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Terminal]:
    """A running `atoll play highcard` in tmux; the tmux server is killed even if the test fails."""
    term = Terminal(f"atoll-test-{uuid.uuid4().hex[:12]}")
    command = shlex.join([
        "env", f"ATOLL_HOME={tmp_path / 'atoll'}", sys.executable, "-m", "tests.client.highcard_cli",
        "--seed", "3", "--bots", "random",
    ])
    try:
        term.tmux("new-session", "-d", "-s", "play", "-x", "120", "-y", "40", "-c", str(ROOT), command)
        yield term
    finally:
        subprocess.run(["tmux", "-L", term.socket, "kill-server"], capture_output=True, timeout=10)
        socket = Path(os.environ.get("TMUX_TMPDIR", "/tmp")) / f"tmux-{os.getuid()}" / term.socket
        socket.unlink(missing_ok=True)


def test_a_typed_action_changes_the_board_in_a_real_terminal(terminal: Terminal) -> None:
    before = terminal.wait_for("secret choice>")
    assert "phase bet hand" in before
    terminal.type("bet high")
    after = terminal.wait_for("your move>")
    assert "phase play hand" in after
    assert "seat 1 (you): made a secret choice" not in after  # news shows the others' moves only
    assert "seat 2 (random bot): made a secret choice" in after
