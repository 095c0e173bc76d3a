"""Who a user is on the LAN: an Ed25519 identity, a display name, a CURVE key pair, and known hosts.

Everything lives in the user's data directory (:func:`atoll.paths.data_root`: ``ATOLL_HOME``, or the
platform's data folder), made on first use with mode 0700 for the folder and 0600 for the files
(on Windows, where modes do not protect files, the user's profile folder does; see
:mod:`atoll.net.durable`):

- ``identity.key``: the long-term Ed25519 signing key (PKCS#8 PEM). Written once, atomically, and
  never replaced: a damaged or unreadable file is reported, not overwritten, since a new key would
  silently change who the user is to everyone who knows their fingerprint.
- ``curve.json``: the ZeroMQ CURVE key pair this user serves tables with (z85).
- ``settings.json``: small remembered choices (the display name).
- ``known_hosts``: the CURVE key first seen at each host address (trust on first use), one
  ``ADDRESS KEY`` line per host, so a person can read and edit it.

Every function takes the data directory (or the environment to find it in) as an argument, so tests
and several users in one process need no global state.
"""

from __future__ import annotations

import getpass
import json
import struct
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import zmq
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from nacl.signing import SigningKey
from zmq.utils import z85

from atoll.net.durable import others_may_use, write_new, write_replace
from atoll.net.encoding import PUBLIC_KEY_SIZE, fingerprint, parse_json
from atoll.paths import TABLES_DIR

#: Longest display or table name, in characters.
MAX_NAME_LENGTH = 32
#: Length of an Ed25519 signature, in bytes (a public key's is PUBLIC_KEY_SIZE).
SIGNATURE_SIZE = 64
#: Length of a CURVE public or secret key in z85 text (32 bytes encoded).
CURVE_KEY_Z85_SIZE = 40

IDENTITY_FILE = "identity.key"
CURVE_FILE = "curve.json"
SETTINGS_FILE = "settings.json"
KNOWN_HOSTS_FILE = "known_hosts"


class IdentityError(Exception):
    """A file in the data directory that cannot be used as it is; the message says how to fix it."""


class BadName(IdentityError, ValueError):
    """A display or table name that is empty, too long, or holds unprintable characters."""


class HostKeyChanged(IdentityError):
    """A host that shows a CURVE key other than the one remembered for its address."""

    def __init__(self, address: str, remembered: bytes, shown: bytes, path: Path) -> None:
        super().__init__(
            f"the host at {address} shows CURVE key {shown.decode()} but you trusted "
            f"{remembered.decode()} there before: someone may be pretending to be that host, "
            f"or it made a new key. If you are sure the new key is right, pin it with "
            f"--address {address}#{shown.decode()}, or forget the old one by deleting the "
            f"line for {address} in {path}."
        )
        self.address = address
        self.remembered = remembered
        self.shown = shown


# --- where things live -------------------------------------------------------------------------


def tables_dir(home: Path) -> Path:
    """The folder under the data directory ``home`` that holds one folder per table; not created."""
    return home / TABLES_DIR


def table_dir(home: Path, table_id: str) -> Path:
    """The folder of table ``table_id`` under ``home``; refuses an id that could leave ``tables/``."""
    if not table_id or not all(c.isascii() and (c.isalnum() or c in "-_") for c in table_id):
        raise IdentityError(
            f"table id {table_id!r} is not usable as a folder name: use letters, digits, '-' and '_'"
        )
    return tables_dir(home) / table_id


def ensure_dir(home: Path) -> Path:
    """Create ``home`` (mode 0700, parents as needed) if it is missing, and return it."""
    home.mkdir(mode=0o700, parents=True, exist_ok=True)
    return home


# --- fingerprints and signatures -----------------------------------------------------------------


