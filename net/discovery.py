"""Finding tables on the LAN: DNS-SD (``_atoll._tcp``) announcements and browsing with python-zeroconf.

A host announces each open table as one service instance whose TXT record says what it is (game,
variant, seats taken and free, protocol version, a short digest of the game's build, the host's
fingerprint and CURVE key, the table's name and id), on the interface addresses it serves only.
Browsers list what they find; anything a stranger on the LAN could announce is checked by
:func:`parse_txt` first, and an announcement that does not check is skipped with a warning, never
shown or joined.

Tools we did not write see the same records: ``avahi-browse -r _atoll._tcp`` or a unicast query
``dig -p 5353 @HOST _atoll._tcp.local PTR``, which python-zeroconf answers directly.

``python -m atoll.net.discovery announce|browse ...`` runs either side by hand or from a test
(on development machines only inside a network namespace; see ``../shared/tools/lan``).

Why one module of over 500 lines: announcing and browsing share the TXT record, its limits and its
checks, which must change together; each side is a small class over python-zeroconf.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import enum
import json
import logging
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Self

from zeroconf import IPVersion, ServiceListener, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from atoll.net.identity import (
    MAX_NAME_LENGTH,
    BadName,
    CurveKeyPair,
    Identity,
    check_curve_key,
    check_name,
)
from atoll.net.joinline import shell_key

log = logging.getLogger(__name__)

#: The DNS-SD service type of an atoll table.
SERVICE_TYPE = "_atoll._tcp.local."
#: Largest TXT record accepted, in bytes: RFC 6763 section 6.2 asks DNS-SD TXT records to stay
#: within 1300 bytes so they fit one packet; ours are about 250.
MAX_TXT_BYTES = 1300
#: Most seats a table may announce (taken plus free).
MAX_SEATS = 64
#: How long a browser waits for one service's records, in milliseconds.
RESOLVE_TIMEOUT_MS = 3000

_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}")
_PROTO = re.compile(r"[A-Za-z0-9][A-Za-z0-9_./-]{0,31}")
_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
_FINGERPRINT = re.compile(r"[a-z2-7]{4}(?:-[a-z2-7]{4}){5}")
_COUNT = re.compile(r"[0-9]{1,2}")
_BUILD = re.compile(r"[0-9a-f]{8,32}")
_WEB = re.compile(r"here|[1-9][0-9]{0,4}")
_OPEN = re.compile(rb"(?:[0-9]{1,2}(?:,[0-9]{1,2}){0,63})?")
_INSTANCE_BYTES = 63  # the longest DNS label, and so the longest instance name
_MAX_WARNED = 1000  # bad announcements remembered so each is warned about once


class BadAnnouncement(ValueError):
    """An announcement whose TXT record is missing a field, holds a bad value, or is too big."""


@dataclass(frozen=True)
class Announcement:
    """What a host tells the LAN about one table: the TXT record of its DNS-SD service.

    Every field is checked when the value is made, so an ``Announcement`` that exists is valid, on
    the announcing side as much as the browsing one. The TXT keys are in brackets.
    """

    #: The table's id (``table``): letters, digits, ``-`` and ``_``, at most 64.
    table: str
    #: The table's name shown to people (``name``): printable, at most 32 characters.
    name: str
    #: The game's name as installed (``game``).
    game: str
    #: The variant played (``variant``); may be empty.
    variant: str
    #: Seats taken (``taken``) and free (``free``); together at least 1 and at most 64.
    taken: int
    free: int
    #: The table protocol version (``proto``); a peer compares it with its own.
    proto: str
    #: The host's identity fingerprint (``fp``), as :func:`atoll.net.identity.fingerprint` makes it.
    fingerprint: str
    #: The host's CURVE public key in z85 (``curve``), the key a peer's DEALER must expect.
    curve_key: str
    #: A short digest of the build of the game the table plays (``build``, 8-32 lowercase hex
    #: digits), made by the application (this layer knows no games), so a lobby can mark a table
    #: whose game differs from the one installed; empty when the host did not say.
    build: str = ""
    #: Whether the table is shown on a big screen (``web``, see ``atoll host --web``): the page's port
    #: when the LAN can open it at the host's address, ``here`` when only the host's machine can, empty
    #: when it has none (or the host did not say).
    web: str = ""
    #: The seats a newcomer may take now (``open``: their numbers from 0, comma-separated), so a lobby
    #: can offer a choice; ``None`` when the host did not say (an earlier version).
    open_seats: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        _check(_TABLE_ID, self.table, "table", "a table id of letters, digits, '-' and '_'")
        try:
            check_name(self.name, "table name")
        except BadName as exc:
            raise BadAnnouncement(str(exc)) from None
        if self.name != self.name.strip():
            raise BadAnnouncement(f"table name {self.name!r} has spaces around it")
        _check(_TOKEN, self.game, "game", "a game name")
        if self.variant:
            _check(_TOKEN, self.variant, "variant", "a variant name")
        for field, count in (("taken", self.taken), ("free", self.free)):
            if type(count) is not int or not 0 <= count <= MAX_SEATS:
                raise BadAnnouncement(f"{field} seats {count!r} is not a whole number from 0 to {MAX_SEATS}")
        if not 1 <= self.taken + self.free <= MAX_SEATS:
            raise BadAnnouncement(f"a table has 1 to {MAX_SEATS} seats, not {self.taken + self.free}")
        _check(_PROTO, self.proto, "proto", "a protocol version")
        _check(_FINGERPRINT, self.fingerprint, "fp", "a fingerprint like ab3d-x7qk-m2pa-9zzf-k3qz-7rma")
        try:
            check_curve_key(self.curve_key)
        except ValueError as exc:
            raise BadAnnouncement(f"curve: {exc}") from None
        if self.build:
            _check(_BUILD, self.build, "build", "8-32 lowercase hex digits")
        if self.web:
            _check(_WEB, self.web, "web", "a port number or 'here'")
        if self.open_seats is not None and (
            len(set(self.open_seats)) != len(self.open_seats) or len(self.open_seats) > self.free
            or any(type(s) is not int or not 0 <= s < self.seats for s in self.open_seats)
        ):
            raise BadAnnouncement(f"open seats {self.open_seats!r} are not free seats of the table")

    @property
    def seats(self) -> int:
        """All seats at the table, taken or free."""
        return self.taken + self.free

    def txt(self) -> dict[str, str]:
        """The TXT record's key/value pairs (the keys listed in the class docstring)."""
        return {
            "table": self.table,
            "name": self.name,
            "game": self.game,
            "variant": self.variant,
            "taken": str(self.taken),
            "free": str(self.free),
            "proto": self.proto,
            "fp": self.fingerprint,
            "curve": self.curve_key,
            **({"build": self.build} if self.build else {}),
            **({"web": self.web} if self.web else {}),
            **({"open": ",".join(map(str, self.open_seats))} if self.open_seats is not None else {}),
        }


