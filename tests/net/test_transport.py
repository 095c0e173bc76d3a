"""The transport's own refusals: what a peer will not put on the wire."""

from __future__ import annotations

import asyncio
import os

import pytest
from nacl.signing import SigningKey

from atoll.net.envelope import MAX_MESSAGE, MessageTooLarge
from atoll.net.transport import HostSocket, PeerSocket, curve_keys
from tests.net.loopback import host_and_peer


def test_a_peer_refuses_to_send_a_message_over_the_tables_limit_naming_both_sizes() -> None:
    # ZeroMQ would drop such a message and the connection with it, and its sender would never know
    async def run() -> None:
        link = PeerSocket(SigningKey(os.urandom(32)), curve_keys(SigningKey(os.urandom(32)))[0])
        try:
            with pytest.raises(
                MessageTooLarge,
                match=f"message of {MAX_MESSAGE + 1} bytes is over the table's limit of {MAX_MESSAGE} bytes",
            ):
                await link.send(b"x" * (MAX_MESSAGE + 1))
        finally:
            link.close()

    asyncio.run(run())


async def linked(host: HostSocket, peer: PeerSocket) -> bytes:
    """The host's connection id of ``peer``, learnt from a first message."""
    await peer.send(b"hello")
    connection, _key, data = await host.recv()
    assert data == b"hello"
    return connection


async def until_waiting(peer: PeerSocket) -> None:
    """Until a message from the host waits at ``peer`` (at most 5 s)."""
    await asyncio.wait_for(_poll(peer), 5)


async def _poll(peer: PeerSocket) -> None:
    while not peer.pending():
        await asyncio.sleep(0.01)


def test_a_message_of_several_frames_from_the_host_is_dropped_unread_and_the_next_one_arrives() -> None:
    # a host's ROUTER sends every message as one frame; reading another part-way and then losing the
    # link (which a hostile host can cause with an oversize frame) aborts the peer's ZeroMQ
    async def run() -> None:
        async with host_and_peer() as (host, peer):
            connection = await linked(host, peer)
            await host.socket.send_multipart([connection, b"one part", b"and another"])
            await host.socket.send_multipart([connection, b"a message"])
            assert await asyncio.wait_for(peer.recv(), 5) == b"a message"
            # now both wait already, and are taken without waiting
            await host.socket.send_multipart([connection, b"one part", b"and another"])
            await host.socket.send_multipart([connection, b"the next"])
            await until_waiting(peer)
            assert await asyncio.wait_for(peer.recv(), 5) == b"the next"

    asyncio.run(run())


def test_a_peer_taking_what_waits_finds_nothing_in_a_message_of_several_frames_and_does_not_wait() -> None:
    # the peer's loop takes waiting messages without waiting; a dropped one must not make it wait for
    # the next, which may come only after this peer's own move
    async def run() -> None:
        async with host_and_peer() as (host, peer):
            connection = await linked(host, peer)
            await host.socket.send_multipart([connection, b"one part", b"and another"])
            await until_waiting(peer)
            assert peer.take() is None
            assert not peer.pending()

    asyncio.run(run())
