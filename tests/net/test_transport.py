"""The transport's own refusals (what a peer will not put on the wire), and how a loop waits on its socket."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager

import pytest
from nacl.signing import SigningKey

from atoll.net.envelope import MAX_MESSAGE, MessageTooLarge
from atoll.net.transport import HostSocket, Intake, PeerSocket, curve_keys
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


@contextmanager
def intake_of(peer: PeerSocket) -> Iterator[Intake[bytes]]:
    """A peer's loop's intake on ``peer``, closed afterwards (also on failure)."""
    intake = Intake(peer)
    try:
        yield intake
    finally:
        intake.close()


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
            host.send_frames([connection, b"one part", b"and another"])
            host.send_frames([connection, b"a message"])
            assert await asyncio.wait_for(peer.recv(), 5) == b"a message"
            # now both wait already, and are taken without waiting
            host.send_frames([connection, b"one part", b"and another"])
            host.send_frames([connection, b"the next"])
            await until_waiting(peer)
            assert await asyncio.wait_for(peer.recv(), 5) == b"the next"

    asyncio.run(run())


def test_a_peer_taking_what_waits_finds_nothing_in_a_message_of_several_frames_and_does_not_wait() -> None:
    # the peer's loop takes waiting messages without waiting; a dropped one must not make it wait for
    # the next, which may come only after this peer's own move
    async def run() -> None:
        async with host_and_peer() as (host, peer):
            connection = await linked(host, peer)
            host.send_frames([connection, b"one part", b"and another"])
            await until_waiting(peer)
            assert peer.take() is None
            assert not peer.pending()

    asyncio.run(run())


def test_a_loop_woken_first_by_its_bot_then_hears_the_next_message() -> None:
    # a peer's loop waits for the first of the host, its bot's choice and its heartbeat: after a wake
    # by the bot, the message that then comes is the next one taken
    async def run() -> None:
        async with host_and_peer() as (host, peer):
            connection = await linked(host, peer)
            with intake_of(peer) as intake:
                loop = asyncio.get_running_loop()
                chosen: asyncio.Future[str] = loop.create_future()
                loop.call_later(0.05, chosen.set_result, "a move")
                assert await intake.next((chosen, None), 5.0) is None  # the bot chose first
                assert host.send(connection, b"an entry")
                assert await asyncio.wait_for(intake.next((), 5.0), 5) == b"an entry"

    asyncio.run(run())


def test_a_loops_wait_ends_after_its_timeout_with_nothing() -> None:
    async def run() -> None:
        async with host_and_peer() as (_host, peer):
            with intake_of(peer) as intake:
                loop = asyncio.get_running_loop()
                began = loop.time()
                assert await intake.next((), 0.1) is None
                assert 0.09 <= loop.time() - began < 2.0

    asyncio.run(run())


def test_a_loop_takes_messages_that_wait_already_without_waiting_then_waits_for_the_rest() -> None:
    async def run() -> None:
        async with host_and_peer() as (host, peer):
            connection = await linked(host, peer)
            for n in range(3):
                assert host.send(connection, f"entry {n}".encode())
            await until_waiting(peer)
            with intake_of(peer) as intake:
                taken = [await asyncio.wait_for(intake.next((), 5.0), 5) for _ in range(3)]
                assert taken == [b"entry 0", b"entry 1", b"entry 2"]
                loop = asyncio.get_running_loop()
                loop.call_later(0.05, host.send, connection, b"entry 3")
                assert await asyncio.wait_for(intake.next((), 5.0), 5) == b"entry 3"

    asyncio.run(run())


async def _a_heartbeat(peer: PeerSocket) -> None:
    await peer.send(b"a heartbeat")


async def _a_look(peer: PeerSocket) -> None:
    assert peer.pending()


@pytest.mark.parametrize("taken_in_by", [_a_heartbeat, _a_look], ids=["a send", "a look at the socket"])
def test_what_takes_in_a_messages_arrival_still_wakes_the_loop_waiting_for_it(
    taken_in_by: Callable[[PeerSocket], Awaitable[None]],
) -> None:
    # ZeroMQ's descriptor says once that something came: a send made before the loop looks (a heartbeat,
    # a move), or a look whether more messages wait (the host's own seat moving while its loop waits),
    # takes that in, and a loop waiting for the descriptor would then sleep past the message
    async def run() -> None:
        async with host_and_peer() as (host, peer):
            connection = await linked(host, peer)
            with intake_of(peer) as intake:
                waiting = asyncio.ensure_future(intake.next((), 30.0))
                await asyncio.sleep(0.05)  # the loop waits now
                assert host.send(connection, b"an entry")
                time.sleep(0.3)  # no turn of the loop: the message arrives and is signalled meanwhile
                await taken_in_by(peer)
                assert await asyncio.wait_for(waiting, 2) == b"an entry"

    asyncio.run(run())


def test_waits_that_end_by_their_timeout_leave_nothing_behind_on_a_quiet_socket() -> None:
    # a host with nobody talking waits a tick at a time for hours: what each wait left behind is let go
    async def run() -> None:
        async with host_and_peer() as (_host, peer):
            with intake_of(peer) as intake:
                for _ in range(50):
                    assert await intake.next((), 0.001) is None
                assert len(peer._watch._waiters) < 8

    asyncio.run(run())