def _check(pattern: re.Pattern[str], value: object, field: str, expected: str) -> None:
    if not isinstance(value, str) or not pattern.fullmatch(value):
        raise BadAnnouncement(f"{field} {value!r} is not {expected}")


def parse_txt(properties: Mapping[bytes, bytes | None], size: int) -> Announcement:
    """The announcement a TXT record holds, or :class:`BadAnnouncement` saying what is wrong.

    ``properties`` are the record's key/value pairs as zeroconf splits them, ``size`` the record's
    length in bytes. Unknown keys are ignored, so a later version may add some.
    """
    if size > MAX_TXT_BYTES:
        raise BadAnnouncement(f"TXT record of {size} bytes is over the limit of {MAX_TXT_BYTES}")
    fields: dict[str, str] = {}
    for key in ("table", "name", "game", "variant", "taken", "free", "proto", "fp", "curve"):
        raw = properties.get(key.encode())
        if raw is None:
            raise BadAnnouncement(f"TXT record has no value for {key!r}")
        try:
            fields[key] = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise BadAnnouncement(f"{key} is not UTF-8 text") from None
    build = properties.get(b"build")  # optional: hosts of earlier versions do not announce it
    try:
        fields["build"] = build.decode("utf-8") if build is not None else ""
    except UnicodeDecodeError:
        raise BadAnnouncement("build is not UTF-8 text") from None
    web = properties.get(b"web")  # optional: only a table shown on a big screen says so
    try:
        fields["web"] = web.decode("utf-8") if web is not None else ""
    except UnicodeDecodeError:
        raise BadAnnouncement("web is not UTF-8 text") from None
    for key in ("taken", "free"):
        if not _COUNT.fullmatch(fields[key]):
            raise BadAnnouncement(f"{key} seats {fields[key]!r} is not a whole number from 0 to {MAX_SEATS}")
    opened = properties.get(b"open")  # optional too
    if opened is not None and not _OPEN.fullmatch(opened):
        raise BadAnnouncement(f"open seats {opened[:40]!r} are not seat numbers separated by commas")
    return Announcement(
        table=fields["table"],
        name=fields["name"],
        game=fields["game"],
        variant=fields["variant"],
        taken=int(fields["taken"]),
        free=int(fields["free"]),
        proto=fields["proto"],
        fingerprint=fields["fp"],
        curve_key=fields["curve"],
        build=fields["build"],
        web=fields["web"],
        open_seats=None if opened is None else tuple(int(s) for s in opened.split(b",") if s),
    )


