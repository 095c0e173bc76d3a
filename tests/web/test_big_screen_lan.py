"""The big screen on the simulated LAN (``../shared/tools/lan``, never this machine's interfaces): a host
shows its table on a page the LAN can open and says so in its announcement, the lobby on another
machine shows where, and ``atoll watch`` on a third finds the table by name and shows it to the end."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from atoll_tools.big_screen import wait_for

from tests.net.test_discovery import LAN_TOOL
from tests.table.test_lan import TIMEOUT, lan4, on_host

__all__ = ["lan4"]  # the fixture, used by name

#: Reads a page's snapshot from inside a machine of the LAN (the test itself is outside it).
FETCH = "import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())"


def state(tag: str, machine: int, url: str) -> dict[str, Any]:
    """The snapshot the page at ``url`` serves, fetched from ``machine`` (empty if it does not answer)."""
    done = subprocess.run(
        [str(LAN_TOOL), "exec", str(machine), sys.executable, "-c", FETCH, url + "state"],
        env=dict(os.environ, LAN_TAG=tag), capture_output=True, text=True, timeout=30,
    )
    return json.loads(done.stdout) if done.returncode == 0 else {}


def test_the_lobby_shows_a_tables_big_screen_and_atoll_watch_finds_the_table_by_name(
    lan4: str, tmp_path: Path
) -> None:
    processes: list[subprocess.Popen[str]] = []
    try:
        host = on_host(lan4, 1, tmp_path / "h1", "atoll.cli.main", "host", "kariba", "--seats", "2",
                       "--headless", "--name", "big party", "--bind", "10.213.0.1",
                       "--web", "10.213.0.1:8480", "--quiet")
        processes.append(host)
        host_page = "http://10.213.0.1:8480/"
        wait_for(lambda: state(lan4, 4, host_page), 60, "the host's page answering on the LAN", every=0.3)
        lobby = on_host(lan4, 2, tmp_path / "h2", "atoll.cli.main", "join", "--wait", "4")
        processes.append(lobby)
        out, err = lobby.communicate(timeout=60)
        assert "on a big screen: http://10.213.0.1:8480/" in out, out + err
        watcher = on_host(lan4, 3, tmp_path / "h3", "atoll.cli.main", "watch", "big party", "--wait", "20",
                          "--web", "10.213.0.3:8481", "--linger", "60", "--quiet")
        processes.append(watcher)
        page = "http://10.213.0.3:8481/"
        wait_for(lambda: state(lan4, 3, page).get("seats"), 60, "the watcher at the table", every=0.3)
        bots = [on_host(lan4, i, tmp_path / f"h{i}", "atoll.cli.main", "join", "big party", "--bot", "random",
                        "--wait", "20", "--quiet") for i in (2, 4)]
        processes += bots
        for bot in bots:
            bot.communicate(timeout=TIMEOUT)
            assert bot.returncode == 0
        shown = wait_for(lambda: (s := state(lan4, 3, page)).get("result") and s, 60, "the result",
                         every=0.3)
        assert shown["result"]["headline"].startswith("game over")
        assert len(shown["seats"]) == 2 and all(seat["who"] != "free" for seat in shown["seats"])
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.wait()
