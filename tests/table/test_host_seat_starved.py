"""A host whose own seat's bot meets ``EMFILE`` asks it again instead of dying (issue 25, point 5).

Under a flood of connections a bot's worker thread may find no file descriptor left
(``OSError: [Errno 24] Too many open files`` from ``asyncio.to_thread``); the host used to die of it.
"""

from __future__ import annotations

import asyncio
import errno
import os

from nacl.signing import SigningKey

from atoll.app.peer_loop import run_peer
from atoll.app.serve import run_host
from atoll.engine.observation import Observation
from atoll.net.transport import HostSocket, PeerSocket, curve_keys
from atoll.table.host import Sequencer
from atoll.table.peer import PeerSession
from atoll.table.table import Table
from atoll.types import Action
from atoll.wire import Kind
from tests.table.harness import REGISTRY
from tests.table.wire import random_bot


def test_a_host_whose_own_bot_runs_out_of_descriptors_asks_it_again_and_the_game_ends() -> None:
    async def run() -> tuple[Table, Table, int]:
        host_key = SigningKey(os.urandom(32))
        host = Sequencer.open(
            f"kariba-starved-{os.urandom(6).hex()}",
            host_key,
            REGISTRY.game,
            game="kariba",
            variant="standard",
            seats=2,
            name="starved",
            pin=REGISTRY.pin("kariba"),
        )
        host.local(host.table.compose(Kind.SIT, {"name": "host"}))
        bot = random_bot(host.table, 1)
        asked: list[int] = []

        async def starved_once(observation: Observation) -> Action:
            asked.append(1)
            if len(asked) == 1:
                raise OSError(errno.EMFILE, "Too many open files")
            return await bot(observation)

        key = SigningKey(os.urandom(32))
        table = Table(host.table.id, host_key.verify_key.encode(), key, REGISTRY.game)
        socket = HostSocket(curve_keys(host_key), host.admit)
        link = PeerSocket(key, curve_keys(host_key)[0])
        try:
            link.connect("127.0.0.1", socket.bind("127.0.0.1", None))
            hosting = asyncio.create_task(run_host(host, socket, starved_once, grace=1.0))
            session = PeerSession(table, "sit", "peer", REGISTRY.installed_pin)
            peer = await asyncio.wait_for(run_peer(session, link, random_bot(table, 2)), 60)
            await asyncio.wait_for(hosting, 30)
            return host.table, peer, len(asked)
        finally:
            link.close()
            socket.close()

    hosted, peer, asked = asyncio.run(run())
    assert hosted.over() and peer.over() and hosted.results() is not None
    assert hosted.log.entries == peer.log.entries
    assert asked >= 2
