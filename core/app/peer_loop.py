"""A peer's asyncio loop: carries a :class:`~atoll.table.peer.PeerSession` over a
:class:`~atoll.net.transport.PeerSocket`, asking ``choose`` (a bot, or a person at the prompt) for the
seat's moves, with the heartbeat and the watch for a silent host."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from nacl.signing import SigningKey

from atoll.engine.observation import Observation
from atoll.errors import Fault
from atoll.net.encoding import strict_hex
from atoll.net.envelope import Unauthenticated, seal
from atoll.net.transport import Intake, PeerSocket
from atoll.pin import GamePin
from atoll.table.frames import read_frame
from atoll.table.peer import (
    HEARTBEAT_S,
    HOST_QUIET_S,
    Chooser,
    PeerSession,
    TableFailed,
    next_host,
    other_protocol,
)
from atoll.table.table import Event, Table
from atoll.types import Action
from atoll.wire import PROTOCOL, Frame, Kind


@dataclass(frozen=True)
class Welcome:
    """What the host says on first contact: its identity key (raw), the table id, and the game the
    table plays with the build it pins (``None`` if the host did not say)."""

    host_key: bytes
    table_id: str
    pinned: tuple[str, GamePin] | None = None


async def handshake(socket: PeerSocket, key: SigningKey, timeout: float = 10.0) -> Welcome:
    """Ask the host who it is and which table it holds (the link is CURVE-authenticated);
    :class:`~atoll.net.transport.Refused` when the host does not admit this identity."""
    await socket.send(seal(key, v=PROTOCOL, kind="sync", table="", n=0, seen={}, body={"have": -1}))
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        left = deadline - asyncio.get_running_loop().time()
        if left <= 0:
            raise TableFailed("the host did not answer (is the address right, and the table open?)")
        try:
            frm = read_frame(await asyncio.wait_for(socket.recv_admitted(), left))
        except TimeoutError:
            continue
        except Unauthenticated:
            continue
        if frm["t"] == Frame.ERROR:
            raise TableFailed(f"the host refused: {frm.get('text')}")
        if frm["t"] != Frame.WELCOME:
            continue
        if frm.get("proto") != PROTOCOL:
            raise TableFailed(other_protocol(frm))
        try:
            host_key, table_id = strict_hex(frm.get("host"), 32, "host key"), str(frm["table"])
        except (KeyError, ValueError) as exc:
            raise TableFailed(f"the host's welcome is malformed: {exc}") from exc
        return Welcome(host_key, table_id, _pinned(frm))


def _pinned(welcome: dict[str, Any]) -> tuple[str, GamePin] | None:
    """The game a welcome says the table plays, and its pin (``None`` if it names none, or not well)."""
    game = welcome.get("game")
    try:
        return (game, GamePin.from_json(welcome.get("pin"))) if isinstance(game, str) else None
    except ValueError:
        return None  # only a hint: the peer checks the signed open entry before it sits


async def run_peer(
    session: PeerSession,
    socket: PeerSocket,
    choose: Chooser | None,
    on_event: Callable[[Event], None] | None = None,
    *,
    passed_over: int = 0,
) -> Table:
    """Play (or watch) until the game is over; return the table. Raises :class:`TableFailed`, or
    :class:`HostGone` when the host stays silent past the table's host timeout (``passed_over``: how
    many would-be successors, in order, have been tried already).

    The seat's chooser thinks in its own task while the peer keeps reading the host and sending its
    heartbeat (a ``sync`` every :data:`HEARTBEAT_S`), so a long think never looks like a dead peer,
    and a host that restarted is caught up with as soon as it answers again.
    """
    table = session.table
    loop = asyncio.get_running_loop()
    shown = 0
    intake = Intake(socket)
    thinking: asyncio.Task[Action] | None = None
    thinking_at = -1
    beat = heard = loop.time()
    quiet = False
    table.pipelined()  # answers to a deck's shuffle or lock leave first; their proofs are checked right after
    await socket.send(session.hello())
    try:
        while not table.over() and table.handed_away is None:  # a seat handed over is played elsewhere
            try:
                observation = session.owes_move()
            except Fault as exc:
                await socket.send(session.failed(exc))
                observation = None
            if observation is not None and choose is not None:
                if thinking is not None:
                    thinking.cancel()
                thinking, thinking_at = asyncio.ensure_future(choose(observation)), session.asked_at
            data = await intake.next((thinking,), HEARTBEAT_S)
            if thinking is not None and thinking.done():
                done, thinking = thinking, None
                try:
                    action: Action | None = done.result()
                except Fault as exc:
                    await socket.send(session.failed(exc))
                    action = None
                engine = table.engine
                if action is not None and engine is not None and len(engine.match.events) == thinking_at \
                        and not table.over():
                    await socket.send(session.sending(table.move(action)))
            now = loop.time()
            if data is not None:
                heard = now
                if quiet:
                    quiet = False
                    table.events.append(Event("the host answers again", len(table.log.entries) - 1))
                for reply in session.on_frame(data):
                    await socket.send(reply)
                table.settle()
            else:
                if not quiet and now - heard >= HOST_QUIET_S:
                    quiet = True
                    said = "the host does not answer; waiting for it to come back"
                    table.events.append(Event(said, len(table.log.entries) - 1))
                # from one host timeout on, which may be shorter than the wait before saying so
                gone = next_host(table, now - heard, passed_over)
                if gone is not None:
                    raise gone
            if now - beat >= HEARTBEAT_S:
                beat = now
                await socket.send(session.hello())
            if on_event is not None:
                for event in table.events[shown:]:
                    on_event(event)
            shown = len(table.events)
    finally:
        intake.close()
        if thinking is not None and not thinking.done():
            thinking.cancel()
            # asked and not answered (the host went, say): the next loop, at the next host, asks again
            session.asked_at = -1
    if on_event is not None:
        for event in table.events[shown:]:
            on_event(event)
    await socket.send(table.compose(Kind.BYE, {}))
    return table


def bot_chooser(bot: Any) -> Chooser:
    """A chooser that asks a bot, in a worker thread so the peer keeps reading the host meanwhile."""

    async def choose(observation: Observation) -> Action:
        action: Action = await asyncio.to_thread(bot.choose, observation)
        return action

    return choose
