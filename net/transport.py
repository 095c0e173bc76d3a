"""ZeroMQ transport for tables: a ROUTER on the host, a DEALER on each peer, CURVE on every link.

The host binds a ROUTER (``ROUTER_MANDATORY``, ``linger=0``, a ``MAXMSGSIZE``, ZMTP heartbeats) as a
CURVE server; a ZAP handler (pyzmq's asyncio authenticator) asks :attr:`HostSocket.admit` about each
client key, so a table whose seats are taken admits only the seated identities and its spectators.
Each peer connects a DEALER as a CURVE client with a key pair derived from its Ed25519 identity, so
the host knows which identity is on which connection. Both are plain pyzmq sockets whose descriptor
the event loop watches itself (:class:`_Watch`, decision 0030). This module carries bytes; it knows
nothing of tables or games.
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
        self.socket: zmq.Socket[bytes] = zmq.Socket(self.context, zmq.ROUTER)
        """The ROUTER itself, a plain ZeroMQ socket that the loop watches (:class:`_Watch`); its
        monitor, and the ZAP handler, are asyncio sockets of the same context."""
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
        self._watch = _Watch(self.socket)

    def bind(self, address: str, port: int | None) -> int:
        """Bind on ``address`` (an IP) and ``port`` (a free one when ``None``); return the port."""
        return self.door.bind(address, port)

    def unbind(self) -> None:
        """Stop listening (a port chosen freely whose next one is taken is given up for another)."""
        self.door.unbind()

    def pending(self) -> bool:
        """Whether a message is waiting (:meth:`take` may still find it malformed, and none)."""
        return self._watch.readable()

    def take(self) -> tuple[bytes, bytes, bytes] | None:
        """The message waiting already, as :meth:`recv` gives it, without waiting (``None``: none)."""
        while self.pending():
            try:
                frames = self.socket.recv_multipart(zmq.NOBLOCK, copy=False)
            except zmq.Again:
                return None
            message = self.read(frames)
            if message is not None:
                return message
        return None

    async def recv(self) -> tuple[bytes, bytes, bytes]:
        """The next message: (connection id, the sender's raw CURVE public key, the bytes)."""
        return await _next_of(self)

    def changed(self) -> asyncio.Future[None]:
        """Done when ZeroMQ signals this socket next (a message may be waiting: :meth:`take` it)."""
        return self._watch.changed()

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
        return self.send_frames([connection, data])

    def send_frames(self, frames: list[bytes]) -> bool:
        """Send ``frames`` as they are (the first names the connection): what :meth:`send` does, for
        any frames (a hostile host's, in the tests); ``False`` if the connection is gone or too slow."""
        try:
            self.socket.send_multipart(frames, flags=zmq.NOBLOCK)
        except (zmq.Again, zmq.ZMQError):  # a connection that is gone (ROUTER_MANDATORY), or full
            return False
        finally:
            self._watch.nudge()
        return True

    def close(self) -> None:
        """Close the socket, its door and the authenticator (linger 0: nothing waits)."""
        self._watch.close()
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
        self.socket: zmq.Socket[bytes] = zmq.Socket(self.context, zmq.DEALER)
        """The DEALER itself, a plain ZeroMQ socket that the loop watches (:class:`_Watch`); its
        monitor is an asyncio socket of the same context."""
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
        self._refusals = cast(zmq.asyncio.Socket, self.socket.get_monitor_socket(
            zmq.EVENT_HANDSHAKE_FAILED_AUTH
            | zmq.EVENT_HANDSHAKE_FAILED_NO_DETAIL
            | zmq.EVENT_HANDSHAKE_FAILED_PROTOCOL
            | zmq.EVENT_HANDSHAKE_SUCCEEDED
        ))
        self._watch = _Watch(self.socket)

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
        await self.send_frames([data])

    async def send_frames(self, frames: list[bytes]) -> None:
        """Send ``frames`` as one message, as they are: what :meth:`send` does without its size check,
        for any frames (a hostile peer's, in the tests)."""
        if self._sent(frames):
            return
        try:
            async with asyncio.timeout(STUCK_SEND_S):
                await self._send_when_room(frames)
        except TimeoutError:
            if self._endpoint is None:
                raise
            self.socket.disconnect(self._endpoint)
            self.socket.connect(self._endpoint)
            await self._send_when_room(frames)

    def _sent(self, frames: list[bytes]) -> bool:
        """Send ``frames`` if there is room now; whether they went."""
        try:
            self.socket.send_multipart(frames, flags=zmq.NOBLOCK)
        except zmq.Again:
            return False
        finally:
            self._watch.nudge()
        return True

    async def _send_when_room(self, frames: list[bytes]) -> None:
        while not self._sent(frames):
            events = _events(self.socket)
            if events & _POLLIN:  # what this look took in may be what the loop waits for
                self._watch.nudge()
            if not events & _POLLOUT:
                await self._watch.changed()

    def pending(self) -> bool:
        """Whether a message from the host is waiting (:meth:`take` may still find it malformed)."""
        return self._watch.readable()

    def take(self) -> bytes | None:
        """The message from the host waiting already, without waiting (``None``: none).

        Messages are always read whole, and one of several frames (no host sends one) is dropped
        unread: ZeroMQ aborts the process when a link drops while a message is read part-way
        (``!_more`` in its fair queue), and a hostile host can make both happen."""
        while self.pending():
            try:
                frames = self.socket.recv_multipart(zmq.NOBLOCK)
            except zmq.Again:
                return None
            if len(frames) == 1:
                return frames[0]
        return None

    async def recv(self) -> bytes:
        """The next message from the host (read as :meth:`take` reads it)."""
        return await _next_of(self)

    def changed(self) -> asyncio.Future[None]:
        """Done when ZeroMQ signals this socket next (a message may be waiting: :meth:`take` it)."""
        return self._watch.changed()

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
        self._watch.close()
        self.socket.disable_monitor()
        self._refusals.close(linger=0)
        self.socket.close(linger=0)
        self.context.term()


def _readable(socket: zmq.Socket[bytes]) -> bool:
    """Whether a message waits on ``socket``; never for a closed one."""
    return not socket.closed and bool(_events(socket) & _POLLIN)


def _events(socket: zmq.Socket[bytes]) -> int:
    """The socket's ``EVENTS`` (reading them also takes in what ZeroMQ signalled meanwhile)."""
    events = socket.getsockopt(_EVENTS)
    return events if isinstance(events, int) else 0


# plain integers: ZeroMQ's constants are enum members, and a bitwise and of an enum member goes through
# the enum machinery, on every look at a socket (twice an entry)
_EVENTS, _POLLIN, _POLLOUT = int(zmq.EVENTS), int(zmq.POLLIN), int(zmq.POLLOUT)


class _Watch:
    """The event loop's watch on a plain ZeroMQ socket: :meth:`changed` is done when ZeroMQ signals.

    ZeroMQ offers a descriptor for this (``ZMQ_FD``), readable while the socket has something to take
    in; reading ``EVENTS`` takes it in and clears it, and says what the socket can do now. The
    descriptor is edge-like: a send, a receive or a look at ``EVENTS`` can take in a message's arrival
    without anyone being woken by it, so whoever waits looks at ``EVENTS`` first (:meth:`take
    <PeerSocket.take>` does), and every send, and every look that finds a message, wakes the waiters
    to look again (:meth:`nudge`).
    pyzmq's asyncio sockets do the same for every call through futures, which cost a loop more than a
    small log entry's own work; a table's loops wait once or twice an entry (decision 0030).
    """

    def __init__(self, socket: zmq.Socket[bytes]) -> None:
        self.socket = socket
        self._fd: int | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._waiters: list[asyncio.Future[None]] = []

    def changed(self) -> asyncio.Future[None]:
        """A future done at ZeroMQ's next signal (or the next send), or at once if the socket is closed
        (its users then find it closed, as ZeroMQ says)."""
        loop = asyncio.get_running_loop()
        waiter: asyncio.Future[None] = loop.create_future()
        if self.socket.closed:
            waiter.set_exception(zmq.ZMQError(zmq.ENOTSOCK))
            return waiter
        if self._loop is not loop:
            self._unwatch()
            self._fd = fd = int(self.socket.getsockopt(zmq.FD))
            loop.add_reader(fd, self._signalled)
            self._loop = loop
        if len(self._waiters) >= 8:  # waits that ended otherwise (a timer, a bot) left theirs behind
            self._waiters = [w for w in self._waiters if not w.done()]
        self._waiters.append(waiter)
        return waiter

    def nudge(self) -> None:
        """A send, or a look at the socket, may have taken in a signal meant for a waiter: wake the
        waiters to look again."""
        if self._waiters:
            self._wake()

    def readable(self) -> bool:
        """Whether a message waits (never on a closed socket); seeing one wakes the waiters, since this
        look may have taken in the signal that would have."""
        readable = _readable(self.socket)
        if readable:
            self.nudge()
        return readable

    def _signalled(self) -> None:
        if self.socket.closed:
            self._unwatch()
        else:
            _events(self.socket)  # takes the signal in: the descriptor is readable until then
        self._wake()

    def _wake(self) -> None:
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    def _unwatch(self) -> None:
        if self._loop is not None and self._fd is not None and not self._loop.is_closed():
            self._loop.remove_reader(self._fd)
        self._loop = self._fd = None

    def close(self) -> None:
        """Stop watching (before the socket closes: its descriptor goes with it)."""
        self._unwatch()
        self._wake()


#: Messages an :class:`Intake` takes in a row while more are waiting, before its loop waits again
#: with its other tasks (a bot's choice, heartbeats, the clock).
TAKEN_IN_A_ROW = 16

Received = TypeVar("Received", covariant=True)


class _Source(Protocol[Received]):
    def take(self) -> Received | None: ...

    def changed(self) -> asyncio.Future[None]: ...


async def _next_of(socket: _Source[Received]) -> Received:
    """The next message ``socket`` takes, waiting for its signals until one comes."""
    message = socket.take()
    while message is None:
        await socket.changed()
        message = socket.take()
    return message


class Intake(Generic[Received]):
    """What a loop takes next from its socket (:class:`HostSocket` or :class:`PeerSocket`).

    A message waiting already is taken at once, up to :data:`TAKEN_IN_A_ROW` in a row before
    ``before_waiting`` is called; otherwise the loop waits for the first of a signal of the socket, its
    ``others`` and ``timeout``.

    A loop waits here once or twice for every log entry, so a wait is kept lean: one waiter is woken by
    whatever comes first, and the timeout is one timer kept from wait to wait, set again only when a
    wait needs it sooner (a timer made and cancelled per wait cost more than a small entry's own work).
    """

    def __init__(self, socket: _Source[Received]) -> None:
        self.socket = socket
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
        (or the timeout of an earlier wait, which may come sooner: the loops ask again; or the socket
        signalled something that was no message); ``before_waiting`` is called before any wait."""
        if self._taken < TAKEN_IN_A_ROW:
            waiting = self.socket.take()
            if waiting is not None:
                self._taken += 1
                return waiting
        self._taken = 0
        if before_waiting is not None:
            before_waiting()
        waiting = self.socket.take()  # what came meanwhile, its signal maybe taken in by a send
        if waiting is not None:
            return waiting
        futures = [f for f in others if f is not None]
        if not any(f.done() for f in futures):
            signalled = self.socket.changed()
            try:
                await self._wait([signalled, *futures], timeout)
            finally:
                signalled.cancel()
        return self.socket.take()

    async def _wait(self, futures: list[asyncio.Future[Any]], timeout: float) -> None:
        """Until one of ``futures`` is done, or the timer rings."""
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
        """Stop the timer."""
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
