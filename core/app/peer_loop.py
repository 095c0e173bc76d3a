"""A peer's asyncio loop: carries a :class:`~atoll.table.peer.PeerSession` over a
:class:`~atoll.net.transport.PeerSocket`, asking ``choose`` (a bot, or a person at the prompt) for the
seat's moves, with the heartbeat and the watch for a silent host."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from nacl.signing import SigningKey
from zmq.utils import z85

from atoll.app.direct import SideDoor, ask_directly
from atoll.engine.observation import Observation
from atoll.errors import Fault
from atoll.net.encoding import strict_hex
from atoll.net.envelope import Unauthenticated, seal
from atoll.net.transport import Intake, PeerSocket
from atoll.pin import GamePin
from atoll.table.frames import read_frame
from atoll.table.peer import (
    HOST_QUIET_S,
    Chooser,
    PeerSession,
    TableFailed,
    heartbeat_s,
    next_host,
    other_protocol,
    stood_still,
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
            async with asyncio.timeout(left):
                received = await socket.recv_admitted()
            frm = read_frame(received)
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
    many would-be successors, in order, have been tried already), or the table named it (the caller
    then shows the others this peer's proof, :func:`show_evidence`, as it goes on).

    The seat's chooser thinks in its own task while the peer keeps reading the host and sending its
    heartbeat (a ``sync`` every :func:`heartbeat_s`), so a long think never looks like a dead peer,
    and a host that restarted is caught up with as soon as it answers again.
    """
    table = session.table
    loop = asyncio.get_running_loop()
    shown = 0
    intake = Intake(socket)
    thinking: asyncio.Task[Action] | None = None
    thinking_at = -1
    beat = heard = tick = loop.time()
    quiet = False
    table.pipelined()  # answers to a deck's shuffle or lock leave first; their proofs are checked right after
    side: SideDoor | None = None
    asking: Asking | None = None
    giving: list[asyncio.Task[Any]] = []
    try:
        # in here, so that a loop stopped at its first send still closes its side door: a socket left
        # open held the standby address, and its context hung the process when it was collected
        side = _side_door(session)
        session.linked_to = z85.decode(socket.server)
        await socket.send(session.hello())
        # a seat handed over is played elsewhere; one that left waits for the host's choice elsewhere too
        while True:
            # a copy that set aside what a host showed it alone is a new one: a move chosen for it, and
            # everything else here, goes to that one (on the old copy it was dropped, and the seat
            # never moved again)
            table = session.table
            if table.over() or table.handed_away is not None or table.awaits_choice():
                break
            asking = await _ask(session, socket, asking, giving)
            for reply in session.given_replies():  # what entries another seat gave directly asked of this one
                await socket.send(reply)
            try:
                observation = session.owes_move()
            except Fault as exc:
                await socket.send(session.failed(exc))
                observation = None
            if observation is not None and choose is not None:
                if thinking is not None:
                    thinking.cancel()
                thinking, thinking_at = asyncio.ensure_future(choose(observation)), session.asked_at
            data = await intake.next((thinking, asking[1] if asking else None), heartbeat_s(table))
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
            if stood_still(now - tick, table):  # the host's silence is counted from now on: a heartbeat first
                heard, beat = now, now - heartbeat_s(table)
            tick = now
            if data is not None:
                heard = now
                if quiet:
                    quiet = False
                    table.events.append(Event("the host answers again", len(table.log.entries) - 1))
                for reply in session.on_frame(data):
                    await socket.send(reply)
                table.settle()
                # the table named its host: to the next seat (the caller shows the others the proof
                # meanwhile, show_evidence)
                moving = session.moving()
                if moving is not None:
                    raise moving
            pushed = session.push()
            if pushed is not None:  # the host withholds this seat's messages: the others hold them
                given, again = pushed
                giving.append(asyncio.ensure_future(_give(session, given)))
                for data in again:
                    await socket.send(data)
            else:
                if not quiet and now - heard >= HOST_QUIET_S:
                    quiet = True
                    said = "the host does not answer; waiting for it to come back"
                    table.events.append(Event(said, len(table.log.entries) - 1))
                # from one host timeout on, which may be shorter than the wait before saying so
                gone = next_host(table, now - heard, passed_over)
                if gone is not None:
                    raise gone
            moving = session.moving()  # the host was named by evidence another seat showed directly
            if moving is not None:
                raise moving
            if now - beat >= heartbeat_s(table):
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
        if asking is not None:
            asking[1].cancel()
        if side is not None:
            side.close()
        for task in giving:
            task.cancel()
    if on_event is not None:
        for event in table.events[shown:]:
            on_event(event)
    await show_evidence(session)
    await socket.send(table.compose(Kind.BYE, {}))
    return table


