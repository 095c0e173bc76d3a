"""The bots a host starts for its table: each one an ``atoll join`` process of its own, with its own
identity under the host's data folder, stopped again when the game is over."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class BotPeer:
    """One bot a host starts: ``atoll join`` at ``address`` as a bot (or, ``stand_in``, a stand-in that
    watches and takes over a seat whose player leaves) of ``kind``; at ``seat`` (from 0) when given,
    else the first free one; a search bot thinking ``think`` seconds a decision when given; each move
    taking at least ``delay`` seconds when given."""

    index: int | str
    address: str
    kind: str
    stand_in: bool = False
    seat: int | None = None
    think: float | None = None
    delay: float | None = None

    def command(self) -> list[str]:
        """Its command line."""
        name = "stand-in bot" if self.stand_in else f"bot {int(self.index) + 1}"
        command = [sys.executable, "-m", "atoll.cli.main", "join", "--address", self.address,
                   "--stand-in" if self.stand_in else "--bot", self.kind, "--name", name, "--quiet"]
        if self.seat is not None:
            command += ["--seat", str(self.seat + 1)]  # the command line counts seats from 1
        if self.think is not None:
            command += ["--think", repr(self.think)]
        if self.delay is not None:
            command += ["--bot-delay", repr(self.delay)]
        return command


def start_bot(home: Path, table_id: str, bot: BotPeer) -> subprocess.Popen[bytes]:
    """Start ``bot`` as its own process, with its own identity under the host's data folder."""
    env = dict(os.environ, ATOLL_HOME=str(home / "bots" / f"{table_id}-{bot.index}"))
    return subprocess.Popen(bot.command(), env=env, stdin=subprocess.DEVNULL)


def stop_bots(processes: list[subprocess.Popen[bytes]], patience: float) -> None:
    """Give the bot processes ``patience`` seconds each to finish (the game is over: they close their
    side of it), then stop the ones still running, all at once: SIGTERM, and SIGKILL after 5 s."""
    for process in processes:
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=patience)
    running = [process for process in processes if process.poll() is None]
    for process in running:
        process.send_signal(signal.SIGTERM)
    for process in running:
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
