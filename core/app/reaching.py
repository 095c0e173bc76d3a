"""Reaching a table by hand or from an announcement: which of its addresses answers, and its host's key.

A host may listen on several addresses (a laptop on the party's Wi-Fi and a VPN, or a container
bridge); the joiner asks every one of them at once for the host's key (the key service, on the port
after the table's) and goes to the first that answers with a key the pin allows. A pinned key or
fingerprint that the answer contradicts is said at once, in one line.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass

from atoll.errors import AtollError
from atoll.net.encoding import parse_json
from atoll.net.identity import Profile
from atoll.net.joinline import Address, check_answer
from atoll.net.transport import ask_key

#: Seconds the addresses have to answer before the join gives up on them.
ASK_S = 5.0


@dataclass(frozen=True)
class Reached:
    """The address that answered, the host's CURVE key (z85) and, when it said so, its fingerprint."""

    host: str
    curve: str
    fingerprint: str | None


async def _ask(host: str, port: int) -> tuple[str, dict[str, object]]:
    answer = parse_json(await ask_key(host, port + 1, timeout=ASK_S))
    if not isinstance(answer, dict) or not isinstance(answer.get("curve"), str):
        raise ValueError(f"the key service at {host}:{port + 1} answered something else than a key")
    return host, answer


async def first_answer(hosts: tuple[str, ...], port: int) -> tuple[str, dict[str, object]] | None:
    """The first of ``hosts`` whose key service answers at ``port + 1``, with its answer (``None``: none
    answered within :data:`ASK_S`)."""
    asking = [asyncio.ensure_future(_ask(host, port)) for host in hosts]
    try:
        for done in asyncio.as_completed(asking):
            with contextlib.suppress(TimeoutError, ValueError, KeyError, TypeError, OSError):
                return await done
        return None
    finally:
        for task in asking:
            task.cancel()
        await asyncio.gather(*asking, return_exceptions=True)


def _where(address: Address) -> str:
    hosts = ", ".join(address.hosts)
    return f"{hosts} (port {address.port})" if len(address.hosts) > 1 else f"{hosts}:{address.port}"


async def reach(address: Address, profile: Profile | None, *, quiet: bool) -> Reached:
    """The first of ``address``'s hosts that answers, and the key to use there.

    With a pin, the answer must match it (:class:`AtollError` at once if not). Without one, the key is
    trusted on first use and remembered for the address (``profile``'s known hosts); a key that differs
    from the one remembered is refused. A single host pinned by its key is not asked: the handshake there
    tells a wrong key (:class:`~atoll.net.transport.WrongKey`).
    """
    pin = address.pin
    if not quiet:
        print(f"asking {_where(address)} for the table… (Ctrl-C gives up)", flush=True)
    if pin is not None and pin.curve is not None and len(address.hosts) == 1:
        return Reached(address.hosts[0], pin.curve.decode(), None)
    found = await first_answer(address.hosts, address.port)
    if found is None:
        raise AtollError(
            f"no table answers at {_where(address)} within {ASK_S:g} s; is the address right, and the "
            "table open? (the host's firewall must let in its port and the next one)"
        )
    host, answer = found
    curve, fp = str(answer["curve"]), answer.get("fp")
    if pin is not None:
        problem = check_answer(pin, curve, answer.get("id"))
        if problem is not None:
            raise AtollError(
                f"the table at {host}:{address.port} is not the one this line names: {problem}; "
                "check the line with its host"
            )
        # a fingerprint pin was checked against the identity the answer names; the host's welcome
        # must come from that identity too
        return Reached(host, curve, pin.fingerprint)
    at = f"{host}:{address.port}"
    assert profile is not None, "a join without a pin remembers the key it learns"
    if profile.known_hosts.remember(at, curve) and not quiet:
        print(f"first contact with {at}: host fingerprint {fp} (remembered; pin it with --address {at}#{fp})")
    return Reached(host, curve, fp if isinstance(fp, str) else None)
