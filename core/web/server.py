"""The big screen's web server: the page, its snapshot, and a stream of snapshots as Server-Sent
Events, over the standard library's asyncio streams.

Three things are served, all read-only: ``/`` (the page, :file:`page.html`), ``/state`` (the snapshot
now, JSON) and ``/events`` (``text/event-stream``: the snapshot now, then each new one as the table
changes, and a comment every few seconds so a proxy or a sleeping laptop notices a dead stream).
Anything else is 404, anything but GET or HEAD 405. The table is looked at every
:data:`POLL_S` seconds, cheaply (:meth:`TablePage.stamp`), and a snapshot is sent only when it differs.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.resources
import json
from dataclasses import dataclass

from atoll.errors import AtollError
from atoll.net.eventloop import stopped
from atoll.web.view import Snapshot, TablePage, waiting_only

#: How often the table is looked at for changes, in seconds (well within the half second a change
#: may take to reach the screen).
POLL_S = 0.1
#: Seconds between keep-alive comments on an idle event stream.
KEEPALIVE_S = 10.0
#: How long a client may take to send its request, in seconds, and its largest size in bytes.
REQUEST_S = 10.0
REQUEST_BYTES = 8192
#: Most clients served at once (a projector or two, and a few phones at a party).
MAX_CLIENTS = 64
#: What an EventSource waits before reconnecting, in milliseconds.
RETRY_MS = 1000


@dataclass(frozen=True)
class WebAddress:
    """Where the page listens: ``host`` (loopback unless asked) and ``port`` (0: a free one)."""

    host: str
    port: int

    @classmethod
    def parse(cls, text: str) -> WebAddress:
        """``PORT`` (on loopback) or ``ADDR:PORT``; AtollError saying what is wrong otherwise."""
        host, _, port = text.rpartition(":")
        host = host.strip("[]") or "127.0.0.1"
        if not port.isdigit() or not 0 <= int(port) <= 65535:
            raise AtollError(f"--web wants PORT or ADDR:PORT (for the LAN: 0.0.0.0:PORT), not {text!r}")
        return cls(host, int(port))

    @property
    def loopback(self) -> bool:
        """Whether only this machine can open the page."""
        return self.host in ("127.0.0.1", "::1", "localhost") or self.host.startswith("127.")


class PageServer:
    """Serves the big screen of whichever table it is shown (:meth:`show`; a new one after a rematch)."""

    def __init__(self) -> None:
        self._page: TablePage | None = None
        self._stamp: tuple[object, ...] | None = None
        self._body = _encode(waiting_only("connecting to the table…"))
        self.version = 0
        """How many snapshots have been made; the id of each event."""
        self._changed = asyncio.Condition()
        self._server: asyncio.Server | None = None
        self._watcher: asyncio.Task[None] | None = None
        self._clients: set[asyncio.StreamWriter] = set()
        self._html = importlib.resources.files("atoll.web").joinpath("page.html").read_bytes()
        self.port = 0

    def show(self, page: TablePage) -> None:
        """Show ``page`` from now on."""
        self._page, self._stamp = page, None

    async def start(self, address: WebAddress) -> int:
        """Listen at ``address``; the port (the one chosen when ``address.port`` is 0). AtollError when
        the port cannot be had."""
        try:
            self._server = await asyncio.start_server(self._serve, address.host, address.port,
                                                      limit=REQUEST_BYTES)
        except OSError as exc:
            raise AtollError(
                f"the big screen cannot listen at {address.host}:{address.port} ({exc.strerror or exc}); "
                "choose another --web port"
            ) from exc
        self.port = int(self._server.sockets[0].getsockname()[1])
        self._watcher = asyncio.create_task(self._watch())
        return self.port

    async def close(self) -> None:
        """Stop listening and close every open stream."""
        if self._watcher is not None:
            failed = await stopped(self._watcher)
            if failed is not None:
                raise failed
        if self._server is not None:
            self._server.close()
        for writer in list(self._clients):
            writer.close()
        if self._server is not None:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(5.0):
                    await self._server.wait_closed()

    async def refresh(self) -> None:
        """Look at the table now, and send a new snapshot if it changed (also done every POLL_S)."""
        page = self._page
        if page is None:
            return
        stamp = page.stamp()
        if stamp == self._stamp:
            return
        self._stamp = stamp
        body = _encode(page.snapshot())
        if body != self._body:
            self._body, self.version = body, self.version + 1
            await self._notify()

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def _watch(self) -> None:
        while True:
            try:
                await self.refresh()
            except Exception as exc:  # a plugin's rendering bug must not stop the screen; the log says it
                self._body = _encode(waiting_only(f"the big screen cannot draw the table: {exc}"))
                self.version += 1
                await self._notify()
                self._page = None
            await asyncio.sleep(POLL_S)

    # -- HTTP ------------------------------------------------------------------------------------

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if len(self._clients) >= MAX_CLIENTS:
            writer.write(_response(503, b"too many screens open\n", "text/plain"))
            await _close(writer)
            return
        self._clients.add(writer)
        try:
            async with asyncio.timeout(REQUEST_S):
                method, path = await _request(reader)
            head = method == "HEAD"
            if method not in ("GET", "HEAD"):
                writer.write(_response(405, b"the page is read-only\n", "text/plain", allow="GET, HEAD"))
            elif path == "/":
                writer.write(_response(200, self._html, "text/html; charset=utf-8", head=head))
            elif path == "/state":
                writer.write(_response(200, self._body, "application/json", head=head))
            elif path == "/events" and not head:
                await self._stream(writer)
            else:
                writer.write(_response(404, b"not here: the big screen is at /\n", "text/plain", head=head))
            await writer.drain()
        except (TimeoutError, ValueError, ConnectionError, asyncio.IncompleteReadError,
                asyncio.LimitOverrunError):
            pass  # a client that went or spoke no HTTP: nothing to tell it
        finally:
            self._clients.discard(writer)
            await _close(writer)

    async def _stream(self, writer: asyncio.StreamWriter) -> None:
        """The event stream: the snapshot now, then each new one, until the client goes."""
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n"
                     b"X-Accel-Buffering: no\r\nConnection: close\r\n\r\n")
        writer.write(f"retry: {RETRY_MS}\n\n".encode())
        sent = -1
        while True:
            if sent != self.version:
                sent = self.version
                writer.write(b"id: %d\nevent: state\ndata: %s\n\n" % (sent, self._body))
            else:
                writer.write(b": still here\n\n")
            await writer.drain()
            await self._newer_than(sent)

    async def _newer_than(self, version: int) -> None:
        """Wait until a snapshot newer than ``version`` is made, or KEEPALIVE_S passes."""
        async with self._changed:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(KEEPALIVE_S):
                    await self._changed.wait_for(lambda: self.version != version)


def _encode(snapshot: Snapshot) -> bytes:
    """A snapshot as the compact JSON each event carries (one line: SSE data may not hold newlines)."""
    return json.dumps(snapshot, ensure_ascii=False, separators=(",", ":")).encode()


async def _request(reader: asyncio.StreamReader) -> tuple[str, str]:
    """The method and path of one HTTP request (its headers are read and ignored)."""
    head = await reader.readuntil(b"\r\n\r\n")
    first = head.split(b"\r\n", 1)[0].decode("latin-1").split()
    if len(first) != 3 or not first[2].startswith("HTTP/"):
        raise ValueError("not an HTTP request")
    return first[0], first[1].split("?", 1)[0]


def _response(status: int, body: bytes, kind: str, *, head: bool = False, allow: str = "") -> bytes:
    reason = {200: "OK", 404: "Not Found", 405: "Method Not Allowed", 503: "Service Unavailable"}[status]
    lines = [f"HTTP/1.1 {status} {reason}", f"Content-Type: {kind}", f"Content-Length: {len(body)}",
             "Cache-Control: no-store", "X-Content-Type-Options: nosniff", "Connection: close"]
    if allow:
        lines.append(f"Allow: {allow}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + (b"" if head else body)


async def _close(writer: asyncio.StreamWriter) -> None:
    writer.close()
    with contextlib.suppress(Exception):
        await writer.wait_closed()
