"""A person stand-in at the table screen (decision 0022): they watch a loopback table, a seat's player
leaves mid-game, and the seat is theirs to play on their screen to the result."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

from atoll.tui.screen import Ending
from tests.table.test_handover_loopback import MID_GAME, leave_mid_game, processes
from tests.tui.driver import pipe
from tests.tui.test_net_screen import Played, join_as_person


def test_a_person_standing_in_takes_over_a_seat_left_mid_game_and_plays_it_on_their_screen(
    tmp_path: Path,
) -> None:
    env = dict(os.environ, ATOLL_HOME=str(tmp_path / "host"))
    command = [sys.executable, "-m", "atoll.cli.main", "host", "kariba", "--seats", "2", "--bots", "1",
               "--bot-kind", "random", "--headless", "--late-watchers", "--bind", "127.0.0.1",
               "--no-announce", "--quiet"]
    with processes() as started:
        host = subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True, start_new_session=True)
        started.append(host)  # type: ignore[arg-type]
        assert host.stdout is not None
        address = next(line for line in host.stdout if "--address" in line).split("--address ")[1].strip()
        home = tmp_path / "leaver"
        leaver = subprocess.Popen(
            [sys.executable, "-m", "atoll.cli.main", "join", "--address", address, "--bot", "random",
             "--quiet", "--name", "Bea"],
            env=dict(os.environ, ATOLL_HOME=str(home), HOME=str(home)), stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
        started.append(leaver)

        async def both() -> tuple[Played, str]:
            with pipe() as keys:
                cy = join_as_person(address, keys, chat=None, name="Cy", stand_in=True)
                played = asyncio.ensure_future(cy)
                said = await asyncio.to_thread(leave_mid_game, leaver, home, 4 + MID_GAME, started)
                return await played, said

        played, said = asyncio.run(both())
        assert host.wait(timeout=60) == 0
    assert "your seat went to Cy and the game goes on" in said
    assert played.result.ending is Ending.FINISHED and played.source.problem() is None
    assert played.source.results() is not None
    assert any(s.startswith("your turn (") for s in played.statuses), played.statuses
    lines = [line.text for line in played.source.log()]
    assert any("Cy takes seat" in line and "over and the game goes on" in line for line in lines), lines
