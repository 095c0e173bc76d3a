"""Following a table from host to host: a peer that reconnects when the host is gone, or takes over.

:func:`follow` plays a seat (or watches) like :func:`~atoll.app.peer_loop.run_peer`, and when the host
stays silent past the table's host timeout it goes where the table goes: to the next seat's standby
address, or, when this seat is next, it hosts the table itself from its own copy of the log
(:meth:`~atoll.table.host.Sequencer.take_over`). Nobody's secrets move.
"""

from __future__ import annotations

import asyncio
import socket as sockets
from collections.abc import Callable
from dataclasses import dataclass

from nacl.signing import SigningKey

from atoll.app.peer_loop import handshake, run_peer, show_evidence
from atoll.app.ports import free_address
from atoll.app.serve import NobodyCame, SteppedDown, deliver, run_host
from atoll.errors import AtollError
from atoll.net.descriptors import raise_limit
from atoll.net.discovery import Announcement, Announcer
from atoll.net.encoding import fingerprint
from atoll.net.transport import HostSocket, PeerSocket, curve_keys, curve_public
from atoll.table.host import Sequencer
from atoll.table.peer import Chooser, HostGone, PeerSession, TableFailed
from atoll.table.table import Event, Table
from atoll.wire import PROTOCOL


@dataclass
class Link:
    """This peer's way to the table now: a socket to the host, or the table it hosts itself."""

    key: SigningKey
    peer: PeerSocket | None
    host: Sequencer | None = None
    host_socket: HostSocket | None = None
    announce: bool = False
    """Whether to announce the table on the LAN (DNS-SD) if this seat comes to host it."""
    port: int = 0

    async def send(self, data: bytes) -> None:
        """Send a message of this peer's (table talk, a move) to whoever hosts the table now."""
        if self.host is not None and self.host_socket is not None:
            deliver(self.host_socket, self.host.local(data), self.host)
        elif self.peer is not None:
            await self.peer.send(data)

    def close(self) -> None:
        """Close whatever socket this peer holds."""
        if self.peer is not None:
            self.peer.close()
        if self.host_socket is not None:
            self.host_socket.close()


def split_address(address: str) -> tuple[str, int]:
    """``HOST:PORT`` as a pair."""
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        raise AtollError(f"not an address HOST:PORT: {address!r}")
    return host.strip("[]"), int(port)


def standby_address(host: str, port: int) -> str | None:
    """Where this machine would host a table reached at ``host:port``: the address it reaches the host
    from, and a free port (``None`` when that cannot be told)."""
    try:
        with sockets.socket(sockets.AF_INET, sockets.SOCK_DGRAM) as probe:
            probe.connect((host, port))  # picks the interface; sends nothing
            here = str(probe.getsockname()[0])
    except OSError:
        return None
    return free_address(here)


async def moved_to(key: SigningKey, table: Table, *, wait: float = 5.0) -> PeerSocket | None:
    """A socket to a seat that took ``table`` over while this machine was away, if one answers.

    The seat ``table``'s log says hosts it now and every seat with a standby address are asked at once;
    the first whose welcome names this table and its own identity as the host is kept, the other
    sockets are closed.
    """
    lobby = table.lobby
    if lobby is None or not lobby.full() or table.over():
        return None

    async def ask(author: str) -> PeerSocket | None:
        host, port = split_address(lobby.standby[author])
        peer = PeerSocket(key, curve_public(bytes.fromhex(author)))
        try:
            peer.connect(host, port)
            welcome = await handshake(peer, key, timeout=wait)
        except (TableFailed, OSError, AtollError):
            peer.close()
            return None
        if welcome.table_id != table.id or welcome.host_key.hex() != author:
            peer.close()
            return None
        return peer

    # the seat this copy says hosts the table now first (a host that joined its table as a peer after a
    # take-over, and was stopped again, finds it there), then every seat that could take it over
    current = table.log.host.encode().hex()
    asked = [current] if current in lobby.standby and current != table.me else []
    asked += [a for a in table.successors() if a not in asked and a != table.me]
    found = [peer for peer in await asyncio.gather(*(ask(a) for a in asked)) if peer]
    for extra in found[1:]:
        extra.close()
    return found[0] if found else None


