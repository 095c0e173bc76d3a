"""Opening and joining tables for the command line: the sockets, the files, the bots and the announcement.

``atoll host`` and ``atoll join`` parse their arguments and call :func:`host_table` and
:func:`join_table`; everything a table needs on this machine (identity, table folder and secrets,
sockets, DNS-SD, bot processes) is set up and torn down here, also when the game fails.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import signal
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from atoll.engine.match import Match
from atoll.engine.observation import Observation
from atoll.errors import AtollError
from atoll.net.discovery import Announcement, Announcer
from atoll.net.envelope import canonical_bytes
from atoll.net.identity import Profile, fingerprint, tables_dir
from atoll.net.transport import HostSocket, KeyService, PeerSocket, ask_key, curve_keys
from atoll.registry import Registry
from atoll.table.host import Sequencer
from atoll.table.log import PROTOCOL
from atoll.table.peer import Chooser, PeerSession, TableFailed, bot_chooser, handshake, run_peer
from atoll.table.person import person_chooser, say_event
from atoll.table.serve import run_host
from atoll.table.store import table_files, write_secrets
from atoll.table.table import Event, Table
from atoll.types import Action


@dataclass(frozen=True)
class HostPlan:
    """What ``atoll host`` was asked for (checked against the game before anything opens)."""

    game: str
    variant: str
    seats: int
    table_name: str
    bind: str
    port: int | None
    bots: int
    bot_kind: str
    own_bot: str | None
    headless: bool
    announce: bool
    late_watchers: bool
    quiet: bool = False


def _current_match(table: Table) -> Callable[[], Match]:
    def current() -> Match:
        if table.engine is None:
            raise AtollError("the game has not started")
        return table.engine.match

    return current


def _seat_bot(found: Registry, kind: str, table: Table) -> Chooser:
    """A chooser for a bot of ``kind``, built for this peer's seat when it first moves."""
    made: list[Chooser] = []

    async def choose(observation: Observation) -> Action:
        if not made:
            game = table.lobby.game if table.lobby is not None else observation.game.info.name
            bot = found.bot(kind, game).make(observation.game, observation.seat, secrets.randbelow(2**31))
            made.append(bot_chooser(bot))
        return await made[0](observation)

    return choose


async def host_table(plan: HostPlan, found: Registry, profile: Profile) -> int:
    """Open the table, serve it until the game is over, close everything; the exit status."""
    key = profile.identity.signing_key()
    host_fp = fingerprint(key.verify_key.encode())
    table_id = f"{plan.game.replace('_', '-')}-{secrets.token_hex(12)}"
    files = table_files(tables_dir(profile.home), table_id)
    master = os.urandom(32)
    write_secrets(files, {"master": master.hex(), "table": table_id, "role": "host"})
    host = Sequencer.open(
        table_id,
        key,
        found.game,
        game=plan.game,
        variant=plan.variant,
        seats=plan.seats,
        name=plan.table_name,
        master=master,
        log_path=files.log,
        late_watchers=plan.late_watchers,
    )
    table = host.table
    choose: Chooser | None = None
    if not plan.headless:
        host.local(table.compose("sit", {"name": profile.name}))
        choose = (
            _seat_bot(found, plan.own_bot, table) if plan.own_bot else person_chooser(_current_match(table))
        )
    server_keys = curve_keys(key)
    socket = HostSocket(server_keys, host.admit)
    keys: KeyService | None = None
    key_task: asyncio.Task[None] | None = None
    announcer: Announcer | None = None
    bots: list[subprocess.Popen[bytes]] = []
    say = _quiet if plan.quiet else say_event
    try:
        port = socket.bind(plan.bind, plan.port)
        keys = KeyService(
            canonical_bytes({"curve": server_keys[0].decode(), "fp": host_fp, "table": table_id})
        )
        keys.bind(plan.bind, port + 1)
        key_task = asyncio.create_task(keys.serve())
        reach = "127.0.0.1" if plan.bind in ("0.0.0.0", "::") else plan.bind
        address = f"{reach}:{port}#{server_keys[0].decode()}"
        print(
            f"table {plan.table_name!r}: {plan.game} ({plan.variant}), {plan.seats} seats; id {table_id}",
            flush=True,
        )
        print(f"host fingerprint {host_fp}; join with: atoll join --address {address}", flush=True)
        if plan.announce:
            announcer = await _announce(plan, table, port, server_keys[0].decode(), host_fp)
        for index in range(plan.bots):
            bots.append(_start_bot(profile.home, table_id, index, address, plan.bot_kind))
        await run_host(host, socket, choose, _with_seats(say, table, announcer))
    finally:
        if key_task is not None:
            key_task.cancel()
        if announcer is not None:
            await announcer.close()
        socket.close()
        if keys is not None:
            keys.close()
        _stop(bots)
    return _report(table, files.log)


def _quiet(event: Event) -> None:
    if event.blame is not None:
        say_event(event)