@dataclass(frozen=True)
class FoundTable:
    """A table a browser found: its announcement and where its host listens."""

    #: The DNS-SD service instance name; the same table keeps it while it is announced.
    instance: str
    announcement: Announcement
    #: The host's addresses from the announcement, IPv4 first.
    addresses: tuple[str, ...]
    port: int

    @property
    def address(self) -> str:
        """``HOST:PORT`` of the first address (IPv6 in brackets), to connect to."""
        host = self.addresses[0]
        return f"[{host}]:{self.port}" if ":" in host else f"{host}:{self.port}"

    @property
    def pinned_address(self) -> str:
        """``HOST[,HOST...]:PORT#KEY``: every address with the host's CURVE key pinned, shell-safe (the
        key in base32), as ``--address`` takes it."""
        hosts = ",".join(f"[{host}]" if ":" in host else host for host in self.addresses)
        return f"{hosts}:{self.port}#{shell_key(self.announcement.curve_key)}"

    def to_json(self) -> dict[str, object]:
        """A JSON-able dict of everything found (for ``--json`` output and logs)."""
        return {
            "instance": self.instance,
            "addresses": list(self.addresses),
            "port": self.port,
            **dataclasses.asdict(self.announcement),
        }


def instance_name(announcement: Announcement) -> str:
    """The service instance name for ``announcement``: the table's name and the start of its id.

    The id makes two tables of one name distinct; dots would be read as label separators by some
    tools, so they are shown as spaces; the whole is cut to the 63 bytes a DNS label may hold.
    """
    text = f"{announcement.name.replace('.', ' ')} ({announcement.table[:12]})"
    while len(text.encode()) > _INSTANCE_BYTES:
        text = text[:-1]
    return text


# --- announcing ----------------------------------------------------------------------------------


