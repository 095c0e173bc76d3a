"""The line a host prints for joining by hand: ``atoll join --address HOST[,HOST...]:PORT#PIN``.

It names every LAN address the host listens on (a joiner tries them all and keeps the first that
answers) and pins the host by its fingerprint (``abcd-efgh-...``), which is lowercase letters, digits
and dashes only: a shell leaves it alone and the whole line fits 80 columns. Two key forms are taken
beside it: the host's CURVE key in lowercase base32 (52 characters, shell-safe too) and the z85 form
earlier versions printed (40 characters; quote it in a shell). A fingerprint pin is checked against the
identity key the host's key service names (:func:`check_answer`); a key pin is used as it is.
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from zmq.utils import z85

from atoll.net.curve import curve_of
from atoll.net.encoding import fingerprint, normal_fingerprint

#: Characters of each key form after ``#``.
Z85_SIZE: Final = 40
BASE32_SIZE: Final = 52
_FINGERPRINT: Final = re.compile(r"[a-z2-7]{4}(?:-[a-z2-7]{4}){5}")
_BASE32: Final = re.compile(r"[a-z2-7]{52}")


class BadAddress(ValueError):
    """An ``--address`` text that is not ``HOST[,HOST...]:PORT[#PIN]``; the message says what to give."""


@dataclass(frozen=True)
class Pin:
    """What the text after ``#`` pins: the host's CURVE key (z85 bytes), or its fingerprint."""

    curve: bytes | None = None
    fingerprint: str | None = None


@dataclass(frozen=True)
class Address:
    """Where a table is: one or more hosts (tried in order), its port, and the pin if one was given."""

    hosts: tuple[str, ...]
    port: int
    pin: Pin | None = None


def shell_key(curve_z85: bytes | str) -> str:
    """The CURVE key ``curve_z85`` in lowercase base32 without padding (52 characters)."""
    raw = z85.decode(curve_z85.encode() if isinstance(curve_z85, str) else curve_z85)
    return base64.b32encode(bytes(raw)).decode().rstrip("=").lower()


def parse_pin(text: str) -> Pin:
    """The pin after ``#``: a fingerprint, a base32 CURVE key or a z85 CURVE key; BadAddress otherwise."""
    bare = text.strip()
    # a z85 key first: its punctuation, read as a typed fingerprint's separators, could leave exactly a
    # fingerprint's 24 letters and digits (about one key in 200)
    if len(bare) == Z85_SIZE and _is_z85(bare):
        return Pin(curve=bare.encode())
    if _FINGERPRINT.fullmatch(normal_fingerprint(bare)):
        return Pin(fingerprint=normal_fingerprint(bare))
    if _BASE32.fullmatch(bare.lower()):
        try:
            raw = base64.b32decode(bare.upper() + "====")
        except binascii.Error as exc:
            raise BadAddress(f"the key after '#' is not base32: {exc}") from exc
        return Pin(curve=z85.encode(raw))
    if len(bare) == Z85_SIZE:
        raise BadAddress("the 40-character key after '#' is not z85; copy it again from the host's line")
    raise BadAddress(
        f"after '#' comes the host's fingerprint (xxxx-xxxx-xxxx-xxxx-xxxx-xxxx) or its CURVE key "
        f"(52 letters of base32, or 40 of z85), not {bare!r}"
    )


def _is_z85(text: str) -> bool:
    try:
        z85.decode(text.encode())
    except (ValueError, KeyError, OverflowError):
        return False
    return True


def parse_address(text: str) -> Address:
    """``HOST[,HOST...]:PORT[#PIN]`` (IPv6 hosts in brackets); :class:`BadAddress` saying what is wrong."""
    where, _, pin = text.strip().partition("#")
    hosts_text, _, port = where.rpartition(":")
    hosts = tuple(host.strip().strip("[]") for host in hosts_text.split(","))
    if not hosts_text or not all(hosts) or not port.isdigit() or not 0 < int(port) < 65535:
        raise BadAddress(f"--address wants HOST:PORT or HOST:PORT#KEY, not {text!r}")
    return Address(hosts, int(port), parse_pin(pin) if pin else None)


def join_line(hosts: Sequence[str], port: int, host_identity: bytes) -> str:
    """The command that joins the table at ``hosts:port`` whose host has the Ed25519 key ``host_identity``."""
    shown = ",".join(f"[{host}]" if ":" in host else host for host in hosts)
    return f"atoll join --address {shown}:{port}#{fingerprint(host_identity)}"


def check_answer(pin: Pin, curve: str, identity_hex: object) -> str | None:
    """What is wrong with a key service's answer (the CURVE key ``curve`` and the host's identity key
    ``identity_hex``) under ``pin``, or ``None`` when it matches."""
    if pin.curve is not None:
        return None if pin.curve.decode() == curve else "its key is not the one after '#'"
    try:
        identity = bytes.fromhex(identity_hex) if isinstance(identity_hex, str) else b""
    except ValueError:
        identity = b""
    if len(identity) != 32:
        return "it does not say its identity key (an atoll older than this one hosts it)"
    if fingerprint(identity) != pin.fingerprint:
        return f"its fingerprint is {fingerprint(identity)}, not {pin.fingerprint}"
    if z85.encode(curve_of(identity)).decode() != curve:
        return "its CURVE key does not belong to its identity"
    return None


def lan_first(addresses: Sequence[str]) -> list[str]:
    """``addresses`` with the private LAN ones (10/8, 172.16/12, 192.168/16) first, loopback last."""

    def rank(address: str) -> int:
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return 1
        return 2 if ip.is_loopback else 0 if ip.is_private else 1

    return sorted(addresses, key=rank)
