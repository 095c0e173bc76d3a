"""The shared package index on DNS-SD: announced as ``_atoll-pkgs._tcp`` beside the tables
(``_atoll._tcp``, :mod:`atoll.net.discovery`), so a laptop can find it without being told the address.

The TXT record holds ``path`` (the index's path, as for ``_http._tcp``) and ``version`` (the atoll
it serves). Someone without atoll finds it with their system's tools: ``avahi-browse -r
_atoll-pkgs._tcp`` on Linux, ``dns-sd -B _atoll-pkgs._tcp`` on macOS.

``python -m atoll.share.announce browse`` lists what is announced (on development machines only
inside a network namespace; see ``../shared/tools/lan``).
"""

from __future__ import annotations

import argparse
import json
import re
import socket
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from types import TracebackType
from typing import Self

from zeroconf import IPVersion, ServiceBrowser, ServiceInfo, ServiceListener, Zeroconf

#: The DNS-SD service type of a shared package index.
SERVICE_TYPE = "_atoll-pkgs._tcp.local."
#: How long a browser waits for one service's records, in milliseconds.
RESOLVE_TIMEOUT_MS = 3000
_PATH = re.compile(r"/[A-Za-z0-9/_.-]{0,63}")
_VERSION = re.compile(r"[A-Za-z0-9][A-Za-z0-9.+!_-]{0,39}")
_INSTANCE_BYTES = 63


@dataclass(frozen=True)
class FoundShare:
    """A shared index a browser found."""

    #: The DNS-SD service instance name.
    instance: str
    #: The sharing laptop's addresses, IPv4 first.
    addresses: tuple[str, ...]
    port: int
    #: The index's path on the server (``/simple/``).
    path: str
    #: The atoll version it serves.
    version: str

    @property
    def url(self) -> str:
        """The index's URL at the first address, as pip's ``--index-url`` takes it."""
        return index_url(self.addresses[0], self.port, self.path)


def index_url(host: str, port: int, path: str) -> str:
    """``http://HOST:PORT/PATH``, an IPv6 host in brackets."""
    return f"http://[{host}]:{port}{path}" if ":" in host else f"http://{host}:{port}{path}"


def instance_name(hostname: str | None = None) -> str:
    """The service instance name: what is shared, and from which machine (its name up to the first
    dot, which some tools would read as a label separator); at most 63 bytes."""
    machine = (socket.gethostname() if hostname is None else hostname).split(".")[0]
    text = f"atoll packages on {machine}"
    while len(text.encode()) > _INSTANCE_BYTES:
        text = text[:-1]
    return text


def _host_label() -> str:
    """This machine's name as one DNS label of letters, digits and ``-``, for the server's host name."""
    return re.sub(r"[^a-z0-9-]+", "-", socket.gethostname().split(".")[0].lower()).strip("-")[:40] or "laptop"


class ShareAnnouncer:
    """Announces one shared index on the given interface addresses while open (a context manager);
    leaving withdraws it (goodbye packets), also when the block fails."""

    def __init__(self, *, port: int, path: str, version: str, interfaces: Sequence[str]) -> None:
        if not interfaces:
            raise ValueError("an announcer needs the interface addresses it serves, e.g. ['10.0.0.2']")
        if not _PATH.fullmatch(path) or not _VERSION.fullmatch(version):
            raise ValueError(f"cannot announce path {path!r} and version {version!r}")
        self.interfaces = tuple(interfaces)
        self._info = ServiceInfo(
            SERVICE_TYPE,
            f"{instance_name()}.{SERVICE_TYPE}",
            port=port,
            properties={"path": path, "version": version},
            server=f"atoll-pkgs-{_host_label()}-{port}.local.",
            parsed_addresses=list(self.interfaces),
        )
        self._zeroconf: Zeroconf | None = None

    @property
    def instance(self) -> str:
        """The service instance registered (zeroconf adds a number if the name was taken)."""
        return str(self._info.name).removesuffix(f".{SERVICE_TYPE}")

    def open(self) -> None:
        """Register the service and wait until it has been announced."""
        zeroconf = Zeroconf(interfaces=list(self.interfaces))
        try:
            zeroconf.register_service(self._info, allow_name_change=True)
        except BaseException:
            zeroconf.close()
            raise
        self._zeroconf = zeroconf

    def close(self) -> None:
        """Withdraw the service and close zeroconf; does nothing if not open."""
        zeroconf, self._zeroconf = self._zeroconf, None
        if zeroconf is None:
            return
        try:
            zeroconf.unregister_service(self._info)
        finally:
            zeroconf.close()

    def __enter__(self) -> Self:
        self.open()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


class _Names(ServiceListener):
    def __init__(self) -> None:
        self.names: set[str] = set()
        self.lock = threading.Lock()

    def add_service(self, zc: Zeroconf, type_: str, name: str) -> None:
        with self.lock:
            self.names.add(name)

    def update_service(self, zc: Zeroconf, type_: str, name: str) -> None:
        self.add_service(zc, type_, name)

    def remove_service(self, zc: Zeroconf, type_: str, name: str) -> None:
        with self.lock:
            self.names.discard(name)


def find_shares(timeout: float, *, interfaces: Sequence[str] | None = None) -> list[FoundShare]:
    """The shared indexes announced on the LAN, listening for ``timeout`` seconds; an announcement
    without a sound path, version, address and port is left out."""
    zeroconf = Zeroconf() if interfaces is None else Zeroconf(interfaces=list(interfaces))
    try:
        names = _Names()
        browser = ServiceBrowser(zeroconf, SERVICE_TYPE, listener=names)
        time.sleep(timeout)
        browser.cancel()
        with names.lock:
            found = sorted(names.names)
        shares = (_resolve(zeroconf, name) for name in found)
        return [share for share in shares if share is not None]
    finally:
        zeroconf.close()


def _resolve(zeroconf: Zeroconf, name: str) -> FoundShare | None:
    info = zeroconf.get_service_info(SERVICE_TYPE, name, timeout=RESOLVE_TIMEOUT_MS)
    if info is None or not info.port:
        return None
    try:
        path = (info.properties.get(b"path") or b"").decode()
        version = (info.properties.get(b"version") or b"").decode()
    except UnicodeDecodeError:
        return None
    addresses = tuple(info.parsed_addresses(IPVersion.V4Only) + info.parsed_addresses(IPVersion.V6Only))
    if not (_PATH.fullmatch(path) and _VERSION.fullmatch(version) and addresses):
        return None
    return FoundShare(name.removesuffix(f".{SERVICE_TYPE}"), addresses, info.port, path, version)


def main(argv: Sequence[str] | None = None) -> int:
    """``browse``: print the shared indexes announced on the LAN, one JSON line each."""
    parser = argparse.ArgumentParser(prog="python -m atoll.share.announce", description=main.__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    browse = sub.add_parser("browse", help="list the shared package indexes announced on the LAN")
    browse.add_argument("--interface", action="append", help="address to browse on (default: all)")
    browse.add_argument("--timeout", type=float, default=3.0, help="seconds to listen (default 3)")
    args = parser.parse_args(argv)
    for share in find_shares(args.timeout, interfaces=args.interface):
        print(json.dumps({"event": "found", "url": share.url, **asdict(share)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
