"""The table protocol on the wire, in one place: every message kind, frame type and fair step.

A peer sends the host only signed envelopes (:mod:`atoll.net.envelope`: ``v``, ``kind``, ``table``,
``author``, ``n``, ``seen``, ``body``, ``sig``). The host sequences the ones that belong in the log
into signed, hash-chained entries (:mod:`atoll.table.log`) and sends frames back down each
connection. Every peer keeps the whole log; the fair protocols (:mod:`atoll.fair`) travel inside it
as the bodies of ``fair`` messages.

Each kind is an enum member (a :class:`~enum.StrEnum`, so it *is* the string on the wire) with its
body as a :class:`~typing.TypedDict` beside it. A body is checked where it is read (its shape is
hostile input until then); these types say what an honest peer writes.

This module imports nothing of atoll, so every layer (the fair protocols, the table, the app and the
audit) can name the same kinds.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, NotRequired, TypedDict

#: The table protocol's version: every envelope's ``v``, and what a host's ``welcome`` says it speaks.
#: A peer of another version is told at the door, in one line, which version the table speaks.
#: Version 2: the deck's points are ristretto255 encodings (docs/decisions/0007). Version 3: the host
#: may send entries back to back in one ``entries`` frame (:func:`atoll.table.frames.batched`).
#: Version 4: a fair message is signed only by its seat's envelope (no table key, no inner signature;
#: docs/decisions/0010-one-signed-record.md); the ``open`` entry pins the game (:class:`PinBody`;
#: docs/decisions/0017-the-game-pinned.md), and the host's ``welcome`` names the version the host
#: speaks (it echoed the peer's own before). Version 5: the turn time is in the signed ``open`` entry,
#: and a seat answers a timeout with a ``witness`` or a ``refuse`` (docs/decisions/0020); a ``sit`` may
#: choose its seat and the ``open`` entry may keep seats for the people of the game before
#: (:class:`SitBody`, :class:`KeptSeat`; docs/decisions/0023-seats-at-a-table.md): a peer of version 4
#: would seat people elsewhere. Version 6: a host the table names (a timeout the seats refute, two
#: histories) or one that withholds a message every seat holds is replaced by the next seat, whose
#: ``host`` entry may bring the evidence; a peer of version 5 would end the game there, or stay with
#: the host (docs/decisions/0020). Version 7: a ``host`` entry voids the old host's open timeout, and
#: an ``error`` frame may carry a ``reason`` (:class:`ErrorReason`); a peer of version 6 would keep the
#: timeout open and disagree with the others after a take-over (docs/decisions/0028, point 6).
#: Version 8: a host the log named is never a successor again; a peer of version 7 could follow it
#: back when the next host went quiet (docs/decisions/0020). Version 9: two entries the host signed
#: for one position name it even when one was refused (a replayed message), and a ``host`` entry's
#: proof must be signed by the host it replaces; a peer of version 8 would stay with such a host, or
#: name the one replaced where the others do not (docs/decisions/0020).
PROTOCOL = "atoll-table/9"


class Kind(StrEnum):
    """What an envelope is (its ``kind``). All but ``chat``, ``sync``, ``bye`` and ``entries`` are
    sequenced into the log."""

    OPEN = "open"
    """The host opens the table (entry 0 only): :class:`OpenBody`."""
    END = "end"
    """The host closes the table with the results (the last entry): :class:`EndBody`."""
    SIT = "sit"
    """Take a seat (the one chosen, else the first free one): :class:`SitBody`."""
    WATCH = "watch"
    """Sit by as a spectator: :class:`WatchBody`."""
    MOVE = "move"
    """A seat's decision at game step ``at``: :class:`MoveBody`."""
    FAIR = "fair"
    """A message of the fair protocols: :class:`FairBody`."""
    TIMEOUT = "timeout"
    """The host states that ``seat`` ran out of time: :class:`TimeoutBody`."""
    WITNESS = "witness"
    """A seat had not seen the late seat's message when the timeout came: :class:`WitnessBody`."""
    REFUSE = "refuse"
    """A seat refuses to witness a timeout its own clock or the late seat contradicts: :class:`RefuseBody`."""
    ABORT = "abort"
    """The host: the witnesses did not all come in time; nobody is blamed: :class:`AbortBody`."""
    LEAVE = "leave"
    """A seat leaves the table for good: :class:`LeaveBody`."""
    HOST = "host"
    """A seat takes the table over (host migration): :class:`HostBody`."""
    CLOSE = "close"
    """The host closes the table before the game is over (its person left): empty body; nobody is
    blamed, and the game ends there for everyone."""
    DECIDE = "decide"
    """The host's person chose what happens to a seat that left, at a table opened with
    :attr:`OnLeave.ASK`: :class:`DecideBody`."""
    CHAT = "chat"
    """Table talk, relayed and never logged: :class:`ChatBody`."""
    SYNC = "sync"
    """Ask for the entries after ``have``; every few seconds, it is also the heartbeat: :class:`SyncBody`."""
    BYE = "bye"
    """This peer closes its connection (empty body); never logged."""
    ENTRIES = "entries"
    """Entries a new host lacks, from a peer that holds them, or that a late seat lacks, given it
    directly by a seat asked to witness its timeout: :class:`EntriesBody`; never logged."""
    EVIDENCE = "evidence"
    """A peer shows the others, directly, that the host signed two histories: :class:`EvidenceBody`;
    never logged."""
    ASK = "ask"
    """A seat asks a late seat directly, at its standby address, for what it owes: :class:`AskBody`;
    never logged (the answer is an ``owed`` frame)."""
    WITHHELD = "withheld"
    """A seat gives the others directly its messages the host has not sequenced for a host timeout:
    :class:`WithheldBody`; never logged (the answer is an empty ``owed`` frame)."""
    HOSTING = "hosting"
    """A seat that took the table over tells the others directly that it hosts it now, with its signed
    ``host`` entry: :class:`HostingBody`; never logged (the answer is an empty ``owed`` frame)."""