def _with_seats(
    say: Callable[[Event], None], table: Table, announcer: Announcer | None
) -> Callable[[Event], None]:
    """Tell people of each event, and keep the announcement's seat counts up to date."""
    taken = [-1]
    updates: set[asyncio.Task[None]] = set()

    def on_event(event: Event) -> None:
        say(event)
        lobby = table.lobby
        if announcer is not None and lobby is not None and len(lobby.seated) != taken[0]:
            taken[0] = len(lobby.seated)
            task = asyncio.ensure_future(
                announcer.update_seats(len(lobby.seated), lobby.seats - len(lobby.seated))
            )
            updates.add(task)
            task.add_done_callback(updates.discard)

    return on_event


async def _announce(plan: HostPlan, table: Table, port: int, curve: str, host_fp: str) -> Announcer:
    lobby = table.lobby
    assert lobby is not None
    announcement = Announcement(
        table=table.id,
        name=lobby.name,
        game=lobby.game,
        variant=lobby.variant,
        taken=len(lobby.seated),
        free=lobby.seats - len(lobby.seated),
        proto=PROTOCOL,
        fingerprint=host_fp,
        curve_key=curve,
    )
    interfaces = [plan.bind] if plan.bind not in ("0.0.0.0", "::") else _lan_addresses()
    announcer = Announcer(announcement, port=port, interfaces=interfaces)
    await announcer.open()
    return announcer


def _lan_addresses() -> list[str]:
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


def _start_bot(home: Path, table_id: str, index: int, address: str, kind: str) -> subprocess.Popen[bytes]:
    """Start one bot peer as its own process, with its own identity under the host's data directory."""
    env = dict(os.environ, ATOLL_HOME=str(home / "bots" / f"{table_id}-{index}"))
    command = [
        sys.executable,
        "-m",
        "atoll.cli.main",
        "join",
        "--address",
        address,
        "--bot",
        kind,
        "--name",
        f"bot {index + 1}",
        "--quiet",
    ]
    return subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL)


def _stop(processes: list[subprocess.Popen[bytes]]) -> None:
    """Wait for the bot processes to finish; stop the ones that do not."""
    for process in processes:
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _report(table: Table, log: Path) -> int:
    end = table.results()
    if end is None or not table.closed:
        print(f"the game did not finish: {table.ended or 'the table closed early'}", file=sys.stderr)
        return 1
    print(f"game over: {json.dumps(end.results.to_json())}; the table's log: {log}")
    return 0


# -- joining ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class JoinPlan:
    """Where ``atoll join`` goes and how it sits."""

    host: str
    port: int
    curve: str
    expected_fp: str | None
    bot: str | None
    spectate: bool
    quiet: bool


async def learn_host_key(profile: Profile, host: str, port: int, *, quiet: bool) -> tuple[str, str]:
    """The CURVE key of the host at ``host:port``, asked of it and remembered (trust on first use).

    A key that differs from the one remembered for the address is refused (HostKeyChanged says how
    to pin or forget it).
    """
    address = f"{host}:{port}"
    try:
        answer = json.loads(await ask_key(host, port + 1))
        offered, host_fp = str(answer["curve"]), str(answer["fp"])
    except (TimeoutError, ValueError, KeyError, TypeError) as exc:
        raise AtollError(
            f"no table answers at {address} ({exc or 'no answer'}); is the address right?"
        ) from exc
    if profile.known_hosts.remember(address, offered) and not quiet:
        print(
            f"first contact with {address}: host fingerprint {host_fp} "
            f"(remembered; pin it with --address {address}#{offered})"
        )
    return offered, host_fp


async def join_table(plan: JoinPlan, found: Registry, profile: Profile) -> int:
    """Sit (or watch) at the table, play until it is over; the exit status."""
    key = profile.identity.signing_key()
    socket = PeerSocket(key, plan.curve.encode())
    table: Table | None = None
    log: Path | None = None
    try:
        socket.connect(plan.host, plan.port)
        welcome = await handshake(socket, key)
        host_fp = fingerprint(welcome.host_key)
        if plan.expected_fp is not None and host_fp != plan.expected_fp:
            raise AtollError(
                f"the host at {plan.host}:{plan.port} has fingerprint {host_fp}, "
                f"not the announced {plan.expected_fp}"
            )
        files = table_files(tables_dir(profile.home), welcome.table_id)
        master = os.urandom(32)
        role = "watch" if plan.spectate else "sit"
        write_secrets(files, {"master": master.hex(), "table": welcome.table_id, "role": role})
        log = files.log
        table = Table(welcome.table_id, welcome.host_key, key, found.game, log_path=log, master=master)
        session = PeerSession(table, role, profile.name)
        choose: Chooser | None = None
        if plan.bot:
            choose = _seat_bot(found, plan.bot, table)
        elif not plan.spectate:
            choose = person_chooser(_current_match(table))
        try:
            await run_peer(session, socket, choose, _quiet if plan.quiet else say_event)
        except TableFailed as exc:
            print(f"atoll join: {exc}", file=sys.stderr)
            return 1
    finally:
        socket.close()
        if table is not None:
            table.log.close()
    if plan.quiet and table.results() is not None:
        return 0
    return _report(table, log)
