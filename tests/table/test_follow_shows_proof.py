"""A peer that holds the proof of a fork goes on to the next host at once (decision 0020).

It shows the proof to every other seat and spectator at their standby addresses, asking again those
that do not acknowledge it (three tries of ``ASK_WAIT_S``). That showing runs beside the following:
one peer slow to acknowledge once held a spectator back so long that the game ended under the new
host before it came. The table is played in memory; the peer's loop runs on real sockets on loopback.
"""

from __future__ import annotations

import asyncio

from atoll.app.follow import Link, follow
from atoll.app.ports import free_pair
from atoll.net.transport import PeerSocket, curve_keys
from atoll.wire import Kind
from tests.table.harness import open_table
from tests.table.test_fork import forked
from tests.table.test_survive import play_until_a_seat_owes_a_move

VICTIM = 2


def free_port() -> int:
    port = free_pair("127.0.0.1")
    assert port is not None
    return port


def test_a_peer_holding_proof_of_a_fork_goes_to_the_next_host_before_anyone_acknowledges_the_proof() -> None:
    net = open_table("kariba", 3, watchers=1)
    for peer in net.peers:  # where nobody listens: the proof shown there is never acknowledged
        peer.session.standby = f"127.0.0.1:{free_port()}"
    for index in range(3):
        net.send(index, net.peers[index].session.hello())
    play_until_a_seat_owes_a_move(net)
    forked(net, VICTIM)
    net.shown.add(VICTIM)  # the proof is shown by the loop below, not by the harness
    net.deliver(net.host.local(net.host.table.compose(Kind.WATCH, {"name": "the others' history"})))
    net.send(3, net.peers[3].session.hello())  # the entry after the fork: the victim catches the host
    session = net.peers[VICTIM].session
    assert session.evidence is not None and session.moving() is not None

    async def run() -> None:
        old = PeerSocket(net.peers[VICTIM].key, curve_keys(net.host.key)[0])
        old.connect("127.0.0.1", free_port())  # the named host, which says nothing more
        link = Link(net.peers[VICTIM].key, old)
        going = asyncio.ensure_future(follow(session, link, None, None))
        try:
            for _ in range(600):
                if link.peer is not old:
                    break
                await asyncio.sleep(0.01)
            # within 6 s (one heartbeat, 2 s, before the loop looks): nobody acknowledging, the
            # showing takes 9 s, which the peer once waited out before it went
            assert link.peer is not old
        finally:
            going.cancel()
            await asyncio.gather(going, return_exceptions=True)
            old.close()
            link.close()

    asyncio.run(run())
