"""Running the real ``atoll`` command as a user does: in its own process, with ``ATOLL_HOME`` and ``HOME``
in a test folder, on a pipe or in a pseudo-terminal (for commands that open the full screen)."""

from __future__ import annotations

import contextlib
import os
import pty
import select
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ATOLL = [sys.executable, "-m", "atoll.cli.main"]


def env_for(root: Path) -> dict[str, str]:
    """The environment of a user whose home is ``root`` and whose atoll data is in ``root/home``."""
    env = {key: value for key, value in os.environ.items() if key not in ("XDG_DATA_HOME", "NO_COLOR")}
    return {**env, "ATOLL_HOME": str(root / "home"), "HOME": str(root), "TERM": "xterm"}


@dataclass(frozen=True)
class Ran:
    """How a command ended: its exit status (``None``: still running when it was stopped) and all it
    printed, stdout and stderr together."""

    status: int | None
    output: str


def run(argv: list[str], env: dict[str, str], *, timeout: float = 60.0) -> Ran:
    """Run ``atoll ARGV`` on pipes to its end (killed after ``timeout`` seconds: status ``None``)."""
    try:
        done = subprocess.run([*ATOLL, *argv], env=env, stdin=subprocess.DEVNULL, capture_output=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired as late:
        return Ran(None, ((late.stdout or b"") + (late.stderr or b"")).decode(errors="replace"))
    return Ran(done.returncode, (done.stdout + done.stderr).decode(errors="replace"))


class InTerminal:
    """``atoll ARGV`` in a pseudo-terminal of its own; :meth:`stop` ends it (always call it)."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self._master, slave = pty.openpty()
        try:
            self.process = subprocess.Popen([*ATOLL, *argv], env=env, stdin=slave, stdout=slave, stderr=slave,
                                            start_new_session=True)
        finally:
            os.close(slave)
        self.output = b""

    def read_until(self, text: str, timeout: float) -> bool:
        """Read what the command prints until ``text`` shows, it exits, or ``timeout`` passes; whether
        ``text`` showed."""
        deadline = time.monotonic() + timeout
        while self._master >= 0 and text.encode() not in self.output and time.monotonic() < deadline:
            ready, _, _ = select.select([self._master], [], [], 0.1)
            if ready:
                try:
                    chunk = os.read(self._master, 65536)
                except OSError:  # the command exited and the terminal closed
                    chunk = b""
                if not chunk and self.process.poll() is not None:
                    break
                self.output += chunk
            elif self.process.poll() is not None:
                self._drain()  # what it wrote just before it exited is still in the terminal
                break
        return text.encode() in self.output

    def _drain(self) -> None:
        """Read what is left in the terminal of a command that has exited."""
        while True:
            ready, _, _ = select.select([self._master], [], [], 0.2)
            if not ready:
                return
            try:
                chunk = os.read(self._master, 65536)
            except OSError:  # the terminal closed
                return
            if not chunk:
                return
            self.output += chunk

    def finish(self, timeout: float) -> Ran:
        """Read to the command's end (stopped after ``timeout`` seconds: status ``None``)."""
        self.read_until("\0never printed\0", timeout)
        status = self.process.poll()
        self.stop()
        return Ran(status, self.output.decode(errors="replace"))

    def stop(self) -> None:
        """Kill the command if it still runs, and close the terminal."""
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        if self._master >= 0:
            os.close(self._master)
            self._master = -1


def run_in_terminal(argv: list[str], env: dict[str, str], *, timeout: float = 60.0) -> Ran:
    """Run ``atoll ARGV`` in a pseudo-terminal to its end (stopped after ``timeout`` seconds)."""
    return InTerminal(argv, env).finish(timeout)
