"""The host of a table: it orders and relays signed messages, and is trusted with nothing else.

:class:`Sequencer` is the host's logic without sockets: given the bytes a connection sent, it returns
the frames to send to which connections. It authenticates every message before it reads it, refuses
what cannot be taken now (with an error to its sender and a line in the host's log), places the rest
in the log, signs its place, and relays the entry to the seats and the admitted spectators. The host
keeps its own copy of the table (:class:`~atoll.table.table.Table`) to know what can be taken; when
the host's own person plays, their messages are sequenced the same way, without a network hop.

Why one module of over 500 lines: :class:`Sequencer` is one state machine over the connections
(who is linked, what each owes, which timeouts are open), and each of its handlers changes that one
state; the frames, the log, the presence lines and the take-over rule are modules of their own.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from nacl.signing import SigningKey

from atoll.errors import AtollError
from atoll.game import Game
from atoll.net.curve import curve_of
from atoll.net.envelope import Envelope, MessageTooLarge, Unauthenticated, open_envelope, own_envelope
from atoll.net.ratelimit import RateLimit
from atoll.pin import GamePin
from atoll.table.frames import ENTRIES_PER_MESSAGE, entry_frame, frame
from atoll.table.log import BadEntry, HostEquivocated, sequence
from atoll.table.presence import changes
from atoll.table.reasons import ALREADY_LOGGED, EndReason
from atoll.table.table import ASK_WAIT_S, OWED_MOST, Event, SealedKeeper, Table
from atoll.table.takeover import take_over_wins
from atoll.wire import PROTOCOL, ErrorReason, Frame, KeptSeat, Kind, OnLeave

log = logging.getLogger("atoll.table.host")

#: A frame to send: (connection id, bytes).
Outgoing = tuple[bytes, bytes]

#: Seconds without a word (a peer's heartbeat ``sync`` comes every two) before a seat is shown away.
AWAY_AFTER_S = 6.0

#: Seconds a seat whose link is gone (ZeroMQ found it closed, or silent past its heartbeat timeout)
#: has to connect again before it is shown away: a peer whose link dropped reconnects in about one.
RECONNECT_GRACE_S = 3.0

#: Seconds a seat taking a table over waits for the others to bring what its own log lacks.
GATHER_S = 4.0

#: Seconds past the turn time before the host states a timeout: each seat's own clock saw the turn
#: open a little later than the host's did (the entry that opened it travelled), and a seat witnesses
#: only once its own clock has seen the whole turn time.
TIMEOUT_MARGIN_S = 1.0

#: Seconds the host waits at least for the seats' answers to a timeout before it aborts it: each seat
#: may ask the late seat directly first (``ASK_WAIT_S``); at a short turn time the host aborted the
#: timeout of a seat really late while the others were still asking it.
ANSWER_WAIT_S = ASK_WAIT_S + 2 * TIMEOUT_MARGIN_S


@dataclass
class Sequencer:
    """The host's side of a table: authenticate, admit, sequence and relay.

    :param table: the host's own copy of the table (its key is the host's identity).
    :param key: the host's identity key (signs every entry's place in the log).
    :param late_watchers: admit spectators after the seats are taken (the default).
    """

    table: Table
    key: SigningKey
    late_watchers: bool = True
    limit: RateLimit = field(default_factory=RateLimit)
    connections: dict[bytes, str] = field(default_factory=dict)
    """Connection id -> the identity (hex) that synced on it."""
    refused: int = 0
    away_after: float = AWAY_AFTER_S
    heard: dict[str, float] = field(default_factory=dict)
    on_chat: Callable[[Envelope], None] | None = None
    """Called with each chat message the host relays (for the host's own person), if set."""
    """Identity (hex) -> when the host last heard from it (the caller's clock)."""
    away: tuple[int, ...] = ()
    """The seats shown as away."""
    left: tuple[int, ...] = ()
    """The seats shown as gone: they said goodbye before the game was over (and have not come back)."""
    stand_ins_gone: tuple[str, ...] = ()
    """The stand-ins (hex) away or gone now: a leaving seat hands its seat to one that is here."""
    emit: Callable[[list[Outgoing]], None] | None = None
    """Sends frames at once, if set: each entry then goes out before the host folds it in."""
    run: str = field(default_factory=lambda: secrets.token_hex(8))
    """This run of the host (new after each restart): a peer that sees it change sends again what it
    sent and the log does not hold, since a host that died may have taken it along."""
    _since: tuple[int, float] = (-1, 0.0)
    _now: float = 0.0
    said_bye: set[str] = field(default_factory=set)
    """The identities that said goodbye (they hold the whole log)."""
    taking_over: str | None = None
    """While a seat takes the table over: the host it replaces (hex); cleared once its entry is in."""
    took_over: bool = False
    """Whether this seat took the table over from a host that stopped answering."""
    gathered: set[str] = field(default_factory=set)
    took_over_at: int | None = None
    """The position of this seat's ``host`` entry, once it has taken the table over."""
    _gather_from: float | None = None
    _held: list[tuple[bytes, bytes, bytes]] = field(default_factory=list)
    _hosting: bytes | None = None
    superseded_by: str | None = None
    """A seat (hex) whose take-over wins over this host's history (it showed this host its ``host``
    entry directly): this host steps down and follows it (docs/decisions/0028)."""

    @property
    def turn_time(self) -> float | None:
        """Seconds a seat may take over what it owes before the host states a timeout, as the table's
        signed ``open`` entry says (``None``: no limit, and no timeout)."""
        lobby = self.table.lobby
        return None if lobby is None else lobby.turn_time

    @classmethod
    def open(
        cls,
        table_id: str,
        key: SigningKey,
        games: Callable[[str], Game],
        *,
        game: str,
        variant: str,
        seats: int,
        name: str,
        pin: GamePin,
        options: dict[str, object] | None = None,
        master: bytes | None = None,
        log_path: Path | None = None,
        sealed: SealedKeeper | None = None,
        late_watchers: bool = True,
        host_timeout: int | None = None,
        on_leave: OnLeave = OnLeave.END,
        turn_time: float | None = None,
        kept: list[KeptSeat] | None = None,
    ) -> Sequencer:
        """Open a new table: the host's copy, and the ``open`` entry at its head, which pins the game
        as installed here (``pin``: the registry's :meth:`~atoll.registry.Registry.pin`); ``on_leave``
        is what the table does when a seat leaves, ``turn_time`` (seconds) is signed in it (``None``:
        the table never forfeits a seat for time); ``kept``: the seats kept for the people of the game
        before (a rematch)."""
        table = Table(
            table_id,
            key.verify_key.encode(),
            key,
            games,
            log_path=log_path,
            master=master,
            sealed=sealed,
        )
        host = cls(table, key, late_watchers)
        body: dict[str, object] = {
            "game": game,
            "variant": variant,
            "seats": seats,
            "name": name,
            "options": options or {},
            "pin": pin.to_json(),
        }
        if host_timeout is not None:
            body["host_timeout"] = host_timeout
        if on_leave is not OnLeave.END:  # absent means END: a log written before the choice reads the same
            body["on_leave"] = str(on_leave)
        if turn_time is not None:  # everyone's screen counts it down (numbers on the wire are integers)
            body["turn_time_ms"] = max(1, round(turn_time * 1000))
        if kept:
            body["kept"] = kept
        host.local(table.compose(Kind.OPEN, body))
        return host

    @classmethod
    def resume(
        cls,
        table_id: str,
        key: SigningKey,
        games: Callable[[str], Game],
        *,
        master: bytes,
        log_path: Path,
        sealed: SealedKeeper | None = None,
        late_watchers: bool = True,
    ) -> Sequencer:
        """Take a table back after the host stopped: its log from disk, checked entry by entry.

        What the host's own seat owes (messages the engine writes again while the log is folded in,
        and not yet in it) is sequenced at once; the peers reconnect by themselves and catch up.
        """
        table = Table(
            table_id,
            key.verify_key.encode(),
            key,
            games,
            log_path=log_path,
            master=master,
            sealed=sealed,
        )
        if table.restore() == 0:
            raise AtollError(f"{log_path}: no entries to resume the table from")
        return cls.restored(table, key, late_watchers=late_watchers)

    @classmethod
    def restored(cls, table: Table, key: SigningKey, *, late_watchers: bool = True) -> Sequencer:
        """Host ``table``, restored from disk: what the host's own seat owes is sequenced at once."""
        host = cls(table, key, late_watchers)
        for data in table.outbox():
            host.local(data)
        closing = table.closing()
        if closing is not None:
            host.local(closing)
        return host

    @classmethod
    def take_over(cls, table: Table, key: SigningKey, unlogged: list[bytes] | None = None) -> Sequencer:
        """This seat takes the table over from a host that stopped answering, with its own copy of
        the log: first it gathers, for :data:`GATHER_S` or until every other seat has synced, the
        entries some peer holds and it lacks; then it logs its ``host`` entry and serves. ``unlogged``
        are the messages this seat sent to the old host that its log does not hold: taken after."""
        if table.me not in table.successors():
            raise AtollError("this seat has no standby address, so it cannot take the table over")
        host = cls(table, key)
        host.taking_over = table.log.host.encode().hex()
        host.took_over = True
        host._held = [(b"", b"", data) for data in unlogged or []]
        return host

    # -- admission (the ZAP handler asks this) ---------------------------------------------------

    def admit(self, curve_key: bytes) -> bool:
        """Whether a connection with this CURVE key may connect: anyone until the seats are taken."""
        lobby = self.table.lobby
        if lobby is None or not lobby.full() or self.late_watchers:
            return True
        # the seats, the spectators, and a host the table moved away from (it may come back to watch)
        known = [*lobby.seated, *lobby.spectators, lobby.host]
        return any(curve_of(bytes.fromhex(k)) == curve_key for k in known)

    # -- input -------------------------------------------------------------------------------------

    def local(self, data: bytes) -> list[Outgoing]:
        """A message of the host's own person (or the host itself)."""
        return self.receive(b"", b"", data)

    def receive(self, connection: bytes, curve_key: bytes, data: bytes) -> list[Outgoing]:
        """Bytes from ``connection`` (whose CURVE key is ``curve_key``): what to send, to whom."""
        # counted per identity (the CURVE key its connection authenticated), not per connection: a
        # modified client may open as many connections as it likes, but shares one allowance
        if connection and not self.limit.allow(curve_key or connection):
            return self._refuse(connection, "too many messages; slow down")
        try:
            message = open_envelope(data)
        except Unauthenticated as exc:
            return self._refuse(connection, f"refused: {exc}")
        if connection and curve_of(bytes.fromhex(message.author)) != curve_key:
            return self._refuse(connection, "refused: the message's author is not this connection's identity")
        self.heard[message.author] = self._now
        if message.kind == Kind.SYNC:
            return self._sync(connection, message)
        if message.kind == Kind.ENTRIES:
            return self._entries(connection, message)
        if message.kind == Kind.HOSTING:
            return self._shown_take_over(connection, message)
        if self.taking_over is not None and message.kind not in (Kind.CHAT, Kind.BYE):
            self._held.append((connection, curve_key, data))  # taken once this seat hosts the table
            return []
        if message.kind == Kind.CHAT:
            return self._chat(message)
        if message.kind == Kind.BYE:
            self.connections.pop(connection, None)
            self.said_bye.add(message.author)
            return []
        if self.table.log.holds(message):  # before any other check: whatever else it is, it is a repeat
            return self._refuse(connection, f"refused {message.kind}: {ALREADY_LOGGED}",
                                reason=ErrorReason.ALREADY_LOGGED)
        try:
            # checked here as every peer will check it: an entry they would all refuse never enters
            self.table.log.check_seen(message, before=len(self.table.log.entries))
        except (BadEntry, HostEquivocated) as exc:
            return self._refuse(connection, f"refused {message.kind}: {exc}")
        reason = self.table.admissible(message)
        if reason is not None:
            return self._refuse(connection, f"refused {message.kind}: {reason}")
        return self._sequence(message)

    def _sequence(self, message: Envelope) -> list[Outgoing]:
        out: list[Outgoing] = []
        queue = [message]
        while queue:
            current = queue.pop(0)
            entry = sequence(
                self.key, self.table.id, len(self.table.log.entries), self.table.log.head, current
            )
            checked = self.table.check_sequenced(entry)
            self.table.keep_entry(checked)  # on the host's disk before any peer sees it
            data = entry_frame(entry.to_bytes())
            at_table = self.recipients()
            frames = [*self._catch_up(current, at_table), *((conn, data) for conn in at_table)]
            if self.emit is not None:
                self.emit(frames)  # the peers start checking it while the host does the same
            else:
                out.extend(frames)
            self.table.apply(checked)
            # the host's own seat answers the protocol steps this entry opened (sealed here a moment
            # ago: its own signature is not checked again)
            queue.extend(own_envelope(m) for m in self.table.outbox())
            closing = self.table.closing()
            if closing is not None and not queue:
                queue.append(own_envelope(closing))
        self._since = (len(self.table.log.entries), self._now)  # what is owed now is owed from now
        return out

    def recipients(self) -> list[bytes]:
        """The connections the table's traffic (entries, presence, chat) goes to: those of the seats and
        the admitted spectators. Anyone else who synced gets what it asks for, and nothing more."""
        lobby = self.table.lobby
        if lobby is None:
            return []
        at_table = {*lobby.seated, *lobby.spectators}
        return [conn for conn, who in self.connections.items() if who in at_table]

    def _catch_up(self, message: Envelope, at_table: list[bytes]) -> list[Outgoing]:
        """The entries the author of ``message`` lacks, up to its own, for its connections that are not
        at the table yet (its ``sit`` or ``watch`` puts it there): from the entry it says it saw."""
        joining = [c for c, who in self.connections.items() if who == message.author and c not in at_table]
        seen = message.seen.get("seq")
        if not joining or type(seen) is not int:
            return []
        frames = [entry_frame(e.to_bytes()) for e in self.table.log.entries[max(0, seen + 1) :]]
        return [(conn, data) for conn in joining for data in frames]

    def owed_goodbyes(self) -> set[str]:
        """The seats (other than this host's own) that have not said goodbye: they may still be
        catching up, perhaps after a restart. A seat the table named (caught cheating, or forfeiting
        after the turn time) is not waited for: the game was decided without it."""
        lobby = self.table.lobby
        if lobby is None:
            return set()
        ending = self.table.ending
        named = set()
        decided = (EndReason.CHEAT, EndReason.FORFEIT)
        if ending is not None and ending.seat is not None and ending.reason in decided:
            named.add(lobby.seated[ending.seat])
        return set(lobby.seated) - self.said_bye - named - {self.table.me or ""}

    def followers_on_their_way(self) -> set[str]:
        """The spectators of a table this seat took over that have not reached it yet (nor said
        goodbye): each follows the table here by itself, a host timeout or two after the old host went,
        and a game that ends sooner keeps its end for them for the host's grace after the game."""
        lobby = self.table.lobby
        if not self.took_over or lobby is None:
            return set()
        # reached: synced here (a spectator showing its proof of a fork here is heard, and still on its way)
        reached = set(self.connections.values())
        return set(lobby.spectators) - reached - self.said_bye - {self.table.me or ""}

    # -- the clock (the caller's: nothing here reads one) --------------------------------------------

    def tick(self, now: float) -> list[Outgoing]:
        """Time is ``now``: show who is away, and state a timeout (or abort one) once the turn time passed."""
        self._now = now
        if self.taking_over is not None:
            if self._gather_from is None:
                self._gather_from = now
            lobby = self.table.lobby
            others = set(lobby.seated if lobby else []) - {self.taking_over, self.table.me or ""}
            if now - self._gather_from < GATHER_S and not others <= self.gathered:
                return []
            return self._take_over()
        out = self._presence(now)
        table = self.table
        length = len(table.log.entries)
        if self._since[0] != length:
            self._since = (length, now)  # the log grew: whatever is owed now is owed from now
        turn_time = self.turn_time
        if turn_time is None or table.over():
            return out
        wait = turn_time + TIMEOUT_MARGIN_S
        if table.timeout is not None:
            wait = max(wait, ANSWER_WAIT_S)
        if now - self._since[1] < wait:
            return out
        if table.timeout is None and table.waits_on() and self._on_its_way(table.waits_on()[0], now):
            self._since = (length, now)  # its turn time runs from when it can be here
            return out
        if table.timeout is not None:
            out += self._sequence_own(Kind.ABORT, {"timeout": table.timeout.seq})
        elif table.waits_on():
            out += self._sequence_own(Kind.TIMEOUT, {"seat": table.waits_on()[0]})
        self._since = (len(table.log.entries), now)
        return out

    def _on_its_way(self, seat: int, now: float) -> bool:
        """Whether ``seat`` may still be following the table here after this seat took it over: it has
        no link here, and the seats have not yet had a host timeout for every seat that could have
        taken the table over, and one more. A seat still held by the old host (or trying the seats in
        order) cannot be late at a host it has not reached; past that, it is timed as any seat."""
        lobby = self.table.lobby
        if not self.took_over or lobby is None or self._gather_from is None:
            return False
        author = lobby.seated[seat]
        if author == self.table.me or author in self.connections.values():
            return False
        return now - self._gather_from < lobby.host_timeout * (len(self.table.successors()) + 1)

    def _sequence_own(self, kind: Kind, body: dict[str, object]) -> list[Outgoing]:
        message = own_envelope(self.table.compose(kind, body))
        reason = self.table.admissible(message)
        if reason is not None:
            log.warning("not stating %s: %s", kind, reason)
            return []
        return self._sequence(message)

    def _presence(self, now: float) -> list[Outgoing]:
        """Who is away (no live link for :data:`RECONNECT_GRACE_S`, or silent for :attr:`away_after`) and
        who left; the frame that says so to everyone at the table when that changed."""
        lobby = self.table.lobby
        if lobby is None:
            return []
        me = self.table.me
        linked = set(self.connections.values())
        over = self.table.over()  # every seat says goodbye at the end: that is no leaving
        for author in lobby.seated:
            self.heard.setdefault(author, now)  # a seat is given the full grace from when it is first known
        chairs = lobby.chairs  # seated is in seat order, but only a full table is indexed by seat
        left = tuple(
            chairs[author]
            for author in lobby.seated
            if author != me and author in self.said_bye and not over
        )

        def away(author: str) -> bool:
            quiet = now - self.heard[author]
            return quiet >= self.away_after or (author not in linked and quiet >= RECONNECT_GRACE_S)

        gone = tuple(
            chairs[author]
            for author in lobby.seated
            if author != me and chairs[author] not in left and away(author)
        )
        for author in lobby.stand_ins:
            self.heard.setdefault(author, now)
        stand_ins_gone = tuple(a for a in lobby.stand_ins if a != me and (a in self.said_bye or away(a)))
        if stand_ins_gone != self.stand_ins_gone:
            self.stand_ins_gone = stand_ins_gone
            self.table.stand_ins_gone = frozenset(stand_ins_gone)  # the host's own seat hands over too
            if (gone, left) == (self.away, self.left):  # no line to say: the seats' peers are told
                data = self.presence_frame()
                return [(conn, data) for conn in self.recipients()]
        if (gone, left) == (self.away, self.left):
            return []
        seq = len(self.table.log.entries) - 1
        holder = {seat: author for author, seat in chairs.items()}

        def named(seat: int) -> str:
            return lobby.names.get(holder.get(seat, ""), "?")

        for line in changes((self.away, self.left), (gone, left), named):
            self.table.events.append(Event(line, seq))  # the host's own person reads them too
        self.away, self.left = gone, left
        data = self.presence_frame()
        return [(conn, data) for conn in self.recipients()]

    def presence_frame(self) -> bytes:
        """The ``presence`` frame of the seats away and gone now, and of the stand-ins not here."""
        return frame(Frame.PRESENCE, away=list(self.away), left=list(self.left),
                     stand_ins_gone=list(self.stand_ins_gone))

    def probe(self) -> list[Outgoing]:
        """The presence frame to every connection: the transport refuses a send to a link it found gone
        (``ROUTER_MANDATORY``), and the caller forgets that connection (see ``serve.deliver``). Asked for
        when ZeroMQ reports a link gone, since its report does not say whose."""
        data = self.presence_frame()
        return [(conn, data) for conn in self.connections]

    def _entries(self, connection: bytes, message: Envelope) -> list[Outgoing]:
        """Entries of the old host that a peer holds and this new host lacks (checked one by one)."""
        if self.taking_over is None:
            return self._refuse(connection, "refused entries: this host is not taking a table over")
        entries = message.body.get("entries")
        if not isinstance(entries, list):
            return self._refuse(connection, "refused entries: 'entries' is a list of log entries")
        for data in entries[:ENTRIES_PER_MESSAGE]:
            seq = data.get("seq") if isinstance(data, dict) else None
            if seq != len(self.table.log.entries):
                continue
            try:
                self.table.receive(data)
            except (BadEntry, HostEquivocated) as exc:
                return self._refuse(connection, f"refused entries: {exc}")
        return []

    def _take_over(self) -> list[Outgoing]:
        """Log this seat's ``host`` entry, then take what arrived meanwhile."""
        old, self.taking_over = self.taking_over, None
        self.took_over_at = len(self.table.log.entries)
        body: dict[str, object] = {"after": old}
        if self.table.fork is not None:  # the table named the old host for two histories: the proof
            body["evidence"] = self.table.fork
        me = self.table.me
        withheld = [own_envelope(data) for connection, _, data in self._held if not connection]
        withheld = [m for m in withheld if m.author != me and not self.table.log.holds(m)][:OWED_MOST]
        if withheld:  # messages the old host withheld, held by every peer: the record of why
            body["withheld"] = [m.to_json() for m in withheld]
        try:
            out = self._sequence_own(Kind.HOST, body)
        except MessageTooLarge:  # the record does not fit: the peers were shown it directly already
            log.warning("the evidence against the old host is too large for the host entry; logged without")
            out = self._sequence_own(Kind.HOST, {"after": old})
        held, self._held = self._held, []
        for connection, curve_key, data in held:
            out += self.receive(connection, curve_key, data)
        return out

    def _sync(self, connection: bytes, message: Envelope) -> list[Outgoing]:
        have = message.body.get("have", -1)
        if type(have) is not int or have < -1:
            return self._refuse(connection, "refused sync: 'have' must be an entry number or -1")
        self.connections[connection] = message.author
        if not self.table.over():
            self.said_bye.discard(message.author)  # it said goodbye, and came back
        if self.taking_over is not None:
            if have + 1 > len(self.table.log.entries):  # it holds more of the old host's log: ask for it
                return [(connection, frame(Frame.NEED, after=len(self.table.log.entries) - 1))]
            self.gathered.add(message.author)
        start, seen = have + 1, message.seen.get("seq")
        entries = self.table.log.entries
        if self.took_over_at is not None and type(seen) is int and self.took_over_at <= seen < start \
                and (seen >= len(entries) or entries[seen].head != message.seen.get("head")):
            # it holds entries of the old host where this host's own begin (it came after the gathering,
            # or followed the old host after it came back): from this host's entry on, which it takes in
            # place of those (docs/decisions/0028)
            start = self.took_over_at
        entries = self.table.log.entries[start:]
        fields: dict[str, object] = {}
        pinned = self.table.pinned
        if have == -1 and pinned is not None:
            # first contact: the game as pinned, so a peer with another build is told before it sits
            # (a hint only: the peer checks the signed open entry again)
            fields = {"game": pinned[0], "pin": pinned[1].to_json()}
        welcome = frame(
            Frame.WELCOME,
            host=self.key.verify_key.encode().hex(),
            table=self.table.id,
            proto=PROTOCOL,  # this host's own: a peer of another version is told which the table speaks
            length=len(self.table.log.entries),
            run=self.run,
            **fields,
        )
        presence = self.presence_frame()
        return [
            (connection, welcome),
            *((connection, entry_frame(e.to_bytes())) for e in entries),
            (connection, presence),
        ]

    def misses_a_seat(self, now: float) -> bool:
        """Whether a seat has not been heard for the table's host timeout at ``now`` (the caller's clock),
        the game going on: it may be away, or the seats may have taken the table over while this host
        was silent (paused, or cut off) and this one went to the new host; this host asks where the
        table is (docs/decisions/0028-one-host-after-a-take-over.md)."""
        table, lobby = self.table, self.table.lobby
        if lobby is None or not lobby.full() or table.engine is None or table.over() or self.taking_over:
            return False
        others = [a for a in lobby.seated if a != table.me]
        return any(now - self.heard.get(a, now) >= lobby.host_timeout for a in others)

    def hosting_notice(self) -> tuple[bytes, list[str]] | None:
        """Once this seat has taken the table over: the signed ``hosting`` message that shows its ``host``
        entry, and the seats and spectators (hex) with a standby address to show it to directly, those
        not connected here (they may still follow the old host, which came back); ``None`` when there
        is nobody to show it to."""
        table, lobby = self.table, self.table.lobby
        if self.took_over_at is None or lobby is None or table.over():
            return None
        here = {*self.connections.values(), *self.said_bye, table.me or ""}
        to = [a for a in [*lobby.seated, *lobby.spectators] if a in lobby.standby and a not in here]
        if not to:
            return None
        if self._hosting is None:  # composed once: a message number is not spent on every showing
            entry = table.log.entries[self.took_over_at].to_json()
            self._hosting = table.compose(Kind.HOSTING, {"entry": entry})
        return self._hosting, to

    def _shown_take_over(self, connection: bytes, message: Envelope) -> list[Outgoing]:
        """A seat shows this host directly that it took the table over (``hosting``): when its ``host``
        entry wins over this host's own history (this host came back, or took the table over too, later
        or as a seat later in order), this host steps down to it (:attr:`superseded_by`)."""
        if message.author != self.table.me and \
                take_over_wins(self.table, message.body.get("entry"), message.author) is not None:
            self.superseded_by = message.author
        return [(connection, frame(Frame.OWED, msgs=[]))] if connection else []

    def _chat(self, message: Envelope) -> list[Outgoing]:
        lobby = self.table.lobby
        text = message.body.get("text")
        at_table = lobby is not None and (
            message.author in lobby.seated or message.author in lobby.spectators
        )
        if not at_table or not isinstance(text, str) or not 0 < len(text) <= 500:
            return []
        if self.on_chat is not None:  # the host's own person reads the table talk too
            self.on_chat(message)
        data = frame(Frame.CHAT, msg=message.to_json())
        return [(conn, data) for conn in self.recipients()]

    def refuse(self, connection: bytes, text: str) -> list[Outgoing]:
        """Refuse what ``connection`` sent that never reached :meth:`receive` (the transport could not
        read it): an error to its sender and a line in the host's log, as for any refused message."""
        return self._refuse(connection, f"refused: {text}")

    def _refuse(self, connection: bytes, text: str, *, reason: ErrorReason | None = None) -> list[Outgoing]:
        """The ``error`` frame refusing what ``connection`` sent; one with a ``reason`` the peer acts on
        is no refusal worth a warning (a repeat of what the log holds)."""
        self.refused += 1
        log.log(logging.WARNING if reason is None else logging.DEBUG, "%s: %s", connection.hex() or "local",
                text)
        if not connection:
            return []
        fields = {"text": text} if reason is None else {"text": text, "reason": str(reason)}
        return [(connection, frame(Frame.ERROR, **fields))]
