"""Seats reaching each other directly, at their standby addresses, only when one is accused.

Each seat names a standby address when it sits (``sit`` body). While it plays, it listens there with a
:class:`SideDoor`: a CURVE ROUTER that admits only the identities seated at the table (pinned from the
log) and answers one question, ``ask``: what this seat sent that its log does not hold. A seat asked to
witness a timeout puts that question to the late seat (:func:`ask_directly`) before it answers, so a
host that withheld a seat's message cannot get that seat named (the seat that asked brings the message
in its refusal). Nobody connects to anybody while nobody is accused: an idle side door costs a bound
socket and nothing on the wire (docs/decisions/0020-the-host-cannot-frame-a-seat.md).
"""

from __future__ import annotations

import asyncio
import logging

import zmq
from nacl.signing import SigningKey

from atoll.errors import AtollError
from atoll.net.curve import curve_of
from atoll.net.transport import HostSocket, PeerSocket, curve_keys, curve_public
from atoll.table.peer import PeerSession
from atoll.table.table import ASK_WAIT_S

log = logging.getLogger("atoll.app.direct")


class SideDoor:
    """This seat's listening socket at its standby address, answering seats' ``ask`` from its session."""

    def __init__(self, key: SigningKey, session: PeerSession) -> None:
        self.session = session
        self.socket = HostSocket(curve_keys(key), self.admit)
        self._serving: asyncio.Task[None] | None = None

    def admit(self, curve_key: bytes) -> bool:
        """Only the seats and spectators of this table that listen too (their identities pinned from
        the log, with their addresses) may connect."""
        lobby = self.session.table.lobby
        return lobby is not None and any(curve_of(bytes.fromhex(a)) == curve_key for a in lobby.standby)

    def open(self, address: str, *, movable: bool = False) -> str | None:
        """Listen at ``address`` (``HOST:PORT``) and answer from now on; the address listened at.

        Its port was free when it was chosen, and another program may have taken it since: when
        ``movable`` (no signed entry names the address yet) another free port of the same host is
        taken instead. ``None`` (and a line in the log) when nothing can be bound: the seat plays on,
        asked by nobody."""
        host, port = endpoint(address)
        problem: Exception | None = None
        for trying in (port, None) if movable else (port,):
            try:
                bound = self.socket.bind(host, trying)
            except (OSError, AtollError, zmq.ZMQError) as exc:
                problem = exc
                continue
            self._serving = asyncio.ensure_future(self._serve())
            return address if bound == port else f"{address.rpartition(':')[0]}:{bound}"
        log.warning("cannot listen at the standby address %s (%s): no seat can ask this one directly",
                    address, problem)
        return None

    async def _serve(self) -> None:
        while True:
            connection, _, data = await self.socket.recv()
            reply = self.session.on_direct(data)
            if reply is not None:
                self.socket.send(connection, reply)

    def close(self) -> None:
        """Stop answering and let the address go (a seat taking the table over binds it next)."""
        if self._serving is not None:
            self._serving.cancel()
        self.socket.close()


async def ask_directly(key: SigningKey, address: str, identity: str, question: bytes,
                       wait: float = ASK_WAIT_S) -> bytes | None:
    """Put ``question`` (a signed ``ask``) to the seat ``identity`` (hex) at its standby ``address``,
    over CURVE pinned to that identity; its answer, or ``None`` when it does not answer in ``wait``."""
    host, port = endpoint(address)
    link = PeerSocket(key, curve_public(bytes.fromhex(identity)))

    async def put() -> bytes:
        link.connect(host, port)
        await link.send(question)
        return await link.recv()

    try:
        async with asyncio.timeout(wait):
            return await put()
    except (TimeoutError, OSError):
        return None
    finally:
        link.close()


def endpoint(address: str) -> tuple[str, int]:
    """A standby ``HOST:PORT`` (checked when its seat sat down, so it is well formed) as a pair."""
    host, _, port = address.rpartition(":")
    return host.strip("[]"), int(port)
