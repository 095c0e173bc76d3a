"""The lobby on the simulated LAN: a table announced on one machine appears in the lobby screen of
another while it is open, and Enter chooses it. Runs only inside network namespaces
(``../shared/tools/lan``), never on this machine's interfaces."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.net.test_discovery import LAN_TOOL, lan_unavailable

_tags = itertools.count()

#: Opens the lobby screen on this machine's LAN interface with a pipe for the keys; once the table
#: named in argv[1] shows, presses Enter, then Enter in the seat picker, and prints what was chosen.
LOBBY = """
import asyncio, json, sys
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from atoll.net.discovery import TableBrowser
from atoll.registry import load_registry
from atoll.tui.lobby import LobbyScreen

async def main():
    found = load_registry()
    games = [installed.game.info for installed in found.games.values()]
    with create_pipe_input() as keys:
        async with TableBrowser(interfaces=[sys.argv[2]]) as browser:
            lobby = LobbyScreen(browser, games, lambda game: ["random"], input=keys, output=DummyOutput())
            task = asyncio.ensure_future(lobby.run())
            for _ in range(1800):  # up to 90 s: the host machine may be slow to start and announce
                if any(t.name == sys.argv[1] for t in lobby.tables()):
                    break
                await asyncio.sleep(0.05)
            keys.send_text("\\r")  # both seats are free: the seat picker opens
            for _ in range(100):
                if lobby.picking:
                    break
                await asyncio.sleep(0.05)
            keys.send_text("\\r")  # and sits at the first free seat
            choice = await asyncio.wait_for(task, 30)
    print(json.dumps({"action": choice.action, "name": choice.table.announcement.name,
                      "address": choice.table.address, "seat": choice.seat,
                      "open": choice.table.announcement.open_seats}))

asyncio.run(main())
"""


@pytest.fixture
def lan2() -> Iterator[str]:
    """A simulated LAN of two hosts (its tag), taken down afterwards, also on failure."""
    reason = lan_unavailable()
    if reason:
        pytest.skip(reason)
    tag = f"l{os.getpid() % 100000:x}{next(_tags)}"
    subprocess.run([str(LAN_TOOL), "up", "2", tag], check=True, capture_output=True)
    try:
        yield tag
    finally:
        subprocess.run([str(LAN_TOOL), "down", tag], capture_output=True)


def test_a_table_announced_on_the_lan_appears_in_the_lobby_and_enter_chooses_it(
    lan2: str, tmp_path: Path
) -> None:
    env = dict(os.environ, LAN_TAG=lan2, ATOLL_HOME=str(tmp_path / "h1"))
    host = subprocess.Popen(
        [str(LAN_TOOL), "exec", "1", sys.executable, "-m", "atoll.cli.main", "host", "kariba", "--seats", "2",
         "--headless", "--name", "lan lobby", "--bind", "10.213.0.1", "--quiet"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    try:
        lobby = subprocess.run(
            [str(LAN_TOOL), "exec", "2", sys.executable, "-c", LOBBY, "lan lobby", "10.213.0.2"],
            env=dict(env, ATOLL_HOME=str(tmp_path / "h2")), capture_output=True, text=True, timeout=180,
        )
    finally:
        if host.poll() is None:
            os.killpg(host.pid, 9)
        host.wait()
    assert lobby.returncode == 0, lobby.stderr[-2000:]
    chosen = json.loads(lobby.stdout.strip().splitlines()[-1])
    assert chosen["action"] == "join" and chosen["name"] == "lan lobby"
    assert chosen["open"] == [0, 1] and chosen["seat"] == 0  # the free seats came in the DNS-SD record
    assert chosen["address"].startswith("10.213.0.1:")
