"""A host socket and a peer linked on loopback, for transport tests (never any other address)."""

from __future__ import annotations

import os
import socket
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager

from nacl.signing import SigningKey

from atoll.net.transport import HostSocket, PeerSocket, curve_keys


@asynccontextmanager
async def host_and_peer(admit: bool = True) -> AsyncIterator[tuple[HostSocket, PeerSocket]]:
    """A host on a free loopback port whose ZAP handler answers ``admit`` to everyone, and a peer of a
    fresh identity connected to it; both closed afterwards, also on failure."""
    host_key = SigningKey(os.urandom(32))
    host = HostSocket(curve_keys(host_key), lambda _key: admit)
    peer = PeerSocket(SigningKey(os.urandom(32)), curve_keys(host_key)[0])
    try:
        peer.connect("127.0.0.1", host.bind("127.0.0.1", None))
        yield host, peer
    finally:
        peer.close()
        host.close()


@contextmanager
def idle_connections(port: int, count: int) -> Iterator[list[socket.socket]]:
    """``count`` TCP connections to ``port`` on loopback that never say a word (connecting in the
    background, so that a full backlog does not hold the test up); closed afterwards."""
    opened: list[socket.socket] = []
    try:
        for _ in range(count):
            raw = socket.socket()
            opened.append(raw)
            raw.setblocking(False)
            raw.connect_ex(("127.0.0.1", port))
        yield opened
    finally:
        for raw in opened:
            raw.close()
