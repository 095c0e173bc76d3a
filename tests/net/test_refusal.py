"""The host's ZAP handler refusing an identity: the refused client is told at once, not left waiting."""

from __future__ import annotations

import asyncio
import os

import pytest
from nacl.signing import SigningKey

from atoll.net.transport import HostSocket, PeerSocket, Refused, curve_keys


async def _exchange(admit: bool) -> bytes:
    host_key = SigningKey(os.urandom(32))
    host = HostSocket(curve_keys(host_key), lambda _key: admit)
    peer = PeerSocket(SigningKey(os.urandom(32)), curve_keys(host_key)[0])
    try:
        peer.connect("127.0.0.1", host.bind("127.0.0.1", None))
        await peer.send(b"hello")
        connection, _user, data = await asyncio.wait_for(host.recv(), 10) if admit else (b"", b"", b"")
        if admit:
            host.send(connection, b"echo " + data)
        return await asyncio.wait_for(peer.recv_admitted(), 30)
    finally:
        peer.close()
        host.close()


def test_a_peer_the_host_does_not_admit_is_told_it_was_refused() -> None:
    with pytest.raises(Refused, match="the host refused this identity's handshake"):
        asyncio.run(_exchange(admit=False))


def test_an_admitted_peer_receives_what_the_host_sends() -> None:
    assert asyncio.run(_exchange(admit=True)) == b"echo hello"
