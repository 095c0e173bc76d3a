"""``atoll join --seat N`` and ``--colour NAME`` over real loopback sockets, each joiner its own process
as a user runs it (docs/decisions/0023-seats-at-a-table.md): people sit where they asked whatever order
they came in, a seat taken is refused in one line naming who holds it and the free seats, and the game
then plays to its end."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from nacl.signing import SigningKey

from atoll.app.serve import run_host
from atoll.net.transport import HostSocket, curve_keys
from atoll.table.host import Sequencer
from tests.commands import env_for, run
from tests.table.harness import REGISTRY

#: How long the whole table may take before the test fails rather than hangs.
TIMEOUT_S = 120.0


async def joiner(home: Path, address: str, name: str, *args: str) -> asyncio.subprocess.Process:
    """``atoll join --address ADDRESS --bot random --name NAME ARGS --quiet`` in its own process."""
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "atoll.cli.main", "join", "--address", address, "--bot", "random",
        "--name", name, *args, "--quiet",
        env=dict(os.environ, ATOLL_HOME=str(home / name), HOME=str(home)),
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )


async def until(condition: Callable[[], bool]) -> None:
    while not condition():
        await asyncio.sleep(0.05)


def test_join_seat_and_colour_sit_where_asked_and_a_taken_seat_is_refused_in_one_line(tmp_path: Path) -> None:
    host_key = SigningKey(os.urandom(32))
    host = Sequencer.open(f"kariba-seats-{os.urandom(6).hex()}", host_key, REGISTRY.game, game="kariba",
                          variant="standard", seats=3, name="seats", pin=REGISTRY.pin("kariba"))
    lobby = host.table.lobby
    assert lobby is not None

    def seat_of(name: str) -> int | None:
        return next((lobby.chairs[who] for who, said in lobby.names.items() if said == name), None)

    async def scenario() -> dict[str, tuple[int | None, str]]:
        socket = HostSocket(curve_keys(host_key), host.admit)  # in the loop that serves it
        port = socket.bind("127.0.0.1", None)
        address = f"127.0.0.1:{port}#{curve_keys(host_key)[0].decode()}"  # pinned: no key asked for
        serving = asyncio.ensure_future(run_host(host, socket, grace=2.0))
        processes: dict[str, asyncio.subprocess.Process] = {}
        try:
            processes["Ann"] = await joiner(tmp_path, address, "Ann", "--seat", "3")
            await until(lambda: seat_of("Ann") is not None)
            processes["Bea"] = await joiner(tmp_path, address, "Bea", "--seat", "3")
            await processes["Bea"].wait()  # refused before the others come
            processes["Cy"] = await joiner(tmp_path, address, "Cy", "--colour", "orange")
            await until(lambda: seat_of("Cy") is not None)
            processes["Dee"] = await joiner(tmp_path, address, "Dee")
            ended: dict[str, tuple[int | None, str]] = {}
            for name, process in processes.items():
                _out, err = await asyncio.wait_for(process.communicate(), TIMEOUT_S)
                ended[name] = (process.returncode, err.decode())
            await asyncio.wait_for(serving, TIMEOUT_S)
            return ended
        finally:
            for process in processes.values():
                if process.returncode is None:
                    process.kill()
                    await process.wait()
            serving.cancel()
            await asyncio.gather(serving, return_exceptions=True)
            socket.close()

    ended = asyncio.run(asyncio.wait_for(scenario(), TIMEOUT_S))
    status, said = ended["Bea"]
    assert status == 1 and said.strip().splitlines() == [
        "atoll join: seat 3 (green) is taken by Ann; free: seat 1 (orange), seat 2 (cyan)"
    ]
    assert {name: seat_of(name) for name in ("Ann", "Bea", "Cy", "Dee")} == {"Ann": 2, "Bea": None, "Cy": 0,
                                                                           "Dee": 1}
    assert all(ended[name][0] == 0 for name in ("Ann", "Cy", "Dee")), ended
    assert host.table.results() is not None and host.table.closed


def test_atoll_host_takes_the_seat_of_a_colour_and_refuses_one_the_game_has_not() -> None:
    from atoll.cli.cmd_host import _own_seat
    from atoll.errors import AtollError

    assert _own_seat(REGISTRY, "kiribati", "family", 3, None, "blue") == 1
    assert _own_seat(REGISTRY, "kariba", "standard", 3, 2, None) == 2
    with pytest.raises(AtollError, match=r"^there is no seat 5 at this table of 3 seats; free: seat 1 \("):
        _own_seat(REGISTRY, "kiribati", "family", 3, 4, None)


def test_a_seat_that_is_not_a_number_from_1_is_refused_by_the_command_line(tmp_path: Path) -> None:
    ran = run(["join", "--address", "10.0.0.2:4000", "--seat", "0"], env_for(tmp_path))
    assert ran.status == 2 and "a seat is a number from 1, as the seat bar shows it, not '0'" in ran.output
