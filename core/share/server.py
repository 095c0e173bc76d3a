"""The package index on the LAN: :class:`~atoll.share.index.PackageIndex` answered over HTTP by the
standard library's threading server, one thread per request, in a thread of its own."""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from typing import Self

from atoll.share.index import WHEEL, Outcome, PackageIndex, Response

_STATUS = {
    Outcome.PAGE: HTTPStatus.OK,
    Outcome.FILE: HTTPStatus.OK,
    Outcome.REDIRECT: HTTPStatus.MOVED_PERMANENTLY,
    Outcome.NOT_FOUND: HTTPStatus.NOT_FOUND,
}

#: Called with the client's address and the wheel's file name after a wheel was sent whole.
OnSent = Callable[[str, str], None]


class IndexServer:
    """Serves ``index`` at ``http://HOST:PORT/simple/`` while open (a context manager).

    ``port`` 0 takes a free port; :attr:`port` says which. Closing stops the server and waits for
    its thread.
    """

    def __init__(self, index: PackageIndex, *, host: str, port: int, on_sent: OnSent | None = None) -> None:
        self.index = index
        self._server = ThreadingHTTPServer((host, port), _handler(index, on_sent))
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, name="atoll-share", daemon=True)

    @property
    def port(self) -> int:
        """The port the server listens on."""
        return int(self._server.server_address[1])

    def open(self) -> None:
        """Start answering requests."""
        self._thread.start()

    def close(self) -> None:
        """Stop answering and release the port."""
        if self._thread.is_alive():
            self._server.shutdown()
            self._thread.join()
        self._server.server_close()

    def __enter__(self) -> Self:
        self.open()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


def _handler(index: PackageIndex, on_sent: OnSent | None) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "atoll-share"

        def do_GET(self) -> None:
            self._answer(body=True)

        def do_HEAD(self) -> None:
            self._answer(body=False)

        def _answer(self, *, body: bool) -> None:
            response = index.respond(self.path)
            try:
                sent = self._send(response, body=body)
            except (BrokenPipeError, ConnectionResetError):
                return  # the client went away; nothing to tell anyone
            if sent and response.file is not None and on_sent is not None:
                on_sent(self.client_address[0], response.file.name)

        def _send(self, response: Response, *, body: bool) -> bool:
            """Answer with ``response``; whether a wheel's bytes were sent."""
            if response.file is not None:
                return self._send_file(response.file, body=body)
            self.send_response(_STATUS[response.outcome])
            self.send_header("Content-Type", response.content_type)
            if response.location:
                self.send_header("Location", response.location)
            self.send_header("Content-Length", str(len(response.body)))
            self.end_headers()
            if body:
                self.wfile.write(response.body)
            return False

        def _send_file(self, path: Path, *, body: bool) -> bool:
            try:
                file = path.open("rb")
            except OSError:  # taken out of the folder since the index was made
                self.send_error(HTTPStatus.NOT_FOUND, "the wheel is no longer in the shared folder")
                return False
            with file:
                self.send_response(HTTPStatus.OK)
                self.send_header("Content-Type", WHEEL)
                self.send_header("Content-Length", str(os.fstat(file.fileno()).st_size))
                self.end_headers()
                if body:
                    shutil.copyfileobj(file, self.wfile)
            return body

        def log_message(self, format: str, *args: object) -> None:
            pass  # a request is not news; a wheel sent is told through on_sent

    return Handler