#: The kinds the host sequences into the log; the rest are conversation with the host.
LOGGED = frozenset({Kind.OPEN, Kind.END, Kind.SIT, Kind.WATCH, Kind.MOVE, Kind.FAIR, Kind.TIMEOUT,
                    Kind.WITNESS, Kind.REFUSE, Kind.ABORT, Kind.LEAVE, Kind.HOST, Kind.CLOSE,
                    Kind.DECIDE})


class PinBody(TypedDict):
    """The build of a game (:class:`atoll.pin.GamePin`): the distribution that installed its plugin,
    its version, the SHA-256 (hex) of the plugin package's files, and atoll's version."""

    dist: str
    version: str
    digest: str
    atoll: str


class KeptSeat(TypedDict):
    """A seat kept at a rematch for a person of the game before: their identity (hex), the seat (from
    0) and their name then."""

    who: str
    seat: int
    name: str


class OpenBody(TypedDict):
    """``open``: the game, the build of it the table plays, and how the table runs."""

    game: str
    variant: str
    seats: int
    name: str
    options: dict[str, Any]
    pin: PinBody
    on_leave: NotRequired[str]
    """What the table does when a seat leaves (:class:`OnLeave`); absent: :attr:`OnLeave.END`, as
    every log written before it did."""
    host_timeout: NotRequired[int]
    """Seconds the peers wait for a silent host before the next seat takes the table over."""
    turn_time_ms: NotRequired[int]
    """Milliseconds a seat may take over what it owes before the host may state a timeout (everyone's
    screen counts it down); absent, the table never forfeits a seat for time (version 5: the table's
    one deadline that can lead to a forfeit is signed here; decision 0020)."""
    kept: NotRequired[list[KeptSeat]]
    """At a rematch: the seats kept for the people of the game before, until they sit again (a seat
    kept for someone goes to another only when no other seat is free)."""


class EndBody(TypedDict):
    """``end``: the results as the game gives them (:meth:`atoll.types.Results.to_json`)."""

    results: dict[str, Any]


