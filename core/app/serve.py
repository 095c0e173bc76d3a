"""Running a table's host over ZeroMQ: relay until the game is over, then let the peers catch up."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from atoll.app.direct import ask_directly, endpoint
from atoll.engine.loop import observe
from atoll.errors import Fault
from atoll.faultlog import record_fault
from atoll.net.door import STARVED
from atoll.net.transport import HostSocket, Intake, PeerSocket, curve_public
from atoll.table.frames import batched
from atoll.table.host import Outgoing, Sequencer
from atoll.table.peer import Chooser, TableFailed
from atoll.table.table import Event
from atoll.wire import Kind

log = logging.getLogger("atoll.app.serve")

#: How long the host keeps relaying after the game ends, for peers still catching up.
GRACE_S = 5.0


class NobodyCame(TableFailed):
    """A resumed host that no peer came back to (the table went on under another seat, or ended)."""

    def __init__(self, text: str, waited: float = 0.0) -> None:
        super().__init__(text)
        self.waited = waited
        """The seconds it waited."""


class SteppedDown(Exception):
    """A seat hosts this host's table now (it took the table over while this host was silent): this
    host no longer hosts it, and joins it through ``peer``, a link to the seat that hosts it."""

    def __init__(self, peer: PeerSocket) -> None:
        super().__init__("a seat took the table over while this host did not answer")
        self.peer = peer


#: Finds the seat that hosts the table now, if one does (a link to it), for a host that hears nobody.
Elsewhere = Callable[[], Awaitable[PeerSocket | None]]

#: Seconds between two showings of a take-over to the peers that have not come to the new host.
SHOW_EVERY_S = 2.0

#: How long the host waits, after the game, for a seat that has not said goodbye (it may be restarting).
LATE_GRACE_S = 30.0

#: How often the host looks at the clock (who is away, whose turn time has passed).
TICK_S = 0.5

#: Frames the host holds back at most while more messages wait (see :func:`run_host`).
HELD_FRAMES = 64


def deliver(socket: HostSocket, frames: list[Outgoing], host: Sequencer | None = None) -> None:
    """Send each frame; a connection that is gone is forgotten (its peer syncs again when it is back)."""
    for connection, data in frames:
        if connection and not socket.send(connection, data) and host is not None:
            host.connections.pop(connection, None)


async def run_host(
    host: Sequencer,
    socket: HostSocket,
    choose: Chooser | None = None,
    on_event: Callable[[Event], None] | None = None,
    *,
    grace: float = GRACE_S,
    late_grace: float = LATE_GRACE_S,
    alone_limit: float | None = None,
    elsewhere: Elsewhere | None = None,
) -> None:
    """Relay messages until the game is over (the host's own seat moves through ``choose``).

    ``late_grace``: how long a seat that has not said goodbye is waited for after the game.
    ``alone_limit``: give up (:class:`~atoll.table.peer.TableFailed`) when no peer has synced for that
    many seconds since the start (a host resumed after its table moved to another seat, and ended).
    ``elsewhere``: asked (at most once a host timeout) while a seat has not been heard for the host
    timeout; a link it finds to a seat that hosts the table now ends this host's run with
    :class:`SteppedDown`. A host that took the
    table over shows its ``host`` entry, every :data:`SHOW_EVERY_S`, to the seats and spectators that
    have not come to it (docs/decisions/0028-one-host-after-a-take-over.md).
    """
    table = host.table
    started = time.monotonic()
    held: list[Outgoing] = []

    def flush() -> None:
        # the entries held back go to each connection in as few frames as fit (frames.batched)
        if held:
            by_connection: dict[bytes, list[bytes]] = {}
            for connection, data in held:
                by_connection.setdefault(connection, []).append(data)
            batches = [(c, data) for c, frames in by_connection.items() for data in batched(frames)]
            deliver(socket, batches, host)
            held.clear()

    def send(frames: list[Outgoing]) -> None:
        """Deliver ``frames`` after the entries held back (nothing overtakes an entry)."""
        if frames:
            flush()
            deliver(socket, frames, host)

    def emit(frames: list[Outgoing]) -> None:
        # While more messages wait, the entries they make are held back, and the peers get them
        # back to back and take them in a row: one wake-up each instead of one per entry.
        held.extend(frames)
        if len(held) > HELD_FRAMES or not socket.pending():
            flush()

    host.emit = emit
    socket.on_malformed = lambda connection, text: send(host.refuse(connection, text))
    shown = 0
    asked_at = -1
    mover: asyncio.Task[None] | None = None

    async def move(at: int) -> None:
        nonlocal asked_at
        engine = table.engine
        assert engine is not None and engine.seat is not None and choose is not None
        try:
            action = await choose(observe(engine.match, engine.seat))
        except OSError as exc:
            if exc.errno not in STARVED:
                raise
            # a flood of connections took the descriptors a bot's thread needed: ask again shortly
            log.warning("the host's own seat could not choose (%s); asking again in %.1f s", exc, TICK_S)
            await asyncio.sleep(TICK_S)
            asked_at = -1
            return
        if table.engine is not None and len(table.engine.match.events) == at:
            send(host.local(table.move(action)))

    intake = Intake(socket)
    door = asyncio.ensure_future(socket.door.watch())  # idle connections cannot starve the host
    ticked = 0.0
    disconnects = 0
    asking: asyncio.Task[PeerSocket | None] | None = None
    showing: asyncio.Task[object] | None = None
    shown_at = looked_at = 0.0
    try:
        while not table.over():
            engine = table.engine
            if (
                choose is not None
                and engine is not None
                and engine.my_turn()
                and len(engine.match.events) != asked_at
                and (mover is None or mover.done())
            ):
                asked_at = len(engine.match.events)
                mover = asyncio.create_task(move(asked_at))
            moving = mover if mover is not None and not mover.done() else None
            # nothing is held back while the host waits
            message = await intake.next((moving,), TICK_S, before_waiting=flush)
            failure = mover.exception() if mover is not None and mover.done() else None
            if isinstance(failure, Fault):
                # the game's plugin failed on this machine as its seat was to move: the seat leaves,
                # saying why, as a peer's does (PeerSession.failed); nobody is blamed
                record_fault(f"table {table.id}", failure)
                mover = None
                send(host.local(table.leave(fault=str(failure))))
            elif failure is not None:
                raise failure
            if message is not None:
                send(host.receive(*message))
            now = time.monotonic()
            if alone_limit is not None and not host.connections and now - started >= alone_limit:
                raise NobodyCame(
                    f"no peer came back within {alone_limit:.0f} s: the table has moved to another seat "
                    "or ended without this host; its log here is kept",
                    alone_limit,
                )
            if socket.door.disconnects != disconnects:
                # ZeroMQ found a link gone (closed, or silent past its heartbeat timeout) without saying
                # whose: a frame to every connection finds out, and the next tick shows the seat away
                disconnects = socket.door.disconnects
                send(host.probe())
            if now - ticked >= TICK_S:
                ticked = now
                send(host.tick(now))
                if host.superseded_by is not None:  # a seat's take-over wins over this host's history
                    raise SteppedDown(_link_to(host, host.superseded_by))
                if asking is not None and asking.done():
                    found = asking.result() if asking.exception() is None else None
                    asking = None
                    if found is not None:
                        raise SteppedDown(found)
                lobby = table.lobby
                every = lobby.host_timeout if lobby is not None else 0.0
                if elsewhere is not None and asking is None and now - looked_at >= every \
                        and host.misses_a_seat(now):
                    looked_at, asking = now, asyncio.ensure_future(elsewhere())
                notice = host.hosting_notice() if showing is None or showing.done() else None
                if notice is not None and now - shown_at >= SHOW_EVERY_S:
                    shown_at = now
                    showing = asyncio.ensure_future(_show(host, *notice))
            if on_event is not None:
                for event in table.events[shown:]:
                    on_event(event)
                shown = len(table.events)
        flush()
        # the game is over: keep answering syncs while the peers catch up and say goodbye
        # (a seat that has not said goodbye may be restarting: it gets LATE_GRACE_S to come back; the
        # spectators of a table taken over that are still on their way, the grace)
        deadline, late = time.monotonic() + grace, time.monotonic() + max(grace, late_grace)
        while (
            host.connections or host.owed_goodbyes() or host.followers_on_their_way()
        ) and time.monotonic() < late:
            if not host.owed_goodbyes() and time.monotonic() >= deadline:
                break
            message = await intake.next((), 0.2, before_waiting=flush)
            if message is not None:
                send(host.receive(*message))
        flush()
        if on_event is not None:
            for event in table.events[shown:]:
                on_event(event)
    finally:
        intake.close()
        door.cancel()
        if mover is not None and not mover.done():
            mover.cancel()
        for task in (asking, showing):
            if task is not None:
                task.cancel()
        if asking is not None and asking.done() and not asking.cancelled() and asking.exception() is None:
            found = asking.result()
            if found is not None:
                found.close()


def _link_to(host: Sequencer, seat: str) -> PeerSocket:
    """A link from this host's identity to ``seat`` (hex), which hosts the table at its standby address."""
    lobby = host.table.lobby
    assert lobby is not None
    peer = PeerSocket(host.key, curve_public(bytes.fromhex(seat)))
    peer.connect(*endpoint(lobby.standby[seat]))
    return peer


async def _show(host: Sequencer, notice: bytes, to: list[str]) -> object:
    """Show the peers ``to`` (hex), directly at their standby addresses, the take-over in ``notice``."""
    lobby = host.table.lobby
    if lobby is None:
        return None
    return await asyncio.gather(*(ask_directly(host.key, lobby.standby[a], a, notice) for a in to))


#: Seconds a host that closes its table waits for the peers to take the closing entry and say goodbye.
CLOSE_GRACE_S = 2.0


async def close_table(host: Sequencer, socket: HostSocket) -> None:
    """Close the table for everyone before the game is over (the host's person left): the host's signed
    ``close`` entry goes to every peer at once, and the host answers them for up to
    :data:`CLOSE_GRACE_S` while they take it in and say goodbye."""
    host.emit = None  # the loop that sent entries as they came has stopped: these go out here
    deliver(socket, host.local(host.table.compose(Kind.CLOSE, {})), host)
    await run_host(host, socket, grace=CLOSE_GRACE_S, late_grace=CLOSE_GRACE_S)
