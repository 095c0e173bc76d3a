"""Where a table listens on this machine: its two ports (the table's own and the next one, for key
requests), bound together or refused in one line that suggests a free pair, and the addresses a person
joins it at."""

from __future__ import annotations

import asyncio
import errno
import time
from collections.abc import Callable
from functools import partial
from typing import TypeVar

import zmq

from atoll.errors import AtollError
from atoll.net.joinline import lan_first
from atoll.net.transport import HostSocket, KeyService

#: How long a port given is tried again: the previous game's sockets at the same port (a rematch)
#: may still be letting go of it.
BIND_WAIT_S = 10.0
#: Ports the system chooses for a table before giving up on finding one whose next port is free too.
PAIR_TRIES = 20
T = TypeVar("T")


class PortTaken(AtollError):
    """The table's port (or the next one, for key requests) cannot be listened on."""


async def listen(
    bind: str, wanted: int | None, socket: HostSocket, keys: KeyService, *, again: bool, resuming: bool
) -> int:
    """Bind the table's port on ``bind`` (``wanted``, or one the system chooses when ``None``) and the next
    one (key requests); the port. :class:`PortTaken` in one line
    when either cannot be had: a new table is told of a free pair to use instead."""
    at = wanted
    try:
        for tries in range(1, PAIR_TRIES + 1):
            port = await bound_again(lambda: socket.bind(bind, wanted), again)
            at = port + 1
            try:
                await bound_again(partial(keys.bind, bind, at), again and wanted is not None)
                break
            except zmq.ZMQError as exc:
                # a port the system chose can have its next one taken (by any program's outgoing
                # connection, on the same ephemeral range): another pair is tried
                if wanted is not None or exc.errno != errno.EADDRINUSE or tries == PAIR_TRIES:
                    raise
                socket.unbind()
    except zmq.ZMQError as exc:
        if exc.errno != errno.EADDRINUSE:
            raise PortTaken(
                f"cannot listen on {bind} port {at} ({exc.strerror}): check --bind and --port"
            ) from exc
        if resuming:
            advice = (
                "its peers knock at that port: free it (is this table's host still running?) and resume again"
            )
        else:
            free = free_pair(bind)
            advice = (
                f"choose another: --port {free} (it and {free + 1} are free now)"
                if free is not None
                else "choose another with --port"
            )
        raise PortTaken(
            f"port {at} on {bind} is in use by another table or program (a table listens on its "
            f"port and the next); {advice}"
        ) from exc
    return port


def port_free(address: str, port: int) -> bool:
    """Whether a TCP socket can bind ``address:port`` now."""
    import socket as sockets

    with sockets.socket() as probe:
        try:
            probe.bind((address, port))
        except OSError:
            return False
    return True


def free_address(here: str) -> str | None:
    """``HERE:PORT`` with a port free on the address ``here`` now (``None`` when none can be had)."""
    import socket as sockets

    try:
        with sockets.socket() as free:
            free.bind((here, 0))
            return f"{here}:{free.getsockname()[1]}"
    except OSError:
        return None


def standby_here(bind: str) -> str | None:
    """The standby address of a host's own seat at a table bound to ``bind``: the address the others
    join it at and a free port, where the seat listens once another seat hosts the table (``None``
    when no port can be had there)."""
    return free_address(listening_on(bind)[0])


def free_pair(address: str) -> int | None:
    """A port P with P+1 free too on ``address`` now (``None`` if none is found in a few tries)."""
    import socket as sockets

    for _ in range(20):
        with sockets.socket() as probe:
            try:
                probe.bind((address, 0))
            except OSError:
                return None
            port = int(probe.getsockname()[1])
        if port < 65000 and port_free(address, port) and port_free(address, port + 1):
            return port
    return None


async def bound_again(bind: Callable[[], T], again: bool) -> T:
    """``bind()``, tried ``again`` for up to :data:`BIND_WAIT_S` while the address is in use."""
    deadline = time.monotonic() + BIND_WAIT_S
    while True:
        try:
            return bind()
        except zmq.ZMQError as exc:
            if not again or exc.errno != errno.EADDRINUSE or time.monotonic() > deadline:
                raise
        await asyncio.sleep(0.2)


def listening_on(bind: str) -> list[str]:
    """The addresses a person joins a table bound to ``bind`` at: the LAN ones for every interface (loopback
    only when there is nothing else), else ``bind`` itself."""
    if bind not in ("0.0.0.0", "::"):
        return [bind]
    try:
        return lan_first(lan_addresses())
    except AtollError:
        return ["127.0.0.1"]


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback (where a table on every interface is announced)."""
    import ifaddr  # zeroconf's own dependency

    found = [
        str(ip.ip)
        for adapter in ifaddr.get_adapters()
        for ip in adapter.ips
        if isinstance(ip.ip, str) and not ip.ip.startswith("127.")
    ]
    if not found:
        raise AtollError("no network interface besides loopback to announce on; use --bind or --no-announce")
    return found
