"""Who the host relays the table's traffic to, without sockets (issue 25, point 5).

The threat: any identity the host admits may send a ``sync``. It is answered with what it asks for;
the entries that follow, the presence and the chat go only to the seats and the admitted spectators,
so a connection that never sat cannot have every entry of the game pushed to it.
"""

from __future__ import annotations

import os

from nacl.signing import SigningKey

from atoll.table.frames import read_frame
from atoll.table.peer import PeerSession
from atoll.table.table import Table
from tests.table.harness import REGISTRY, Net, Peer, open_table


def with_visitor(net: Net) -> list[str]:
    """Add a peer that syncs and never sits (its frames are noted, never read); what it is sent."""
    key = SigningKey(os.urandom(32))
    table = Table(net.host.table.id, net.host.key.verify_key.encode(), key, REGISTRY.game)
    net.peers.append(Peer(key, PeerSession(table, "sit", "visitor", REGISTRY.installed_pin), b"visitor"))
    visitor = len(net.peers) - 1
    received: list[str] = []

    def relay(index: int, data: bytes) -> bytes | None:
        if index != visitor:
            return data
        received.append(read_frame(data)["t"])
        return None

    net.relay = relay
    net.send(visitor, net.peers[visitor].session.hello())
    return received


def play_out(net: Net, seats: int) -> None:
    """The seated peers sync, sit and play to the end (bots choose)."""
    for index in range(seats):
        net.send(index, net.peers[index].session.hello())
    for _ in range(100_000):
        if all(peer.table.over() for peer in net.peers[:seats]):
            return
        for index, peer in enumerate(net.peers[:seats]):
            observation = peer.session.owes_move()
            if observation is not None:
                if peer.bot is None:
                    bot = REGISTRY.bot("random", "kariba")
                    peer.bot = bot.make(observation.game, observation.seat, index)
                net.send(index, peer.table.move(peer.bot.choose(observation)))
    raise AssertionError("the game did not end")


def test_an_identity_that_synced_and_never_sat_is_sent_its_answer_and_nothing_after() -> None:
    net = open_table("kariba", 2)
    received = with_visitor(net)
    play_out(net, 2)
    net.deliver(net.host.tick(0.0))
    net.deliver(net.host.tick(60.0))  # everybody silent for a minute: the host shows seats away
    assert received == ["welcome", "entry", "presence"]  # its answer: the open entry, nothing more
    assert all(peer.table.over() for peer in net.peers[:2])
    assert all(peer.session.away for peer in net.peers[:2])


def test_a_seat_is_sent_the_entries_it_lacks_with_its_own_sit() -> None:
    net = open_table("kariba", 2)
    first = net.peers[0]
    held: list[bytes] = []
    net.relay = lambda index, data: held.append(data) if index == 0 else data  # type: ignore[func-returns-value]
    net.send(0, first.session.hello())  # answered with the open entry: the first has not read it yet
    net.send(1, net.peers[1].session.hello())  # the second sits meanwhile
    assert [read_frame(data)["t"] for data in held] == ["welcome", "entry", "presence"]
    net.relay = None
    for data in held:  # the first reads its answer now and sits, having seen the open entry only
        for reply in first.session.on_frame(data):
            net.send(0, reply)
    assert first.table.log.entries == net.host.table.log.entries
    assert first.session.errors == [] and first.table.engine is not None  # both seated: the game began
