"""ZeroMQ transport for tables: a ROUTER on the host, a DEALER on each peer, CURVE on every link.

The host binds a ROUTER (``ROUTER_MANDATORY``, ``linger=0``, a ``MAXMSGSIZE``, ZMTP heartbeats) as a
CURVE server; a ZAP handler (pyzmq's asyncio authenticator) asks :attr:`HostSocket.admit` about each
client key, so a table whose seats are taken admits only the seated identities and its spectators.
Each peer connects a DEALER as a CURVE client with a key pair derived from its Ed25519 identity, so
the host knows which identity is on which connection. This module carries bytes; it knows nothing of
tables or games.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Iterable
from typing import Any, Generic, Protocol, TypeVar, cast

import zmq
import zmq.asyncio
from nacl.signing import SigningKey
from zmq.auth.asyncio import AsyncioAuthenticator
from zmq.utils import z85
from zmq.utils.monitor import parse_monitor_message

from atoll.net.curve import curve_of
from atoll.net.door import Door
from atoll.net.envelope import MAX_FRAME, MAX_MESSAGE, check_size

#: ZMTP heartbeats: a ping every second; a link silent for five is dropped (and reconnected by the peer).
HEARTBEAT_IVL_MS = 1000
HEARTBEAT_TIMEOUT_MS = 5000

#: Seconds a peer's send waits for room before it takes its link for one ZeroMQ gave up on.
STUCK_SEND_S = 3.0


def curve_keys(identity: SigningKey) -> tuple[bytes, bytes]:
    """The CURVE (public, secret) key pair, z85-encoded, that belongs to an Ed25519 identity."""
    secret = identity.to_curve25519_private_key()
    return z85.encode(secret.public_key.encode()), z85.encode(secret.encode())


def curve_public(identity_public: bytes) -> bytes:
    """The z85 CURVE public key of the Ed25519 public key ``identity_public`` (raw 32 bytes)."""
    return z85.encode(curve_of(identity_public))


@functools.lru_cache(maxsize=1024)  # asked for every message the host receives; the same few keys
def _raw_curve(z85_key: bytes) -> bytes:
    """The raw 32 bytes of a z85 CURVE key (empty for an empty or malformed key)."""
    try:
        raw = z85.decode(z85_key)
    except (ValueError, KeyError, TypeError):
        return b""
    return bytes(raw) if len(raw) == 32 else b""


class _Admission:
    """The ZAP credentials provider: asks the host's ``admit`` about each client's CURVE key."""

    def __init__(self, admit: Callable[[bytes], bool]) -> None:
        self.admit = admit

    def callback(self, domain: str, key: bytes) -> bool:
        return self.admit(_raw_curve(key))


class HostSocket:
    """The host's ROUTER socket: receive ``(connection, curve key, bytes)``, send bytes to a connection.

    :param server_keys: the host's CURVE (public, secret) key pair, z85.
    :param admit: decides per client CURVE public key (raw 32 bytes) whether it may connect.
    """

    def __init__(
        self,
        server_keys: tuple[bytes, bytes],
        admit: Callable[[bytes], bool],
        *,
        max_frame: int = MAX_FRAME,
    ) -> None:
        self.context = zmq.asyncio.Context()
        self.auth = AsyncioAuthenticator(self.context)
        self.auth.start()
        self.auth.configure_curve_callback("*", credentials_provider=_Admission(admit))
        self.socket = self.context.socket(zmq.ROUTER)
        self.socket.setsockopt(zmq.ROUTER_MANDATORY, 1)
        self.socket.setsockopt(zmq.LINGER, 0)
        # the hard limit is above the table's (MAX_MESSAGE), so that a message over the table's limit
        # reaches the host, which answers it with an error frame instead of losing the connection
        self.socket.setsockopt(zmq.MAXMSGSIZE, max_frame)
        self.socket.setsockopt(zmq.HEARTBEAT_IVL, HEARTBEAT_IVL_MS)
        self.socket.setsockopt(zmq.HEARTBEAT_TIMEOUT, HEARTBEAT_TIMEOUT_MS)
        self.socket.setsockopt(zmq.SNDHWM, 10_000)
        self.socket.curve_server = True
        self.socket.curve_publickey, self.socket.curve_secretkey = server_keys
        self.door = Door(self.socket, "the table's port")
        """Keeps the connections still in their handshake under a cap (run :meth:`Door.watch`)."""
        self.public_key = server_keys[0]
        self.on_malformed: Callable[[bytes, str], None] | None = None
        """Told (connection, what was wrong) of each message that is not read (none: dropped)."""
        self._now = _immediate(self.socket)

    def bind(self, address: str, port: int | None) -> int:
        """Bind on ``address`` (an IP) and ``port`` (a free one when ``None``); return the port."""
        return self.door.bind(address, port)

    def unbind(self) -> None:
        """Stop listening (a port chosen freely whose next one is taken is given up for another)."""
        self.door.unbind()

    def pending(self) -> bool:
        """Whether a message is waiting (:meth:`take` may still find it malformed, and none)."""
        return _readable(self.socket, self._now)

    def take(self) -> tuple[bytes, bytes, bytes] | None:
        """The message waiting already, as :meth:`recv` gives it, without waiting (``None``: none)."""
        while self.pending():
            try:
                frames = self._now.recv_multipart(zmq.NOBLOCK, copy=False)
            except zmq.Again:
                return None
            message = self.read(frames)
            if message is not None:
                return message
        return None

    async def recv(self) -> tuple[bytes, bytes, bytes]:
        """The next message: (connection id, the sender's raw CURVE public key, the bytes)."""
        message = self.take()  # a message there already is taken without the asyncio machinery
        while message is None:
            message = self.read(await self.receiving())
        return message

    def receiving(self) -> asyncio.Future[list[zmq.Frame]]:
        """A receive of the next message's frames, as ZeroMQ's asyncio socket makes it (no task around
        it); :meth:`read` reads what it gives."""
        return cast("asyncio.Future[list[zmq.Frame]]", self.socket.recv_multipart(copy=False))

    def read(self, frames: list[zmq.Frame]) -> tuple[bytes, bytes, bytes] | None:
        """The message in ``frames`` as :meth:`recv` gives it, or ``None`` when it is not read (it is
        told to :attr:`on_malformed`)."""
        if len(frames) != 2:  # a DEALER sends its message as one frame: the rest is not read
            if self.on_malformed is not None:
                parts = len(frames) - 1
                self.on_malformed(bytes(frames[0].bytes), f"a message is one frame, not {parts}")
            return None
        user = frames[1].get("User-Id")  # the client's CURVE key (z85), set by the ZAP handler
        return bytes(frames[0].bytes), _raw_curve(str(user or "").encode()), frames[1].bytes

    def send(self, connection: bytes, data: bytes) -> bool:
        """Send ``data`` to ``connection``; ``False`` if that connection is gone or too slow."""
        try:
            sent = self.socket.send_multipart([connection, data], flags=zmq.NOBLOCK)
        except (zmq.Again, zmq.ZMQError):
            return False
        # the asyncio socket reports a refused send (a connection that is gone) on the future
        done = cast("asyncio.Future[object]", sent)
        return not (done.done() and done.exception() is not None)

    def close(self) -> None:
        """Close the socket, its door and the authenticator (linger 0: nothing waits)."""
        self.door.close()
        self.socket.close(linger=0)
        self.auth.stop()
        self.context.term()


class Refused(ConnectionError):
    """The host's ZAP handler refused this identity: the CURVE handshake failed on authentication."""


class WrongKey(ConnectionError):
    """The handshake fails again and again before authentication: whoever answers there does not hold
    the CURVE key this peer was given (or is no atoll table)."""


#: Handshakes failed in a row, before authentication, that make a peer give up on the key it was given
#: (one failure can be a link cut in the middle; a wrong key fails every time, about seven a second).
WRONG_KEY_FAILURES = 3


class PeerSocket:
    """A peer's DEALER, a CURVE client of the host whose public key (z85) it was given.

    :param limit: bytes a message may have (the table's limit): :meth:`send` refuses a longer one.
    :param max_frame: bytes a frame from the host may have (ZeroMQ drops the link over it).
    """

    def __init__(
        self,
        identity: SigningKey,
        host_key: bytes,
        *,
        limit: int = MAX_MESSAGE,
        max_frame: int = MAX_FRAME,
    ) -> None:
        self.limit = limit
        self.context = zmq.asyncio.Context()
        self.socket = self.context.socket(zmq.DEALER)
        self.socket.setsockopt(zmq.LINGER, 0)
        self.socket.setsockopt(zmq.MAXMSGSIZE, max_frame)
        self.socket.setsockopt(zmq.HEARTBEAT_IVL, HEARTBEAT_IVL_MS)
        self.socket.setsockopt(zmq.HEARTBEAT_TIMEOUT, HEARTBEAT_TIMEOUT_MS)
        self.socket.setsockopt(zmq.RECONNECT_IVL, 200)
        self.socket.setsockopt(zmq.RECONNECT_IVL_MAX, 2000)
        self.socket.curve_publickey, self.socket.curve_secretkey = curve_keys(identity)
        self.socket.curve_serverkey = host_key
        self.server = host_key
        """The CURVE key (z85) of the host this socket reaches."""
        self._endpoint: str | None = None
        # a refusal by the host's ZAP handler, and a host that cannot read this peer's hello (another
        # key than the one given), reach the client only as monitor events (ZeroMQ itself just retries
        # the handshake), so they are watched from before the first connect
        self._refusals = self.socket.get_monitor_socket(
            zmq.EVENT_HANDSHAKE_FAILED_AUTH
            | zmq.EVENT_HANDSHAKE_FAILED_NO_DETAIL
            | zmq.EVENT_HANDSHAKE_FAILED_PROTOCOL
            | zmq.EVENT_HANDSHAKE_SUCCEEDED
        )
        self._now = _immediate(self.socket)

    def connect(self, host: str, port: int) -> None:
        """Connect to the host (ZeroMQ reconnects by itself when the link drops)."""
        self._endpoint = f"tcp://{host}:{port}"
        self.socket.connect(self._endpoint)

    async def send(self, data: bytes) -> None:
        """Send one message to the host; :class:`~atoll.net.envelope.MessageTooLarge` (naming both
        sizes, nothing sent) for one over :attr:`limit`, which the host would refuse.

        ZeroMQ does not reconnect a link it dropped for a protocol error (a frame from the host over
        ``max_frame``): the socket is left without a link, and a send would wait forever. A send that
        finds no room for :data:`STUCK_SEND_S` connects afresh, so that the peer's next heartbeat
        reaches the host again.
        """
        check_size(data, limit=self.limit)
        sent = cast("asyncio.Future[object]", self.socket.send(data, flags=zmq.NOBLOCK))
        if not (sent.done() and isinstance(sent.exception(), zmq.Again)):
            await sent
            return
        try:
            async with asyncio.timeout(STUCK_SEND_S):
                await self.socket.send(data)
        except TimeoutError:
            if self._endpoint is None:
                raise
            self.socket.disconnect(self._endpoint)
            self.socket.connect(self._endpoint)
            await self.socket.send(data)

    def pending(self) -> bool:
        """Whether a message from the host is waiting (:meth:`take` may still find it malformed)."""
        return _readable(self.socket, self._now)

    def take(self) -> bytes | None:
        """The message from the host waiting already, without waiting (``None``: none).

        Messages are always read whole, and one of several frames (no host sends one) is dropped
        unread: ZeroMQ aborts the process when a link drops while a message is read part-way
        (``!_more`` in its fair queue), and a hostile host can make both happen."""
        while self.pending():
            try:
                frames = self._now.recv_multipart(zmq.NOBLOCK)
            except zmq.Again:
                return None
            if len(frames) == 1:
                return frames[0]
        return None

    async def recv(self) -> bytes:
        """The next message from the host (read as :meth:`take` reads it)."""
        message = self.take()  # a message there already is taken without the asyncio machinery
        while message is None:
            message = self.read(await self.receiving())
        return message

    def receiving(self) -> asyncio.Future[list[bytes]]:
        """A receive of the next message's frames, as ZeroMQ's asyncio socket makes it (no task around
        it); :meth:`read` reads what it gives."""
        return cast("asyncio.Future[list[bytes]]", self.socket.recv_multipart())

    @staticmethod
    def read(frames: list[bytes]) -> bytes | None:
        """The message in ``frames``; ``None`` for one of several frames, dropped unread (as :meth:`take`
        drops it)."""
        return frames[0] if len(frames) == 1 else None

    async def recv_admitted(self) -> bytes:
        """The next message from the host; :class:`Refused` when the host refuses this identity's
        handshake first, :class:`WrongKey` when every handshake fails before that (without these, the
        peer would wait for a message that never comes)."""
        receiving = asyncio.ensure_future(self.recv())
        failed = 0
        try:
            while True:
                watching = asyncio.ensure_future(self._refusals.recv_multipart())
                try:
                    await asyncio.wait({receiving, watching}, return_when=asyncio.FIRST_COMPLETED)
                finally:
                    if not watching.done():
                        watching.cancel()
                if receiving.done():
                    data: bytes = receiving.result()
                    return data
                event = parse_monitor_message(watching.result())
                if event["event"] == zmq.EVENT_HANDSHAKE_FAILED_AUTH:
                    raise Refused(f"the host refused this identity's handshake (ZAP status {event['value']})")
                failed = 0 if event["event"] == zmq.EVENT_HANDSHAKE_SUCCEEDED else failed + 1
                if failed >= WRONG_KEY_FAILURES:
                    raise WrongKey(f"{failed} handshakes in a row failed ({zmq.Event(event['event']).name})")
        finally:
            if not receiving.done():
                receiving.cancel()

    def close(self) -> None:
        """Close the socket and its monitor (linger 0); closing again does nothing."""
        if self.socket.closed:
            return
        self.socket.disable_monitor()
        self._refusals.close(linger=0)
        self.socket.close(linger=0)
        self.context.term()


def _immediate(socket: zmq.asyncio.Socket) -> zmq.Socket[bytes]:
    """A plain view of ``socket``'s ZeroMQ socket, to take a message that is there already
    (``NOBLOCK``): the asyncio socket makes a future and a poller registration for each one, which
    costs more than the message. Only receives go this way, and only while no asyncio receive waits
    on ``socket`` (a peer or host takes one message at a time). Sends stay with the asyncio socket,
    which wakes a waiting receive whose readiness a send noticed (ZeroMQ signals it only once)."""
    return zmq.Socket.shadow(socket.underlying)


def _readable(socket: zmq.asyncio.Socket, plain: zmq.Socket[bytes]) -> bool:
    """Whether a message waits on ``socket``; never for a closed one (its plain view does not know it
    is closed: the asyncio socket then raises what a closed socket raises)."""
    if socket.closed:
        return False
    events = plain.getsockopt(_EVENTS)
    return isinstance(events, int) and bool(events & _POLLIN)


# plain integers: ZeroMQ's constants are enum members, and a bitwise and of an enum member goes through
# the enum machinery, on every look at a socket (twice an entry)
_EVENTS, _POLLIN = int(zmq.EVENTS), int(zmq.POLLIN)


#: Messages an :class:`Intake` takes in a row while more are waiting, before its loop waits again
#: with its other tasks (a bot's choice, heartbeats, the clock).
TAKEN_IN_A_ROW = 16

Received = TypeVar("Received", covariant=True)


class _Source(Protocol[Received]):
    def take(self) -> Received | None: ...

    def receiving(self) -> asyncio.Future[Any]: ...

    def read(self, frames: Any) -> Received | None: ...


class Intake(Generic[Received]):
    """What a loop takes next from its socket (:class:`HostSocket` or :class:`PeerSocket`).

    A message waiting already is taken at once, up to :data:`TAKEN_IN_A_ROW` in a row, without a wait
    for each (a wait costs more than a small message, and a roll's entries come in a burst); otherwise
    the loop waits for the first of the socket's receive, its ``others`` and ``timeout``. One receive
    is outstanding at most; :meth:`close` cancels it.

    A loop waits here once or twice for every log entry, so a wait is kept lean: the socket's own
    receive future is awaited (no task around it), one waiter is woken by whatever comes first, and
    the timeout is one timer kept from wait to wait, set again only when a wait needs it sooner (a timer
    made and cancelled per wait cost more than a small entry's own work).
    """

    def __init__(self, socket: _Source[Received]) -> None:
        self.socket = socket
        self._receiving: asyncio.Future[Any] | None = None
        self._taken = 0
        self._waiter: asyncio.Future[None] | None = None
        self._alarm: asyncio.TimerHandle | None = None

    async def next(
        self,
        others: Iterable[asyncio.Future[Any] | None],
        timeout: float,
        *,
        before_waiting: Callable[[], None] | None = None,
    ) -> Received | None:
        """The next message, or ``None`` when one of ``others`` finished or ``timeout`` passed first
        (or the timeout of an earlier wait, which may come sooner: the loops ask again; and a message
        that is not read); ``before_waiting`` is called before any wait."""
        if self._receiving is None and self._taken < TAKEN_IN_A_ROW:
            waiting = self.socket.take()
            if waiting is not None:
                self._taken += 1
                return waiting
        self._taken = 0
        if before_waiting is not None:
            before_waiting()
        receiving = self._receiving
        if receiving is None:
            receiving = self._receiving = self.socket.receiving()
            receiving.add_done_callback(self._wake)
        if not receiving.done():
            futures = [f for f in others if f is not None]
            if not any(f.done() for f in futures):
                await self._wait(futures, timeout)
            if not receiving.done():
                return None
        self._receiving = None
        return self.socket.read(receiving.result())

    async def _wait(self, futures: list[asyncio.Future[Any]], timeout: float) -> None:
        """Until the receive or one of ``futures`` is done, or the timer rings."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        alarm = self._alarm
        if alarm is None or alarm.when() > deadline:
            if alarm is not None:
                alarm.cancel()
            self._alarm = loop.call_at(deadline, self._ring)
        self._waiter = waiter = loop.create_future()
        for future in futures:
            future.add_done_callback(self._wake)
        try:
            await waiter
        finally:
            self._waiter = None
            for future in futures:
                future.remove_done_callback(self._wake)

    def _wake(self, _: object = None) -> None:
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def _ring(self) -> None:
        self._alarm = None
        self._wake()

    def close(self) -> None:
        """Cancel the receive that is outstanding, if any, and the timer."""
        if self._receiving is not None and not self._receiving.done():
            self._receiving.cancel()
        self._receiving = None
        if self._alarm is not None:
            self._alarm.cancel()
            self._alarm = None


class KeyService:
    """Tells anyone who asks the host's CURVE public key, in the clear, on the port after the table's.

    A direct join by address learns the key here on first contact (trust on first use: the joining
    person is shown the host's fingerprint, and the key is remembered per address); a join with
    ``HOST:PORT#KEY`` never asks. The answer is public and the service reads nothing it is sent.
    """

    def __init__(self, answer: bytes) -> None:
        self.context = zmq.asyncio.Context()
        self.socket = self.context.socket(zmq.REP)
        self.socket.setsockopt(zmq.LINGER, 0)
        self.socket.setsockopt(zmq.MAXMSGSIZE, 64)
        self.door = Door(self.socket, "the key service's port")
        """Keeps the connections still in their handshake under a cap (run :meth:`Door.watch`)."""
        self.answer = answer

    def bind(self, address: str, port: int) -> None:
        """Bind on ``address:port``."""
        self.door.bind(address, port)

    async def serve(self) -> None:
        """Answer every request until cancelled (watching the door meanwhile)."""
        door = asyncio.ensure_future(self.door.watch())
        try:
            while True:
                await self.socket.recv()
                await self.socket.send(self.answer)
        finally:
            door.cancel()

    def close(self) -> None:
        """Close the socket and its door (linger 0)."""
        self.door.close()
        self.socket.close(linger=0)
        self.context.term()


async def ask_key(host: str, port: int, timeout: float = 5.0) -> bytes:
    """Ask a host's :class:`KeyService` (at ``port``) for its answer; TimeoutError if none comes."""
    context = zmq.asyncio.Context()
    socket = context.socket(zmq.REQ)
    socket.setsockopt(zmq.LINGER, 0)
    socket.setsockopt(zmq.MAXMSGSIZE, 4096)
    try:
        socket.connect(f"tcp://{host}:{port}")
        await socket.send(b"key?")
        async with asyncio.timeout(timeout):
            answer: bytes = await socket.recv()
        return answer
    finally:
        socket.close(linger=0)
        context.term()
