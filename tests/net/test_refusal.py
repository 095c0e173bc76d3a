"""The host's ZAP handler refusing an identity: the refused client is told at once, not left waiting."""

from __future__ import annotations

import asyncio

import pytest

from atoll.net.transport import Refused
from tests.net.loopback import host_and_peer


async def _exchange(admit: bool) -> bytes:
    async with host_and_peer(admit) as (host, peer):
        await peer.send(b"hello")
        if admit:
            connection, _user, data = await asyncio.wait_for(host.recv(), 10)
            host.send(connection, b"echo " + data)
        return await asyncio.wait_for(peer.recv_admitted(), 30)


def test_a_peer_the_host_does_not_admit_is_told_it_was_refused() -> None:
    with pytest.raises(Refused, match="the host refused this identity's handshake"):
        asyncio.run(_exchange(admit=False))


def test_an_admitted_peer_receives_what_the_host_sends() -> None:
    assert asyncio.run(_exchange(admit=True)) == b"echo hello"
