"""The door of a host's port: connections that never finish their handshake cannot starve the host.

The threat: anyone on the LAN may open TCP connections to a table's port without a key and say
nothing. Each holds one of the host's file descriptors until ZeroMQ drops it.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import sys
from collections.abc import Callable

import pytest
import zmq
from nacl.signing import SigningKey

from atoll.net.descriptors import RESERVED, pending_cap, raise_limit
from atoll.net.door import HANDSHAKE_MS, Door
from atoll.net.transport import HostSocket, PeerSocket, curve_keys
from tests.net.loopback import idle_connections


async def until(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "the door never got there"
        await asyncio.sleep(0.02)


async def a_peer_gets_through(host: HostSocket, host_key: SigningKey, port: int) -> bytes:
    peer = PeerSocket(SigningKey(os.urandom(32)), curve_keys(host_key)[0])
    try:
        peer.connect("127.0.0.1", port)
        await peer.send(b"hello")
        _, _, data = await asyncio.wait_for(host.recv(), 10.0)
        return data
    finally:
        peer.close()


def test_connections_that_never_finish_their_handshake_close_the_door_for_a_moment_then_a_peer_gets_in(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def run() -> None:
        host_key = SigningKey(os.urandom(32))
        host = HostSocket(curve_keys(host_key), lambda _key: True)
        host.door.cap = 8
        watching = asyncio.ensure_future(host.door.watch())
        try:
            port = host.bind("127.0.0.1", None)
            with idle_connections(port, 30):
                await until(lambda: host.door.closings == 1)
            assert await a_peer_gets_through(host, host_key, port) == b"hello"
            assert host.door.pending() == 0
        finally:
            watching.cancel()
            host.close()

    with caplog.at_level(logging.WARNING, logger="atoll.net.door"):
        asyncio.run(run())
    said = [record.getMessage() for record in caplog.records]
    assert any("refusing new connections" in line and "at most 8" in line for line in said), said
    assert any("accepting new connections again" in line for line in said), said


def test_a_connection_that_does_not_finish_its_handshake_in_time_is_dropped_and_no_longer_counted() -> None:
    async def run() -> None:
        host_key = SigningKey(os.urandom(32))
        host = HostSocket(curve_keys(host_key), lambda _key: True)
        assert host.socket.getsockopt(zmq.HANDSHAKE_IVL) == HANDSHAKE_MS
        host.socket.setsockopt(zmq.HANDSHAKE_IVL, 300)  # the same rule, sooner, for a fast test
        watching = asyncio.ensure_future(host.door.watch())
        try:
            port = host.bind("127.0.0.1", None)
            with idle_connections(port, 3) as idle:
                await until(lambda: host.door.accepted == 3)
                assert host.door.pending() == 3
                await until(lambda: host.door.pending() == 0)
                for raw in idle:
                    raw.setblocking(True)
                    raw.settimeout(5.0)
                    while raw.recv(4096):  # ZeroMQ's half of the greeting, then the end: it closed it
                        pass
            assert host.door.closings == 0
            assert await a_peer_gets_through(host, host_key, port) == b"hello"
            assert (host.door.accepted, host.door.ended) == (4, 4)
        finally:
            watching.cancel()
            host.close()

    asyncio.run(run())


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="counts descriptors in /proc/self/fd")
def test_an_accept_that_fails_for_want_of_descriptors_closes_the_door_instead_of_spinning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    resource = pytest.importorskip("resource")

    async def run() -> None:
        host_key = SigningKey(os.urandom(32))
        host = HostSocket(curve_keys(host_key), lambda _key: True)
        host.door.cap = 10_000  # only the descriptors run out
        watching = asyncio.ensure_future(host.door.watch())
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        try:
            port = host.bind("127.0.0.1", None)
            with idle_connections(port, 0) as idle:
                idle.extend(socket.socket() for _ in range(40))  # their descriptors taken before the limit
                resource.setrlimit(resource.RLIMIT_NOFILE, (len(os.listdir("/proc/self/fd")) + 10, hard))
                try:
                    for raw in idle:
                        raw.setblocking(False)
                        raw.connect_ex(("127.0.0.1", port))
                    await until(lambda: host.door.closings >= 1)
                finally:
                    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
            await until(lambda: host.door.accepted == 0 and host.door.closings >= 1)
            assert await a_peer_gets_through(host, host_key, port) == b"hello"
        finally:
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
            watching.cancel()
            host.close()

    with caplog.at_level(logging.WARNING, logger="atoll.net.door"):
        asyncio.run(run())
    assert any("out of file descriptors (EMFILE)" in r.getMessage() for r in caplog.records)


def test_each_door_may_hold_a_share_of_the_descriptors_left_after_the_hosts_own() -> None:
    assert pending_cap(2, limit=128) == (128 - RESERVED) // 2
    assert pending_cap(2, limit=RESERVED) == 8  # never none: a seat must still get in
    assert pending_cap(2, limit=1_048_576) == 4_096  # past that, memory matters more


def test_the_host_raises_its_soft_descriptor_limit_as_far_as_the_hard_limit_allows() -> None:
    resource = pytest.importorskip("resource")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(soft, 256), hard))
        raised = raise_limit(wanted=min(hard, 4096))
        assert raised == min(hard, 4096) == resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_a_door_on_a_socket_of_a_plain_context_says_it_needs_an_asyncio_one() -> None:
    # its monitor is awaited: a socket of a plain context would make a monitor no loop can wait on
    context = zmq.Context()
    router = context.socket(zmq.ROUTER)
    try:
        with pytest.raises(TypeError, match="asyncio context"):
            Door(router, "a port")
    finally:
        router.close(linger=0)
        context.term()