def verify(public_key: bytes, signature: bytes, data: bytes) -> bool:
    """Whether ``signature`` is ``public_key``'s Ed25519 signature of ``data``; never raises on bad input."""
    if len(public_key) != PUBLIC_KEY_SIZE or len(signature) != SIGNATURE_SIZE:
        return False
    try:
        Ed25519PublicKey.from_public_bytes(public_key).verify(signature, data)
    except (InvalidSignature, ValueError):
        return False
    return True


@dataclass(frozen=True)
class Identity:
    """A user's long-term Ed25519 key: who they are at every table."""

    private_key: Ed25519PrivateKey

    @classmethod
    def generate(cls) -> Identity:
        """A fresh identity from the system's secure random source (not saved anywhere)."""
        return cls(Ed25519PrivateKey.generate())

    @property
    def public_key(self) -> bytes:
        """The raw 32-byte public key, as it travels in messages."""
        return self.private_key.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )

    @property
    def fingerprint(self) -> str:
        """The short readable fingerprint of :attr:`public_key` (see :func:`fingerprint`)."""
        return fingerprint(self.public_key)

    @property
    def seed(self) -> bytes:
        """The raw 32-byte private seed (RFC 8032); secret, never sent or logged."""
        return self.private_key.private_bytes(
            serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption()
        )

    def signing_key(self) -> SigningKey:
        """The same key as a PyNaCl :class:`~nacl.signing.SigningKey`, for code that signs with PyNaCl."""
        return SigningKey(self.seed)

    def sign(self, data: bytes) -> bytes:
        """The 64-byte Ed25519 signature of ``data``."""
        return self.private_key.sign(data)

    def to_pem(self) -> bytes:
        """The private key as unencrypted PKCS#8 PEM, the form kept in ``identity.key``."""
        return self.private_key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )


# --- files ---------------------------------------------------------------------------------------


def _read_private(path: Path, what: str) -> bytes:
    """The bytes of a private file; refuses one that others may read, as ssh does."""
    try:
        mode = path.stat().st_mode
        if others_may_use(mode):
            raise IdentityError(
                f"{what} {path} may be read by other users (mode {mode & 0o777:o}): "
                f"run 'chmod 600 {path}' and try again"
            )
        return path.read_bytes()
    except OSError as exc:
        raise IdentityError(
            f"cannot read {what} {path} ({exc.strerror}); it was left as it is: fix its "
            f"permissions, or move it away to start afresh"
        ) from exc


def _damaged(path: Path, what: str, why: str, consequence: str) -> IdentityError:
    return IdentityError(
        f"{what} {path} is damaged ({why}); it was left untouched. Restore it from a backup, "
        f"or move it away to make a new one ({consequence})."
    )


def load_identity(home: Path) -> Identity:
    """The identity kept in ``home``; :class:`IdentityError` if it is missing, unreadable or damaged."""
    path = home / IDENTITY_FILE
    if not path.exists():
        raise IdentityError(f"no identity at {path}: one is made on first use of atoll")
    data = _read_private(path, "identity file")
    consequence = "your fingerprint will change and other players must trust you anew"
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError) as exc:
        raise _damaged(path, "identity file", str(exc).splitlines()[0], consequence) from exc
    if not isinstance(key, Ed25519PrivateKey):
        raise _damaged(path, "identity file", "not an Ed25519 key", consequence)
    return Identity(key)


def load_or_create_identity(home: Path) -> Identity:
    """The identity kept in ``home``, made and saved first if there is none; never replaces a file."""
    path = ensure_dir(home) / IDENTITY_FILE
    if not path.exists():
        # If another process wins the race, its key is kept and loaded below.
        write_new(path, Identity.generate().to_pem())
    return load_identity(home)


@dataclass(frozen=True)
class CurveKeyPair:
    """A ZeroMQ CURVE key pair in z85 text, as pyzmq's socket options take it."""

    public: bytes
    secret: bytes

    @classmethod
    def generate(cls) -> CurveKeyPair:
        """A fresh key pair from libzmq (not saved anywhere)."""
        public, secret = zmq.curve_keypair()
        return cls(public, secret)