class Announcer:
    """Announces one table on the given interface addresses while open (an async context manager).

    ``async with Announcer(ann, port=5555, interfaces=["10.0.0.2"]) as a: ... await a.update_seats(2, 1)``
    registers on entering, re-announces the TXT record on every seat change, and withdraws the
    service (goodbye packets) on leaving, also when the block fails.
    """

    def __init__(self, announcement: Announcement, *, port: int, interfaces: Sequence[str]) -> None:
        if not interfaces:
            raise ValueError("an announcer needs the interface addresses it serves, e.g. ['10.0.0.2']")
        if not 0 < port < 65536:
            raise ValueError(f"port {port} is not 1-65535")
        self.port = port
        self.interfaces = tuple(interfaces)
        self._announcement = announcement
        self._zeroconf: AsyncZeroconf | None = None
        self._info: AsyncServiceInfo | None = None

    @property
    def announcement(self) -> Announcement:
        """What is announced now."""
        return self._announcement

    @property
    def instance(self) -> str:
        """The full service name registered (zeroconf may add a number if the name was taken)."""
        if self._info is None:
            raise RuntimeError("the announcer is not open")
        return str(self._info.name)

    def _service_info(self, name: str) -> AsyncServiceInfo:
        table = self._announcement.table.lower().replace("_", "-")
        return AsyncServiceInfo(
            SERVICE_TYPE,
            name,
            port=self.port,
            properties=self._announcement.txt(),
            server=f"atoll-{table}.local.",
            parsed_addresses=list(self.interfaces),
        )

    async def open(self) -> None:
        """Register the service and wait until zeroconf has announced it."""
        if self._zeroconf is not None:
            raise RuntimeError("the announcer is already open")
        zeroconf = AsyncZeroconf(interfaces=list(self.interfaces))
        info = self._service_info(f"{instance_name(self._announcement)}.{SERVICE_TYPE}")
        try:
            await (await zeroconf.async_register_service(info, allow_name_change=True))
        except BaseException:
            await zeroconf.async_close()
            raise
        self._zeroconf, self._info = zeroconf, info

    async def update(self, announcement: Announcement) -> None:
        """Announce ``announcement`` instead (same table id) and wait until it is sent."""
        if self._zeroconf is None or self._info is None:
            raise RuntimeError("the announcer is not open")
        if announcement.table != self._announcement.table:
            raise ValueError("an announcer announces one table; open another for a new table id")
        self._announcement = announcement
        self._info = self._service_info(self._info.name)
        await (await self._zeroconf.async_update_service(self._info))

    async def update_seats(self, taken: int, free: int, open_seats: tuple[int, ...] | None = None) -> None:
        """Announce new seat counts (and which seats a newcomer may take, when given)."""
        seats = dataclasses.replace(self._announcement, taken=taken, free=free, open_seats=open_seats)
        await self.update(seats)

    async def close(self) -> None:
        """Withdraw the service (goodbye packets) and close zeroconf; does nothing if not open."""
        zeroconf, info = self._zeroconf, self._info
        self._zeroconf = self._info = None
        if zeroconf is None:
            return
        try:
            if info is not None:
                await (await zeroconf.async_unregister_service(info))
        finally:
            await zeroconf.async_close()

    async def __aenter__(self) -> Self:
        await self.open()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()


# --- browsing ------------------------------------------------------------------------------------


class Change(enum.Enum):
    """What happened to a table a browser watches."""

    #: A table appeared (or an announcement that was bad became good).
    ADDED = "added"
    #: A known table's announcement changed (seats, name).
    UPDATED = "updated"
    #: A table was withdrawn, or its announcement went bad.
    REMOVED = "removed"


@dataclass(frozen=True)
class TableEvent:
    """One change a browser saw: the kind and the table as it is now (as it was, for REMOVED)."""

    change: Change
    table: FoundTable


