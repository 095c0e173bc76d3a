"""The host of a table: it orders and relays signed messages, and is trusted with nothing else.

:class:`Sequencer` is the host's logic without sockets: given the bytes a connection sent, it returns
the frames to send to which connections. It authenticates every message before it reads it, refuses
what cannot be taken now (with an error to its sender and a line in the host's log), places the rest
in the log, signs its place, and relays the entry to every connection. The host keeps its own copy
of the table (:class:`~atoll.table.table.Table`) to know what can be taken; when the host's own
person plays, their messages are sequenced the same way, without a network hop.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from nacl.signing import SigningKey

from atoll.game import Game
from atoll.net.envelope import Envelope, Unauthenticated, open_envelope
from atoll.net.transport import RateLimit, curve_public
from atoll.table.frames import frame
from atoll.table.log import sequence
from atoll.table.table import Table

log = logging.getLogger("atoll.table.host")

#: A frame to send: (connection id, bytes).
Outgoing = tuple[bytes, bytes]


@dataclass
class Sequencer:
    """The host's side of a table: authenticate, admit, sequence and relay.

    :param table: the host's own copy of the table (its key is the host's identity).
    :param key: the host's identity key (signs every entry's place in the log).
    :param late_watchers: admit spectators after the seats are taken.
    """

    table: Table
    key: SigningKey
    late_watchers: bool = False
    limit: RateLimit = field(default_factory=RateLimit)
    connections: dict[bytes, str] = field(default_factory=dict)
    """Connection id -> the identity (hex) that synced on it."""
    refused: int = 0

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
        options: dict[str, object] | None = None,
        master: bytes | None = None,
        log_path: object = None,
        late_watchers: bool = False,
    ) -> Sequencer:
        """Open a new table: the host's copy, and the ``open`` entry at its head."""
        table = Table(
            table_id,
            key.verify_key.encode(),
            key,
            games,
            log_path=log_path,  # type: ignore[arg-type]
            master=master,
        )
        host = cls(table, key, late_watchers)
        body = {"game": game, "variant": variant, "seats": seats, "name": name, "options": options or {}}
        host.local(table.compose("open", body))
        return host

    # -- admission (the ZAP handler asks this) ---------------------------------------------------

    def admit(self, curve_key: bytes) -> bool:
        """Whether a connection with this CURVE key may connect: anyone until the seats are taken."""
        lobby = self.table.lobby
        if lobby is None or not lobby.full() or self.late_watchers:
            return True
        known = [*lobby.seated, *lobby.spectators]
        return any(curve_public(bytes.fromhex(k)) == curve_key for k in known)

    # -- input -------------------------------------------------------------------------------------

    def local(self, data: bytes) -> list[Outgoing]:
        """A message of the host's own person (or the host itself)."""
        return self.receive(b"", b"", data)

    def receive(self, connection: bytes, curve_key: bytes, data: bytes) -> list[Outgoing]:
        """Bytes from ``connection`` (whose CURVE key is ``curve_key``): what to send, to whom."""
        if connection and not self.limit.allow(connection):
            return self._refuse(connection, "too many messages; slow down")
        try:
            message = open_envelope(data)
        except Unauthenticated as exc:
            return self._refuse(connection, f"refused: {exc}")
        if connection and curve_public(bytes.fromhex(message.author)) != curve_key:
            return self._refuse(connection, "refused: the message's author is not this connection's identity")
        if message.kind == "sync":
            return self._sync(connection, message)
        if message.kind == "chat":
            return self._chat(message)
        if message.kind == "bye":
            self.connections.pop(connection, None)
            return []
        reason = self.table.admissible(message)
        if reason is None and self.table.log.holds(message):
            reason = "a message already in the log"
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
            self.table.receive(entry.to_json())
            data = frame("entry", entry=entry.to_json())
            out.extend((conn, data) for conn in self.connections)
            # the host's own seat answers the protocol steps this entry opened
            queue.extend(open_envelope(m) for m in self.table.outbox())
            closing = self.table.closing()
            if closing is not None and not queue:
                queue.append(open_envelope(closing))
        return out

    def _sync(self, connection: bytes, message: Envelope) -> list[Outgoing]:
        have = message.body.get("have", -1)
        if type(have) is not int or have < -1:
            return self._refuse(connection, "refused sync: 'have' must be an entry number or -1")
        self.connections[connection] = message.author
        entries = self.table.log.entries[have + 1 :]
        welcome = frame(
            "welcome",
            host=self.key.verify_key.encode().hex(),
            table=self.table.id,
            proto=message.v,
            length=len(self.table.log.entries),
        )
        return [(connection, welcome), *((connection, frame("entry", entry=e.to_json())) for e in entries)]

    def _chat(self, message: Envelope) -> list[Outgoing]:
        lobby = self.table.lobby
        text = message.body.get("text")
        at_table = lobby is not None and (
            message.author in lobby.seated or message.author in lobby.spectators
        )
        if not at_table or not isinstance(text, str) or not 0 < len(text) <= 500:
            return []
        data = frame("chat", msg=message.to_json())
        return [(conn, data) for conn in self.connections]

    def _refuse(self, connection: bytes, text: str) -> list[Outgoing]:
        self.refused += 1
        log.warning("%s: %s", connection.hex() or "local", text)
        return [(connection, frame("error", text=text))] if connection else []
