"""A peer's loop lets go of what it opened however it stops (sockets on loopback, no host).

A seat with a standby address listens there while it plays. A loop stopped at its very first send
(a link whose queue is full: the host gone, its messages piling up) once left that socket open: the
address stayed taken, and when the forgotten socket was collected, closing its ZeroMQ context could
hang the process. A standby port another program took before the seat sat is given up for another
free one, which the seat names instead."""

from __future__ import annotations

import asyncio
import os
import socket

import zmq
from nacl.signing import SigningKey

from atoll.app.peer_loop import run_peer
from atoll.app.ports import free_pair, port_free
from atoll.net.transport import PeerSocket, curve_keys
from atoll.table.peer import PeerSession
from atoll.table.table import Table
from tests.table.harness import REGISTRY


def free_port() -> int:
    port = free_pair("127.0.0.1")
    assert port is not None
    return port


def bindable(port: int) -> bool:
    return port_free("127.0.0.1", port)


def full_link(key: SigningKey, host_key: SigningKey) -> PeerSocket:
    """A link to a port where nobody listens, its send queue full: the next send waits."""
    link = PeerSocket(key, curve_keys(host_key)[0])
    link.connect("127.0.0.1", free_port())
    while True:
        try:
            link.socket.send(b"{}", flags=zmq.NOBLOCK)
        except zmq.Again:
            return link


def a_seat() -> tuple[SigningKey, SigningKey, PeerSession]:
    """A host's key, and a seat's key and session at a table of that host (not sat yet)."""
    host_key, key = SigningKey(os.urandom(32)), SigningKey(os.urandom(32))
    table = Table(f"lets-go-{os.urandom(4).hex()}", host_key.verify_key.encode(), key, REGISTRY.game)
    return host_key, key, PeerSession(table, "sit", "p0", REGISTRY.installed_pin)


def test_a_seat_stopped_at_its_first_send_lets_its_standby_address_go() -> None:
    async def run() -> None:
        host_key, key, session = a_seat()
        standby = free_port()
        session.standby = f"127.0.0.1:{standby}"
        link = full_link(key, host_key)
        try:
            playing = asyncio.ensure_future(run_peer(session, link, None))
            for _ in range(500):  # the side door is open once the loop has said which host it reaches
                if session.linked_to is not None:
                    break
                await asyncio.sleep(0.01)
            assert session.linked_to is not None and not bindable(standby)
            await asyncio.sleep(0.1)  # its hello waits for room
            assert not playing.done()
            playing.cancel()
            await asyncio.gather(playing, return_exceptions=True)
            for _ in range(200):  # ZeroMQ lets the port go in its own thread, a moment after the close
                if bindable(standby):
                    break
                await asyncio.sleep(0.01)
            assert bindable(standby)
        finally:
            link.close()

    asyncio.run(run())


def test_a_seat_whose_standby_port_was_taken_before_it_sat_listens_at_another_and_names_that_one() -> None:
    # the port was free when it was chosen; another program bound it before the seat's loop began
    async def run() -> None:
        host_key, key, session = a_seat()
        taken = free_port()
        session.standby = f"127.0.0.1:{taken}"
        link = full_link(key, host_key)
        with socket.socket() as other:
            other.bind(("127.0.0.1", taken))
            other.listen()
            try:
                playing = asyncio.ensure_future(run_peer(session, link, None))
                for _ in range(500):
                    if session.linked_to is not None or playing.done():
                        break
                    await asyncio.sleep(0.01)
                assert not playing.done(), playing.exception()  # it plays on
                host, _, port = session.standby.rpartition(":")
                assert host == "127.0.0.1" and int(port) != taken  # what its sit will name
                assert not bindable(int(port))  # and it listens there
                playing.cancel()
                await asyncio.gather(playing, return_exceptions=True)
            finally:
                link.close()

    asyncio.run(run())
