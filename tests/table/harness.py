"""A table without sockets: a host and peers wired by function calls, with hooks to play a bad relay.

Each peer has its own identity, secrets and copy of the log; frames travel through :meth:`Net.run`,
which a test can intercept (``relay``) to drop, change or forge what one peer receives.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from nacl.signing import SigningKey

from atoll.engine.loop import observe
from atoll.errors import Fault
from atoll.net.curve import curve_of
from atoll.net.ratelimit import RateLimit
from atoll.registry import Registry, load_registry
from atoll.table.host import Sequencer
from atoll.table.peer import PeerSession
from atoll.table.table import Table
from atoll.wire import OnLeave

REGISTRY = load_registry()

#: Rewrites the bytes one peer is about to receive (``None``: dropped).
Relay = Callable[[int, bytes], bytes | None]


@dataclass
class Peer:
    """One peer: its key, its session (table copy) and its connection id at the host."""

    key: SigningKey
    session: PeerSession
    connection: bytes
    bot: Any = None

    @property
    def table(self) -> Table:
        return self.session.table

    @property
    def curve(self) -> bytes:
        return curve_of(self.key.verify_key.encode())


@dataclass
class Net:
    """A host and its peers, delivering frames in order."""

    host: Sequencer
    peers: list[Peer]
    relay: Relay | None = None
    errors: dict[int, list[str]] = field(default_factory=dict)
    now: float = 0.0
    shown: set[int] = field(default_factory=set)
    """The peers that have shown the others their proof of a fork."""
    """The clock every table here reads (the host's ``tick`` moves it): one clock, no travel time."""

    def clock(self) -> float:
        """What time it is at this table (every peer's clock and the host's)."""
        return self.now

    def tick(self, now: float) -> None:
        """Time is ``now`` for everyone; the host's frames (a timeout, an abort, presence) are delivered."""
        self.now = now
        self.deliver(self.host.tick(now))

    def send(self, index: int, data: bytes) -> None:
        """Peer ``index`` sends ``data`` to the host; the host's frames are delivered."""
        peer = self.peers[index]
        self.deliver(self.host.receive(peer.connection, peer.curve, data))

    def deliver(self, frames: list[tuple[bytes, bytes]]) -> None:
        for connection, data in frames:
            index = next(i for i, p in enumerate(self.peers) if p.connection == connection)
            if self.relay is not None:
                changed = self.relay(index, data)
                if changed is None:
                    continue
                data = changed
            for reply in self.peers[index].session.on_frame(data):
                self.send(index, reply)
            self.ask_directly(index)
            self.show_evidence(index)

    def show_evidence(self, index: int) -> None:
        """Peer ``index`` shows every other peer, directly, its proof that the host forked the log."""
        shown = self.peers[index].session.evidence_message()
        if shown is None or index in self.shown:
            return
        self.shown.add(index)
        for other, peer in enumerate(self.peers):
            if other != index:
                peer.session.on_direct(shown)

    def ask_directly(self, index: int) -> None:
        """Peer ``index`` asks a late seat for what it owes, straight to it (no host between them),
        when its table must before it answers a timeout."""
        question = self.peers[index].session.question()
        if question is None:
            return
        seq, late, data = question
        target = next(p for p in self.peers if p.table.me == late)
        for reply in self.peers[index].session.answered(seq, target.session.on_direct(data)):
            self.send(index, reply)

    def run(self, max_rounds: int = 100_000, *, rotate: bool = False) -> None:
        """Play until every peer's table is over (bots choose). ``rotate``: the peers that owe a move are
        asked from a peer one further each time, so that at a simultaneous decision every seat is the
        first to choose in some round."""
        for i, _ in enumerate(self.peers):
            self.send(i, self.peers[i].session.hello())
        count = len(self.peers)
        for turn in range(max_rounds):
            if all(p.table.over() for p in self.peers):
                return
            moved = False
            for i in [(turn + k) % count if rotate else k for k in range(count)]:
                peer = self.peers[i]
                try:  # as the peer's loop does: a plugin failing on this machine makes its seat leave
                    observation = peer.session.owes_move()
                    if observation is not None:
                        if peer.bot is None:
                            peer.bot = REGISTRY.bot("random", peer.table.lobby.game).make(  # type: ignore[union-attr]
                                observation.game, observation.seat, 7 + i
                            )
                        self.send(i, peer.table.move(peer.bot.choose(observation)))
                        moved = True
                except Fault as exc:
                    self.send(i, peer.session.failed(exc))
                    moved = True
            if not moved:
                raise AssertionError("the table is stuck: nobody owes a move and the game is not over")
        raise AssertionError("the game did not end")


def open_table(
    game: str,
    seats: int,
    variant: str | None = None,
    *,
    watchers: int = 0,
    registry: Registry = REGISTRY,
    on_leave: OnLeave = OnLeave.END,
    turn_time: float | None = None,
    direct: bool = False,
) -> Net:
    """A host (headless) and ``seats`` seated peers plus ``watchers`` spectators, not yet started;
    their games come from ``registry``; ``on_leave``: what the table does when a seat leaves;
    ``turn_time`` is signed in the ``open`` entry (as ``atoll host --turn-time`` opens it);
    ``direct``: the seats reach each other directly (:meth:`Net.ask_directly`). Every table reads the
    net's clock (:meth:`Net.tick` moves it)."""
    host_key = SigningKey(os.urandom(32))
    info = registry.game(game).info
    host = Sequencer.open(
        f"{game}-{os.urandom(6).hex()}",
        host_key,
        registry.game,
        game=game,
        variant=variant or info.default_variant,
        seats=seats,
        name="test table",
        pin=registry.pin(game),
        on_leave=on_leave,
        turn_time=turn_time,
    )
    # the flood limit counts messages per second of wall time, and this harness delivers as fast as
    # the CPU goes: on a quick machine a long game's burst passed it and a refused message stalled
    # the table. Here its clock moves a second a message, so it never limits (the wire tests check it).
    host.limit = RateLimit(clock=itertools.count().__next__)
    peers = []
    net = Net(host, peers)
    host.table.clock = net.clock
    for i in range(seats + watchers):
        key = SigningKey(os.urandom(32))
        table = Table(host.table.id, host_key.verify_key.encode(), key, registry.game, clock=net.clock)
        table.direct = direct
        role = "sit" if i < seats else "watch"
        peers.append(Peer(key, PeerSession(table, role, f"p{i}", registry.installed_pin), f"c{i}".encode()))
    return net


def observe_seat(peer: Peer) -> Any:
    """The observation of ``peer``'s seat now."""
    engine = peer.table.engine
    assert engine is not None and engine.seat is not None
    return observe(engine.match, engine.seat)
