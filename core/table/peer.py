"""A peer at a table, over the network: sync with the host, sit or watch, check every entry, play.

:class:`PeerSession` holds what a peer does with the host's frames, without sockets: it checks each
entry into its own :class:`~atoll.table.table.Table`, notices when its seat must move, and collects
the messages to send. :func:`run_peer` carries it over a :class:`~atoll.net.transport.PeerSocket`,
asking ``choose`` (a bot, or a person at the prompt) for the seat's moves.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from nacl.signing import SigningKey

from atoll.engine.loop import observe
from atoll.engine.observation import Observation
from atoll.errors import AtollError
from atoll.net.envelope import Unauthenticated, seal, strict_hex
from atoll.net.transport import PeerSocket
from atoll.table.frames import read_frame
from atoll.table.log import PROTOCOL, BadEntry, HostEquivocated
from atoll.table.table import Event, Table
from atoll.types import Action

log = logging.getLogger("atoll.table.peer")

#: Entries in a row that do not check before the peer gives up on the host.
MAX_BAD_ENTRIES = 20

#: Chooses this seat's action from its observation (a bot's ``choose``, or a person's prompt).
Chooser = Callable[[Observation], Awaitable[Action]]


class TableFailed(AtollError):
    """The table cannot go on for this peer: the host cheated, or the game ended in a cheat."""


@dataclass
class PeerSession:
    """One peer's conversation with the host.

    :param table: this peer's copy of the table.
    :param role: ``"sit"`` to take a seat, ``"watch"`` to spectate.
    :param name: the display name sent with ``sit``/``watch``.
    """

    table: Table
    role: str
    name: str
    joined: bool = False
    asked_at: int = -1
    bad_entries: int = 0
    errors: list[str] = field(default_factory=list)

    def hello(self) -> bytes:
        """The first message on a (re)connection: which entries this peer already holds."""
        return self.table.compose("sync", {"have": len(self.table.log.entries) - 1})

    def on_frame(self, data: bytes) -> list[bytes]:
        """Handle one frame from the host; return what to send. Raises :class:`TableFailed`."""
        try:
            frm = read_frame(data)
        except Unauthenticated as exc:
            self.errors.append(f"unreadable frame from the host: {exc}")
            return []
        kind = frm["t"]
        if kind == "error":
            self.errors.append(str(frm.get("text"))[:300])
            log.warning("host: %s", self.errors[-1])
            return []
        if kind == "welcome":
            if frm.get("proto") != PROTOCOL:
                raise TableFailed(f"the host speaks {frm.get('proto')!r}; this atoll speaks {PROTOCOL}")
            return []
        if kind != "entry":
            return []
        entry = frm.get("entry")
        if (
            isinstance(entry, dict)
            and isinstance(entry.get("seq"), int)
            and entry["seq"] < len(self.table.log.entries)
        ):
            return []  # already held (a catch-up overlapping what arrived live)
        try:
            self.table.receive(entry)  # type: ignore[arg-type]
        except HostEquivocated as exc:
            raise TableFailed(f"{exc}; evidence: {exc.evidence}") from exc
        except BadEntry as exc:
            self.errors.append(f"refused an entry from the host: {exc}")
            log.warning("%s", self.errors[-1])
            self.bad_entries += 1
            if self.bad_entries > MAX_BAD_ENTRIES:
                raise TableFailed(f"the host keeps sending entries that do not check ({exc})") from exc
            return [self.hello()]
        self.bad_entries = 0
        out = self.table.outbox()
        if not self.joined and self.table.lobby is not None:
            lobby = self.table.lobby
            me = self.table.me
            if me in lobby.seated or me in lobby.spectators:
                self.joined = True
            elif self.role == "watch" or not lobby.full():
                self.joined = True
                out.append(self.table.compose(self.role, {"name": self.name}))
            else:
                raise TableFailed("every seat is taken (join with --spectate to watch)")
        return out

    def owes_move(self) -> Observation | None:
        """This seat's observation when it must move now (once per decision), else ``None``."""
        engine = self.table.engine
        if engine is None or self.table.over() or not engine.my_turn():
            return None
        at = len(engine.match.events)
        if at == self.asked_at:
            return None
        self.asked_at = at
        assert engine.seat is not None
        return observe(engine.match, engine.seat)


@dataclass(frozen=True)
class Welcome:
    """What the host says on first contact: its identity key (raw) and the table id."""

    host_key: bytes
    table_id: str


async def handshake(socket: PeerSocket, key: SigningKey, timeout: float = 10.0) -> Welcome:
    """Ask the host who it is and which table it holds (the link is CURVE-authenticated)."""
    await socket.send(seal(key, v=PROTOCOL, kind="sync", table="", n=0, seen={}, body={"have": -1}))
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        left = deadline - asyncio.get_running_loop().time()
        if left <= 0:
            raise TableFailed("the host did not answer (is the address right, and the table open?)")
        try:
            frm = read_frame(await asyncio.wait_for(socket.recv(), left))
        except TimeoutError:
            continue
        except Unauthenticated:
            continue
        if frm["t"] == "error":
            raise TableFailed(f"the host refused: {frm.get('text')}")
        if frm["t"] != "welcome":
            continue
        if frm.get("proto") != PROTOCOL:
            raise TableFailed(
                f"the host speaks {frm.get('proto')!r}; this atoll speaks {PROTOCOL}: "
                "install the same atoll version as the host"
            )
        try:
            return Welcome(strict_hex(frm.get("host"), 32, "host key"), str(frm["table"]))
        except (KeyError, ValueError) as exc:
            raise TableFailed(f"the host's welcome is malformed: {exc}") from exc


async def run_peer(
    session: PeerSession,
    socket: PeerSocket,
    choose: Chooser | None,
    on_event: Callable[[Event], None] | None = None,
) -> Table:
    """Play (or watch) until the game is over; return the table. Raises :class:`TableFailed`."""
    table = session.table
    shown = 0
    await socket.send(session.hello())
    while not table.over():
        observation = session.owes_move()
        if observation is not None and choose is not None:
            action = await choose(observation)
            await socket.send(table.move(action))
            continue
        try:
            data = await asyncio.wait_for(socket.recv(), timeout=10)
        except TimeoutError:
            await socket.send(session.hello())  # catch up, in case the link dropped something
            continue
        for reply in session.on_frame(data):
            await socket.send(reply)
        if on_event is not None:
            for event in table.events[shown:]:
                on_event(event)
        shown = len(table.events)
    if on_event is not None:
        for event in table.events[shown:]:
            on_event(event)
    await socket.send(table.compose("bye", {}))
    return table


def bot_chooser(bot: Any) -> Chooser:
    """A chooser that asks a bot, in a worker thread so the peer keeps reading the host meanwhile."""

    async def choose(observation: Observation) -> Action:
        action: Action = await asyncio.to_thread(bot.choose, observation)
        return action

    return choose
