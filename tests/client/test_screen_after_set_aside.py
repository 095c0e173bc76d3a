"""A joined person's screen after their copy of the table sets entries aside (decision 0028, point 3): a
seat still following the old host is shown the take-over, its copy sets the old host's entries aside and
takes the new host's history, and the session holds that new copy (``Table.set_aside`` makes a new one).
The screen (and the big screen's page) reads the copy the session holds now, never the one it started
with, which receives nothing more (without sockets: the table harness)."""

from __future__ import annotations

from atoll.client.net_source import NetTable
from atoll.table.peer import PeerSession
from atoll.types import Config
from atoll.web.view import TablePage
from tests.table.harness import REGISTRY
from tests.table.test_take_over_wins import (
    A,
    B,
    C,
    cut_off,
    hosting_notice,
    link,
    table_of_three,
    takes_over,
    the_owing_seat_moves,
)


def screen_of(session: PeerSession) -> NetTable:
    """What a person's screen reads at ``session``'s seat (as ``atoll join`` makes it: the session's
    copy as it stands, each time it is read)."""

    async def nowhere(data: bytes) -> None:
        del data

    seen = NetTable(lambda: session.table, role="sit", send=nowhere)
    lobby = session.table.lobby
    assert lobby is not None
    seen.game = REGISTRY.game(lobby.game)
    seen.config = Config(lobby.seats, lobby.variant, dict(lobby.options))
    return seen


def test_the_screen_reads_the_copy_the_session_holds_after_it_sets_entries_aside() -> None:
    net = table_of_three()
    cut_off(net, A)
    new = takes_over(net, A)
    mover = the_owing_seat_moves(net)  # under the old host: entries A's history does not hold
    follower = net.peers[mover]
    seen = screen_of(follower.session)
    page = TablePage(lambda: follower.session.table, lambda: ())  # the big screen of `atoll watch`
    page.snapshot()
    shown = seen.log()
    told_before = len(shown)
    told = [line for line in shown if line.seat is not None][-1]  # the move, in the history set aside
    assert told.seat == follower.table.my_seat
    started_with = follower.table
    follower.session.on_direct(hosting_notice(new))
    link(follower, new, follower.connection)
    net.relay, net.host = None, new  # every seat reaches the seat that hosts now
    for index in (B, C):
        if index != mover:
            link(net.peers[index], new, net.peers[index].connection)
    again = link(follower, new, follower.connection)  # its copy set aside, its move made again (sent)
    now = follower.session.table
    assert now is not started_with  # a new copy: the one the screen began with receives nothing more
    assert seen.table is now and page.table is now
    assert len(seen.log()) > told_before  # read as the screen polls, before the move is back in the log
    for data in again:
        net.send(mover, data)
    assert [e.head for e in now.log.entries] == [e.head for e in new.table.log.entries]
    fresh = screen_of(follower.session)  # a screen opened on the new copy only now
    assert seen.waiting() == fresh.waiting() != NetTable(started_with, role="sit", send=fresh._send).waiting()
    assert page.snapshot()["board"] == TablePage(now, lambda: ()).snapshot()["board"]
    lines = [line.text for line in seen.log()]
    assert any("are set aside: a seat took the table over there" in line for line in lines[told_before:])
    # the new history is told from where the copies part: the move set aside, then made again, is told
    # twice (a screen on the copy the session started with would never tell it again)
    assert lines.count(told.text) == [line.text for line in fresh.log()].count(told.text) + 1
