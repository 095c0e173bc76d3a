"""A bound port's door: connections that never finish their handshake cannot starve the host.

ZeroMQ accepts every TCP connection at once, and an accepted connection holds a file descriptor from
before it says a word. Two of ZeroMQ's own means keep that bounded here:

- ``ZMQ_HANDSHAKE_IVL``: a connection that has not finished its ZMTP greeting and CURVE handshake
  (the ZAP answer included) within :data:`HANDSHAKE_MS` is dropped by ZeroMQ (its default is 30 s);
- socket monitoring: :class:`Door` counts the connections accepted against the handshakes that
  ended (succeeded or failed), and notices an accept that failed for want of descriptors (``EMFILE``:
  ZeroMQ then retries it without pause, spinning a core).

When the connections still in their handshake reach the door's cap, or an accept fails for want of
descriptors, the door closes: it unbinds the port, refuses new connections for :data:`REOPEN_S` and
says so in the host's log, then binds again. ZeroMQ has no way to end one accepted connection, and
unbinding ends every connection the port accepted, the seated peers' too: they reconnect by
themselves and sync again, as after any dropped link, and nothing of the table is lost.
"""

from __future__ import annotations

import asyncio
import errno
import logging
from typing import Any

import zmq
import zmq.asyncio
from zmq.utils.monitor import parse_monitor_message

from atoll.net.descriptors import pending_cap

log = logging.getLogger("atoll.net.door")

#: Milliseconds a connection has to finish its handshake before ZeroMQ drops it.
HANDSHAKE_MS = 10_000

#: Seconds a closed door stays closed before the port is bound again.
REOPEN_S = 1.0

#: Seconds between two tries to bind the port again (it may be held a moment by the old listener).
REBIND_S = 0.2

#: What an accept fails with when the process or the system is out of descriptors or memory.
STARVED = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})

#: The ways a handshake ends: every accepted connection ends its handshake with one of them.
HANDSHAKE_ENDS = (
    zmq.EVENT_HANDSHAKE_SUCCEEDED
    | zmq.EVENT_HANDSHAKE_FAILED_NO_DETAIL
    | zmq.EVENT_HANDSHAKE_FAILED_PROTOCOL
    | zmq.EVENT_HANDSHAKE_FAILED_AUTH
)

WATCHED = zmq.EVENT_ACCEPTED | zmq.EVENT_ACCEPT_FAILED | HANDSHAKE_ENDS | zmq.EVENT_DISCONNECTED


class Door:
    """Binds ``socket`` and keeps the connections in their handshake under ``cap``.

    :param socket: a socket not bound yet (its handshake interval is set here).
    :param name: what the port is, for the host's log ("the table's port").
    :param cap: connections that may be in their handshake at once (default: a share of the
        descriptor limit, :func:`~atoll.net.descriptors.pending_cap`, for two doors).
    """

    def __init__(self, socket: zmq.Socket[Any], name: str, *, cap: int | None = None) -> None:
        socket.setsockopt(zmq.HANDSHAKE_IVL, HANDSHAKE_MS)
        self.socket = socket
        self.name = name
        self.cap = pending_cap(2) if cap is None else cap
        # made by the socket's context: an asyncio socket when that is an asyncio context, as the
        # tables' sockets have (plain sockets, watched by the loop, in an asyncio context)
        monitor = socket.get_monitor_socket(WATCHED)
        if not isinstance(monitor, zmq.asyncio.Socket):
            socket.disable_monitor()
            monitor.close(linger=0)
            raise TypeError("a door's socket belongs to an asyncio context (zmq.asyncio.Context)")
        self.monitor = monitor
        self.address: str | None = None
        """The endpoint bound (``tcp://ADDRESS:PORT``), once bound."""
        self.accepted = 0
        """Connections accepted since the door last opened."""
        self.ended = 0
        """Handshakes ended (succeeded or failed) since the door last opened."""
        self.closings = 0
        """How many times the door closed."""
        self.disconnects = 0
        """Connections ZeroMQ found gone (closed by the peer, or silent past the ZMTP heartbeat timeout),
        ever: its owner looks at who is still there when this grows (a monitor event names no peer)."""

    def bind(self, address: str, port: int | None) -> int:
        """Bind on ``address`` (an IP) and ``port`` (a free one when ``None``); return the port."""
        if port is None:
            port = int(self.socket.bind_to_random_port(f"tcp://{address}"))
        else:
            self.socket.bind(f"tcp://{address}:{port}")
        self.address = self.socket.get_string(zmq.LAST_ENDPOINT)  # as ZeroMQ resolved it, for unbind
        return port

    def unbind(self) -> None:
        """Stop listening on the port bound (nothing when none is)."""
        if self.address is not None:
            self.socket.unbind(self.address)
            self.address = None

    def pending(self) -> int:
        """Connections accepted whose handshake has not ended yet."""
        return max(0, self.accepted - self.ended)

    async def watch(self) -> None:
        """Count the door's connections, and close it for a while when they jam it; until cancelled."""
        while True:
            event = parse_monitor_message(await self.monitor.recv_multipart())
            kind, value = event["event"], event["value"]
            if kind == zmq.EVENT_ACCEPTED:
                self.accepted += 1
            elif kind == zmq.EVENT_DISCONNECTED:
                self.disconnects += 1
            elif kind & HANDSHAKE_ENDS:
                self.ended += 1
            if kind == zmq.EVENT_ACCEPT_FAILED and value in STARVED:
                await self._close_for_a_while(f"out of file descriptors ({errno.errorcode[value]})")
            elif self.pending() >= self.cap:
                await self._close_for_a_while(
                    f"{self.pending()} connections have not finished their handshake (at most {self.cap})"
                )

    async def _close_for_a_while(self, why: str) -> None:
        if self.address is None:
            return
        self.closings += 1
        log.warning(
            "%s: refusing new connections for %.0f s: %s; every connection is closed, seated peers reconnect",
            self.name,
            REOPEN_S,
            why,
        )
        self.socket.unbind(self.address)
        await self._drain(REOPEN_S)  # what the closed port's connections still report is not counted
        self.accepted = self.ended = 0
        tries = 0
        while True:
            try:
                self.socket.bind(self.address)
                break
            except zmq.ZMQError as exc:  # the old listener may hold the port a moment, or descriptors
                tries += 1
                if tries == 10:
                    log.warning("%s: cannot open again yet (%s); still trying", self.name, exc.strerror)
                await self._drain(REBIND_S)
        log.warning("%s: accepting new connections again", self.name)

    async def _drain(self, seconds: float) -> None:
        """Read and drop the monitor's events for ``seconds``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        while (left := deadline - loop.time()) > 0:
            if await self.monitor.poll(left * 1000):
                await self.monitor.recv_multipart()

    def close(self) -> None:
        """Stop watching (the socket itself is its owner's to close)."""
        if not self.socket.closed:
            self.socket.disable_monitor()
        self.monitor.close(linger=0)