def connect_to(key: SigningKey, table: Table) -> PeerSocket:
    """A socket to the seat that hosts ``table`` now (after a take-over: its standby address)."""
    lobby = table.lobby
    current = table.log.host.encode().hex()
    if lobby is None or current not in lobby.standby:
        raise AtollError("the table's host has no standby address to reach it at")
    host, port = split_address(lobby.standby[current])
    peer = PeerSocket(key, curve_public(bytes.fromhex(current)))
    peer.connect(host, port)
    return peer


async def follow(
    session: PeerSession,
    link: Link,
    choose: Chooser | None,
    on_event: Callable[[Event], None] | None,
) -> Table:
    """Play or watch until the game is over, following the table to a new host when the host is gone."""
    showing: list[asyncio.Task[None]] = []  # the proof of a fork, shown to the others as this peer goes
    try:
        table = await _follow(session, link, choose, on_event, showing)
    except BaseException:
        for task in showing:
            task.cancel()
        raise
    await asyncio.gather(*showing, return_exceptions=True)  # shown before this peer leaves
    return table


async def _follow(
    session: PeerSession,
    link: Link,
    choose: Chooser | None,
    on_event: Callable[[Event], None] | None,
    showing: list[asyncio.Task[None]],
) -> Table:
    table = session.table
    passed_over, tried_under = 0, table.log.host.encode()
    on_event = _each_once(table, on_event)
    # a seat that hosts the table on coming back (resumed, or taking it over before any host answered it)
    # cannot tell a table whose others are away from one closed while it was away: alone, it gives up
    came_back = link.host is not None
    while True:
        if link.host is not None:
            try:
                await _serve_here(link, choose, on_event, alone_limit(table) if came_back else None)
            except NobodyCame as alone:
                raise TableFailed(nobody_came(table, alone.waited)) from alone
            except SteppedDown as down:  # another seat's take-over wins over this one's: follow it
                superseded = link.host.superseded_by or ""
                lobby = table.lobby
                who = lobby.names.get(superseded, superseded[:16]) if lobby is not None else superseded[:16]
                said = f"{who} took the table over too, and its take-over stands; this seat follows it"
                table.events.append(Event(said, len(table.log.entries) - 1))
                if link.host_socket is not None:
                    link.host_socket.close()
                link.host, link.host_socket, link.peer = None, None, down.peer
                session.host_length, passed_over = None, 0
                continue
            return table
        assert link.peer is not None
        try:
            return await run_peer(session, link.peer, choose, on_event, passed_over=passed_over)
        except HostGone as gone:
            showing.append(asyncio.ensure_future(show_evidence(session)))  # none unless the host was named
            table = session.table  # a copy that set aside what a named host showed it alone is a new one
            if table.log.host.encode() != tried_under:  # the table did move since: count afresh
                passed_over, tried_under = 0, table.log.host.encode()
            passed_over = gone.rank + 1  # if this one does not answer either, the next one
            at = len(table.log.entries) - 1
            if gone.successor == table.me:
                text = f"{gone.why}; this seat hosts the table at {gone.address}"
                table.events.append(Event(text, at))
                link.peer.close()
                link.peer = None
                host_here(link, table, gone.address, taking_over=True,
                          unlogged=[*session.unlogged_messages(), *session.withheld_messages()])
                came_back = session.welcomes == 0  # no host has answered this seat since it came back
                continue
            table.events.append(Event(f"{gone.why}; going to the next seat at {gone.address}", at))
            link.peer.close()
            link.peer = PeerSocket(link.key, curve_public(bytes.fromhex(gone.successor)))
            host, port = split_address(gone.address)
            link.peer.connect(host, port)
            session.host_length = None  # caught up once the next host has said how long its log is


