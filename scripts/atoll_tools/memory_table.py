"""A table in memory: a real host sequencer and real peer tables wired by function calls.

Wherever several seats are needed in one process (the table and fair tests, ``scripts/bench fair``),
this is the table they play at: each peer has its own identity, secrets and copy of the log, and every
fair message is sealed in its seat's envelope and sequenced by the host, exactly as on the network.
Nothing here is a stand-in but the wire: frames travel by function call, in order, and every table
reads one clock (:meth:`Net.tick` moves it).

Hooks play what a test needs to be hostile: ``relay`` drops, changes or forges what one peer receives,
``upstream`` what one peer sends to the host, and a seat built with a :func:`cheating` participant
runs modified software (its fair participant rewrites or withholds what it sends, or seals values
behind its player's back); its own identity signs whatever it sends, as it would on the network.
"""

from __future__ import annotations

import itertools
import os
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from nacl.signing import SigningKey

from atoll.engine.loop import observe
from atoll.errors import Fault
from atoll.fair.steps.history import StepRecord
from atoll.fair.steps.messages import Message
from atoll.fair.steps.seat import Participant
from atoll.net.curve import curve_of
from atoll.net.ratelimit import RateLimit
from atoll.registry import Registry, load_registry
from atoll.table.host import Sequencer
from atoll.table.peer import PeerSession
from atoll.table.table import Table
from atoll.wire import OnLeave

REGISTRY = load_registry()

#: Rewrites the bytes one peer is about to receive, or sends (``None``: dropped).
Relay = Callable[[int, bytes], bytes | None]

#: A cheating seat's rewrite of what its participant sends: the messages to send instead (none: withheld).
Tamper = Callable[[Participant, Message], list[Message]]

#: Changes the values a cheating seat seals (behind its own player's back, so its game goes on).
Sealing = Callable[[list[Any]], list[Any]]


def cheating(tamper: Tamper | None = None, sealing: Sealing | None = None) -> type[Participant]:
    """The fair participant of a seat running modified software: ``tamper`` rewrites all it sends, and
    ``sealing`` changes the values it seals. Give it to a :class:`~atoll.table.table.Table` as its
    ``participant``; the table signs what it sends in the seat's own envelope."""

    def keep(_me: Participant, message: Message) -> list[Message]:
        return [message]

    rewrites = tamper or keep

    class Cheating(Participant):
        def prepare_seal(self, handles: Sequence[str], values: Sequence[Any]) -> None:
            super().prepare_seal(handles, sealing(list(values)) if sealing is not None else values)

        def begin(self, step: StepRecord) -> list[Message]:
            return [m for out in super().begin(step) for m in rewrites(self, out)]

        def receive(self, message: Any, **options: Any) -> list[Message]:
            return [m for out in super().receive(message, **options) for m in rewrites(self, out)]

        def seal_now(self, handles: Sequence[str], values: Sequence[Any]) -> Message:
            # a simultaneous decision's commitment leaves as the seat's own move, one message
            (sent,) = rewrites(self, super().seal_now(handles, values))
            return sent

    return Cheating


@dataclass
class Peer:
    """One peer: its key, its session (table copy) and its connection id at the host."""

    key: SigningKey
    session: PeerSession
    connection: bytes
    bot: Any = None

    @property
    def table(self) -> Table:
        """This peer's copy of the table."""
        return self.session.table

    @property
    def curve(self) -> bytes:
        """The CURVE key its connection authenticates with (its identity's)."""
        return curve_of(self.key.verify_key.encode())


