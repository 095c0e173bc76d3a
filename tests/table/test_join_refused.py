"""``atoll join`` at a table whose seats are taken by others: the host's ZAP handler refuses the
identity, and the joining program says so in one clear line and exits non-zero at once (before, it
waited out its handshake and said the host did not answer)."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest
from nacl.signing import SigningKey

from atoll.net.transport import HostSocket, curve_keys
from atoll.table.host import Sequencer
from atoll.table.table import Table
from tests.table.harness import REGISTRY


def full_table() -> Sequencer:
    """A Kariba table for two whose seats two other identities have taken (the game has begun)."""
    host_key = SigningKey(os.urandom(32))
    host = Sequencer.open(
        f"kariba-full-{os.urandom(6).hex()}", host_key, REGISTRY.game,
        game="kariba", variant="standard", seats=2, name="full table", pin=REGISTRY.pin("kariba"),
        late_watchers=False,  # as `atoll host --no-late-watchers` opens it
    )
    for i in range(2):
        seat = Table(host.table.id, host_key.verify_key.encode(), SigningKey(os.urandom(32)), REGISTRY.game)
        for entry in host.table.log.entries:
            seat.receive(entry.to_json())
        host.local(seat.compose("sit", {"name": f"p{i}"}))
    assert host.table.lobby is not None and host.table.lobby.full()
    return host


async def join(home: Path, *args: str) -> tuple[int, str]:
    """Run ``atoll join ARGS`` against a host served in this event loop; its status and stderr."""
    host = full_table()
    socket = HostSocket(curve_keys(host.key), host.admit)
    process: asyncio.subprocess.Process | None = None
    try:
        port = socket.bind("127.0.0.1", None)
        address = f"127.0.0.1:{port}#{curve_keys(host.key)[0].decode()}"  # pinned: no key asked for
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "atoll.cli.main", "join", "--address", address, *args,
            env=dict(os.environ, ATOLL_HOME=str(home)),
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )
        _out, err = await asyncio.wait_for(process.communicate(), 60)
        assert process.returncode is not None
        return process.returncode, err.decode()
    finally:
        if process is not None and process.returncode is None:
            process.kill()
            await process.wait()
        socket.close()


@pytest.mark.parametrize(
    ("role", "why"),
    [
        (["--bot", "random"], "its seats are taken and none is this identity's; watch with --spectate if"),
        (["--spectate"], "its seats are taken and it admits no more spectators"),
    ],
    ids=["bot", "spectator"],
)
def test_an_identity_without_a_seat_at_a_full_table_is_told_in_one_line_that_it_was_refused(
    tmp_path: Path, role: list[str], why: str
) -> None:
    status, err = asyncio.run(join(tmp_path, *role, "--quiet"))
    assert status != 0
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("atoll join: the table at 127.0.0.1:")
    assert "refused this identity" in lines[0] and why in lines[0] and "--no-late-watchers" in lines[0]