class SitBody(TypedDict):
    """``sit``: the display name and, optionally, where this seat would host the table (``HOST:PORT``),
    the seat chosen (from 0; without it: the seat kept for this identity, else the first free one),
    and the kind of bot that plays the seat (a seat without it is a person's)."""

    name: str
    standby: NotRequired[str]
    seat: NotRequired[int]
    bot: NotRequired[str]


class WatchBody(TypedDict):
    """``watch``: the spectator's display name, and whether it takes a seat that is handed over."""

    name: str
    stand_in: NotRequired[bool]
    """This spectator (a bot, on a machine that plays no seat) takes over a seat whose player leaves
    (docs/decisions/0022-handing-a-seat-over.md)."""
    bot: NotRequired[str]
    """A stand-in that is a bot says its kind, as a bot's ``sit`` does: a seat handed to it is still
    played by a bot, and bots are paced only while a person sits (docs/decisions/0023)."""
    standby: NotRequired[str]
    """Where (``HOST:PORT``) the spectator listens to be shown evidence against the host directly."""


class OnLeave(StrEnum):
    """The host's choice, made when it opens the table (``open`` body ``on_leave``), of what happens
    when a seat leaves for good."""

    END = "end"
    """The game ends there, with no result (what every table did before the choice existed)."""
    HAND = "hand"
    """The seat is handed to the first stand-in at the table (a ``watch`` with ``stand_in``), its
    secrets sealed to the stand-in's identity in the ``leave``; with no stand-in there, the game ends."""
    ASK = "ask"
    """The host's person is asked on its screen when a seat leaves: wait for it to come back, end the
    game, or (with a stand-in here, to whom the ``leave`` sealed the seat) hand it over; the answer
    is the host's signed ``decide`` entry."""


class LeaveChoice(StrEnum):
    """What the host's person chose for a seat that left a table opened with :attr:`OnLeave.ASK`."""

    WAIT = "wait"
    """The seat stays its player's: the table waits for them to come back (``atoll join --resume``)."""
    END = "end"
    """The game ends there, with no result, as at a table opened with :attr:`OnLeave.END`."""
    HAND = "hand"
    """The seat goes to the stand-in its ``leave`` named, with the secrets sealed to it."""


class DecideBody(TypedDict):
    """``decide``: the entry number of the ``leave`` it answers, and the choice."""

    leave: int
    choice: str
    """A :class:`LeaveChoice`."""


class MoveBody(TypedDict):
    """``move``: the game step it answers, and the action, or for a secret choice only how many
    values were sealed (the values travel as fair commitments)."""

    at: int
    action: NotRequired[dict[str, Any]]
    sealed: NotRequired[int]


class FairBody(TypedDict):
    """``fair``: one fair-protocol message (:data:`FAIR_FIELDS`)."""

    msg: dict[str, Any]


class TimeoutBody(TypedDict):
    """``timeout``: the seat that ran out of time."""

    seat: int


class WitnessBody(TypedDict):
    """``witness``: the entry number of the timeout witnessed."""

    timeout: int


class RefuseBody(TypedDict):
    """``refuse``: the entry number of the timeout refused, and how long this seat's own clock had
    seen the late seat's turn open when the timeout came (milliseconds)."""

    timeout: int
    waited_ms: int
    owed: NotRequired[list[dict[str, Any]]]
    """The late seat's own signed messages (envelopes, their JSON form) that it gave this seat directly
    and the log did not hold: the table takes them in from here, and the timeout is void."""
    late: NotRequired[bool]
    """``true``: the turn opened before this seat's link caught up with its host (a catch-up after a
    take-over), so its clock cannot say the host was early: the refusal voids the timeout and counts
    toward naming nobody."""
    behind: NotRequired[int]
    """The last entry the late seat held when asked, before the one that opened its turn: it never saw
    its turn open, and this seat gives it the entries it lacks directly (once at a game step)."""


class EvidenceBody(TypedDict):
    """``evidence``: two host signatures for one position of the log over different heads (see
    :meth:`atoll.table.log.TableLog.fork_proved`)."""

    evidence: dict[str, Any]


