"""A network table as one peer sees it: the log, the lobby, the game, and what this peer owes.

:class:`Table` is a pure state machine: :meth:`Table.receive` takes the next log entry from the host,
checks it against the chain and the author's signature, has its log keep it (on disk, when the table
was given a path), then folds it in. It knows
which seat each identity holds, runs the game through :class:`~atoll.table.engine.TableEngine`, and
collects the messages this peer must send (:meth:`Table.outbox`). The host runs the same class on its
own copy of the log and, before it sequences a message, asks :meth:`Table.admissible` so that a move
out of turn is refused with a clear error instead of entering the log; a peer still checks every
entry itself and refuses, identically on every peer, whatever the host let through.

Message kinds (the envelope's ``kind``), their bodies and the host's frames are listed, each with its
fields, in :mod:`atoll.wire`.

A seat that sits names a ``standby`` address (``sit`` body) where it would host the table. When the
host stays silent for the table's ``host_timeout`` (``open`` body), the first seat in seat order with
a standby address (other than the host) takes over: it logs a ``host`` entry, signed as the next
entry by itself, and signs every entry after it; everyone else reconnects to its standby address.
Nobody's secrets move: the new host carries on from its own copy of the log.

A timeout follows the fair layer's rule (:mod:`atoll.fair.steps.record`): the host states it, every other
seat witnesses it with a signed ``witness``; with two or more witnesses the late seat forfeits (it is
named, with the witnesses as evidence), with fewer (a table of two, or a witness that never came)
the table is aborted and nobody is blamed. While a timeout is open nothing else enters the game.
The turn time is in the signed ``open`` entry; a table opened without one never forfeits a seat for
time, and a host that states a timeout there is named. A seat witnesses only when its own clock (the
caller's ``clock``) has seen the late seat's turn open for the whole turn time; otherwise it signs a
``refuse``, which voids the timeout, and a timeout that two or more seats (the host's own left out)
refuse, none witnessing, names the host (``docs/decisions/0020-the-host-cannot-frame-a-seat.md``).
A forfeit or a seat that leaves ends the game there (``docs/decisions/0004-tables-that-survive.md``),
unless the host chose to hand seats over and a stand-in watches: then a leaving seat's secrets go,
sealed, to the stand-in, which holds the seat from that entry on (:mod:`atoll.table.handover`), and a
forfeiting seat whose game hides nothing of it goes to the stand-in without them
(``docs/decisions/0022-handing-a-seat-over.md``).

Why one module of over 500 lines: it is one state machine, the fold of the log's entries; every
handler changes the same table state, and the kinds are told apart in one place (``Table._apply``).
The game, the lobby, the fair steps and the wire are their own modules.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from nacl.signing import SigningKey

from atoll.errors import AtollError, CheatDetected, Fault, PluginFault, ProtocolViolation, failing_module
from atoll.fair.steps.seat import Participant
from atoll.faultlog import record_fault
from atoll.game import Game
from atoll.jsondata import canonical
from atoll.net.encoding import canonical_bytes
from atoll.net.envelope import MAX_MESSAGE, Envelope, Unauthenticated, check_size, open_envelope, seal
from atoll.numbering import seat_label, seats_label
from atoll.pin import GamePin
from atoll.seat_colours import seat_colours
from atoll.table.engine import TableEngine
from atoll.table.frames import BATCH_ENTRIES
from atoll.table.handover import HandOver, check_hand_over, open_seat, seal_seat
from atoll.table.log import (
    BadEntry,
    BadHostSignature,
    Entry,
    HostEquivocated,
    TableLog,
    genesis,
    readable_entries,
    set_aside_from,
)
from atoll.table.reasons import (
    Ending,
    EndReason,
    Refusal,
    aborted,
    atoll_failed,
    cheated,
    closed,
    forfeited,
    host_equivocated,
    host_timed,
    left,
    left_behind,
    misreported,
    plugin_failed,
    unplayable,
)
from atoll.table.seating import choose_seat, open_seats, read_kept
from atoll.types import Config, End
from atoll.wire import LOGGED, PROTOCOL, KeptSeat, Kind, LeaveChoice, OnLeave

#: Seconds the peers wait for a host that went quiet before the next seat takes the table over.
HOST_TIMEOUT_S = 20

#: Witnesses it takes to name a late seat (as in the fair layer: one is one seat's word against another's).
ATTRIBUTABLE_WITNESSES = 2

_NAME_LIMIT = 32

#: Longest fault text a ``leave`` carries, in characters.
FAULT_LIMIT = 300

#: The longest turn time a table may sign, in milliseconds (a day).
TURN_TIME_MOST_MS = 86_400_000

#: The most of a late seat's messages one refusal brings.
OWED_MOST = 16

#: Seconds a seat asked to witness a timeout waits for the late seat's own answer, asked directly,
#: before it witnesses.
ASK_WAIT_S = 3.0

#: Bytes of a refusal besides the messages it brings (its own envelope and body), kept free.
REFUSAL_ROOM = 4096

#: The first protocol version whose ``open`` entry signs the turn time: a log of an earlier one is
#: audited by the rules it was played under (the host's clock, witnessed at once).
SIGNED_TIMING_VERSION = 5

#: The first protocol version whose ``host`` entry voids the old host's open timeout (decision 0028,
#: point 6): a log of an earlier one keeps the timeout open across a take-over, as it was played.
TAKE_OVER_VOIDS_TIMEOUT_VERSION = 7

#: The first protocol version in which a host the log named never takes the table over again (decision
#: 0020): in a log of an earlier one a named host that named a standby address stays a successor.
NAMED_HOST_BARRED_VERSION = 8


@dataclass
class Event:
    """Something a person at the table should hear of: ``text``, at entry ``seq``.

    ``blame`` names a seat only on the verdict of an explicit check (a cheat); ``refusal`` says why the
    entry changed nothing; ``ending`` is set on the event that ended the game early."""

    text: str
    seq: int
    blame: int | None = None
    refusal: Refusal | None = None
    ending: Ending | None = None

    @property
    def refused(self) -> bool:
        """Whether the entry changed nothing."""
        return self.refusal is not None


@dataclass
class Lobby:
    """The table as opened: the game, the seats (identity keys in seat order), names and spectators."""

    game: str
    variant: str
    seats: int
    name: str
    options: dict[str, Any]
    host: str
    seated: list[str] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)
    spectators: list[str] = field(default_factory=list)
    standby: dict[str, str] = field(default_factory=dict)
    """Identity -> the address (``HOST:PORT``) where that seat would host the table."""
    host_timeout: float = HOST_TIMEOUT_S
    on_leave: OnLeave = OnLeave.END
    """What happens when a seat leaves (the host's choice in the ``open`` entry)."""
    stand_ins: list[str] = field(default_factory=list)
    """The spectators that take a seat whose player leaves, in the order they came."""
    handed: list[HandOver] = field(default_factory=list)
    """Every seat handed over, in log order: who held it before, who holds it from which entry."""
    chairs: dict[str, int] = field(default_factory=dict)
    """Identity -> the seat it holds. Seats are chosen (:mod:`atoll.table.seating`), so ``seated``
    is in seat order but is indexed by seat only once every seat is taken."""
    kept: list[KeptSeat] = field(default_factory=list)
    """The seats kept for the people of the game before (a rematch), from the ``open`` entry."""
    colours: list[str] = field(default_factory=list)
    """Each seat's colour word (:func:`atoll.seat_colours.seat_colours`)."""
    bots: dict[str, str] = field(default_factory=dict)
    """Identity -> the kind of bot playing its seat, as its ``sit`` said (the other seats are people's)."""
    turn_time: float | None = None
    """Seconds a seat may take over what it owes (the signed ``open``); ``None``: no forfeit for time."""
    signed_timing: bool = True
    """Whether the ``open`` entry signs the turn time (a log of protocol 5 or later)."""
    take_over_voids_timeout: bool = True
    """Whether a ``host`` entry voids the old host's open timeout (a log of protocol 7 or later)."""
    named_host_barred: bool = True
    """Whether a host the log named is no longer a successor (a log of protocol 8 or later)."""

    def full(self) -> bool:
        """Whether every seat is taken (the game has started)."""
        return len(self.seated) >= self.seats

    def seat_of(self, author: str) -> int | None:
        """The seat held by the identity ``author``, if any (since a hand-over: its holder's only)."""
        return self.chairs.get(author)

    def holder(self, seat: int) -> str | None:
        """The identity holding ``seat``, if anyone does."""
        return next((who for who, chair in self.chairs.items() if chair == seat), None)

    def open_seats(self) -> list[int]:
        """The seats a newcomer may take now (:func:`atoll.table.seating.open_seats`)."""
        return open_seats(self.seats, self.chairs, self.kept)

    def seat_for(self, author: str, wish: Any) -> int:
        """The seat a ``sit`` of ``author`` asking for ``wish`` gets; raises
        :class:`~atoll.table.seating.SeatRefused` naming the free seats."""
        return choose_seat(author, wish, seats=self.seats, held=self.chairs, kept=self.kept,
                           names={**{k["who"]: k["name"] for k in self.kept}, **self.names},
                           colours=self.colours)

    def people_here(self) -> bool:
        """Whether a person sits here (a seat whose ``sit`` named no bot)."""
        return any(who not in self.bots for who in self.seated)

    def first_holders(self) -> list[str]:
        """The identities that sat down at each seat, before any hand-over."""
        first = list(self.seated)
        for handed in reversed(self.handed):
            first[handed.seat] = handed.before
        return first


@dataclass(frozen=True)
class Repair:
    """A peer's own log found damaged on restore: the first bad line, what is wrong with it, and the
    file the lines from there on were moved to (the host sends those entries again)."""

    line: int
    problem: str
    aside: Path


@dataclass
class Timeout:
    """A timeout being settled: the host stated it at ``seq`` against ``seat``; who has witnessed it."""

    seq: int
    seat: int
    witnesses: list[int] = field(default_factory=list)
    refusals: list[int] = field(default_factory=list)
    """The seats that refused it."""
    early: list[int] = field(default_factory=list)
    """The seats that refused it because their own clocks had not seen the turn time pass."""

    def answered(self) -> list[int]:
        """The seats that witnessed or refused it."""
        return [*self.witnesses, *self.refusals]


@dataclass(frozen=True)
class PendingLeave:
    """Seat ``seat`` (identity ``author``) left at entry ``seq`` of a table whose host's person chooses
    what follows; ``to`` and ``box``: the stand-in its ``leave`` sealed the seat to, if one was here."""

    seq: int
    seat: int
    author: str
    to: str | None
    box: str


@dataclass(frozen=True)
class Ask:
    """A late seat to ask directly before answering the timeout at ``seq``: its ``seat``, and how long
    this peer's own clock had seen its turn open when the timeout came (milliseconds)."""

    seq: int
    seat: int
    waited_ms: int


def check_name(name: Any) -> str:
    """A display name: printable text of 1-32 characters."""
    if not isinstance(name, str) or not 1 <= len(name) <= _NAME_LIMIT or not name.isprintable():
        raise ValueError(f"a name is 1-{_NAME_LIMIT} printable characters, not {str(name)[:40]!r}")
    return name


class SealedKeeper(Protocol):
    """Where a peer keeps the values of its sealed choices until they open, so that a restart can still
    open them (the application's :class:`~atoll.app.store.SealedFile` keeps them on disk)."""

    def held(self) -> dict[int, list[Any]]:
        """The values kept so far, by the log position of the move that sealed them."""
        ...

    def keep(self, at: int, values: list[Any]) -> None:
        """Keep ``values``, sealed by the move at log position ``at``; durable when this returns."""
        ...


class Table:
    """One peer's view of a table (the host's own copy included).

    :param table_id: the table id.
    :param host_key: the host's Ed25519 public key (raw), which signs the log's order.
    :param key: this peer's identity key (signs its messages); ``None`` for a read-only copy (audit).
    :param games: finds a game's plugin by name (the registry's ``game``).
    :param log_path: where this peer's copy of the log is written (``None``: memory only).
    :param master: this peer's master secret for the fair protocols (32 bytes; fresh if ``None``).
    :param sealed: where this peer keeps the values of its sealed choices until they open (each kept
        durably before the sealed move is sent; ``None``: memory only).
    :param clock: this peer's own clock (seconds), read when an entry arrives: a seat witnesses a
        timeout only when it has itself seen the late seat's turn open for the whole turn time.
    :param participant: the class of this peer's fair participant, if not the honest one (a benchmark
        times its seat with a subclass; a test plays a seat running modified software with one).
    """

    def __init__(
        self,
        table_id: str,
        host_key: bytes,
        key: SigningKey | None,
        games: Callable[[str], Game],
        *,
        log_path: Path | None = None,
        master: bytes | None = None,
        sealed: SealedKeeper | None = None,
        clock: Callable[[], float] = time.monotonic,
        participant: type[Participant] | None = None,
    ) -> None:
        self.id = table_id
        self.participant = participant
        self.clock = clock
        self._grew_at: float | None = None
        """When (``clock``) the last entry arrived: the turn the game waits on opened then."""
        self._opened_at: float | None = None
        """When the entry before the one being folded in arrived (``None``: not on this peer's clock)."""
        self.catching_up = False
        """Set by the caller (and by :meth:`restore`): the entries coming in now were in the log before
        this peer's link reached its host (a catch-up, after a take-over say, or read back from disk),
        so this peer's clock did not see them arrive."""
        self._grew_late = False
        self._opened_late = False
        self.log = TableLog(table_id, host_key, log_path)
        self.key = key
        self.me = key.verify_key.encode().hex() if key is not None else None
        self.games = games
        self.master = master if master is not None else os.urandom(32)
        self.lobby: Lobby | None = None
        self.pinned: tuple[str, GamePin] | None = None
        """The game the ``open`` entry names and the build it pins (set even when this copy cannot
        play it), to compare with the game installed here."""
        self.engine: TableEngine | None = None
        self.events: list[Event] = []
        self.ending: Ending | None = None
        """Why the game ended early (a cheat, a timeout, a seat that left, a fault), else ``None``."""
        self.closed = False
        """Whether the host has logged the game's result (the table's last entry)."""
        self._outbox: list[tuple[str, bytes]] = []
        """Messages to send, each with the key (kind and body) that finds it again in the log."""
        self._pending_fair: list[dict[str, Any]] = []
        self._n = 0
        self._keeper = sealed
        self._sealed: dict[int, list[Any]] = dict(sealed.held()) if sealed is not None else {}
        self.timeout: Timeout | None = None
        """The timeout the table is settling now, if any."""
        self.left: int | None = None
        """The seat that left the table for good (the game ended there), if one did."""
        self.repaired: Repair | None = None
        """Where :meth:`restore` found this peer's log damaged and what it moved aside, if it did."""
        self.plays: int | None = None
        """The seat this peer holds by a hand-over (its secrets came in the ``leave``), if any."""
        self.seat_master = self.master
        """The master secret of the seat this peer plays (its own, or the one handed to it)."""
        self.handed_away: HandOver | None = None
        """This peer's seat was handed to a stand-in: it plays no more here."""
        self.pending_leave: PendingLeave | None = None
        """A seat that left a table opened with ``on_leave: ask``, until the host's ``decide`` entry."""
        self.stand_ins_gone: frozenset[str] = frozenset()
        """The stand-ins the host says are away or gone (its word, not the log's): a seat that leaves
        hands its seat to the first stand-in that is here. Any stand-in is a valid choice to every peer."""
        self._replaying = False
        self._wrote: list[dict[str, Any]] = []
        self.direct = False
        """Whether this peer can reach the other seats directly (at their standby addresses): it then
        asks a late seat for what it owes before it witnesses a timeout (:attr:`asking`)."""
        self.asking: Ask | None = None
        """The late seat this peer must ask directly before it answers a timeout, if any."""
        self.catch_up: tuple[str, int] | None = None
        """A late seat (hex) whose copy, by its answer, lacks the entries from this position on: this
        peer gives them to it directly (the host had not), once (:meth:`answer_asked`)."""
        self._excused: set[tuple[int, ...]] = set()
        """(seat, game events, fair steps begun) where this peer refused a timeout because the late seat
        was behind: at that step it is excused once, so a seat cannot stall the table by saying it is
        behind for ever."""
        self.pipeline = False
        """This peer's seat answers a deck shuffle or lock before checking its proof; its caller then
        calls :meth:`settle` as soon as the answer has left (see :meth:`pipelined`)."""
        self.deposed: Ending | None = None
        """The host was named (it stated a timeout the seats refute, or signed two histories) and the
        table moves to the next seat as host: set until that seat's ``host`` entry arrives."""
        self.deposed_host: str | None = None
        """The identity (hex) of the host :attr:`deposed` names."""
        self.fork: dict[str, Any] | None = None
        """The proof that the host signed two histories, once this peer holds it (the next host logs it)."""
        self.hosts_named: list[tuple[int, Ending]] = []
        """Every host the log names and the table moved away from: (the entry, the verdict)."""
        self.named_hosts: list[str] = []
        """The identity (hex) of each host in :attr:`hosts_named`, in the same order."""
        self._named_in_log = False
        self.hosts_replaced: list[tuple[int, str]] = []
        """Every host the table moved away from, unnamed, because it withheld messages every peer held."""

    # -- reading ----------------------------------------------------------------------------

    @property
    def my_seat(self) -> int | None:
        """This peer's seat, once seated (or handed to it)."""
        if self.plays is not None:
            return self.plays
        return None if self.lobby is None or self.me is None else self.lobby.seat_of(self.me)

    @property
    def ended(self) -> str | None:
        """The words of :attr:`ending`, else ``None``."""
        return None if self.ending is None else self.ending.text

    def results(self) -> End | None:
        """The game's end, once every seat has opened its seeds (never after it ended early)."""
        return None if self.engine is None or self.ending is not None else self.engine.results()

    def over(self) -> bool:
        """Whether the table is closed: the host logged the result, or the game ended in a cheat."""
        return self.ended is not None or self.closed

    def closing(self) -> bytes | None:
        """The host's ``end`` message, once the game has finished and it is not yet logged."""
        end = self.results()
        if end is None or self.closed or self.me != self._host_hex():
            return None
        return self.compose(Kind.END, {"results": end.results.to_json()})

    def outbox(self) -> list[bytes]:
        """The signed messages this peer must send now (each handed out once)."""
        out, self._outbox = self._outbox, []
        return [data for _, data in out]

    def restore(self, *, repair: bool = False) -> int:
        """Fold in the entries this peer wrote to its log before it stopped; how many there were.

        Every entry is checked again as if it came from the host. What this peer's seat wrote back
        then is written again now (its secrets derive from the master secret, so the messages are the
        same); whatever of it the log already holds is dropped, and the rest waits in the outbox.
        A damaged line raises :class:`~atoll.table.log.BadEntry` (naming its line when it is not an
        entry at all), or, with ``repair``, is moved aside with every line after it
        (:attr:`repaired` says where), and the host sends those entries again.
        """
        path = self.log.path
        if path is None:
            return 0
        entries, damage = readable_entries(path)
        if damage is not None and not repair:
            raise damage
        problem: str | None = damage.reason if damage is not None else None
        self.catching_up = True  # read back from disk: this peer's clock did not see these arrive
        try:
            self.take_stored(entries, self.restore_entry)
        except BadEntry as exc:
            if not repair:
                raise
            problem = str(exc)
        finally:
            self.catching_up = False
        if problem is not None:
            line = len(self.log.entries) + 1
            self.repaired = Repair(line, problem, set_aside_from(path, line))
        return len(self.log.entries)

    def take_stored(
        self, entries: list[dict[str, Any]], take: Callable[[dict[str, Any]], object]
    ) -> list[int]:
        """Take ``entries`` read from a file, in order, with ``take``. Where an entry's own host
        signature does not verify, the first later one that does (within :data:`BATCH_ENTRIES`)
        covers it and the entries between, which are taken on it, as a live peer took the entries of
        one frame (decision 0009); returns the positions where such a run began. Raises what ``take``
        raises for the rest. Each entry's place costs one search at most: a hostile file of bad
        signatures costs a signature check or two per entry, not one per entry it could reach."""
        vouched: list[int] = []
        for index, data in enumerate(entries):
            try:
                take(data)
            except BadHostSignature:
                if not self.log.vouch(entries[index : index + BATCH_ENTRIES + 1], search=True):
                    raise
                take(data)
                vouched.append(index)
        return vouched

    # -- writing messages -------------------------------------------------------------------

    def compose(self, kind: Kind, body: dict[str, Any]) -> bytes:
        """Sign a message of this peer's, naming the head it has seen; raises
        :class:`~atoll.net.envelope.MessageTooLarge` (naming both sizes) when it is over the table's limit."""
        if self.key is None:
            raise AtollError("a read-only table copy writes no messages")
        data = seal(
            self.key, v=PROTOCOL, kind=kind, table=self.id, n=self._n, seen=self.log.seen(), body=body
        )
        check_size(data, f"a {str(kind)!r} message")  # nothing counted: the caller may try something smaller
        self._n += 1
        if kind in LOGGED:
            self.log.sent(data)
        return data

    def move(self, action: dict[str, Any]) -> bytes:
        """This peer's seat takes ``action`` (a sealed choice's values stay here until it is logged)."""
        if self.engine is None:
            raise AtollError("the game has not started")
        at = len(self.engine.match.events)
        if "secret" in action and self.engine.resolver.in_together():
            return self._seal_now(at, list(action["secret"]))
        if "secret" in action:
            self._keep_sealed(at, list(action["secret"]))
            self.engine.hold_sealed(action["secret"])
            return self.compose(Kind.MOVE, {"at": at, "sealed": len(action["secret"])})
        return self.compose(Kind.MOVE, {"at": at, "action": action})

    # -- the host's pre-check ---------------------------------------------------------------

    def admissible(self, message: Envelope) -> str | None:
        """Why the host should refuse to sequence ``message`` now, or ``None`` if it may."""
        if message.v != PROTOCOL:
            return f"this table speaks {PROTOCOL}, not {message.v}"
        if message.table != self.id:
            return f"message for table {message.table!r}, this is {self.id!r}"
        if message.kind not in LOGGED:
            return f"a {message.kind!r} message does not go into the log"
        lobby = self.lobby
        if message.kind == Kind.OPEN:
            return (
                None if lobby is None and message.author == self._host_hex() else "the table is open already"
            )
        if message.kind == Kind.END:
            return (
                None
                if message.author == self._host_hex() and self.results() is not None
                else "only the host ends the table, once the game is over"
            )
        if lobby is None:
            return "the table is not open yet"
        if self.over():
            return "the game is over"
        if message.kind == Kind.CLOSE:
            return None if message.author == self._host_hex() else Refusal.CLOSE_BY_HOST.value
        if message.kind == Kind.DECIDE:
            return self._decidable(message)
        if message.kind == Kind.HOST and message.author != self.me:
            return "a seat takes the table over on its own machine, not through the host"
        try:
            self._check(message, lobby)
        except (AtollError, ValueError) as exc:
            return str(exc)
        return None

    def _host_hex(self) -> str:
        return self.log.host.encode().hex()

    # -- fed by the host ----------------------------------------------------------------------

    def pipelined(self) -> None:
        """From now on this peer's seat answers another seat's deck shuffle or lock, when its own turn
        comes next, before checking that proof (the set-up of a deck goes at the speed of the proving,
        not of proving and checking in turn); the caller calls :meth:`settle` once the answer has left.
        Why that is safe: ``docs/decisions/0006-pipelined-deck-setup.md``."""
        self.pipeline = True
        if self.engine is not None:
            self.engine.pipelined()

    def settle(self) -> None:
        """Check the deck proofs this peer answered before checking them; one that does not check ends
        the game naming its author, as it would have on arrival (before any card is opened)."""
        engine = self.engine
        if engine is None or self.over() or not self.log.entries:
            return
        try:
            engine.settle()
        except CheatDetected as exc:
            self._stop(self.log.entries[-1], cheated(exc.seat, str(exc)))

    def receive(self, data: dict[str, Any], *, parsed_strictly: bool = False) -> Entry:
        """Check, keep (on disk first) and fold in the next log entry; raises BadEntry or HostEquivocated.
        ``parsed_strictly``: ``data`` was read by :func:`~atoll.net.envelope.decode`, which refuses
        floats (a frame from the host), so they are not looked for again."""
        self.settle()  # what this peer answered ahead is checked before anything after it
        entry = self.check_entry(data, parsed_strictly=parsed_strictly)
        self.keep_entry(entry)
        self._apply(entry)
        return entry

    def check_entry(self, data: dict[str, Any], *, parsed_strictly: bool = False) -> Entry:
        """Check ``data`` as the next entry (signed by the host, or by a seat taking the table over);
        ``parsed_strictly`` as for :meth:`receive`."""
        message = data.get("msg") if isinstance(data, dict) else None
        new_host = None
        if isinstance(message, dict) and message.get("kind") == Kind.HOST:
            author = message.get("author")
            if isinstance(author, str) and author in self.successors():
                new_host = bytes.fromhex(author)
        return self.log.check(data, new_host=new_host, parsed_strictly=parsed_strictly)

    def check_sequenced(self, entry: Entry) -> Entry:
        """Check an entry this peer, hosting the table, has just placed and signed (no signature is
        checked again: it authenticated the message on arrival and made the host signature itself)."""
        return self.log.check_sequenced(entry)

    def keep_entry(self, entry: Entry) -> None:
        """Keep a checked entry (on disk first); a ``host`` entry hands the log over to its author."""
        self.log.keep(entry)
        if entry.message.kind == Kind.HOST and entry.message.author in self.successors():
            self.log.hand_over(entry.seq, bytes.fromhex(entry.message.author))

    def successors(self) -> list[str]:
        """The seats that may take the table over, in the order they do (seat order, the host left out,
        and every host the log named: one caught framing a seat never hosts this table again)."""
        lobby = self.lobby
        if lobby is None:
            return []
        barred = {self._host_hex(), *(self.named_hosts if lobby.named_host_barred else ())}
        return [a for a in lobby.seated if a not in barred and a in lobby.standby]

    def restore_entry(self, data: dict[str, Any]) -> None:
        """Fold in an entry read back from this peer's own disk (checked again, not written again)."""
        entry = self.check_entry(data)
        self.log.remember(entry)
        if entry.message.kind == Kind.HOST and entry.message.author in self.successors():
            self.log.hand_over(entry.seq, bytes.fromhex(entry.message.author))
        self._apply(entry)

    def apply(self, entry: Entry) -> None:
        """Fold in an entry already checked and kept (the host relays its own entries in between)."""
        self._apply(entry)

    def _apply(self, entry: Entry) -> None:
        message = entry.message
        now = self.clock()
        self._opened_at, self._grew_at = self._grew_at, now
        self._opened_late, self._grew_late = self._grew_late, self.catching_up
        if message.author == self.me:
            self._n = max(self._n, message.n + 1)
            # a message written again after a restart, and already in the log, is not sent twice
            key = _message_key(message.kind, message.body)
            if message.kind in (Kind.WITNESS, Kind.REFUSE):  # one answer to a timeout, whichever it was
                key = _answer_key(message.body.get("timeout"))
            self._outbox = [(k, data) for k, data in self._outbox if k != key]
        if self.over():
            self._refuse(entry, Refusal.AFTER_END, Refusal.AFTER_END.value)
            return
        if message.kind == Kind.OPEN:
            self._open(entry)
            return
        if message.kind == Kind.END:
            self._end(entry)
            return
        if message.kind == Kind.HOST:
            who = self._who(message.author)
            before = self.log.host_at(entry.seq - 1).encode()
            if message.author == self._host_hex() and before != self.log.host.encode():
                self._new_host(entry, who)
            else:
                self._refuse(entry, Refusal.NO_TAKEOVER, f"refused: {who} {Refusal.NO_TAKEOVER.value}")
            return
        if message.kind == Kind.CLOSE:
            if message.author != self._host_hex() or self.lobby is None:
                self._refuse(entry, Refusal.CLOSE_BY_HOST, f"refused: {Refusal.CLOSE_BY_HOST.value}")
            else:
                self._stop(entry, closed(self.lobby.names.get(message.author)))
            return
        if message.kind in (Kind.TIMEOUT, Kind.ABORT) and message.author == self._host_hex():
            self._host_ruling(entry)
            self._flush()
            return
        if message.kind == Kind.DECIDE:
            why = self._decidable(message)
            if why is not None:
                self._refuse(entry, Refusal.RULING, f"refused decide of the host: {why}")
            else:
                self._decide(entry)
                self._flush()
            return
        if self.lobby is None:
            self._refuse(entry, Refusal.NOT_OPEN, f"refused: {Refusal.NOT_OPEN.value}")
            return
        self._take(entry, self.lobby)
        self._flush()

    def _take(self, entry: Entry, lobby: Lobby) -> None:
        """Check and fold in a seat's (or spectator's) message; a check that refutes signed content
        names its author, anything else refuses the entry or stops the game naming nobody."""
        message = entry.message
        try:
            self._check(message, lobby)
            self._fold(entry, lobby)
        except CheatDetected as exc:  # the verdict of an explicit check: the one way to name a seat
            self._stop(entry, cheated(exc.seat, str(exc)))
        except (AtollError, ValueError) as exc:
            who = self._who(message.author)
            self._refuse(entry, Refusal.MESSAGE, f"refused {message.kind} of {who}: {exc}")
        except Fault as exc:
            record_fault(f"table {self.id}, entry {entry.seq}", exc)
            self._stop(entry, plugin_failed(exc) if isinstance(exc, PluginFault) else
                       atoll_failed(exc.component, exc))
        except Exception as exc:  # a bug of ours: it stops the game, blaming nobody (decision 0015)
            record_fault(f"table {self.id}, entry {entry.seq}", exc)
            self._stop(entry, atoll_failed(failing_module(exc), exc))

    def _open(self, entry: Entry) -> None:
        body, message = entry.message.body, entry.message
        if entry.seq != 0 or self.lobby is not None or message.author != self._host_hex():
            self._refuse(entry, Refusal.OPEN_BY_HOST, f"refused: {Refusal.OPEN_BY_HOST.value}")
            return
        try:
            if "pin" in body or message.v == PROTOCOL:  # an earlier version's log pins no game
                self.pinned = (str(body["game"]), GamePin.from_json(body.get("pin")))
            game = self.games(str(body["game"]))
            seats, variant = body["seats"], body["variant"]
            if type(seats) is not int or not game.info.min_seats <= seats <= game.info.max_seats:
                raise ValueError(f"{game.info.name} takes {game.info.min_seats}-{game.info.max_seats} seats")
            options = body.get("options", {})
            if not isinstance(options, dict) or not isinstance(variant, str):
                raise ValueError("variant is text and options an object")
            host_timeout = body.get("host_timeout", HOST_TIMEOUT_S)
            if type(host_timeout) is not int or not 1 <= host_timeout <= 3600:
                raise ValueError("host_timeout is 1-3600 whole seconds")
            turn_ms = body.get("turn_time_ms")
            if turn_ms is not None and (type(turn_ms) is not int or not 1 <= turn_ms <= TURN_TIME_MOST_MS):
                raise ValueError(f"turn_time_ms is 1-{TURN_TIME_MOST_MS} whole milliseconds")
            kept = read_kept(body.get("kept"), seats)
            colours = seat_colours(game.seat_names(Config(seats, variant, options)))
            self.lobby = Lobby(
                game.info.name, variant, seats, check_name(body.get("name", "table")), options, message.author
            )
            self.lobby.host_timeout = float(host_timeout)
            on_leave = body.get("on_leave", OnLeave.END)
            if on_leave not in set(OnLeave):
                raise ValueError(f"on_leave is one of {', '.join(OnLeave)}, not {str(on_leave)[:20]!r}")
            self.lobby.on_leave = OnLeave(on_leave)
            self.lobby.turn_time = None if turn_ms is None else turn_ms / 1000
            self.lobby.signed_timing = _version(message.v) >= SIGNED_TIMING_VERSION
            self.lobby.take_over_voids_timeout = _version(message.v) >= TAKE_OVER_VOIDS_TIMEOUT_VERSION
            self.lobby.named_host_barred = _version(message.v) >= NAMED_HOST_BARRED_VERSION
            self.lobby.kept, self.lobby.colours = kept, colours
        except (KeyError, ValueError, AtollError) as exc:
            self._stop(entry, unplayable(str(exc)))
            return
        self._event(entry, f"table {self.lobby.name!r} opened: {self.lobby.game} ({variant}), {seats} seats")

    def _end(self, entry: Entry) -> None:
        end = self.results()
        if entry.message.author != self._host_hex() or end is None:
            self._refuse(entry, Refusal.END_BY_HOST, f"refused: {Refusal.END_BY_HOST.value}")
            return
        if entry.message.body.get("results") != end.results.to_json():
            self._stop(entry, misreported(entry.message.body.get("results")))
            return
        self.closed = True
        scores = ", ".join(
            f"{self._who(a)} {s}"
            for a, s in zip(self.lobby.seated if self.lobby else [], end.results.scores, strict=False)
        )
        self._event(entry, f"game over: {scores}")

    def _check(self, message: Envelope, lobby: Lobby) -> None:
        """Raise if ``message`` cannot be taken now (nothing changes)."""
        kind, body, author = message.kind, message.body, message.author
        if kind in (Kind.TIMEOUT, Kind.ABORT):
            self._check_ruling(message)
            return
        if kind == Kind.HOST:
            if author == self._host_hex() or author not in self.successors():
                raise ValueError("only a seat with a standby address, not the host, takes the table over")
            return
        if kind in (Kind.SIT, Kind.WATCH):
            check_name(body.get("name"))
            standby = body.get("standby")
            if standby is not None and not _address(standby):
                raise ValueError(f"a standby address is HOST:PORT, not {str(standby)[:40]!r}")
            bot = body.get("bot")
            if bot is not None and not (isinstance(bot, str) and 0 < len(bot) <= 40 and bot.isprintable()):
                raise ValueError(f"a seat's bot is named by its kind, 1-40 characters, not {str(bot)[:40]!r}")
            if author in lobby.seated or author in lobby.spectators:
                raise ValueError("already at the table")
            if kind == Kind.SIT:
                lobby.seat_for(author, body.get("seat"))  # refused in one line naming the free seats
            bot = body.get("bot")  # a bot that sits, or a bot stand-in that watches
            if bot is not None and not (isinstance(bot, str) and 1 <= len(bot) <= _NAME_LIMIT
                                        and bot.isprintable()):
                raise ValueError(f"a bot's kind is 1-{_NAME_LIMIT} printable characters")
            if kind == Kind.WATCH and type(body.get("stand_in", False)) is not bool:
                raise ValueError("stand_in is true or false")
            return
        seat = lobby.seat_of(author)
        if seat is None:
            raise ValueError(f"{kind} from an identity that holds no seat")
        if self.engine is None:
            raise ValueError("the game has not started")
        if kind == Kind.LEAVE:
            if self.timeout is not None and self.timeout.seat == seat:
                raise ValueError(f"{seat_label(seat)} has timed out; it cannot leave now")
            if self.pending_leave is not None:
                raise ValueError("the host is still to choose what happens to the seat that left before")
            if "to" in body or "box" in body:
                if lobby.on_leave not in (OnLeave.HAND, OnLeave.ASK):
                    raise ValueError("the host opened this table to end the game when a seat leaves")
                if self.timeout is not None:
                    raise ValueError("a seat is not handed over while the table settles a timeout")
                check_hand_over(body, lobby.stand_ins)
            return
        if kind in (Kind.WITNESS, Kind.REFUSE):
            timeout = self.timeout
            if timeout is None or body.get("timeout") != timeout.seq:
                raise ValueError(f"a {kind} names no open timeout")
            if seat == timeout.seat or seat in timeout.answered():
                raise ValueError(f"{seat_label(seat)} cannot answer this timeout (again)")
            if kind == Kind.REFUSE and (type(body.get("waited_ms")) is not int or body["waited_ms"] < 0):
                raise ValueError("a refusal says how many milliseconds its seat had waited")
            if kind == Kind.REFUSE and "behind" in body and type(body["behind"]) is not int:
                raise ValueError("a refusal says as a number which entry the late seat held last")
            if kind == Kind.REFUSE and "late" in body and body["late"] is not True:
                raise ValueError("a refusal's 'late' is true or absent")
            owed = body.get("owed", [])
            if kind == Kind.REFUSE and (not isinstance(owed, list) or len(owed) > OWED_MOST):
                raise ValueError(f"a refusal brings at most {OWED_MOST} of the late seat's messages")
            return
        if self.timeout is not None:
            raise ValueError(f"the table is settling the timeout of {seat_label(self.timeout.seat)}")
        if kind == Kind.MOVE:
            self.engine.check_move(seat, body)
        elif kind == Kind.FAIR:
            fair = body.get("msg")
            if not isinstance(fair, dict) or fair.get("seat") != seat:
                raise ValueError(f"{seat_label(seat)} sent a protocol message that is not its own")
            if not self.engine.resolver.busy():
                raise ValueError("no protocol step waits for messages now")
        else:
            raise ValueError(f"unknown message kind {kind!r}")

    def _fold(self, entry: Entry, lobby: Lobby) -> None:
        message = entry.message
        kind, body, author = message.kind, message.body, message.author
        if kind == Kind.SIT:
            chair = lobby.seat_for(author, body.get("seat"))
            lobby.chairs[author] = chair
            lobby.seated.append(author)
            lobby.seated.sort(key=lobby.chairs.__getitem__)
            lobby.names[author] = body["name"]
            if isinstance(body.get("standby"), str):
                lobby.standby[author] = body["standby"]
            if isinstance(body.get("bot"), str):
                lobby.bots[author] = body["bot"]
            self._event(entry, f"{body['name']} takes {seat_label(chair)}")  # its colour is on the seat bar
            if lobby.full():
                self._start(lobby)
            return
        if kind == Kind.WATCH:
            lobby.spectators.append(author)
            lobby.names[author] = body["name"]
            if isinstance(body.get("standby"), str):  # where it listens for evidence against the host
                lobby.standby[author] = body["standby"]
            if isinstance(body.get("bot"), str):  # a bot stand-in: a seat handed to it is still a bot's
                lobby.bots[author] = body["bot"]
            if body.get("stand_in") is True:
                lobby.stand_ins.append(author)
                self._event(entry, f"{body['name']} watches, and takes over a seat whose player leaves")
            else:
                self._event(entry, f"{body['name']} watches")
            return
        assert self.engine is not None
        seat = lobby.seat_of(author)
        assert seat is not None
        # the host's person is asked, unless the seat's plugin failed (then it leaves as at a hand table)
        if kind == Kind.LEAVE and lobby.on_leave is OnLeave.ASK and "fault" not in body:
            to = str(body["to"]) if "to" in body else None
            self.pending_leave = PendingLeave(entry.seq, seat, author, to, str(body.get("box", "")))
            hand = f", or hand the seat to {self._who(to)}" if to is not None else ""
            self._event(entry, f"{self._who(author)} leaves; the host chooses: wait for them to come back, "
                               f"end the game{hand}")
            return
        if kind == Kind.LEAVE and "to" in body:
            self._hand(entry, seat, author, str(body["to"]), str(body["box"]))
            return
        if kind == Kind.LEAVE:
            self.left = seat
            fault = body.get("fault")
            readable = isinstance(fault, str) and len(fault) <= FAULT_LIMIT and fault.isprintable()
            said = fault if readable else None
            self._stop(entry, left(seat, self._who(author), said))
            self._left_behind(entry, seat)
            return
        if kind in (Kind.WITNESS, Kind.REFUSE):
            self._answered(entry, seat)
            return
        if kind == Kind.MOVE:
            what = "seals a choice" if "sealed" in body else self._describe(body.get("action"))
            if "sealed" in body and seat == self.my_seat and body.get("at") in self._sealed:
                self.engine.hold_sealed(self._sealed[body["at"]])  # restored from disk after a restart
            self.engine.act(seat, body)
            self._event(entry, f"{self._who(author)}: {what}")
        else:
            self.engine.protocol(body["msg"])
            self.engine.pump()

    def waits_on(self) -> tuple[int, ...]:
        """The seats the game waits on now: the seat to move, or the seats that owe protocol messages."""
        if self.engine is None or self.over():
            return ()
        waiting = self.engine.waiting()
        if waiting.seats:
            return waiting.seats
        return (waiting.seat,) if waiting.seat is not None else waiting.owed

    def _check_ruling(self, message: Envelope) -> None:
        """Check a host's ``timeout`` (of a seat the game waits on) or ``abort`` (of the open timeout)."""
        if message.author != self._host_hex():
            raise ValueError(f"only the host states a {message.kind}")
        if message.kind == Kind.ABORT:
            if self.timeout is None or message.body.get("timeout") != self.timeout.seq:
                raise ValueError("an abort names no open timeout")
            return
        seat = message.body.get("seat")
        if self.timeout is not None:
            raise ValueError("a timeout is open already; a timeout cannot itself time out")
        if type(seat) is not int or seat not in self.waits_on():
            waits = seats_label(list(self.waits_on()))
            raise ValueError(f"the game does not wait on {seat_label(seat)}; it waits on {waits}")

    def _host_ruling(self, entry: Entry) -> None:
        message = entry.message
        try:
            self._check_ruling(message)
        except ValueError as exc:
            self._refuse(entry, Refusal.RULING, f"refused {message.kind} of the host: {exc}")
            return
        assert self.lobby is not None
        if message.kind == Kind.ABORT:
            assert self.timeout is not None
            late = self.timeout.seat
            why = f"{seat_label(late)} ran out of time, but not every other seat witnessed it"
            self._stop(entry, aborted(late, why))
            return
        seat = int(message.body["seat"])
        who = self._who(self.lobby.seated[seat])
        turn_time = self.lobby.turn_time
        if self.lobby.signed_timing and turn_time is None:
            self._name_host(entry, host_timed(f"it named {who} as late at a table opened with no turn time"))
            return
        self.timeout = Timeout(entry.seq, seat)
        self._event(entry, f"the host: {who} ran out of time; the other seats witness it or refuse")
        mine = self.my_seat
        if mine is not None and mine != seat and self.key is not None and not self._replaying:
            self._answer(entry.seq, seat, turn_time)

    def _answer(self, seq: int, late: int, turn_time: float | None) -> None:
        """This seat's answer to the timeout at ``seq``: a refusal when its own clock has not seen the
        turn open for the whole turn time; else, when it can reach seats directly (:attr:`direct`), it
        asks the late seat first (:attr:`asking`; the caller asks, then calls :meth:`answer_asked`);
        else a witness (so too in a log of an earlier version)."""
        opened = self._opened_at
        waited = 0.0 if opened is None else max(0.0, self.clock() - opened)
        if turn_time is not None and waited < turn_time:
            body: dict[str, Any] = {"timeout": seq, "waited_ms": int(waited * 1000)}
            if self._opened_late:
                # the turn opened before this peer's link caught up: its clock cannot say the host was
                # early, so the refusal only voids the timeout (the host times the seat again later)
                body["late"] = True
            self._outbox.append((_answer_key(seq), self.compose(Kind.REFUSE, body)))
        elif self.direct and turn_time is not None and self.me != self._host_hex():  # a host asks nobody
            self.asking = Ask(seq, late, int(waited * 1000))
        else:
            self._outbox.append((_answer_key(seq), self.compose(Kind.WITNESS, {"timeout": seq})))

    def _answered(self, entry: Entry, seat: int) -> None:
        timeout, lobby = self.timeout, self.lobby
        assert timeout is not None and lobby is not None
        who = self._who(lobby.seated[seat])
        brought = self._brought(entry.message, lobby.seated[timeout.seat])
        if brought:
            # the late seat gave this seat what it owed, and the log did not hold it: it was not late
            self.timeout = None
            late = self._who(lobby.seated[timeout.seat])
            self._event(entry, f"{who} brings {late}'s message directly: the host had not sequenced it; "
                               "the timeout is void")
            for message in brought:
                try:  # a message the late seat wrote after a history this log does not hold
                    self.log.check_seen(message, before=entry.seq)
                except HostEquivocated as exc:  # ... signed by the host: the evidence is in this entry
                    self._name_host(entry, host_equivocated(f"{exc}, shown by a message {who} brings"),
                                    exc.evidence)
                    return
                except BadEntry:
                    continue
                self.log.took(message)
                self._take(Entry(entry.seq, entry.prev, entry.head, entry.host_sig, message), lobby)
            return
        if entry.message.kind == Kind.REFUSE:
            timeout.refusals.append(seat)
            waited = entry.message.body["waited_ms"] / 1000
            caught_up_late = entry.message.body.get("late") is True
            if lobby.turn_time is not None and waited < lobby.turn_time and not caught_up_late:
                timeout.early.append(seat)
            behind = entry.message.body.get("behind")
            if type(behind) is int:
                late = self._who(lobby.seated[timeout.seat])
                said = (f"{who} refuses it: {late} holds the log only to entry {behind}, and never saw its "
                        f"turn open; {who} gives it the entries the host had not")
            else:
                said = f"{who} refuses it: its own clock had seen the turn open for {waited:.3g} s"
            self._event(entry, said)
        else:
            timeout.witnesses.append(seat)
            self._event(entry, f"{who} witnesses it")
        if len(timeout.answered()) < lobby.seats - 1:
            return
        if timeout.refusals:
            self._refuted(entry, timeout, lobby)
            return
        late = self._who(lobby.seated[timeout.seat])
        seen = seats_label(sorted(timeout.witnesses))
        if len(timeout.witnesses) >= ATTRIBUTABLE_WITNESSES:
            out_of_time = f"{late} ran out of time (witnessed by {seen})"
            if self._go_on_without(entry, timeout.seat, out_of_time):
                return
            self._stop(entry, forfeited(timeout.seat, late, seen))  # named, but as late, not as a cheat
            self._left_behind(entry, timeout.seat)
        else:
            self._stop(entry, aborted(timeout.seat, f"{late} ran out of time, witnessed only by {seen} "
                                                    "(one seat's word against another's)"))

    def _brought(self, refusal: Envelope, late: str) -> list[Envelope]:
        """The late seat's messages a refusal brings that this table can take: signed by ``late`` for
        this table, a move or a protocol message, not held already (any other is passed over)."""
        if refusal.kind != Kind.REFUSE:
            return []
        brought: list[Envelope] = []
        for data in refusal.body.get("owed", []):
            message = self.owed_envelope(data, late)
            if message is not None and all(m.n != message.n for m in brought):
                brought.append(message)
        return brought

    def owed_envelope(self, data: Any, late: str) -> Envelope | None:
        """``data`` (an envelope's JSON form, or its bytes) as a message ``late`` owes, else ``None``."""
        try:
            message = open_envelope(data if isinstance(data, bytes) else canonical_bytes(data))
        except (Unauthenticated, TypeError, ValueError):
            return None
        if (message.author != late or message.table != self.id or message.v != PROTOCOL
                or message.kind not in (Kind.MOVE, Kind.FAIR) or self.log.holds(message)):
            return None
        return message

    def answer_asked(self, seq: int, owed: list[bytes], *, seen: Any = None, evidence: Any = None) -> None:
        """The late seat, asked directly (:attr:`asking`), gave ``owed`` (its messages the log does not
        hold; empty: it did not answer): this seat refuses the timeout at ``seq`` bringing them, or,
        with nothing it can take, witnesses it. Where what the late seat holds (``seen``, the signed
        head of its last entry, or its ``evidence``) proves that the host showed it another history,
        the host is named instead, and nobody witnesses: that seat was late because of the host."""
        asking, lobby = self.asking, self.lobby
        if asking is None or asking.seq != seq or lobby is None:
            return
        self.asking = None
        if self.timeout is None or self.timeout.seq != seq or self.over():
            return  # settled meanwhile
        proof = self.log.fork_in_view(seen) or evidence
        if proof is not None and self.host_forked(proof) and (self.fork is not None or self.over()):
            return  # named now (a fork by an earlier host, which the table left, changes nothing here)
        late = lobby.seated[asking.seat]
        kept = [m for m in (self.owed_envelope(d, late) for d in owed) if m is not None][:OWED_MOST]
        behind = None if kept else self._behind(seen, seq)
        engine = self.engine
        step: tuple[int, ...] = (asking.seat,)
        if engine is not None:
            step = (asking.seat, len(engine.match.events), engine.progress())
        if behind is not None and step not in self._excused:
            # the late seat's copy ends before the entry that opened its turn: it never saw its turn
            # open. This seat gives it the entries directly and refuses the timeout (once at this step)
            self._excused.add(step)
            self.catch_up = (late, behind + 1)
            body: dict[str, Any] = {"timeout": seq, "waited_ms": asking.waited_ms, "behind": behind}
            self._outbox.append((_answer_key(seq), self.compose(Kind.REFUSE, body)))
            return
        if not kept:
            body = {"timeout": seq}
            self._outbox.append((_answer_key(seq), self.compose(Kind.WITNESS, body)))
            return
        # what fits in one message goes (a deck's shuffle is the largest, and fits alone)
        room, fitting = MAX_MESSAGE - REFUSAL_ROOM, []
        for message in kept:
            room -= len(message.raw)
            if room < 0:
                break
            fitting.append(message.to_json())
        body = {"timeout": seq, "waited_ms": asking.waited_ms, "owed": fitting}
        self._outbox.append((_answer_key(seq), self.compose(Kind.REFUSE, body)))

    def _behind(self, seen: Any, seq: int) -> int | None:
        """The last entry a late seat holds, if ``seen`` (the view its answer gives: a position and its
        head) is one of this log's positions before ``seq - 1``, the entry after which its turn was
        timed; else ``None`` (a view this log does not hold proves nothing and excuses nothing)."""
        if not isinstance(seen, dict) or type(seen.get("seq")) is not int:
            return None
        at = seen["seq"]
        if not -1 <= at < seq - 1:
            return None
        held = self.log.entries[at].head if at >= 0 else genesis(self.id)
        return at if seen.get("head") == held else None

    def host_forked(self, evidence: Any) -> bool:
        """Whether ``evidence`` (this peer's own, or shown to it directly by another) proves that the
        host signed two different histories (:meth:`~atoll.table.log.TableLog.fork_proved`); if it
        does, the host is named (:meth:`_name_host`)."""
        if self.fork is not None or (self.ending is not None
                                     and self.ending.reason is EndReason.HOST_EQUIVOCATED):
            return True
        if self.over() or not self.log.entries or not self.log.fork_proved(evidence):
            return False
        if self.log.host_at(evidence["seq"]).encode() != self.log.host.encode():
            return True  # proved of an earlier host, which the table has moved away from already
        detail = f"it signed two different heads for entry {evidence['seq']} (the evidence is its signatures)"
        self._name_host(self.log.entries[-1], host_equivocated(detail), evidence, logged=False)
        return True

    def set_aside(self, seq: int, *, why: str = "the named host gave them to this copy alone") -> Table:
        """This peer's copy with its entries from ``seq`` on set aside (on disk: moved to a file beside
        the log, never deleted): a host showed this peer another history from there, which nobody else
        holds. The copy is played again from the entries before (this peer's secrets are the same, its
        message numbers go on, so it never signs two messages under one number); it still names the host
        and moves to the next seat, which sends the history everyone else holds. ``why``: the event's
        words for it (a seat's take-over wins over the entries too: docs/decisions/0028)."""
        path = self.log.path
        self.log.close()
        if path is not None:
            set_aside_from(path, seq + 1)
        fresh = Table(self.id, self.log.host_at(0).encode(), self.key, self.games, log_path=path,
                      master=self.master, sealed=self._keeper, clock=self.clock)
        fresh._n, fresh._sealed = self._n, dict(self._sealed)
        if path is not None:
            fresh.restore()
        else:
            fresh.take_stored([e.to_json() for e in self.log.entries[:seq]], fresh.restore_entry)
        fresh.events = self.events  # the same list: whoever reads this copy's events reads on
        last = len(self.log.entries) - 1
        fresh.events.append(Event(f"entries {seq} to {last} of this copy are set aside: {why}", seq - 1))
        fresh.deposed, fresh.deposed_host, fresh.fork = self.deposed, self.deposed_host, self.fork
        fresh.hosts_named, fresh.direct, fresh.pipeline = self.hosts_named, self.direct, self.pipeline
        fresh._excused = self._excused  # a seat is excused once at a step, whichever copy asked
        fresh.named_hosts = self.named_hosts
        if fresh.engine is not None and self.pipeline:
            fresh.engine.pipelined()
        return fresh

    def _name_host(self, entry: Entry, ending: Ending, fork: dict[str, Any] | None = None, *,
                   logged: bool = True) -> None:
        """The host is named (``ending``): the table moves to the next seat as host, which continues
        from its own copy of the log (its ``host`` entry logs ``fork``, the proof of two histories, if
        there is one); where no seat can host, the game ends here naming the host. ``logged``: the
        verdict follows from this log alone (every copy reaches it at this entry), not from evidence
        shown to this peer directly (the next host's entry logs that)."""
        self.timeout, self.asking, self.fork = None, None, fork
        successors = self.successors()
        if not successors or self.engine is None or self.deposed is not None:
            self._stop(entry, ending)
            return
        if logged:
            self.hosts_named.append((entry.seq, ending))
            self.named_hosts.append(self._host_hex())
        self._named_in_log = logged
        self.deposed, self.deposed_host = ending, self._host_hex()
        next_host = self._who(successors[0])
        self._event(entry, f"{ending.text}; {next_host} takes the table over and the game goes on")

    def _new_host(self, entry: Entry, who: str) -> None:
        """``who`` hosts the table from ``entry`` on: the host was gone, or named. A ``host`` entry
        that brings the proof of the old host's two histories (``evidence``) names it in the log, where
        the verdict came from evidence shown directly."""
        evidence = entry.message.body.get("evidence")
        if evidence is not None and not self._named_in_log:
            old_key = self.log.host_at(entry.seq - 1)
            old = old_key.encode().hex()
            # the signatures must be the host's this entry replaces (a fork it signed where the table
            # changes hands counts too), never another's: a new host cannot name its predecessor for
            # what an earlier host, or it itself, signed
            if self.log.fork_proved(evidence, host=old_key):
                detail = (f"it signed two different heads for entry {evidence['seq']} (the evidence is in "
                          f"entry {entry.seq})")
                self.hosts_named.append((entry.seq, host_equivocated(detail)))
                self.named_hosts.append(old)
            else:
                self._event(entry, f"the evidence against the host {old[:16]} in this entry does not prove "
                                   "two histories; the take-over stands")
        named, self.deposed, self.deposed_host, self.fork = self.deposed, None, None, None
        self._named_in_log = False
        if self.timeout is not None and self.lobby is not None and self.lobby.take_over_voids_timeout:
            # the old host's ruling goes with it, in every copy alike: a copy that named the host from
            # evidence shown directly dropped it then, and one that set entries aside took it in again
            # afterwards; the new host gives the late seat a whole turn time again
            late = self.lobby.seated[self.timeout.seat]
            self.timeout, self.asking = None, None
            self._event(entry, f"the old host's timeout of {self._who(late)} is void under the new host")
        why = "the host was gone" if named is None and evidence is None else "the host was named"
        withheld = self._withheld(entry)
        if withheld:
            why = (f"the host had not sequenced {withheld}, which every peer held directly for a host "
                   "timeout (replaced, not named: it may never have had them)")
            self.hosts_replaced.append((entry.seq, why))
        self._event(entry, f"{who} hosts the table now; {why}")

    def _withheld(self, entry: Entry) -> str:
        """Whose messages a ``host`` entry says the old host withheld (checked: each signed by its seat
        for this table, a move or a protocol message the log lacks), in words; empty if none."""
        listed = entry.message.body.get("withheld")
        lobby = self.lobby
        if not isinstance(listed, list) or lobby is None:
            return ""
        authors = []
        for data in listed[:OWED_MOST]:
            author = data.get("author") if isinstance(data, dict) else None
            if isinstance(author, str) and author in lobby.seated and self.owed_envelope(data, author):
                authors.append(self._who(author))
        return ", ".join(f"a message of {who}" for who in dict.fromkeys(authors))

    def _refuted(self, entry: Entry, timeout: Timeout, lobby: Lobby) -> None:
        """Every other seat has answered the timeout and some refused it: the timeout is void, and the
        game goes on; when two or more seats refused it because their own clocks had not seen the turn
        time pass, and no seat witnessed it (the host's own seat left out of both: it answers its own
        ruling), the host is named for it."""
        host_seat = lobby.seat_of(self.log.host_at(timeout.seq).encode().hex())
        refusers = [s for s in timeout.early if s != host_seat]
        witnesses = [s for s in timeout.witnesses if s != host_seat]
        late = self._who(lobby.seated[timeout.seat])
        seats = seats_label(sorted(timeout.refusals))
        if len(refusers) >= ATTRIBUTABLE_WITNESSES and not witnesses:
            self._name_host(entry, host_timed(f"it named {late} as late before the turn time had passed "
                                              f"for {seats}, who refused it"))
            return
        self.timeout = None
        self._event(entry, f"the timeout of {late} is void: {seats} refused it; the table goes on")

    def leave(self, fault: str | None = None) -> bytes:
        """This peer's seat leaves the table for good; ``fault`` says why when the game's plugin failed
        on this machine, so that every peer reads it. Where the host chose to hand seats over and a
        stand-in is at the table, the seat goes to it (:meth:`stand_in`) and the game goes on;
        otherwise the game ends, with no result."""
        body: dict[str, Any] = {} if fault is None else {"fault": fault[:FAULT_LIMIT]}
        to, seat = self.stand_in(), self.my_seat
        if to is not None and seat is not None:
            sealed = {at: values for at, values in self._sealed.items()}
            body |= {"to": to, "box": seal_seat(self.id, seat, self.seat_master, sealed, to)}
        return self.compose(Kind.LEAVE, body)

    def _left_behind(self, entry: Entry, seat: int) -> None:
        """Say what ``seat``, gone with its secrets, leaves behind (the game decides if it could go on)."""
        engine, lobby = self.engine, self.lobby
        if engine is None or lobby is None:
            return
        goes_on = bool(engine.game.goes_on_without(engine.match.state, seat))
        self._event(entry, left_behind(self._who(lobby.seated[seat]), goes_on))

    def _go_on_without(self, entry: Entry, seat: int, why: str) -> bool:
        """Hand ``seat``, gone with its secrets (``why``), to the first stand-in without them, if the
        host chose to hand seats over, its game says it can go on without that seat's hidden things
        and nothing of the seat's would stay shut (:meth:`~atoll.fair.steps.record.Record.drop`).
        Whether it did; every peer decides it alike from the log."""
        lobby, engine = self.lobby, self.engine
        if lobby is None or engine is None or lobby.on_leave is not OnLeave.HAND or not lobby.stand_ins:
            return False
        if not engine.game.goes_on_without(engine.match.state, seat):
            return False
        try:
            engine.resolver.drop(seat)
        except ProtocolViolation:
            return False
        before, to = lobby.seated[seat], lobby.stand_ins[0]
        name = lobby.names.get(to, to[:16])
        lobby.seated[seat] = to
        lobby.chairs.pop(before, None)  # the seat changes hands: who holds which seat follows
        lobby.chairs[to] = seat
        lobby.spectators.remove(to)
        lobby.stand_ins.remove(to)
        handed = HandOver(seat, before, to, entry.seq)
        lobby.handed.append(handed)
        self.timeout = None
        self._event(entry, f"{why}; {name} takes {seat_label(seat)} over without its secrets (the game hides "
                           "nothing of it) and the game goes on")
        if before == self.me:
            self.handed_away, self.plays = handed, None
        if to == self.me:
            self.plays = engine.seat = seat  # its moves are public: no secret of the seat is needed
        engine.pump()
        return True

    def awaits_choice(self) -> bool:
        """Whether this peer's seat left and the host's person is still to choose what follows: it is
        played here no more unless the host waits for it and it comes back."""
        return self.pending_leave is not None and self.pending_leave.author == self.me

    def choices(self) -> tuple[LeaveChoice, ...]:
        """What the host's person may choose for the seat that left (none while no leave waits)."""
        pending = self.pending_leave
        if pending is None or self.over():
            return ()
        if pending.to is None or self.lobby is None or pending.to not in self.lobby.stand_ins:
            return (LeaveChoice.WAIT, LeaveChoice.END)
        return (LeaveChoice.WAIT, LeaveChoice.END, LeaveChoice.HAND)

    def decide(self, choice: LeaveChoice) -> bytes:
        """The host's signed ``decide`` entry: ``choice`` for the seat that left."""
        assert self.pending_leave is not None
        return self.compose(Kind.DECIDE, {"leave": self.pending_leave.seq, "choice": str(choice)})

    def _decidable(self, message: Envelope) -> str | None:
        """Why a ``decide`` cannot be taken, or ``None``."""
        if message.author != self._host_hex():
            return "only the host chooses what happens to a seat that left"
        pending = self.pending_leave
        if pending is None or message.body.get("leave") != pending.seq:
            return "a decide names no leave that waits for the host's choice"
        if message.body.get("choice") not in set(self.choices()):
            return f"the choice is one of {', '.join(self.choices())}"
        return None

    def _decide(self, entry: Entry) -> None:
        """The host's person chose what happens to the seat that left (checked by :meth:`_decidable`)."""
        pending, lobby = self.pending_leave, self.lobby
        assert pending is not None and lobby is not None
        self.pending_leave = None
        choice = LeaveChoice(entry.message.body["choice"])
        who = self._who(pending.author)
        if choice is LeaveChoice.HAND and pending.to is not None:
            self._hand(entry, pending.seat, pending.author, pending.to, pending.box)
        elif choice is LeaveChoice.END:
            self.left = pending.seat
            self._stop(entry, left(pending.seat, who))
            self._left_behind(entry, pending.seat)
        else:
            self._event(entry, f"the host waits for {who} to come back (atoll join --resume)")

    def stand_in(self) -> str | None:
        """Who (hex identity) would take this peer's seat if it left now, or ``None``: the game would
        end (the host chose so, no stand-in is here, or a timeout is being settled)."""
        lobby = self.lobby
        if lobby is None or lobby.on_leave not in (OnLeave.HAND, OnLeave.ASK) or self.engine is None:
            return None
        if self.timeout is not None or self.engine.resolver.me is None:  # a seat played without secrets
            return None
        # one that went away would hold the seat and stall it: the next one, else the game ends
        here = [s for s in lobby.stand_ins if s not in self.stand_ins_gone]
        return here[0] if here else None

    def _hand(self, entry: Entry, seat: int, author: str, to: str, box: str) -> None:
        """Seat ``seat`` passes from ``author`` to the stand-in ``to``: from this entry on only ``to``'s
        signed messages count for it. The stand-in's own peer opens the box and plays on."""
        lobby = self.lobby
        assert lobby is not None
        before, after = lobby.names.get(author, author[:16]), lobby.names.get(to, to[:16])
        lobby.seated[seat] = to
        lobby.chairs.pop(author, None)  # the seat changes hands: who holds which seat follows
        lobby.chairs[to] = seat
        lobby.spectators.remove(to)
        lobby.stand_ins.remove(to)
        handed = HandOver(seat, author, to, entry.seq)
        lobby.handed.append(handed)
        self._event(entry, f"{before} leaves; {after} takes {seat_label(seat)} over and the game goes on")
        if author == self.me:
            self.handed_away, self.plays = handed, None
            self._pending_fair.clear()
        if to == self.me:
            self._take_seat(seat, box, entry)

    def _take_seat(self, seat: int, box: str, entry: Entry) -> None:
        """Play seat ``seat`` from here on with the secrets in ``box``: the game so far is played again
        from the log with them, so this peer holds exactly what the seat held, and owes what it owed."""
        assert self.key is not None
        try:
            master, sealed = open_seat(self.key, box, self.id, seat)
        except ValueError as exc:
            self._event(entry, f"the secrets of {seat_label(seat)} handed to this machine do not open "
                               f"({exc}); it cannot play the seat")
            return
        again = Table(self.id, self.log.host_at(0).encode(), self.key, self.games, master=master)
        again.plays, again._sealed, again._replaying = seat, dict(sealed), True
        for earlier in self.log.entries[: entry.seq]:
            again._replay(earlier)
        wrong = (f"the secrets handed for {seat_label(seat)} are not the ones it played with; this machine "
                 "does not play the seat")
        if again.engine is None or again.ending is not None:  # its own messages in the log refute them
            self._event(entry, wrong)
            return
        logged = {
            canonical(e.message.body["msg"])
            for e in self.log.entries[: entry.seq]
            if e.message.kind == Kind.FAIR and isinstance(e.message.body.get("msg"), dict)
        }
        owed = [message for message in again._wrote if canonical(message) not in logged]
        now = again.engine.resolver.record.n
        if any(message.get("n", now) < now for message in owed):
            # what these secrets make the seat say differs from what it said: a box for another game
            # of the seat, or a leaver's lie. Played, they would make this identity sign wrong messages.
            self._event(entry, wrong)
            return
        again.engine.resolver.redirect(self._send_fair)
        self.engine, self.plays, self.seat_master = again.engine, seat, master
        self._sealed.update(sealed)
        self._pending_fair.extend(owed)
        if self.pipeline:
            self.pipelined()

    def _replay(self, entry: Entry) -> None:
        """Fold in an entry checked already (a seat's game played again from the log)."""
        self.log.remember(entry)
        if entry.message.kind == Kind.HOST and entry.message.author in self.successors():
            self.log.hand_over(entry.seq, bytes.fromhex(entry.message.author))
        self._apply(entry)

    def _start(self, lobby: Lobby) -> None:
        game = self.games(lobby.game)
        config = Config(lobby.seats, lobby.variant, lobby.options)
        identities = [bytes.fromhex(author) for author in lobby.seated]
        seat = self.my_seat
        me = None
        if seat is not None and self.key is not None:
            make = self.participant or Participant
            me = make(seat, self.id, lobby.seats, self.master, identities=identities)
        self.engine = TableEngine(game, config, self.id, me, self._send_fair, identities)
        self.engine.kept = self._sealed
        if self.pipeline:
            self.engine.pipelined()
        self.engine.pump()

    def _send_fair(self, message: dict[str, Any]) -> None:
        self._pending_fair.append(message)

    def _flush(self) -> None:
        """Turn the fair messages the engine wrote into signed table messages (while a seat's game is
        played again from the log, only note them: the log may hold them already)."""
        pending, self._pending_fair = self._pending_fair, []
        if self._replaying:
            self._wrote.extend(pending)
            return
        for message in pending:
            body = {"msg": message}
            self._outbox.append((_message_key(Kind.FAIR, body), self.compose(Kind.FAIR, body)))

    def _describe(self, action: Any) -> str:
        assert self.engine is not None
        try:
            return str(self.engine.game.describe(self.engine.match.state, action))
        except Exception:  # an illegal action is refused by act() right after, with the reason
            return str(action)[:80]

    def _who(self, author: str) -> str:
        if self.lobby is not None:
            seat = self.lobby.seat_of(author)
            if seat is not None:
                return f"{seat_label(seat)} ({self.lobby.names.get(author, '?')})"
            if author in self.lobby.names:
                return self.lobby.names[author]
        return author[:16]

    def _event(self, entry: Entry, text: str) -> None:
        self.events.append(Event(text, entry.seq))

    def _refuse(self, entry: Entry, why: Refusal, text: str) -> None:
        self.events.append(Event(text, entry.seq, refusal=why))

    def _stop(self, entry: Entry, ending: Ending) -> None:
        """End the game early (the entry is kept, as is every other: nothing is lost)."""
        self.ending = ending
        blame = ending.seat if ending.reason is EndReason.CHEAT else None
        self.events.append(Event(ending.text, entry.seq, blame=blame, ending=ending))

    def _seal_now(self, at: int, values: list[Any]) -> bytes:
        """This seat's part of a simultaneous decision: kept on disk, then its commitment is the message
        (no move: the seats choose in any order, and the game sees the parts once all are in)."""
        assert self.engine is not None
        self._keep_sealed(at, values)
        self.engine.choose_sealed(values)
        pending, self._pending_fair = self._pending_fair, []
        (message,) = pending
        return self.compose(Kind.FAIR, {"msg": message})

    def _keep_sealed(self, at: int, values: list[Any]) -> None:
        """Keep a sealed choice's values (durably, if a keeper is given) before the move that commits
        to them leaves."""
        self._sealed[at] = values
        if self._keeper is not None:
            self._keeper.keep(at, values)


def _address(text: Any) -> bool:
    """Whether ``text`` is ``HOST:PORT`` (a standby address)."""
    if not isinstance(text, str) or len(text) > 80:
        return False
    host, _, port = text.rpartition(":")
    return bool(host) and host.isprintable() and port.isdigit() and 0 < int(port) < 65536


def _message_key(kind: str, body: dict[str, Any]) -> str:
    return kind + canonical(body)


def _answer_key(seq: Any) -> str:
    """The outbox key of this seat's one answer (witness or refusal) to the timeout at ``seq``."""
    return _message_key(Kind.WITNESS, {"timeout": seq})


def _version(protocol: str) -> int:
    """The number of a protocol name ``atoll-table/N`` (0 if it is not one)."""
    _, _, number = protocol.rpartition("/")
    return int(number) if number.isdigit() else 0

