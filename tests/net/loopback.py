"""A host socket and a peer linked on loopback, for transport tests (never any other address)."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

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
