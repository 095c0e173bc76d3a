"""Real tables on loopback for the wire tests: a host ROUTER and peer DEALERs over CURVE on 127.0.0.1.

:func:`loopback_table` opens a host (:func:`~atoll.app.serve.run_host` on a random port) and its
peers' sockets, all in this test's event loop, and closes every socket on the way out, also when the
test fails. :func:`play` runs the game with random bots until every honest peer is done. A peer can be
made to cheat in the two ways modified software could: its fair :class:`Participant` rewrites what it
sends (:func:`cheating_participants`), or its chooser sends what it likes (``choosers``). Every frame a
peer receives is recorded, so a test can check what reached whom.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest
from atoll_tools.memory_table import Sealing, Tamper, cheating, open_host
from nacl.signing import SigningKey

from atoll.app.follow import Link, follow, standby_address
from atoll.app.peer_loop import bot_chooser, run_peer
from atoll.app.serve import run_host
from atoll.engine.observation import Observation
from atoll.fair.steps.messages import Message
from atoll.fair.steps.seat import Participant
from atoll.net.transport import HostSocket, PeerSocket, curve_keys
from atoll.registry import Registry
from atoll.table import table as table_module
from atoll.table.frames import read_frame
from atoll.table.host import Sequencer
from atoll.table.peer import Chooser, PeerSession
from atoll.table.table import Table
from atoll.types import Action
from tests.table.harness import REGISTRY

__all__ = ["Tamper"]  # re-exported for the wire tests

#: Makes the chooser of one peer (its index) given the honest random bot's chooser.
ChooserFor = Callable[[int, Chooser], Chooser]


@dataclass
class WirePeer:
    """One peer at a loopback table: its identity, its copy of the table and its socket."""

    index: int
    key: SigningKey
    table: Table
    session: PeerSession
    socket: PeerSocket
    frames: list[dict[str, Any]] = field(default_factory=list)
    """Every frame the host sent this peer, decoded, in order."""

    @property
    def errors(self) -> list[str]:
        """The texts of the error frames the host sent this peer."""
        return [str(f.get("text")) for f in self.frames if f.get("t") == "error"]


@dataclass
class WireTable:
    """A host and its peers on loopback (not yet playing)."""

    host: Sequencer
    host_key: SigningKey
    socket: HostSocket
    port: int
    peers: list[WirePeer]
    host_lines: list[str]
    """What the host wrote to its log (``atoll.table.host``) while the table was open."""

    def connect(self, key: SigningKey) -> PeerSocket:
        """Another DEALER to this host with identity ``key`` (closed by :func:`loopback_table`)."""
        link = PeerSocket(key, curve_keys(self.host_key)[0])
        link.connect("127.0.0.1", self.port)
        self._extra.append(link)
        return link

    def __post_init__(self) -> None:
        self._extra: list[PeerSocket] = []

    def heads(self, peers: Sequence[WirePeer] | None = None) -> set[str]:
        """The log heads of ``peers`` (default: every peer) and of the host."""
        chosen = self.peers if peers is None else peers
        return {p.table.log.head for p in chosen} | {self.host.table.log.head}


class _Lines(logging.Handler):
    def __init__(self, lines: list[str]) -> None:
        super().__init__(logging.WARNING)
        self.lines = lines

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


@asynccontextmanager
async def loopback_table(
    game: str,
    seats: int,
    variant: str | None = None,
    *,
    watchers: int = 0,
    registry: Registry = REGISTRY,
    turn_time: float | None = None,
    sequencer: type[Sequencer] = Sequencer,
    standby: bool = False,
    host_timeout: int | None = None,
) -> AsyncIterator[WireTable]:
    """A headless host bound to 127.0.0.1 and ``seats`` seated peers (plus ``watchers``) connected;
    their games come from ``registry``; ``turn_time`` is signed in the ``open`` entry; ``sequencer``
    is the host's class (a test's modified host is a subclass); with ``standby`` each seat (and
    spectator) names a standby address on loopback, where it listens for the others while it plays;
    ``host_timeout`` (seconds) is signed in the ``open`` entry too."""
    host, host_key = open_host(registry, game, seats, variant, table_id=f"{game}-wire-{os.urandom(6).hex()}",
                               name="wire test", sequencer=sequencer, turn_time=turn_time,
                               host_timeout=host_timeout)
    lines: list[str] = []
    handler = _Lines(lines)
    logging.getLogger("atoll.table.host").addHandler(handler)
    socket = HostSocket(curve_keys(host_key), host.admit)
    peers: list[WirePeer] = []
    wire: WireTable | None = None
    try:
        port = socket.bind("127.0.0.1", None)
        for index in range(seats + watchers):
            key = SigningKey(os.urandom(32))
            copy = Table(host.table.id, host_key.verify_key.encode(), key, registry.game)
            role = "sit" if index < seats else "watch"
            session = PeerSession(copy, role, f"p{index}", registry.installed_pin)
            if standby:
                session.standby = standby_address("127.0.0.1", port)
            link = PeerSocket(key, curve_keys(host_key)[0])
            peers.append(WirePeer(index, key, copy, session, link))
            link.connect("127.0.0.1", port)
            _record_frames(peers[-1])
        wire = WireTable(host, host_key, socket, port, peers, lines)
        yield wire
    finally:
        logging.getLogger("atoll.table.host").removeHandler(handler)
        for peer in peers:
            peer.socket.close()
        for link in wire._extra if wire is not None else []:
            link.close()
        socket.close()


def _record_frames(peer: WirePeer) -> None:
    handle = peer.session.on_frame

    def on_frame(data: bytes) -> list[bytes]:
        try:
            peer.frames.append(read_frame(data))
        except ValueError:
            peer.frames.append({"t": "unreadable"})
        return handle(data)

    peer.session.on_frame = on_frame  # type: ignore[method-assign]


def random_bot(table: Table, seed: int) -> Chooser:
    """The random bot for this peer's seat, made when it first moves."""
    made: list[Chooser] = []

    async def choose(observation: Observation) -> Action:
        if not made:
            assert table.lobby is not None
            bot = REGISTRY.bot("random", table.lobby.game).make(observation.game, observation.seat, seed)
            made.append(bot_chooser(bot))
        return await made[0](observation)

    return choose


