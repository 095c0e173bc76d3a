"""A peer at a table, without sockets: sync with the host, sit or watch, check every entry, play.

:class:`PeerSession` holds what a peer does with the host's frames: it checks each entry into its own
:class:`~atoll.table.table.Table`, notices when its seat must move, and collects the messages to
send. :func:`atoll.app.peer_loop.run_peer` carries it over a socket.

Why one module of over 500 lines: :class:`PeerSession` is one state machine over one link (synced or
not, which entries are owed, which copy of the log is kept, who hosts); its handlers all change that
state. The table, the frames, the seating rules and the take-over rule are modules of their own.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from atoll.engine.loop import observe
from atoll.engine.observation import Observation
from atoll.errors import AtollError, Fault
from atoll.faultlog import record_fault
from atoll.jsondata import canonical
from atoll.net.curve import curve_of
from atoll.net.encoding import canonical_bytes
from atoll.net.envelope import Envelope, Unauthenticated, decode, open_envelope, own_envelope
from atoll.pin import GamePin, require_same
from atoll.table.frames import BATCH_ENTRIES, ENTRIES_PER_MESSAGE, frame, read_frame
from atoll.table.log import BadEntry, HostEquivocated
from atoll.table.presence import changes
from atoll.table.seating import SeatRefused, seat_of_colour
from atoll.table.table import OWED_MOST, Event, Table
from atoll.table.takeover import take_over_wins
from atoll.types import Action
from atoll.wire import PROTOCOL, ErrorReason, Frame, Kind

log = logging.getLogger("atoll.table.peer")

#: Entries in a row that do not check before the peer gives up on the host.
MAX_BAD_ENTRIES = 20

#: Seconds between two heartbeats (a ``sync``: it also catches up with a host that restarted).
HEARTBEAT_S = 2.0

#: Seconds without a frame from the host before the peer says that the host does not answer.
HOST_QUIET_S = 6.0

#: Chooses this seat's action from its observation (a bot's ``choose``, or a person's prompt).
Chooser = Callable[[Observation], Awaitable[Action]]


class TableFailed(AtollError):
    """The table cannot go on for this peer: the host cheated, or the game ended in a cheat."""


class HostGone(Exception):
    """The host has been silent past the table's host timeout: ``successor`` (hex identity) takes the
    table over at ``address`` (its standby ``HOST:PORT``)."""

    def __init__(self, successor: str, address: str, rank: int, why: str = "the host is gone") -> None:
        super().__init__(f"{why}; {successor[:16]} takes the table over at {address}")
        self.successor = successor
        self.address = address
        self.rank = rank
        self.why = why
        """What a person at this peer is told (the host gone, named, or withholding)."""


#: Welcomes (the host's answers to heartbeats, one every :data:`HEARTBEAT_S`) a peer waits for before
#: it sends again a message the log has not taken in (a lost one, or one the host refused).
RESEND_AFTER = 2

#: The most welcomes between two sends of the same message: the wait doubles up to this, and the peer
#: keeps sending for as long as the table is open and the host answers.
RESEND_MOST = 16


def resend_gap(attempts: int) -> int:
    """Welcomes to wait before sending again a message sent ``attempts`` times again already."""
    return min(RESEND_AFTER << min(attempts, 8), RESEND_MOST)


@dataclass
class Unlogged:
    """A message this peer sent that the log does not hold yet."""

    data: bytes
    welcome: int
    """The number of welcomes (heartbeat answers) seen when it was last sent."""
    attempts: int = 0
    since: float = 0.0
    """When (the table's clock) it was first sent."""


@dataclass
class PeerSession:
    """One peer's conversation with the host.

    :param table: this peer's copy of the table.
    :param role: ``"sit"`` to take a seat, ``"watch"`` to spectate.
    :param name: the display name sent with ``sit``/``watch``.
    :param installed: the pin of a game as installed here (the registry's
        :meth:`~atoll.registry.Registry.installed_pin`), compared with the table's before this peer sits or
        plays on: a table that plays another build raises :class:`~atoll.pin.GameDiffers`.
    """

    table: Table
    role: str
    name: str
    installed: Callable[[str], GamePin | None]
    joined: bool = False
    asked_at: int = -1
    bad_entries: int = 0
    errors: list[str] = field(default_factory=list)
    host_length: int | None = None
    """The length of the host's log when it last welcomed this peer: until this peer holds as much,
    it is catching up, and sends nothing its seat owes (the log may hold it already). ``None`` until
    this host has welcomed it: entries can come before that (those a handshake asked for), and a seat
    that sat or moved already, read back from them, must not sit or move again."""
    away: tuple[int, ...] = ()
    """The seats the host shows as away."""
    left: tuple[int, ...] = ()
    """The seats the host shows as gone (they said goodbye before the game was over)."""
    bot: str | None = None
    """The kind of bot that plays this seat, said when it sits (``None``: a person)."""
    unlogged: dict[int, Unlogged] = field(default_factory=dict)
    """What this peer sent that the log does not hold yet, by message number."""
    host_run: str | None = None
    welcomes: int = 0
    standby: str | None = None
    """Where this seat would host the table if the host went (``HOST:PORT``, sent when it sits)."""
    leaving: bool = False
    """Whether this seat leaves the table for good as soon as it has caught up."""
    on_chat: Callable[[Envelope], None] | None = None
    """Called with each chat message the host relays, its author's signature checked, if set."""
    door_checked: bool = False
    """Whether the table's game was found to be the one installed here."""
    fault: Fault | None = None
    """The game's plugin failed on this machine (see :meth:`failed`): this seat moves no more."""
    stand_in: bool = False
    """This spectator (a bot) takes over a seat whose player leaves (said in its ``watch``)."""
    asked: int = -1
    """The timeout (its entry number) about which this seat last asked a late seat directly."""
    evidence: dict[str, Any] | None = None
    """The proof that the host signed two histories, once this peer holds it (it shows the others)."""
    seat: int | None = None
    """The seat this peer asks for (from 0), else the one the table gives (:mod:`atoll.table.seating`)."""
    colour: str | None = None
    """The colour this peer asks for instead: the seat of that colour, once the table's game is known."""
    linked_to: bytes | None = None
    """The CURVE key (raw) of the host this peer's link reaches now (the caller sets it)."""
    withheld: dict[tuple[str, int], tuple[bytes, float]] = field(default_factory=dict)
    """Seats' messages the host has not sequenced, held here directly (by author and number): each
    with when (the table's clock) this peer came to hold it (docs/decisions/0020)."""
    withheld_under: bytes = b""
    """The host (its identity) under which :attr:`withheld` is counted."""
    pushed: set[int] = field(default_factory=set)
    """This seat's own message numbers it has given the others directly (:meth:`push`)."""
    evidence_shown: bool = False
    """Whether this peer has shown the other peers its :attr:`evidence` directly."""
    _replies: list[bytes] = field(default_factory=list, init=False, repr=False)
    """What entries given directly asked of this seat, until the loop sends it (:meth:`given_replies`)."""
    host_heard: float = 0.0
    """When (the table's clock) the host last sent this peer a frame."""
    set_aside: bool = False
    """This peer has just set aside what a named host showed it alone: it syncs again at the next host."""
    made: dict[int, tuple[str, dict[str, Any]]] = field(default_factory=dict)
    """This seat's moves in entries it set aside, by game step: a digest of the game's events before it,
    and the action. Made again, unasked, when the table waits on this seat at that step after the same
    events: what the seat signed is not lost (docs/decisions/0028)."""
    moved: HostGone | None = None
    """Where a seat that took the table over, and showed this peer its signed ``host`` entry directly,
    hosts it (the take-over decides the table's history: :mod:`atoll.table.takeover`); this peer goes."""

    def hello(self) -> bytes:
        """The first message on a (re)connection: which entries this peer already holds."""
        return self.table.compose(Kind.SYNC, {"have": len(self.table.log.entries) - 1})

    def on_frame(self, data: bytes) -> list[bytes]:
        """Handle one frame from the host; return what to send. Raises :class:`TableFailed`."""
        self.host_heard = self.table.clock()
        try:
            frm = read_frame(data)
        except Unauthenticated as exc:
            self.errors.append(f"unreadable frame from the host: {exc}")
            return []
        kind = frm["t"]
        if kind == Frame.ERROR:
            text = str(frm.get("text"))[:300]
            if frm.get("reason") == ErrorReason.ALREADY_LOGGED:  # sent again what the log holds: no fault
                log.debug("host: %s", text)
                return []
            self.errors.append(text)
            log.warning("host: %s", text)
            return []
        if kind == Frame.WELCOME:
            if frm.get("proto") != PROTOCOL:
                raise TableFailed(other_protocol(frm))
            length = frm.get("length")
            self.host_length = length if type(length) is int and length >= 0 else 0
            run = frm.get("run")
            restarted = self.host_run is not None and run != self.host_run
            self.host_run = run if isinstance(run, str) else None
            self.welcomes += 1
            return self._again(restarted) + self._ready()
        if kind == Frame.PRESENCE:
            self._presence(frm.get("away"), frm.get("left", []))
            gone = frm.get("stand_ins_gone", [])
            if isinstance(gone, list):
                self.table.stand_ins_gone = frozenset(g for g in gone if isinstance(g, str))
            return []
        if kind == Frame.NEED:  # a seat taking the table over lacks entries this peer holds
            after = frm.get("after")
            if type(after) is not int or after < -1:
                return []
            held = self.table.log.entries[after + 1 : after + 1 + ENTRIES_PER_MESSAGE]
            entries = [e.to_json() for e in held]
            return [self.table.compose(Kind.ENTRIES, {"entries": entries})] if entries else []
        if kind == Frame.CHAT:
            self._chat(frm.get("msg"))
            return []
        if kind == Frame.ENTRIES:  # entries the host sent back to back, in one frame
            batch = frm.get("entries")
            batch = batch[:BATCH_ENTRIES] if isinstance(batch, list) else []
            if len(batch) > 1:
                # one host signature, the last, checked for the run before any entry of it is taken
                self.table.log.vouch(batch)
            out: list[bytes] = []
            try:
                for entry in batch:
                    replies, taken = self._entry(entry)
                    out += replies
                    if not taken:
                        break  # the entries after a refused one cannot follow this peer's log either
            finally:
                self.table.log.vouch([])  # nothing vouched for outlives its frame
            return out
        if kind != Frame.ENTRY:
            return []
        return self._entry(frm.get("entry"))[0]

    def _entry(self, entry: Any, *, given: bool = False) -> tuple[list[bytes], bool]:
        """Take one log entry from the host: what to send, and whether it was taken (or held already).
        ``given``: another seat gave it directly (:meth:`on_direct`); one that does not check is only
        passed over, never counted against the host."""
        if (
            isinstance(entry, dict)
            and isinstance(entry.get("seq"), int)
            and entry["seq"] < len(self.table.log.entries)
        ):
            if self._old_hosts_tail(entry):  # the next host's own entries begin where this copy has more
                named = self.table.deposed is not None
                why = "the named host gave them to this copy alone" if named else \
                    "a seat took the table over there, and its history is the table's"
                self._keep_moves(entry["seq"])
                self.table = self.table.set_aside(entry["seq"], why=why)
                self.set_aside, self.asked_at = True, -1
                self._forget_from(entry["seq"])
                if not named:  # this link reaches the seat already: synced again from the copy set aside
                    self.moved = self._to(entry["msg"]["author"], "the table goes on from the take-over")
                return [], False
            return [], True  # already held (a catch-up overlapping what arrived live)
        if self.from_named_host() or (self.evidence is not None and self.table.over()):
            return [], False  # nothing more is taken from a host the table named
        # an entry the host held before this link reached it arrives late on this peer's clock
        at = entry.get("seq") if isinstance(entry, dict) else None
        held = self.host_length
        self.table.catching_up = given or (held is not None and type(at) is int and at < held)
        try:
            self.table.receive(entry, parsed_strictly=True)
        except HostEquivocated as exc:
            if not self.table.host_forked(exc.evidence):
                if given:
                    return [], False
                raise TableFailed(f"{exc}; evidence: {exc.evidence}") from exc
            if self.evidence is None:
                self.evidence = exc.evidence  # the others are shown it directly (the host would not relay it)
            seq = exc.evidence.get("seq")
            if self.table.deposed is not None and type(seq) is int and 0 < seq < len(self.table.log.entries):
                # this copy holds what it was shown from there: the next host sends what the others hold
                self.table, self.set_aside, self.asked_at = self.table.set_aside(seq), True, -1
                self._forget_from(seq)
            return [], False
        except BadEntry as exc:
            if given:
                return [], False
            self.errors.append(f"refused an entry from the host: {exc}")
            log.warning("%s", self.errors[-1])
            self.bad_entries += 1
            if self.bad_entries > MAX_BAD_ENTRIES:
                raise TableFailed(f"the host keeps sending entries that do not check ({exc})") from exc
            return [self.hello()], False
        self.bad_entries = 0
        return self._ready(), True

    def sending(self, data: bytes) -> bytes:
        """Note a message this peer sends, so that it goes again if the log does not take it in."""
        own = self.table.log.sealed(data)  # read already when this peer sealed it
        n = own.n if own is not None else decode(data).get("n")
        if type(n) is int:
            self.unlogged[n] = Unlogged(data, self.welcomes, since=self.table.clock())
        return data

    def _keep_moves(self, seq: int) -> None:
        """Keep this seat's moves in the entries from ``seq`` on, about to be set aside (:attr:`made`)."""
        engine, me = self.table.engine, self.table.me
        if engine is None:
            return
        events = engine.match.events
        for entry in self.table.log.entries[seq:]:
            message = entry.message
            at, action = message.body.get("at"), message.body.get("action")
            own = message.author == me and message.kind == Kind.MOVE
            if own and type(at) is int and 0 <= at <= len(events) and isinstance(action, dict):
                self.made[at] = (_digest(events[:at]), action)

    def _made_again(self) -> list[bytes]:
        """This seat's move set aside at the step the table waits on it for now, after the same events as
        then: signed again (a new number), without asking anyone (:attr:`made`)."""
        engine = self.table.engine
        if not self.made or engine is None or self.table.over() or not engine.my_turn():
            return []
        at = len(engine.match.events)
        kept = self.made.pop(at, None)
        if kept is None or at == self.asked_at or kept[0] != _digest(engine.match.events):
            return []
        self.asked_at = at  # not asked: made as it was
        return [self.sending(self.table.move(kept[1]))]

    def _forget_from(self, seq: int) -> None:
        """Forget the messages sent and not logged that were written after seeing entry ``seq`` or later,
        now set aside: they follow a history the table does not hold (no host would take them), and the
        copy writes what its seat owes again from its own entries."""
        for n, waiting in list(self.unlogged.items()):
            seen = decode(waiting.data).get("seen")
            at = seen.get("seq") if isinstance(seen, dict) else None
            if type(at) is int and at >= seq:
                del self.unlogged[n]

    def unlogged_messages(self) -> list[bytes]:
        """What this peer sent that its log does not hold (oldest first)."""
        me = self.table.me or ""
        return [u.data for n, u in sorted(self.unlogged.items()) if not self.table.log.holds_number(me, n)]

    def _again(self, restarted: bool) -> list[bytes]:
        """What to send again: everything unlogged after the host restarted (it may have died with it);
        otherwise, once caught up, what :func:`resend_gap` welcomes have not seen logged (a message
        dropped on the way, or refused by the host's rate limit), the wait doubling each time, for as
        long as the host answers; from the third time on, each send is a line in the peer's log."""
        self._forget_logged()
        if not restarted and not self.caught_up():
            return []
        again = []
        for n, waiting in sorted(self.unlogged.items()):
            if restarted or self.welcomes - waiting.welcome >= resend_gap(waiting.attempts):
                waiting.welcome, waiting.attempts = self.welcomes, waiting.attempts + 1
                if restarted:  # a host that restarted has had it for no time at all
                    waiting.since = self.table.clock()
                again.append(waiting.data)
                if waiting.attempts >= 3:
                    log.warning("message %d is not in the log yet: sent again (%d)", n, waiting.attempts)
        return again

    def _forget_logged(self) -> None:
        """Let go of this peer's messages that the log now holds: :attr:`unlogged` keeps only what may
        have to go again, so the loop that looks at it every turn does not grow with the game."""
        me, book = self.table.me or "", self.table.log
        for n in [n for n in self.unlogged if book.holds_number(me, n)]:
            del self.unlogged[n]

    def caught_up(self) -> bool:
        """Whether this peer holds at least what the host's log held when it last welcomed it."""
        return self.host_length is not None and len(self.table.log.entries) >= self.host_length

    def _ready(self) -> list[bytes]:
        """What to send once caught up: what this seat owes, and ``sit``/``watch`` if not yet there."""
        self._door()
        if not self.caught_up():
            return []
        out = [self.sending(data) for data in self.table.outbox()] + self._made_again()
        if self.leaving and self.table.my_seat is not None and self.table.engine is not None:
            self.leaving = False
            out.append(self.sending(self.table.leave()))
        if not self.joined and self.table.lobby is not None and not self.table.over():
            lobby = self.table.lobby
            me = self.table.me
            if me in lobby.seated or me in lobby.spectators:
                self.joined = True
            elif self.role == "watch" or not lobby.full():
                body: dict[str, Any] = self._sit_body() if self.role == "sit" else {"name": self.name}
                if self.role == "watch" and self.standby is not None:
                    body["standby"] = self.standby  # where it is shown evidence against the host
                self.joined = True
                if self.role == "watch" and self.stand_in:
                    body["stand_in"] = True
                    if self.bot is not None:
                        body["bot"] = self.bot
                out.append(self.sending(self.table.compose(Kind(self.role), body)))
            else:
                raise TableFailed("every seat is taken (join with --spectate to watch)")
        elif (self.joined and self.role == "sit" and self.table.my_seat is None and not self.table.over()
              and self.table.handed_away is None):
            self._still_free()
        return out

    def _sit_body(self) -> dict[str, Any]:
        """The ``sit`` of this peer: its name, standby address, the seat it asks for (the seat of its
        colour, once the game is known) and its bot; raises :class:`TableFailed` in one line naming
        the free seats when that seat cannot be had, before anything is sent."""
        lobby = self.table.lobby
        assert lobby is not None
        try:
            if self.colour is not None:
                self.seat = seat_of_colour(self.colour, colours=lobby.colours, held=lobby.chairs)
                self.colour = None
            lobby.seat_for(self.table.me or "", self.seat)
        except SeatRefused as exc:
            raise TableFailed(str(exc)) from exc
        body: dict[str, Any] = {"name": self.name}
        if self.standby is not None:
            body["standby"] = self.standby
        if self.seat is not None:
            body["seat"] = self.seat
        if self.bot is not None:
            body["bot"] = self.bot
        return body

    def _still_free(self) -> None:
        """This peer's ``sit`` is on its way: if the log gave its seat to someone else meanwhile (two
        people chose one seat; the host took the first), say so in one line instead of waiting."""
        lobby = self.table.lobby
        assert lobby is not None
        try:
            lobby.seat_for(self.table.me or "", self.seat)
        except SeatRefused as exc:
            raise TableFailed(str(exc)) from exc

    def _door(self) -> None:
        """Once the ``open`` entry is in, before this peer sits (or, coming back to its seat, plays
        on): raise :class:`TableFailed` if the table was opened in another protocol version (a host
        of an earlier version echoed this peer's own in its welcome), and
        :class:`~atoll.pin.GameDiffers` if it pins another build of its game than the one installed
        here, so nobody plays, or is judged by, rules that differ."""
        if self.door_checked or not self.table.log.entries:
            return
        opened = self.table.log.entries[0].message
        if opened.v != PROTOCOL:
            raise TableFailed(other_protocol({"proto": opened.v}))
        if self.table.pinned is not None:  # else the open entry opened no table, and said why
            game, pinned = self.table.pinned
            require_same(game, pinned, self.installed(game))
        self.door_checked = True

    def _chat(self, msg: Any) -> None:
        """Table talk relayed by the host: handed on only if its author signed it, for this table."""
        if self.on_chat is None or not isinstance(msg, dict):
            return
        try:
            message = open_envelope(canonical_bytes(msg))
        except (Unauthenticated, TypeError, ValueError) as exc:
            self.errors.append(f"a chat message that does not check: {exc}")
            return
        if message.kind == Kind.CHAT and message.table == self.table.id:
            self.on_chat(message)

    def _presence(self, away: Any, left: Any) -> None:
        lobby = self.table.lobby
        if not isinstance(away, list) or not isinstance(left, list) or lobby is None:
            return

        def seats(listed: list[Any]) -> tuple[int, ...]:
            return tuple(s for s in listed if type(s) is int and lobby.holder(s) is not None)

        now_away, now_left = seats(away), seats(left)
        seq = len(self.table.log.entries) - 1
        for line in changes(
            (self.away, self.left),
            (now_away, now_left),
            lambda seat: lobby.names.get(lobby.holder(seat) or "", "?"),
            self.table.my_seat,
        ):
            self.table.events.append(Event(line, seq))
        self.away, self.left = now_away, now_left

    # -- seats reaching each other directly (docs/decisions/0020-the-host-cannot-frame-a-seat.md) --

    def question(self) -> tuple[int, str, bytes] | None:
        """What to ask a late seat directly now, once per timeout: (the timeout's entry number, the
        late seat's identity (hex), the signed ``ask``); ``None`` when nothing is to be asked."""
        asking, lobby = self.table.asking, self.table.lobby
        if asking is None or lobby is None or asking.seq == self.asked:
            return None
        self.asked = asking.seq
        data = self.table.compose(Kind.ASK, {"timeout": asking.seq})
        return asking.seq, lobby.seated[asking.seat], data

    def answered(self, seq: int, reply: bytes | None) -> list[bytes]:
        """The late seat's ``owed`` frame (``None``: it did not answer in time): this seat answers the
        timeout at ``seq`` (a refusal bringing what it owed, or a witness); returns what to send."""
        msgs: list[bytes] = []
        frm: dict[str, Any] = {}
        if reply is not None:
            try:
                frm = read_frame(reply)
            except Unauthenticated:
                frm = {}
            found = frm.get("msgs") if frm.get("t") == Frame.OWED else None
            if isinstance(found, list):
                msgs = [canonical_bytes(m) for m in found[:OWED_MOST] if isinstance(m, dict)]
        owed = frm.get("t") == Frame.OWED
        self.table.answer_asked(seq, msgs, seen=frm.get("seen") if owed else None,
                                evidence=frm.get("evidence") if owed else None)
        if self.table.fork is not None and self.evidence is None:
            self.evidence = self.table.fork  # the others are shown it directly, as by the seat that found it
        return self._ready()

    def on_direct(self, data: bytes) -> bytes | None:
        """A peer's message straight to this peer's standby address: a seat's ``ask`` is answered with
        the ``owed`` frame (what this seat sent that its log does not hold: moves and protocol messages,
        signed by it); ``evidence`` that the host signed two histories is checked and names the host if
        it holds (:meth:`~atoll.table.table.Table.host_forked`), a seat's ``withheld`` messages are held
        (:meth:`withholding`); both are answered with an empty ``owed`` frame. ``None`` for anything else
        (not signed, nobody at this table)."""
        lobby = self.table.lobby
        try:
            message = open_envelope(data)
        except Unauthenticated:
            return None
        if message.table != self.table.id or lobby is None:
            return None
        if message.author not in lobby.seated and message.author not in lobby.spectators:
            return None
        if message.kind == Kind.WITHHELD and message.author in lobby.seated:
            self._hold(message)
            return frame(Frame.OWED, msgs=[])
        if message.kind == Kind.HOSTING:
            self._shown_take_over(message.author, message.body.get("entry"))
            return frame(Frame.OWED, msgs=[])
        if message.kind == Kind.EVIDENCE:
            if self.table.host_forked(message.body.get("evidence")) and self.evidence is None:
                self.evidence = message.body["evidence"]
            return frame(Frame.OWED, msgs=[])
        if message.kind == Kind.ENTRIES and message.author in lobby.seated:
            self._given(message.body.get("entries"))
            return frame(Frame.OWED, msgs=[])
        if message.kind != Kind.ASK or message.author not in lobby.seated:
            return None
        owed = [d for d in self.unlogged_messages() if decode(d).get("kind") in (Kind.MOVE, Kind.FAIR)]
        held: dict[str, Any] = {"seen": self.table.log.seen()}
        if self.evidence is not None:
            held["evidence"] = self.evidence
        return frame(Frame.OWED, msgs=[decode(d) for d in owed[:OWED_MOST]], **held)

    def _given(self, entries: Any) -> None:
        """Entries this copy lacks, given directly by a seat that asked it about its timeout (the host
        had not sent them): each is checked as if it came from the host (its signatures, its place), and
        what they ask of this seat waits in :meth:`given_replies` for the loop to send to the host."""
        if not isinstance(entries, list) or self.from_named_host():
            return
        for entry in entries[:ENTRIES_PER_MESSAGE]:
            # only entries of the host this copy follows, from its end on: a take-over or an older
            # position comes from the seat that hosts, never from one that merely holds it
            message = entry.get("msg") if isinstance(entry, dict) else None
            if not isinstance(message, dict) or message.get("kind") == Kind.HOST:
                return
            seq = entry.get("seq")
            if type(seq) is int and seq < len(self.table.log.entries):
                continue  # held already (it came from the host meanwhile)
            out, taken = self._entry(entry, given=True)
            self._replies += out
            if not taken:
                return

    def given_replies(self) -> list[bytes]:
        """What entries given directly asked of this seat (a protocol message, a move made again), to
        send to the host; each once."""
        replies, self._replies = self._replies, []
        return replies

    def catch_up_message(self) -> tuple[str, bytes] | None:
        """The late seat this seat's table found behind when it asked it (:attr:`Table.catch_up`), and
        the entries it lacks, signed as an ``entries`` message to give it directly; each once."""
        wanted, self.table.catch_up = self.table.catch_up, None
        if wanted is None:
            return None
        late, start = wanted
        held = self.table.log.entries[start : start + ENTRIES_PER_MESSAGE]
        entries = [e.to_json() for e in held]
        return late, self.table.compose(Kind.ENTRIES, {"entries": entries})

    def _old_hosts_tail(self, entry: dict[str, Any]) -> bool:
        """Whether ``entry``, at a position this copy holds already, is the ``host`` entry of the seat
        that took the table over from a host the table named, following this copy's history up to
        there: this copy then holds more of the named host's entries than the next host gathered (it
        learnt of the naming late), and sets them aside (their authors send them again)."""
        table, seq, message = self.table, entry["seq"], entry.get("msg")
        if not isinstance(message, dict) or message.get("kind") != Kind.HOST:
            return False
        author = message.get("author")
        if self.from_named_host():
            return False
        if table.deposed is None:
            # a take-over this peer followed, from a host that came back or was only slow: the take-over
            # wins where this copy holds that host's entries (docs/decisions/0028)
            return isinstance(author, str) and self.linked_to == _curve(author) \
                and take_over_wins(table, entry, author) == seq
        if not 0 < seq < len(table.log.entries):
            return False
        same_past = entry.get("prev") == table.log.entries[seq - 1].head
        named_signed_it = table.log.host_at(seq).encode().hex() == table.deposed_host
        return same_past and named_signed_it and message.get("author") in table.successors()

    def _shown_take_over(self, author: str, entry: Any) -> None:
        """Seat ``author`` shows this peer directly that it took the table over (``entry``, its signed
        ``host`` entry): when the take-over decides the table's history over this copy's, this peer goes
        to it, whoever it follows now (:func:`~atoll.table.takeover.take_over_wins`)."""
        lobby = self.table.lobby
        if lobby is None or self.linked_to == _curve(author):
            return
        if take_over_wins(self.table, entry, author) is None:
            return
        self.moved = self._to(author, f"{lobby.names.get(author, author[:16])} took the table over")

    def _to(self, author: str, why: str) -> HostGone:
        """Where this peer goes to follow seat ``author``, which hosts the table (rank -1: nobody was
        passed over)."""
        lobby = self.table.lobby
        assert lobby is not None
        return HostGone(author, lobby.standby[author], -1, why)

    def from_named_host(self) -> bool:
        """Whether this peer's link reaches a host the table has named (:attr:`Table.deposed`)."""
        named = self.table.deposed_host
        return named is not None and self.linked_to == curve_of(bytes.fromhex(named))

    def moving(self) -> HostGone | None:
        """Where this peer goes now that the table named its host, or its host withholds a message
        every peer holds (:meth:`withholding`): the next seat that can host it (``None`` otherwise, or
        once this peer's link reaches the next host already and its copy needs nothing set aside)."""
        table, lobby = self.table, self.table.lobby
        if lobby is None:
            return None
        if self.moved is not None:
            moved, self.moved = self.moved, None
            again, self.set_aside = self.set_aside, False
            if again or (self.linked_to != _curve(moved.successor) and not table.over()):
                return moved
        why = "the table named its host"
        if table.deposed is None:
            if not self.withholding() or not table.successors():
                return None
            why = "the host has not sequenced for a host timeout what every peer holds"
        elif not (self.from_named_host() or self.set_aside):
            return None
        self.set_aside = False
        successor = table.successors()[0]
        # rank -1: nobody was passed over; if the next seat does not host yet, it is waited for as
        # for a host that went quiet (it may not yet have seen what this peer saw)
        return HostGone(successor, lobby.standby[successor], -1, why)

    def push(self) -> tuple[bytes, list[bytes]] | None:
        """This seat's moves and protocol messages that the host, though it answered a host timeout after
        they were sent, has not sequenced, and that this peer's own copy would take now (a message
        refused for a reason is no withholding): a signed ``withheld`` for the other peers to hold
        directly, and the messages, to send the host once more (``None``: nothing to give, or given
        already)."""
        table, lobby = self.table, self.table.lobby
        if lobby is None or table.my_seat is None or table.over() or not self.caught_up():
            return None
        self._forget_logged()
        now, me = table.clock(), table.me or ""
        late = []
        for n, waiting in sorted(self.unlogged.items()):
            # withheld: the host answered a host timeout after it was sent, and has not sequenced it (a
            # host silent since is waited for, then taken over from: gone, not withholding)
            if n in self.pushed or self.host_heard - waiting.since < lobby.host_timeout \
                    or table.log.holds_number(me, n):
                continue
            message = own_envelope(waiting.data)
            if message.kind in (Kind.MOVE, Kind.FAIR) and table.admissible(message) is None:
                late.append(message)
        if not late:
            return None
        late = late[:OWED_MOST]
        for message in late:
            self.pushed.add(message.n)
            self.withheld[(me, message.n)] = (message.raw, now)
        given = table.compose(Kind.WITHHELD, {"msgs": [m.to_json() for m in late]})
        return given, [m.raw for m in late]

    def withholding(self) -> bool:
        """Whether the host this peer's link reaches, the table's host, has not sequenced for a host
        timeout a message every peer holds directly (given by its seat with :meth:`push`, and one this
        peer's copy would take now); the messages it holds that the log took since are let go."""
        table, lobby = self.table, self.table.lobby
        if not self.withheld or lobby is None or self.linked_to != curve_of(table.log.host.encode()):
            return False
        now, overdue = table.clock(), False
        if self.withheld_under != table.log.host.encode():  # a new host: it has a host timeout of its own
            self.withheld_under = table.log.host.encode()
            self.withheld = {key: (data, now) for key, (data, _) in self.withheld.items()}
        for key, (data, since) in list(self.withheld.items()):
            message = own_envelope(data)
            if table.log.holds(message) or table.over() or table.admissible(message) is not None:
                del self.withheld[key]
            elif now - since >= lobby.host_timeout:
                overdue = True
        return overdue

    def withheld_messages(self) -> list[bytes]:
        """The seats' messages this peer holds directly that the log lacks (a new host takes them)."""
        return [data for data, _ in self.withheld.values()]

    def _hold(self, withheld: Envelope) -> None:
        """Hold the messages a seat gives directly (``withheld``) that are its own, that the log lacks
        and that this peer's copy would take now: the host has them too, the seat says, and its word is
        checked by the clock (:meth:`withholding`)."""
        msgs = withheld.body.get("msgs")
        now = self.table.clock()
        for data in msgs[:OWED_MOST] if isinstance(msgs, list) else []:
            message = self.table.owed_envelope(data, withheld.author)
            if message is not None and self.table.admissible(message) is None:
                self.withheld.setdefault((message.author, message.n), (message.raw, now))

    def evidence_message(self) -> bytes | None:
        """The signed ``evidence`` envelope to show the other seats, once this peer holds the proof."""
        if self.evidence is None:
            return None
        return self.table.compose(Kind.EVIDENCE, {"evidence": self.evidence})

    def failed(self, fault: Fault) -> bytes:
        """The game's plugin failed on this machine while this seat was to move (or thinking): the seat
        cannot go on, so it leaves, saying why in the ``leave`` every peer reads; the game ends with no
        result and nobody is blamed. Returns the message to send."""
        record_fault(f"table {self.table.id}", fault)
        self.fault = fault
        return self.sending(self.table.leave(fault=str(fault)))

    def owes_move(self) -> Observation | None:
        """This seat's observation when it must move now (once per decision), else ``None``."""
        engine = self.table.engine
        if engine is None or self.table.over() or self.fault is not None or not engine.my_turn() \
                or not self.caught_up() or self.table.handed_away is not None:
            return None
        at = len(engine.match.events)
        if at == self.asked_at:
            return None
        self.asked_at = at
        assert engine.seat is not None
        return observe(engine.match, engine.seat)


def _digest(events: list[Any]) -> str:
    """A digest of a game's events (what a move answered)."""
    return hashlib.sha256(canonical(events).encode()).hexdigest()


def _curve(identity: str) -> bytes | None:
    """The CURVE key of the identity ``identity`` (hex), ``None`` if it is not one."""
    try:
        return curve_of(bytes.fromhex(identity))
    except ValueError:
        return None


def other_protocol(welcome: dict[str, Any]) -> str:
    """What a peer is told when the host's ``welcome`` names another protocol version than its own:
    which version the table speaks, and (when the welcome names it) which atoll to install."""
    proto = str(welcome.get("proto"))[:40]
    pin = welcome.get("pin")
    atoll = pin.get("atoll") if isinstance(pin, dict) else None
    install = (
        f"install atoll {atoll} (pip install 'atoll=={str(atoll)[:40]}') to join it"
        if isinstance(atoll, str) and atoll.isprintable()
        else "install the host's atoll version to join it"
    )
    return f"this table speaks {proto!r}, this atoll speaks {PROTOCOL!r}: {install}"


def heartbeat_s(table: Table) -> float:
    """Seconds between this peer's heartbeats at ``table``: :data:`HEARTBEAT_S`, or a third of the
    table's host timeout when that is shorter. A host that is merely quiet (a seat thinking) answers
    only heartbeats, so at one heartbeat per host timeout a healthy host would look gone."""
    lobby = table.lobby
    return HEARTBEAT_S if lobby is None else min(HEARTBEAT_S, lobby.host_timeout / 3)


def stood_still(gap: float, table: Table) -> bool:
    """Whether ``gap`` seconds between two turns of a peer's loop (each waits one heartbeat at most)
    mean that this process itself did not run: a laptop asleep, a stopped process. The host's silence
    over such a gap says nothing about the host, which may have restarted and waits for a heartbeat."""
    return gap > 3 * heartbeat_s(table)


def next_host(table: Table, silent: float, passed_over: int) -> HostGone | None:
    """Who takes the table over after the host has been silent ``silent`` seconds: the first seat in
    order with a standby address after one host timeout, the next after two, and so on (skipping the
    ``passed_over`` first ones, tried already)."""
    lobby = table.lobby
    if lobby is None or not lobby.full() or table.engine is None:
        return None
    if silent < lobby.host_timeout:
        return None
    rank = int(silent // lobby.host_timeout) - 1 + passed_over
    successors = table.successors()
    if rank >= len(successors):
        return None
    return HostGone(successors[rank], lobby.standby[successors[rank]], rank)