class TableBrowser:
    """Watches the LAN for tables while open (an async context manager), for a lobby.

    :attr:`tables` is always the current list; ``on_event``, if given, is called for every
    change. A bad announcement is skipped with one warning per distinct fault.
    """

    def __init__(
        self,
        on_event: Callable[[TableEvent], None] | None = None,
        *,
        interfaces: Sequence[str] | None = None,
    ) -> None:
        self.interfaces = None if interfaces is None else tuple(interfaces)
        self._on_event = on_event
        self._zeroconf: AsyncZeroconf | None = None
        self._browser: AsyncServiceBrowser | None = None
        self._tables: dict[str, FoundTable] = {}
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._warned: set[tuple[str, str]] = set()
        self._changed = asyncio.Event()

    @property
    def tables(self) -> list[FoundTable]:
        """The tables found so far and still announced, by name then id."""
        return sorted(self._tables.values(), key=lambda t: (t.announcement.name, t.announcement.table))

    async def open(self) -> None:
        """Start browsing."""
        if self._zeroconf is not None:
            raise RuntimeError("the browser is already open")
        if self.interfaces is None:
            self._zeroconf = AsyncZeroconf()
        else:
            self._zeroconf = AsyncZeroconf(interfaces=list(self.interfaces))
        self._browser = AsyncServiceBrowser(self._zeroconf.zeroconf, SERVICE_TYPE, listener=_Listener(self))

    async def close(self) -> None:
        """Stop browsing and close zeroconf; does nothing if not open."""
        zeroconf, browser = self._zeroconf, self._browser
        self._zeroconf = self._browser = None
        for task in self._tasks.values():
            task.cancel()
        await asyncio.gather(*self._tasks.values(), return_exceptions=True)
        self._tasks.clear()
        if browser is not None:
            await browser.async_cancel()
        if zeroconf is not None:
            await zeroconf.async_close()

    async def __aenter__(self) -> Self:
        await self.open()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    async def wait_for(self, match: Callable[[FoundTable], bool], timeout: float) -> FoundTable | None:
        """The first table ``match`` accepts, waiting up to ``timeout`` seconds; None if none came."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            for table in self.tables:
                if match(table):
                    return table
            self._changed.clear()
            remaining = deadline - loop.time()
            if remaining <= 0:
                return None
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(remaining):
                    await self._changed.wait()

    # Called by zeroconf (through _Listener) on the event loop; never raises into it.

    def _seen(self, name: str) -> None:
        old = self._tasks.pop(name, None)
        if old is not None:
            old.cancel()
        task = asyncio.get_running_loop().create_task(self._resolve(name))
        self._tasks[name] = task

        def forget(done: asyncio.Task[None]) -> None:
            if self._tasks.get(name) is done:
                del self._tasks[name]

        task.add_done_callback(forget)

    def _gone(self, name: str) -> None:
        task = self._tasks.pop(name, None)
        if task is not None:
            task.cancel()
        self._drop(name)

    def _drop(self, name: str) -> None:
        table = self._tables.pop(name, None)
        if table is not None:
            self._emit(TableEvent(Change.REMOVED, table))

    async def _resolve(self, name: str) -> None:
        try:
            await self._resolve_records(name)
        except asyncio.CancelledError:
            raise
        except Exception:  # a background task must never raise into the event loop
            log.exception("failed to resolve the announcement %r", name)

    async def _resolve_records(self, name: str) -> None:
        if self._zeroconf is None:
            return
        info = AsyncServiceInfo(SERVICE_TYPE, name)
        if not await info.async_request(self._zeroconf.zeroconf, RESOLVE_TIMEOUT_MS):
            log.debug("no answer for the records of %r; skipped until it is announced again", name)
            return
        try:
            table = found_table(name, info)
        except BadAnnouncement as exc:
            self._warn(name, str(exc))
            self._drop(name)
            return
        known = self._tables.get(name)
        self._tables[name] = table
        if known is None:
            self._emit(TableEvent(Change.ADDED, table))
        elif known != table:
            self._emit(TableEvent(Change.UPDATED, table))

    def _warn(self, name: str, reason: str) -> None:
        if (name, reason) not in self._warned:
            if len(self._warned) >= _MAX_WARNED:  # a flood of bad names must not grow memory forever
                self._warned.clear()
            self._warned.add((name, reason))
            log.warning("skipped the announcement %r: %s", name, reason)

    def _emit(self, event: TableEvent) -> None:
        self._changed.set()
        if self._on_event is None:
            return
        try:
            self._on_event(event)
        except Exception:  # a lobby's bug must not stop discovery
            log.exception(
                "the table event handler failed on %s of %r", event.change.value, event.table.instance
            )


class _Listener(ServiceListener):
    """Forwards zeroconf's service events to a :class:`TableBrowser`."""

    def __init__(self, browser: TableBrowser) -> None:
        self._browser = browser

    def add_service(self, zc: Zeroconf, type_: str, name: str) -> None:
        self._browser._seen(name)

    def update_service(self, zc: Zeroconf, type_: str, name: str) -> None:
        self._browser._seen(name)

    def remove_service(self, zc: Zeroconf, type_: str, name: str) -> None:
        self._browser._gone(name)


def found_table(name: str, info: AsyncServiceInfo) -> FoundTable:
    """The table resolved service ``info`` announces; :class:`BadAnnouncement` if it is not one."""
    text = info.text or b""
    announcement = parse_txt(info.properties if len(text) <= MAX_TXT_BYTES else {}, len(text))
    addresses = tuple(info.parsed_addresses(IPVersion.V4Only) + info.parsed_addresses(IPVersion.V6Only))
    if not addresses:
        raise BadAnnouncement("no address for the host")
    if not info.port:
        raise BadAnnouncement("no port for the host")
    return FoundTable(instance=name, announcement=announcement, addresses=addresses, port=info.port)


async def browse(timeout: float, *, interfaces: Sequence[str] | None = None) -> list[FoundTable]:
    """The tables announced on the LAN, listening for ``timeout`` seconds."""
    async with TableBrowser(interfaces=interfaces) as browser:
        await asyncio.sleep(timeout)
        return browser.tables


