"""A table's two ports: the one the system chooses comes with a free next port for key requests."""

from __future__ import annotations

import asyncio
import os
import socket

from nacl.signing import SigningKey

from atoll.app.ports import listen
from atoll.net.transport import HostSocket, KeyService, curve_keys


class NextPortTakenOnce:
    """A real host socket whose first free-port bind lands on a port whose next one is taken."""

    def __init__(self, host: HostSocket, first: int) -> None:
        self.host = host
        self.first: int | None = first
        self.given_up: list[int] = []

    def bind(self, address: str, port: int | None) -> int:
        if port is None and self.first is not None:
            port, self.first = self.first, None
            self.given_up.append(port)
        return self.host.bind(address, port)

    def unbind(self) -> None:
        self.host.unbind()


def _pair_with_next_taken() -> tuple[int, socket.socket]:
    """A free port P and a listening socket on P+1."""
    for _ in range(50):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = int(probe.getsockname()[1])
        taken = socket.socket()
        try:
            taken.bind(("127.0.0.1", port + 1))
        except OSError:
            taken.close()
            continue
        taken.listen()
        return port, taken
    raise RuntimeError("no free port with a free next one on 127.0.0.1")


def test_a_port_the_system_chose_whose_next_is_taken_is_given_up_for_another_pair() -> None:
    async def run() -> None:
        key = SigningKey(os.urandom(32))
        host = HostSocket(curve_keys(key), lambda _key: True)
        keys = KeyService(b"key")
        first, taken = _pair_with_next_taken()
        try:
            wrapped = NextPortTakenOnce(host, first)
            port = await listen("127.0.0.1", None, wrapped, keys, again=False, resuming=False)  # type: ignore[arg-type]
            # (that the first port is let go of is ZeroMQ's to do in its own thread, a moment later: not
            # checked here, where any process on the machine may take it meanwhile)
            assert wrapped.given_up == [first] and port != first
            with socket.create_connection(("127.0.0.1", port + 1), timeout=5):
                pass  # the key service listens on the next port
        finally:
            taken.close()
            keys.close()
            host.close()

    asyncio.run(run())
