"""A dumb terminal (TERM=dumb) gets the plain line mode: not one escape code, even on a real tty."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from pathlib import Path


def read_until(fd: int, text: bytes, timeout: float = 60) -> bytes:
    seen = b""
    deadline = time.monotonic() + timeout
    while text not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:  # the other end closed
                break
            if not chunk:
                break
            seen += chunk
    return seen


def test_a_dumb_terminal_gets_plain_lines_without_escape_codes(tmp_path: Path) -> None:
    main, other = os.openpty()
    env = {**os.environ, "TERM": "dumb", "ATOLL_HOME": str(tmp_path / "atoll")}
    process = subprocess.Popen(
        [sys.executable, "-m", "atoll.cli.main", "play", "kariba", "--bots", "random", "--seed", "3"],
        stdin=other, stdout=other, stderr=other, env=env, close_fds=True,
    )
    os.close(other)
    try:
        shown = read_until(main, b"your move> ")
        os.write(main, b"play 1 mouse\n")
        shown += read_until(main, b"your move> ")
        os.write(main, b"\x04")  # Ctrl-D: the end of input leaves (and saves)
        shown += read_until(main, b"replay it with")
        process.wait(timeout=60)
    finally:
        process.kill()
        process.wait()
        os.close(main)
    assert b"your move> " in shown and b"1 mouse    #" in shown  # the mouse is at the waterhole
    assert b"\x1b" not in shown