async def find_table(
    query: str, timeout: float, *, interfaces: Sequence[str] | None = None
) -> FoundTable | None:
    """The table whose name or id is ``query`` (in any case), waiting up to ``timeout`` seconds; None if
    none came."""
    async with TableBrowser(interfaces=interfaces) as browser:
        wanted = query.casefold()
        return await browser.wait_for(
            lambda t: wanted in (t.announcement.name.casefold(), t.announcement.table.casefold()), timeout
        )


# --- by hand and in tests: python -m atoll.net.discovery -----------------------------------------


def _print(event: str, **fields: object) -> None:
    print(json.dumps({"event": event, **fields}), flush=True)


async def _announce(args: argparse.Namespace) -> int:
    announcement = Announcement(
        table=args.table,
        name=args.name,
        game=args.game,
        variant=args.variant,
        taken=args.taken,
        free=args.free,
        proto=args.proto,
        fingerprint=args.fp or Identity.generate().fingerprint,
        curve_key=args.curve or CurveKeyPair.generate().public.decode(),
        build=args.build,
    )
    loop = asyncio.get_running_loop()
    async with Announcer(announcement, port=args.port, interfaces=args.interface) as announcer:
        _print("announced", instance=announcer.instance, **dataclasses.asdict(announcement))
        # Commands on stdin: "seats TAKEN FREE" re-announces; "close" or end of input withdraws.
        while line := await loop.run_in_executor(None, sys.stdin.readline):
            words = line.split()
            if words[:1] == ["seats"] and len(words) == 3:
                await announcer.update_seats(int(words[1]), int(words[2]))
                _print("updated", taken=announcer.announcement.taken, free=announcer.announcement.free)
            elif words == ["close"]:
                break
            elif words:
                print(f"unknown command {line.strip()!r}: use 'seats TAKEN FREE' or 'close'", file=sys.stderr)
    _print("closed")
    return 0


async def _browse(args: argparse.Namespace) -> int:
    interfaces = args.interface or None
    if args.find is not None:
        table = await find_table(args.find, args.timeout, interfaces=interfaces)
        if table is None:
            print(f"no table named {args.find!r} appeared within {args.timeout:g} s", file=sys.stderr)
            return 1
        _print("found", **table.to_json())
        return 0
    if not args.watch:
        for table in await browse(args.timeout, interfaces=interfaces):
            _print("found", **table.to_json())
        return 0

    def show(event: TableEvent) -> None:
        _print(event.change.value, **event.table.to_json())

    # Watch until stdin ends, so a test can stop the browser cleanly by closing its input.
    async with TableBrowser(show, interfaces=interfaces):
        _print("browsing")
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``announce`` a table or ``browse`` for tables; JSON lines on stdout, warnings on stderr."""
    parser = argparse.ArgumentParser(prog="python -m atoll.net.discovery", description=main.__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    announce = sub.add_parser("announce", help="announce one table until stdin says 'close' or ends")
    announce.add_argument("--interface", action="append", required=True, help="address to announce on")
    announce.add_argument("--port", type=int, required=True)
    announce.add_argument("--table", required=True, help="table id")
    announce.add_argument("--name", required=True, help=f"table name (at most {MAX_NAME_LENGTH} characters)")
    announce.add_argument("--game", required=True)
    announce.add_argument("--variant", default="")
    announce.add_argument("--taken", type=int, default=1)
    announce.add_argument("--free", type=int, default=1)
    announce.add_argument("--proto", default="1")
    announce.add_argument("--build", default="", help="short digest of the game's build (hex)")
    announce.add_argument("--fp", help="host fingerprint (default: a fresh identity's)")
    announce.add_argument("--curve", help="host CURVE public key in z85 (default: a fresh key's)")
    find = sub.add_parser("browse", help="list the tables announced on the LAN")
    find.add_argument("--interface", action="append", help="address to browse on (default: all)")
    find.add_argument("--timeout", type=float, default=3.0, help="seconds to listen (default 3)")
    find.add_argument("--watch", action="store_true", help="print changes live until stdin ends")
    find.add_argument("--find", metavar="TABLE", help="wait up to --timeout for the table of this name or id")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    try:
        return asyncio.run(_announce(args) if args.command == "announce" else _browse(args))
    except BadAnnouncement as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