def check_curve_key(key: bytes | str) -> bytes:
    """``key`` as z85 bytes if it is a well-formed CURVE public key; :class:`ValueError` otherwise."""
    raw = key.encode("ascii", "replace") if isinstance(key, str) else key
    if len(raw) != CURVE_KEY_Z85_SIZE:
        raise ValueError(f"a CURVE key is {CURVE_KEY_Z85_SIZE} z85 characters, got {len(raw)}")
    try:
        z85.decode(raw)
    except (ValueError, KeyError, struct.error) as exc:
        raise ValueError(f"CURVE key {raw!r} is not valid z85") from exc
    return raw


def load_or_create_curve_keys(home: Path) -> CurveKeyPair:
    """The CURVE key pair kept in ``home``, made and saved first if there is none."""
    path = ensure_dir(home) / CURVE_FILE
    if not path.exists():
        pair = CurveKeyPair.generate()
        text = json.dumps({"public": pair.public.decode(), "secret": pair.secret.decode()})
        write_new(path, text.encode() + b"\n")
    data = _read_private(path, "CURVE key file")
    consequence = "hosts you joined will see a new key and ask you to trust it again"
    try:
        stored = parse_json(data)
        public = check_curve_key(stored["public"])
        secret = check_curve_key(stored["secret"])
    except (ValueError, KeyError, TypeError) as exc:
        raise _damaged(path, "CURVE key file", f"{type(exc).__name__}: {exc}", consequence) from exc
    if zmq.curve_public(secret) != public:
        raise _damaged(path, "CURVE key file", "public key does not match secret key", consequence)
    return CurveKeyPair(public, secret)


# --- names ---------------------------------------------------------------------------------------


def check_name(name: str, what: str = "name") -> str:
    """``name`` with outer spaces stripped if it is printable and 1-32 characters; else :class:`BadName`."""
    text = name.strip()
    if not text:
        raise BadName(f"{what} is empty: give one of 1 to {MAX_NAME_LENGTH} printable characters")
    if len(text) > MAX_NAME_LENGTH:
        raise BadName(
            f"{what} {text!r} is {len(text)} characters long; give one of at most {MAX_NAME_LENGTH}"
        )
    if not text.isprintable():
        raise BadName(
            f"{what} {text!r} holds unprintable characters (control codes, line breaks): give printable text"
        )
    return text


def _load_settings(home: Path) -> dict[str, object]:
    path = home / SETTINGS_FILE
    if not path.exists():
        return {}
    try:
        settings = parse_json(path.read_bytes())
    except OSError as exc:
        raise IdentityError(f"cannot read settings {path} ({exc.strerror}): fix its permissions") from exc
    except ValueError as exc:
        raise _damaged(path, "settings file", str(exc), "remembered choices are forgotten") from exc
    if not isinstance(settings, dict):
        raise _damaged(path, "settings file", "not a JSON object", "remembered choices are forgotten")
    return settings


def remembered_name(home: Path) -> str | None:
    """The display name remembered in ``home``, or None if none was ever given."""
    name = _load_settings(home).get("name")
    return check_name(name, "remembered name") if isinstance(name, str) else None


def remember_name(home: Path, name: str) -> str:
    """Check ``name``, remember it in ``home`` as the display name for next time, and return it."""
    text = check_name(name, "display name")
    settings = _load_settings(ensure_dir(home))
    settings["name"] = text
    write_replace(home / SETTINGS_FILE, json.dumps(settings, indent=2).encode() + b"\n")
    return text


def login_name(fallback: str) -> str:
    """The name the user logged in with, as the platform keeps it, else ``fallback``: ``getpass``
    reads ``LOGNAME``, ``USER``, ``LNAME`` and ``USERNAME`` (the one Windows sets), then the
    password database where there is one. Cut to a display name's length."""
    try:
        name = getpass.getuser()
    except (OSError, KeyError, ImportError):  # no such variable and no password database (Windows)
        return fallback
    return name.strip()[:MAX_NAME_LENGTH] if name.strip().isprintable() and name.strip() else fallback