class WithheldBody(TypedDict):
    """``withheld``: the sending seat's own moves and protocol messages (envelopes) the host has not
    sequenced, though it answers (at most :data:`atoll.table.table.OWED_MOST`)."""

    msgs: list[dict[str, Any]]


class HostingBody(TypedDict):
    """``hosting``: the sending seat's ``host`` entry (a log entry it signed as the table's new host),
    shown to a peer that has not come to it (docs/decisions/0028-one-host-after-a-take-over.md)."""

    entry: dict[str, Any]


class AskBody(TypedDict):
    """``ask``: the entry number of the timeout the asking seat is to answer."""

    timeout: int


class AbortBody(TypedDict):
    """``abort``: the entry number of the timeout whose witnesses did not all come."""

    timeout: int


class LeaveBody(TypedDict, total=False):
    """``leave``: empty, or why the seat cannot go on, and to whom it hands its seat (``to``, ``box``)."""

    #: The game's plugin failed on the leaving seat's machine (its one-line report, at most 300
    #: characters); every peer shows it. Optional, so a log written before it reads the same.
    fault: str
    to: str
    """The stand-in (hex identity) that holds the seat from this entry on (:attr:`OnLeave.HAND`)."""
    box: str
    """With ``to``: what the seat's play needs (:class:`HandOverBox`) as canonical JSON in a sealed box
    to ``to``'s identity (hex); nobody else can open it."""


class HandOverBox(TypedDict):
    """What a leaving seat seals to the stand-in that takes its seat: the table and seat it is for, the
    seat's master secret (hex; its every protocol secret derives from it), and the values of its sealed
    choices (``[game step, values]``; they do not derive from the master)."""

    table: str
    seat: int
    master: str
    sealed: list[list[Any]]


class HostBody(TypedDict):
    """``host``: the host (hex identity) this seat replaces; why, when it was not gone."""

    after: str
    evidence: NotRequired[dict[str, Any]]
    """The proof that the host signed two histories (:class:`EvidenceBody`'s), shown to this seat."""
    withheld: NotRequired[list[dict[str, Any]]]
    """Messages of a seat that every peer held directly for a host timeout and the host had not
    sequenced (each signed by its seat; sequenced again right after)."""


class ChatBody(TypedDict):
    """``chat``: what was said (1 to 500 characters)."""

    text: str


class SyncBody(TypedDict):
    """``sync``: the number of the last entry this peer holds (-1: none)."""

    have: int


class EntriesBody(TypedDict):
    """``entries``: log entries (their JSON form), in order."""

    entries: list[dict[str, Any]]


class Frame(StrEnum):
    """What the host sends down a connection: a JSON object whose ``t`` is one of these. What matters
    in a frame is signed inside it (an entry's host and author signatures, a chat envelope's
    signature), so a frame is never trusted for anything else."""

    WELCOME = "welcome"
    """The answer to a ``sync``: :class:`WelcomeFrame`."""
    ENTRY = "entry"
    """One log entry: :class:`EntryFrame`."""
    ENTRIES = "entries"
    """Log entries back to back (a peer checks one host signature for the run): :class:`EntriesFrame`."""
    CHAT = "chat"
    """Table talk, its author's envelope: :class:`ChatFrame`."""
    ERROR = "error"
    """Why the host refused what this connection sent: :class:`ErrorFrame`."""
    CLOSED = "closed"
    """The table is closed (no fields)."""
    PRESENCE = "presence"
    """Who is away: :class:`PresenceFrame`."""
    NEED = "need"
    """A host taking the table over lacks entries after ``after``: :class:`NeedFrame`."""
    OWED = "owed"
    """A seat's answer to an ``ask``, straight from its standby address: :class:`OwedFrame`."""


class WelcomeFrame(TypedDict):
    """``welcome``: the host's identity (hex), the table id, the protocol the host speaks, how many
    entries its log holds, and an id of this run of the host (a new one: it restarted)."""

    t: str
    host: str
    table: str
    proto: str
    length: int
    run: str
    game: NotRequired[str]
    """On first contact (``have`` -1): the game the ``open`` entry names (a hint; the entry decides)."""
    pin: NotRequired[PinBody]
    """On first contact: the build of it the ``open`` entry pins."""


