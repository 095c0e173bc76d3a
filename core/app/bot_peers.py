"""The bots a host starts for its table: each one an ``atoll join`` process of its own, with its own
identity under the host's data folder, stopped again when the game is over."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from pathlib import Path


def start_bot(
    home: Path,
    table_id: str,
    index: int | str,
    address: str,
    kind: str,
    *,
    stand_in: bool = False,
    seat: int | None = None,
    think: float | None = None,
    delay: float | None = None,
) -> subprocess.Popen[bytes]:
    """Start one bot peer as its own process, with its own identity under the host's data directory;
    ``stand_in``: it watches, and takes over a seat whose player leaves; else it sits at ``seat`` (else
    the first free one). Each of its moves takes at least ``delay`` seconds, if given."""
    env = dict(os.environ, ATOLL_HOME=str(home / "bots" / f"{table_id}-{index}"))
    command = bot_command(index, address, kind, stand_in=stand_in, seat=seat, think=think, delay=delay)
    return subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL)


def bot_command(
    index: int | str,
    address: str,
    kind: str,
    *,
    stand_in: bool = False,
    seat: int | None = None,
    think: float | None = None,
    delay: float | None = None,
) -> list[str]:
    """The command line of a bot peer: ``atoll join`` at ``address`` as a bot (or a stand-in) of ``kind``,
    at ``seat`` (from 0) when given, a search bot thinking ``think`` seconds a decision when given, each
    move taking at least ``delay`` seconds when given."""
    name = "stand-in bot" if stand_in else f"bot {int(index) + 1}"
    command = [sys.executable, "-m", "atoll.cli.main", "join", "--address", address,
               "--stand-in" if stand_in else "--bot", kind, "--name", name, "--quiet"]
    if seat is not None:
        command += ["--seat", str(seat + 1)]  # the command line counts seats from 1
    if think is not None:
        command += ["--think", repr(think)]
    if delay is not None:
        command += ["--bot-delay", repr(delay)]
    return command


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
