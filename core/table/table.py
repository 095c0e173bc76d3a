"""A network table as one peer sees it: the log, the lobby, the game, and what this peer owes.

:class:`Table` is a pure state machine: :meth:`Table.receive` takes the next log entry from the host,
checks it against the chain and the author's signature, writes it to disk, then folds it in. It knows
which seat each identity holds, runs the game through :class:`~atoll.table.engine.TableEngine`, and
collects the messages this peer must send (:meth:`Table.outbox`). The host runs the same class on its
own copy of the log and, before it sequences a message, asks :meth:`Table.admissible` so that a move
out of turn is refused with a clear error instead of entering the log; a peer still checks every
entry itself and refuses, identically on every peer, whatever the host let through.

Message kinds (the envelope's ``kind``) and bodies:

=========  =========================================  =============================================
kind       body                                       meaning
=========  =========================================  =============================================
open       game, variant, seats, name, options        the host opens the table (entry 0 only)
end        results                                    the host closes the table (the last entry)
sit        name                                       take the next free seat
watch      name                                       sit by as a spectator
move       at, action | at, sealed (a count)          a seat's decision at game step ``at``
fair       msg (a fair-protocol message)              a message of the fair protocols
chat       text                                       table talk (relayed, never in the log)
sync       have (the seq this peer holds)             ask the host for the entries after ``have``
=========  =========================================  =============================================
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from nacl.signing import SigningKey

from atoll.errors import AtollError, CheatDetected
from atoll.fair.identity import identity_signer
from atoll.fair.seat import Participant
from atoll.game import Game
from atoll.net.envelope import Envelope, seal
from atoll.table.engine import TableEngine
from atoll.table.log import PROTOCOL, Entry, TableLog
from atoll.types import Config, End

#: Kinds that enter the log.
LOGGED = ("open", "sit", "watch", "move", "fair", "end")

_NAME_LIMIT = 32


@dataclass
class Event:
    """Something a person at the table should hear of: ``text``; ``blame`` names a cheating seat."""

    text: str
    seq: int
    blame: int | None = None
    refused: bool = False


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

    def full(self) -> bool:
        """Whether every seat is taken (the game has started)."""
        return len(self.seated) >= self.seats

    def seat_of(self, author: str) -> int | None:
        """The seat held by the identity ``author``, if any."""
        return self.seated.index(author) if author in self.seated else None


def check_name(name: Any) -> str:
    """A display name: printable text of 1-32 characters."""
    if not isinstance(name, str) or not 1 <= len(name) <= _NAME_LIMIT or not name.isprintable():
        raise ValueError(f"a name is 1-{_NAME_LIMIT} printable characters, not {str(name)[:40]!r}")
    return name


class Table:
    """One peer's view of a table (the host's own copy included).

    :param table_id: the table id.
    :param host_key: the host's Ed25519 public key (raw), which signs the log's order.
    :param key: this peer's identity key (signs its messages); ``None`` for a read-only copy (audit).
    :param games: finds a game's plugin by name (the registry's ``game``).
    :param log_path: where this peer's copy of the log is written (``None``: memory only).
    :param master: this peer's master secret for the fair protocols (32 bytes; fresh if ``None``).
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
    ) -> None:
        self.id = table_id
        self.log = TableLog(table_id, host_key, log_path)
        self.key = key
        self.me = key.verify_key.encode().hex() if key is not None else None
        self.games = games
        self.master = master if master is not None else os.urandom(32)
        self.lobby: Lobby | None = None
        self.engine: TableEngine | None = None
        self.events: list[Event] = []
        self.ended: str | None = None
        """Why the game ended early (a cheat), else ``None``."""
        self.closed = False
        """Whether the host has logged the game's result (the table's last entry)."""
        self._outbox: list[bytes] = []
        self._pending_fair: list[dict[str, Any]] = []
        self._n = 0

    # -- reading ----------------------------------------------------------------------------

    @property
    def my_seat(self) -> int | None:
        """This peer's seat, once seated."""
        return None if self.lobby is None or self.me is None else self.lobby.seat_of(self.me)

    def results(self) -> End | None:
        """The game's end, once every seat has opened its seeds."""
        return None if self.engine is None else self.engine.results()

    def over(self) -> bool:
        """Whether the table is closed: the host logged the result, or the game ended in a cheat."""
        return self.ended is not None or self.closed

    def closing(self) -> bytes | None:
        """The host's ``end`` message, once the game has finished and it is not yet logged."""
        end = self.results()
        if end is None or self.closed or self.me != self._host_hex():
            return None
        return self.compose("end", {"results": end.results.to_json()})

    def outbox(self) -> list[bytes]:
        """The signed messages this peer must send now (each handed out once)."""
        out, self._outbox = self._outbox, []
        return out

    # -- writing messages -------------------------------------------------------------------

    def compose(self, kind: str, body: dict[str, Any]) -> bytes:
        """Sign a message of this peer's, naming the head it has seen."""
        if self.key is None:
            raise AtollError("a read-only table copy writes no messages")
        data = seal(
            self.key, v=PROTOCOL, kind=kind, table=self.id, n=self._n, seen=self.log.seen(), body=body
        )
        self._n += 1
        return data

    def move(self, action: dict[str, Any]) -> bytes:
        """This peer's seat takes ``action`` (a sealed choice's values stay here until it is logged)."""
        if self.engine is None:
            raise AtollError("the game has not started")
        at = len(self.engine.match.events)
        if "secret" in action:
            self.engine.hold_sealed(action["secret"])
            return self.compose("move", {"at": at, "sealed": len(action["secret"])})
        return self.compose("move", {"at": at, "action": action})

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
        if message.kind == "open":
            return (
                None if lobby is None and message.author == self._host_hex() else "the table is open already"
            )
        if message.kind == "end":
            return (
                None
                if message.author == self._host_hex() and self.results() is not None
                else "only the host ends the table, once the game is over"
            )
        if lobby is None:
            return "the table is not open yet"
        try:
            self._check(message, lobby)
        except (AtollError, ValueError) as exc:
            return str(exc)
        return None

    def _host_hex(self) -> str:
        return self.log.host.encode().hex()

    # -- fed by the host ----------------------------------------------------------------------

    def receive(self, data: dict[str, Any]) -> Entry:
        """Check, keep (on disk first) and fold in the next log entry; raises BadEntry or HostEquivocated."""
        entry = self.log.check(data)
        self.log.keep(entry)
        self._apply(entry)
        return entry

    def _apply(self, entry: Entry) -> None:
        message = entry.message
        if message.author == self.me:
            self._n = max(self._n, message.n + 1)
        if self.ended is not None:
            self._event(entry, "the game is over; entry ignored", refused=True)
            return
        if message.kind == "open":
            self._open(entry)
            return
        if message.kind == "end":
            self._end(entry)
            return
        if self.lobby is None:
            self._event(entry, "refused: the table is not open yet", refused=True)
            return
        try:
            self._check(message, self.lobby)
            self._fold(entry, self.lobby)
        except CheatDetected as exc:
            self.ended = f"seat {exc.seat} cheated: {exc}"
            self._event(entry, self.ended, blame=exc.seat)
        except (AtollError, ValueError) as exc:
            self._event(entry, f"refused {message.kind} of {self._who(message.author)}: {exc}", refused=True)
        self._flush()

    def _open(self, entry: Entry) -> None:
        body, message = entry.message.body, entry.message
        if entry.seq != 0 or self.lobby is not None or message.author != self._host_hex():
            self._event(entry, "refused: only the host opens the table, in the first entry", refused=True)
            return
        try:
            game = self.games(str(body["game"]))
            seats, variant = body["seats"], body["variant"]
            if type(seats) is not int or not game.info.min_seats <= seats <= game.info.max_seats:
                raise ValueError(f"{game.info.name} takes {game.info.min_seats}-{game.info.max_seats} seats")
            options = body.get("options", {})
            if not isinstance(options, dict) or not isinstance(variant, str):
                raise ValueError("variant is text and options an object")
            self.lobby = Lobby(
                game.info.name, variant, seats, check_name(body.get("name", "table")), options, message.author
            )
        except (KeyError, ValueError, AtollError) as exc:
            self.ended = f"the host opened a table that cannot be played: {exc}"
            self._event(entry, self.ended)
            return
        self._event(entry, f"table {self.lobby.name!r} opened: {self.lobby.game} ({variant}), {seats} seats")

    def _end(self, entry: Entry) -> None:
        end = self.results()
        if entry.message.author != self._host_hex() or end is None:
            self._event(entry, "refused: only the host ends the table, once the game is over", refused=True)
            return
        if entry.message.body.get("results") != end.results.to_json():
            self.ended = (
                f"the host announced results {entry.message.body.get('results')} that the log does not give"
            )
            self._event(entry, self.ended)
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
        if kind in ("sit", "watch"):
            check_name(body.get("name"))
            if author in lobby.seated or author in lobby.spectators:
                raise ValueError("already at the table")
            if kind == "sit" and lobby.full():
                raise ValueError("every seat is taken")
            return
        seat = lobby.seat_of(author)
        if seat is None:
            raise ValueError(f"{kind} from an identity that holds no seat")
        if self.engine is None:
            raise ValueError("the game has not started")
        if kind == "move":
            self.engine.check_move(seat, body)
        elif kind == "fair":
            fair = body.get("msg")
            if not isinstance(fair, dict) or fair.get("seat") != seat:
                raise ValueError(f"seat {seat} sent a protocol message that is not its own")
            if not self.engine.resolver.busy():
                raise ValueError("no protocol step waits for messages now")
        else:
            raise ValueError(f"unknown message kind {kind!r}")

    def _fold(self, entry: Entry, lobby: Lobby) -> None:
        message = entry.message
        kind, body, author = message.kind, message.body, message.author
        if kind == "sit":
            lobby.seated.append(author)
            lobby.names[author] = body["name"]
            self._event(entry, f"{body['name']} takes seat {len(lobby.seated) - 1}")
            if lobby.full():
                self._start(lobby)
            return
        if kind == "watch":
            lobby.spectators.append(author)
            lobby.names[author] = body["name"]
            self._event(entry, f"{body['name']} watches")
            return
        assert self.engine is not None
        seat = lobby.seat_of(author)
        assert seat is not None
        if kind == "move":
            what = "seals a choice" if "sealed" in body else self._describe(body.get("action"))
            self.engine.act(seat, body)
            self._event(entry, f"{self._who(author)}: {what}")
        else:
            self.engine.protocol(body["msg"])
            self.engine.pump()

    def _start(self, lobby: Lobby) -> None:
        game = self.games(lobby.game)
        config = Config(lobby.seats, lobby.variant, lobby.options)
        identities = [bytes.fromhex(author) for author in lobby.seated]
        seat = self.my_seat
        me = None
        if seat is not None and self.key is not None:
            me = Participant(
                seat, self.id, lobby.seats, self.master, identities=identities, bind=identity_signer(self.key)
            )
        self.engine = TableEngine(game, config, self.id, me, self._send_fair, identities)
        self.engine.pump()

    def _send_fair(self, message: dict[str, Any]) -> None:
        self._pending_fair.append(message)

    def _flush(self) -> None:
        """Turn the fair messages the engine wrote into signed table messages."""
        pending, self._pending_fair = self._pending_fair, []
        for message in pending:
            self._outbox.append(self.compose("fair", {"msg": message}))

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
                return f"seat {seat} ({self.lobby.names.get(author, '?')})"
            if author in self.lobby.names:
                return self.lobby.names[author]
        return author[:16]

    def _event(self, entry: Entry, text: str, *, blame: int | None = None, refused: bool = False) -> None:
        self.events.append(Event(text, entry.seq, blame, refused))