async def play(
    wire: WireTable,
    *,
    honest: Sequence[int] | None = None,
    choosers: ChooserFor | None = None,
    until: Callable[[], bool] | None = None,
    following: bool = False,
) -> None:
    """Play with random bots until the host and the ``honest`` peers (default: all) are done.

    ``until``, if given, ends the play early once it holds (checked as frames arrive). Whatever is
    still running then (a cheater's peer, a stalled table) is cancelled. ``following``: each peer
    follows the table to the next host (:func:`~atoll.app.follow.follow`, the way ``atoll join``
    plays), which a seat may then host at its standby address; the first host is not waited for.
    """
    wanted = list(range(len(wire.peers))) if honest is None else list(honest)
    hosting = asyncio.create_task(run_host(wire.host, wire.socket, grace=1.0))
    started: dict[int, asyncio.Task[Table]] = {}
    links: list[Link] = []

    def start(peer: WirePeer) -> None:
        choose = random_bot(peer.table, 7 + peer.index) if peer.session.role == "sit" else None
        if choose is not None and choosers is not None:
            choose = choosers(peer.index, choose)
        if following:
            links.append(Link(peer.key, peer.socket))
            started[peer.index] = asyncio.create_task(follow(peer.session, links[-1], choose, None))
            return
        started[peer.index] = asyncio.create_task(run_peer(peer.session, peer.socket, choose))

    # the spectators first: once the seats are taken the host admits only the identities it knows,
    # so a spectator whose handshake came after the last sit (a slow machine) would never get in
    watchers = [peer for peer in wire.peers if peer.session.role == "watch"]
    for peer in watchers:
        start(peer)
    deadline = asyncio.get_running_loop().time() + 60
    while watchers and asyncio.get_running_loop().time() < deadline:
        lobby = wire.host.table.lobby
        if lobby is not None and len(lobby.spectators) >= len(watchers):
            break
        await asyncio.sleep(0.01)
    for peer in wire.peers:
        if peer.index not in started:
            start(peer)
    tasks = [started[peer.index] for peer in wire.peers]
    waited: list[asyncio.Future[Any]] = [*([] if following else [hosting]), *(tasks[i] for i in wanted)]
    try:
        if until is None:
            await asyncio.gather(*waited)
        else:
            while not until():
                if all(t.done() for t in waited):
                    break
                await asyncio.sleep(0.02)
            for task in waited:
                if task.done():
                    task.result()  # a failure in the host or an honest peer is the test's failure
    finally:
        for task in [hosting, *tasks]:
            task.cancel()
        await asyncio.gather(hosting, *tasks, return_exceptions=True)
        for link in links:  # the sockets of the hosts followed since, and of a seat that hosted
            link.close()


def cheating_participants(
    monkeypatch: pytest.MonkeyPatch,
    table: Table,
    tamper: Tamper | None = None,
    *,
    sealing: Sealing | None = None,
) -> None:
    """Make ``table``'s peer run a modified fair participant (:func:`atoll_tools.memory_table.cheating`):
    ``tamper`` rewrites all it sends, and ``sealing`` changes the values it seals (behind its own
    player's back, so its game goes on).

    Only the participant made with this peer's master secret is modified; the other peers in this
    process keep the honest class.
    """
    honest, modified = Participant, cheating(tamper, sealing)

    def participant(
        seat: int, table_id: str, seats: int, master: bytes, *args: Any, **kw: Any
    ) -> Participant:
        kind = modified if master == table.master else honest
        return kind(seat, table_id, seats, master, *args, **kw)

    monkeypatch.setattr(table_module, "Participant", participant)


def rewrite(
    kind: str, change: Callable[[dict[str, Any]], None], *, deck: str | None = None, nth: int = 1
) -> Tamper:
    """Rewrite the body of the ``nth`` message of ``kind`` (a deck message of type ``deck``) and re-sign
    it with the seat's own key: exactly what a seat running modified software can send."""
    seen = [0]

    def tamper(me: Participant, message: Message) -> list[Message]:
        if message["kind"] != kind or (deck is not None and message["body"].get("type") != deck):
            return [message]
        seen[0] += 1
        if seen[0] != nth:
            return [message]
        body = dict(message["body"])
        change(body)
        return [dict(message, body=body)]

    return tamper


async def wait_for(condition: Callable[[], Awaitable[bool] | bool]) -> None:
    """Wait, checking as the loop turns, until ``condition`` holds (the test's timeout bounds it)."""
    while True:
        result = condition()
        if isinstance(result, Awaitable):
            result = await result
        if result:
            return
        await asyncio.sleep(0.01)