class EntryFrame(TypedDict):
    """``entry``: one log entry (:meth:`atoll.table.log.Entry.to_json`)."""

    t: str
    entry: dict[str, Any]


class EntriesFrame(TypedDict):
    """``entries``: up to :data:`atoll.table.frames.BATCH_ENTRIES` entries in log order."""

    t: str
    entries: list[dict[str, Any]]


class ChatFrame(TypedDict):
    """``chat``: the author's signed ``chat`` envelope (its JSON form)."""

    t: str
    msg: dict[str, Any]


class ErrorReason(StrEnum):
    """What a peer's program reads in an ``error`` frame (its ``reason``); the ``text`` is for people."""

    ALREADY_LOGGED = "already-logged"
    """The message is in the log already: a repeat of an honest peer's (after a hand-over, or an entry
    slow to come) is answered so, and both ends note it quietly."""


class ErrorFrame(TypedDict):
    """``error``: one line saying what was refused and why, and for a refusal a peer acts on, its
    ``reason`` (a peer never matches the words)."""

    t: str
    text: str
    reason: NotRequired[str]


class PresenceFrame(TypedDict):
    """``presence``: the seats whose link to the host is gone or silent (``away``), and those that said
    goodbye before the game was over (``left``); seat numbers. ``stand_ins_gone``: the stand-ins
    (identities, hex) away or gone, so that a leaving seat hands its seat to one that is here."""

    t: str
    away: list[int]
    left: NotRequired[list[int]]
    stand_ins_gone: NotRequired[list[str]]


class NeedFrame(TypedDict):
    """``need``: the last entry number the new host holds."""

    t: str
    after: int


class OwedFrame(TypedDict):
    """``owed``: the messages this seat sent that its log does not hold (envelopes, their JSON form).
    Answering an ``ask``, also what this seat holds: ``seen``, the host-signed head of its last entry,
    and ``evidence``, its proof that the host signed two histories, if it has one (each checked with the
    host's key alone: a seat the host showed another history is late through no fault of its own)."""

    t: str
    msgs: list[dict[str, Any]]
    seen: NotRequired[dict[str, Any]]
    evidence: NotRequired[dict[str, Any]]


class Step(StrEnum):
    """A step of the fair protocols (a fair message's ``step``), announced by every peer alike from
    the game log (:mod:`atoll.fair.steps.announce`). The messages each step waits for are listed in
    :mod:`atoll.fair.steps.record`."""

    SETUP = "setup"
    CHAIN = "chain"
    CUP = "cup"
    DRAW = "draw"
    SEAL = "seal"
    PROVE = "prove"
    REVEAL = "reveal"
    SHUFFLE = "shuffle"
    DEAL = "deal"
    FINISH = "finish"


class FairKind(StrEnum):
    """What a fair message is (its ``kind``)."""

    HELLO = "hello"
    """A seat's greeting at set-up (the head of its first hash chain)."""
    CHAIN_HEAD = "chain/head"
    """The head of a seat's hash chain for an epoch of draws."""
    CHAIN_OPEN = "chain/open"
    """A seat's next chain link, opened for a draw."""
    SEAL_COMMIT = "seal/commit"
    """Commitments to a secret choice's values."""
    CUP_COMMIT = "cup/commit"
    """A private roll's commitment (the cup's owner)."""
    PROVE = "prove"
    """The proof of claims about sealed values or the seat's own cards."""
    REVEAL = "reveal"
    """Openings of sealed values, and deck keys of cards shown."""
    DECK = "deck"
    """A mental-deck message (shuffle, lock, keys), its type and pile inside."""
    SEED = "seed"
    """A seat's secret seed, opened at the end."""


#: Every field of a fair message (:mod:`atoll.fair.steps.messages`). It carries no signature of its own: the
#: seat's identity signs the ``fair`` envelope around it, and only that envelope authenticates it.
FAIR_FIELDS = ("v", "table", "n", "step", "seat", "kind", "seen", "body")