#: Times a peer tries to show a seat its proof that the host forked the log before it gives up.
EVIDENCE_TRIES = 3

#: A question put to a late seat directly: the timeout's entry number, and the answer on its way.
Asking = tuple[int, "asyncio.Task[bytes | None]"]


def _side_door(session: PeerSession) -> SideDoor | None:
    """A seat with a standby address listens there for the other seats' questions while it plays, and
    asks late seats itself before it witnesses; a spectator with one listens there for evidence against
    the host (``None``: a peer with no address)."""
    table = session.table
    if table.key is None:
        return None
    table.direct = session.role == "sit"
    if session.standby is None:
        return None
    side = SideDoor(table.key, session)
    lobby = table.lobby
    # an address no entry names yet (this peer has not sat or watched) may move to another free port
    opened = side.open(session.standby, movable=lobby is None or table.me not in lobby.standby)
    if opened is None:
        side.close()
        return None
    session.standby = opened
    return side


async def _ask(
    session: PeerSession, socket: PeerSocket, asking: Asking | None, giving: list[asyncio.Task[Any]]
) -> Asking | None:
    """Put this seat's question to a late seat when it has one, and answer the timeout once the late
    seat has answered (or not, in time), giving it the entries it lacks if it was behind (a task added
    to ``giving``); returns the question still on its way, if any."""
    table = session.table
    if asking is not None and asking[1].done():
        for reply in session.answered(asking[0], asking[1].result()):
            await socket.send(reply)
        asking = None
        behind = session.catch_up_message()
        lobby = table.lobby
        if behind is not None and lobby is not None and table.key is not None and behind[0] in lobby.standby:
            late, given = behind
            giving.append(asyncio.ensure_future(ask_directly(table.key, lobby.standby[late], late, given)))
    question = session.question() if asking is None else None
    if question is None:
        return asking
    seq, late, data = question
    lobby = table.lobby
    address = lobby.standby.get(late) if lobby is not None else None
    if address is None or table.key is None:  # a seat that named no address cannot be asked
        for reply in session.answered(seq, None):
            await socket.send(reply)
        return None
    return seq, asyncio.ensure_future(ask_directly(table.key, address, late, data))


async def _give(session: PeerSession, given: bytes) -> None:
    """Give every other seat and spectator that listens this seat's ``withheld`` messages directly."""
    table, lobby = session.table, session.table.lobby
    if lobby is None or table.key is None:
        return
    key = table.key
    others = [a for a in [*lobby.seated, *lobby.spectators] if a != table.me and a in lobby.standby]
    await asyncio.gather(*(ask_directly(key, lobby.standby[a], a, given) for a in others))


async def show_evidence(session: PeerSession) -> None:
    """Show every other seat and spectator, directly, this peer's proof that the host signed two
    histories (the host would not relay it): each checks it and names the host. Once a peer: a peer
    that follows the table elsewhere runs this beside it (a peer slow to answer held it back for as
    long as it was asked again, and the game could end before it came)."""
    table, lobby = session.table, session.table.lobby
    shown = session.evidence_message()
    if shown is None or lobby is None or table.key is None or session.evidence_shown:
        return
    session.evidence_shown = True
    key = table.key
    others = [a for a in [*lobby.seated, *lobby.spectators] if a != table.me and a in lobby.standby]
    for _ in range(EVIDENCE_TRIES):  # each seat acknowledges it; one that did not is shown it again
        answers = await asyncio.gather(*(ask_directly(key, lobby.standby[a], a, shown) for a in others))
        others = [a for a, answer in zip(others, answers, strict=True) if answer is None]
        if not others:
            return


def bot_chooser(bot: Any) -> Chooser:
    """A chooser that asks a bot, in a worker thread so the peer keeps reading the host meanwhile."""

    async def choose(observation: Observation) -> Action:
        action: Action = await asyncio.to_thread(bot.choose, observation)
        return action

    return choose