@dataclass
class Net:
    """A host and its peers, delivering frames in order."""

    host: Sequencer
    peers: list[Peer]
    relay: Relay | None = None
    """Rewrites (or drops) each frame the host sends a peer."""
    upstream: Relay | None = None
    """Rewrites (or drops) each message a peer sends the host."""
    errors: dict[int, list[str]] = field(default_factory=dict)
    now: float = 0.0
    """The clock every table here reads (the host's ``tick`` moves it): one clock, no travel time."""
    shown: set[int] = field(default_factory=set)
    """The peers that have shown the others their proof of a fork."""
    cpu: dict[int, float] = field(default_factory=dict)
    """CPU seconds each peer (by index) spent on what it received and sent; the host's under ``-1``."""
    _queue: deque[tuple[bytes, bytes]] = field(default_factory=deque)
    _delivering: bool = False

    def clock(self) -> float:
        """What time it is at this table (every peer's clock and the host's)."""
        return self.now

    def tick(self, now: float) -> None:
        """Time is ``now`` for everyone; the host's frames (a timeout, an abort, presence) are delivered."""
        self.now = now
        self.deliver(self.host.tick(now))

    def start(self) -> None:
        """Every peer says hello (sits or watches): once every seat is taken the game begins, and runs
        until it waits for a seat's move."""
        for index, peer in enumerate(self.peers):
            self.send(index, peer.session.hello())

    def move(self, index: int, action: dict[str, Any]) -> None:
        """Peer ``index``'s seat takes ``action``; everything it sets off is delivered."""
        started = time.process_time()
        data = self.peers[index].table.move(action)
        self._charge(index, started)
        self.send(index, data)

    def _charge(self, index: int, started: float) -> None:
        self.cpu[index] = self.cpu.get(index, 0.0) + time.process_time() - started

    def send(self, index: int, data: bytes) -> None:
        """Peer ``index`` sends ``data`` to the host; the host's frames are delivered."""
        peer = self.peers[index]
        if self.upstream is not None:
            changed = self.upstream(index, data)
            if changed is None:
                return
            data = changed
        started = time.process_time()
        frames = self.host.receive(peer.connection, peer.curve, data)
        self._charge(-1, started)
        self.deliver(frames)

    def deliver(self, frames: list[tuple[bytes, bytes]]) -> None:
        """Deliver the host's ``frames``, and whatever they set off, each peer's in the order the host
        sent them (as one connection does): what a peer sends back while one is delivered is sequenced
        at once, and its frames queue behind those not yet delivered."""
        self._queue.extend(frames)
        if self._delivering:
            return
        self._delivering = True
        try:
            while self._queue:
                self._deliver_one(*self._queue.popleft())
        finally:
            self._delivering = False

    def _deliver_one(self, connection: bytes, data: bytes) -> None:
        index = next(i for i, p in enumerate(self.peers) if p.connection == connection)
        if self.relay is not None:
            changed = self.relay(index, data)
            if changed is None:
                return
            data = changed
        started = time.process_time()
        replies = self.peers[index].session.on_frame(data)
        self._charge(index, started)
        for reply in replies:
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
        asker = self.peers[index].session
        for reply in asker.answered(seq, target.session.on_direct(data)):
            self.send(index, reply)
        behind = asker.catch_up_message()  # the late seat lacked entries: they are given it directly
        if behind is not None:
            target.session.on_direct(behind[1])
            for reply in target.session.given_replies():
                self.send(self.peers.index(target), reply)

    def run(self, max_rounds: int = 100_000, *, rotate: bool = False) -> None:
        """Play until every peer's table is over (bots choose). ``rotate``: the peers that owe a move are
        asked from a peer one further each time, so that at a simultaneous decision every seat is the
        first to choose in some round."""
        self.start()
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


def open_host(
    registry: Registry,
    game: str,
    seats: int,
    variant: str | None = None,
    *,
    table_id: str | None = None,
    name: str = "test table",
    sequencer: type[Sequencer] = Sequencer,
    **opening: Any,
) -> tuple[Sequencer, SigningKey]:
    """A headless host (of class ``sequencer``) that has opened a table of ``game`` for ``seats``
    seats, with a fresh identity key and, unless given, a fresh table id; ``opening`` goes on to
    :meth:`Sequencer.open <atoll.table.host.Sequencer.open>` (turn time, options, files)."""
    host_key = SigningKey(os.urandom(32))
    host = sequencer.open(
        table_id or f"{game}-{os.urandom(6).hex()}",
        host_key,
        registry.game,
        game=game,
        variant=variant or registry.game(game).info.default_variant,
        seats=seats,
        name=name,
        pin=registry.pin(game),
        **opening,
    )
    return host, host_key


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
    options: Mapping[str, Any] | None = None,
    participants: Mapping[int, type[Participant]] | None = None,
    keys: Sequence[SigningKey] | None = None,
    masters: Sequence[bytes] | None = None,
    table_id: str | None = None,
) -> Net:
    """A host (headless) and ``seats`` seated peers plus ``watchers`` spectators, not yet started;
    their games come from ``registry``; ``on_leave``: what the table does when a seat leaves;
    ``turn_time`` is signed in the ``open`` entry (as ``atoll host --turn-time`` opens it);
    ``direct``: the seats reach each other directly (:meth:`Net.ask_directly`); ``options``: the
    game's options. ``participants`` gives a peer (by index) another fair participant class (a
    :func:`cheating` one, or one that times itself); ``keys`` and ``masters`` fix the seats'
    identities and master secrets (fresh ones otherwise), ``table_id`` the table's id (a fresh one
    otherwise: an id is never used for two tables but in a test that compares two runs). Every
    table reads the net's clock (:meth:`Net.tick` moves it); peer ``i`` sits at seat ``i``."""
    host, host_key = open_host(registry, game, seats, variant, table_id=table_id, on_leave=on_leave,
                               turn_time=turn_time, options=dict(options or {}))
    # the flood limit counts messages per second of wall time, and this harness delivers as fast as
    # the CPU goes: on a quick machine a long game's burst passed it and a refused message stalled
    # the table. Here its clock moves a second a message, so it never limits (the wire tests check it).
    host.limit = RateLimit(clock=itertools.count().__next__)
    peers: list[Peer] = []
    net = Net(host, peers)
    host.table.clock = net.clock
    special = participants or {}
    for i in range(seats + watchers):
        key = keys[i] if keys is not None and i < len(keys) else SigningKey(os.urandom(32))
        master = masters[i] if masters is not None and i < len(masters) else None
        table = Table(host.table.id, host_key.verify_key.encode(), key, registry.game, clock=net.clock,
                      master=master, participant=special.get(i))
        table.direct = direct
        role = "sit" if i < seats else "watch"
        peers.append(Peer(key, PeerSession(table, role, f"p{i}", registry.installed_pin), f"c{i}".encode()))
    return net


def observe_seat(peer: Peer) -> Any:
    """The observation of ``peer``'s seat now."""
    engine = peer.table.engine
    assert engine is not None and engine.seat is not None
    return observe(engine.match, engine.seat)
