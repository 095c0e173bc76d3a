"""A person at a network table without a full screen (input and output on pipes, ``TERM=dumb``) reads
what the full-screen client shows: the seats by name, the log in the game's words, the result page
with each person's points part by part (issue 30: plain mode showed none of them)."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import threading
import time
from pathlib import Path

from tests.commands import ATOLL, env_for

#: How long the game may take before the test fails rather than hangs.
GAME_TIMEOUT = 180.0


def test_atoll_host_on_pipes_shows_the_seats_the_games_words_and_the_score_details(tmp_path: Path) -> None:
    env = {**env_for(tmp_path), "TERM": "dumb"}
    host = subprocess.Popen(
        [*ATOLL, "host", "kariba", "--seats", "2", "--bots", "1", "--bot-kind", "random", "--player", "Ann",
         "--bind", "127.0.0.1", "--no-announce"],
        env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        start_new_session=True,
    )
    assert host.stdin is not None and host.stdout is not None
    printed: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        assert host.stdout is not None
        for line in host.stdout:
            printed.put(line.rstrip("\n"))
        printed.put(None)

    threading.Thread(target=read, daemon=True).start()
    seen: list[str] = []
    try:
        deadline = time.monotonic() + GAME_TIMEOUT
        while (line := printed.get(timeout=max(0.1, deadline - time.monotonic()))) is not None:
            seen.append(line)
            if line.startswith("legal: "):
                host.stdin.write(line.removeprefix("legal: ").split(", ")[0] + "\n")
                host.stdin.flush()
            assert time.monotonic() < deadline, "\n".join(seen[-40:])
        assert host.wait(timeout=30) == 0, "\n".join(seen[-40:])
    finally:
        if host.poll() is None:
            os.killpg(host.pid, signal.SIGKILL)
        host.wait()
    text = "\n".join(seen)
    assert "\x1b" not in text and "not a terminal" not in text  # no escape code, no warning
    assert any(line.startswith("seats: ") and "player 1 (you)" in line and "player 2 (bot 1)" in line
               for line in seen), text
    assert any(line.startswith("  ") and "draws" in line for line in seen), text  # chance in Kariba's words
    assert any(line.startswith("game over: player ") for line in seen), text
    places = [line for line in seen if line.startswith(("1st", "2nd"))]
    assert len(places) == 2 and all(" points = " in line or " point = " in line for line in places), text
