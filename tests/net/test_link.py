"""A peer's link to the host outlives a frame over its size limit."""

from __future__ import annotations

import asyncio

import zmq

from atoll.net.envelope import MAX_FRAME
from tests.net.loopback import host_and_peer


def test_a_peer_whose_link_dropped_over_an_oversize_frame_reaches_the_host_again() -> None:
    # ZeroMQ drops the link over such a frame and, it being a protocol error, never reconnects; a peer
    # used to wait forever on its next send (found by tests/table/test_fuzz_wire.py)
    async def run() -> list[bytes]:
        async with host_and_peer() as (host, peer):
            await peer.send(b"before")
            connection, _user, first = await asyncio.wait_for(host.recv(), 30)
            dropped = host.socket.get_monitor_socket(zmq.EVENT_DISCONNECTED)
            try:
                host.send(connection, b"x" * (MAX_FRAME + 1))
                await asyncio.wait_for(dropped.recv_multipart(), 30)  # the peer dropped the link
            finally:
                host.socket.disable_monitor()
                dropped.close(linger=0)
            heard = [first]
            while heard[-1] != b"after":  # a heartbeat a while: the first may go down the dead link
                await asyncio.wait_for(peer.send(b"after"), 30)
                try:
                    heard.append((await asyncio.wait_for(host.recv(), 0.5))[2])
                except TimeoutError:
                    continue
            return heard

    assert asyncio.run(asyncio.wait_for(run(), 60))[-1] == b"after"