def choose_name(home: Path, given: str | None, fallback: str) -> str:
    """The display name to use: ``given`` (then remembered), else the remembered one, else ``fallback``."""
    if given is not None:
        return remember_name(home, given)
    return remembered_name(home) or check_name(fallback[:MAX_NAME_LENGTH] or "player", "display name")


# --- known hosts (trust on first use) ------------------------------------------------------------


class KnownHosts:
    """The CURVE key remembered for each host address (``HOST:PORT``), in ``home/known_hosts``."""

    def __init__(self, home: Path) -> None:
        self.path = home / KNOWN_HOSTS_FILE

    def _read(self) -> dict[str, bytes]:
        if not self.path.exists():
            return {}
        try:
            text = self.path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise IdentityError(f"cannot read known hosts {self.path} ({exc}); fix or remove it") from exc
        hosts: dict[str, bytes] = {}
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip() or line.startswith("#"):
                continue
            parts = line.split()
            try:
                if len(parts) != 2:
                    raise ValueError("expected 'ADDRESS KEY'")
                hosts[parts[0]] = check_curve_key(parts[1])
            except ValueError as exc:
                raise IdentityError(
                    f"known hosts {self.path} line {number} is damaged ({exc}): fix or delete that line"
                ) from exc
        return hosts

    def _write(self, hosts: Mapping[str, bytes]) -> None:
        lines = [f"{address} {key.decode()}\n" for address, key in sorted(hosts.items())]
        ensure_dir(self.path.parent)
        write_replace(self.path, "".join(lines).encode())

    def lookup(self, address: str) -> bytes | None:
        """The CURVE public key (z85) remembered for ``address``, or None for a host never seen."""
        return self._read().get(_check_address(address))

    def remember(self, address: str, curve_public_key: bytes | str) -> bool:
        """Trust ``curve_public_key`` for ``address`` on first contact; True if it was new.

        The same key again is fine; a different key raises :class:`HostKeyChanged` and changes
        nothing, since only the person can tell a new host key from an impostor.
        """
        key = check_curve_key(curve_public_key)
        address = _check_address(address)
        hosts = self._read()
        known = hosts.get(address)
        if known == key:
            return False
        if known is not None:
            raise HostKeyChanged(address, known, key, self.path)
        hosts[address] = key
        self._write(hosts)
        return True

    def pin(self, address: str, curve_public_key: bytes | str) -> None:
        """Trust ``curve_public_key`` for ``address``, replacing any key remembered before."""
        hosts = self._read()
        hosts[_check_address(address)] = check_curve_key(curve_public_key)
        self._write(hosts)

    def forget(self, address: str) -> bool:
        """Forget the key remembered for ``address``; True if there was one."""
        hosts = self._read()
        if hosts.pop(_check_address(address), None) is None:
            return False
        self._write(hosts)
        return True


def _check_address(address: str) -> str:
    if not address or any(c.isspace() for c in address) or not address.isprintable():
        raise ValueError(f"host address {address!r} must be HOST:PORT without spaces")
    return address.lower()


# --- everything together -------------------------------------------------------------------------


@dataclass(frozen=True)
class Profile:
    """All a user brings to a table: data directory, identity, display name, CURVE keys, known hosts."""

    home: Path
    identity: Identity
    name: str
    curve: CurveKeyPair
    known_hosts: KnownHosts


def open_profile(home: Path, *, name: str | None = None, fallback_name: str = "player") -> Profile:
    """Load the user's profile from ``home``, making the identity and keys on first use.

    ``name`` (from ``--name``) is checked and remembered; without it the remembered name is used,
    or ``fallback_name`` the first time.
    """
    ensure_dir(home)
    return Profile(
        home=home,
        identity=load_or_create_identity(home),
        name=choose_name(home, name, fallback_name),
        curve=load_or_create_curve_keys(home),
        known_hosts=KnownHosts(home),
    )