def _each_once(table: Table, on_event: Callable[[Event], None] | None) -> Callable[[Event], None] | None:
    """``on_event`` for each of ``table``'s events once: the loops of each host this peer follows (and
    of the table it hosts) hand on the table's events from the first, and a screen printed line by line
    said the whole game again at each hand-over."""
    if on_event is None:
        return None
    said = 0

    def say(event: Event) -> None:
        nonlocal said
        if said < len(table.events) and table.events[said] is event:  # the next not said yet
            said += 1
            on_event(event)

    return say


def host_here(
    link: Link, table: Table, address: str, *, taking_over: bool, unlogged: list[bytes] | None = None
) -> None:
    """This seat hosts ``table`` at its standby ``address`` from now on (taking it over, with what it
    had sent and the log lacks, or again after a restart of a seat that had taken it over)."""
    link.host = (
        Sequencer.take_over(table, link.key, unlogged) if taking_over else Sequencer.restored(table, link.key)
    )
    raise_limit()  # before the socket: its door shares out what the limit allows
    link.host_socket = HostSocket(curve_keys(link.key), link.host.admit)
    host, port = split_address(address)
    link.port = link.host_socket.bind(host, port)


def alone_limit(table: Table) -> float:
    """Seconds a host that came back to ``table`` waits for any peer before it gives up: time for every
    seat that could take the table over to have tried, and then some."""
    lobby = table.lobby
    timeout = lobby.host_timeout if lobby is not None else 6.0
    return timeout * (len(table.successors()) + 1) + 10.0


def nobody_came(table: Table, waited: float) -> str:
    """What a seat that came back and hosts ``table`` alone is told: what it cannot know, honestly."""
    return (
        f"nobody else came back to table {table.id} within {waited:.0f} s: its host may have closed it "
        "while this seat was away (the closing entry never reached this seat), or every other machine is "
        "away too; your seat is kept: `atoll join --resume` tries again"
    )


async def _serve_here(
    link: Link, choose: Chooser | None, on_event: Callable[[Event], None] | None, alone: float | None
) -> None:
    assert link.host is not None and link.host_socket is not None
    announcer = await _announce(link) if link.announce else None
    try:
        await run_host(link.host, link.host_socket, choose, on_event, alone_limit=alone)
    finally:
        if announcer is not None:
            await announcer.close()


def announcement_of(table: Table, curve: str, host_fp: str) -> Announcement:
    """What the LAN is told of ``table`` now (its DNS-SD record): its id, name, game and variant,
    the seats taken and free, the short digest of the game's pin, and the host's CURVE key and
    fingerprint."""
    lobby = table.lobby
    if lobby is None:
        raise AtollError(f"table {table.id} has not opened yet: there is nothing to announce")
    return Announcement(
        table=table.id,
        name=lobby.name,
        game=lobby.game,
        variant=lobby.variant,
        taken=len(lobby.seated),
        free=lobby.seats - len(lobby.seated),
        proto=PROTOCOL,
        fingerprint=host_fp,
        curve_key=curve,
        build=table.pinned[1].short() if table.pinned is not None else "",
        open_seats=tuple(lobby.open_seats()),
    )


async def _announce(link: Link) -> Announcer | None:
    """Announce the table again, from this seat that hosts it now (on the interface of its standby
    address); a LAN where that fails still has the peers, who follow by themselves."""
    assert link.host is not None and link.host_socket is not None
    table = link.host.table
    lobby, me = table.lobby, table.me
    if lobby is None or me is None or me not in lobby.standby:
        return None
    here, _ = split_address(lobby.standby[me])
    announcement = announcement_of(table, curve_keys(link.key)[0].decode(),
                                   fingerprint(link.key.verify_key.encode()))
    announcer = Announcer(announcement, port=link.port, interfaces=[here])
    try:
        await announcer.open()
    except (OSError, AtollError) as exc:
        table.events.append(
            Event(f"could not announce the table on the LAN again: {exc}", len(table.log.entries) - 1)
        )
        return None
    return announcer
