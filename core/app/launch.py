"""Opening and joining tables for the command line: the sockets, the files, the bots and the announcement.

``atoll host`` and ``atoll join`` parse their arguments and call :func:`host_table` and
:func:`join_table`; everything a table needs on this machine (identity, table folder and secrets,
sockets, DNS-SD, bot processes) is set up and torn down here, also when the game fails.
"""

from __future__ import annotations

import asyncio
import errno
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from functools import partial
from pathlib import Path
from typing import TypeVar

import zmq
from nacl.signing import SigningKey

from atoll.app.follow import (
    Link,
    announcement_of,
    connect_to,
    follow,
    host_here,
    moved_to,
    standby_address,
)
from atoll.app.peer_loop import Welcome, bot_chooser, handshake
from atoll.app.person import (
    FINISHED,
    LEFT,
    REMATCH,
    Terminal,
    full_screen,
    host_sender,
    person_chooser,
    play_on_screen,
    say_event,
)
from atoll.app.serve import NobodyCame, run_host
from atoll.app.store import (
    TableFiles,
    TableOver,
    read_place,
    read_secrets,
    resumable,
    table_files,
    write_place,
    write_secrets,
)
from atoll.engine.match import Match
from atoll.engine.observation import Observation
from atoll.errors import AtollError
from atoll.locks import Held
from atoll.net.descriptors import raise_limit
from atoll.net.discovery import Announcer, FoundTable
from atoll.net.encoding import canonical_bytes, fingerprint, parse_json, strict_hex
from atoll.net.identity import Profile, tables_dir
from atoll.net.transport import HostSocket, KeyService, PeerSocket, Refused, ask_key, curve_keys
from atoll.pin import require_same
from atoll.registry import Registry
from atoll.table.host import Sequencer
from atoll.table.log import BadEntry, HostEquivocated, UnreadableLine
from atoll.table.peer import Chooser, PeerSession, TableFailed
from atoll.table.table import HOST_TIMEOUT_S, Event, Table
from atoll.types import Action
from atoll.wire import Kind

#: How long a person who asked for a rematch waits for the host's next game at the same address.
REMATCH_WAIT_S = 180.0
#: How long one knock at the address waits for a welcome while waiting for the next game.
KNOCK_S = 3.0
#: How long a port given is tried again: the previous game's sockets at the same port (a rematch)
#: may still be letting go of it.
BIND_WAIT_S = 10.0
#: Ports the system chooses for a table before giving up on finding one whose next port is free too.
PAIR_TRIES = 20
T = TypeVar("T")


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
    turn_time: float | None = None
    host_timeout: int = HOST_TIMEOUT_S


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


@dataclass(frozen=True)
class Served:
    """How serving a table ended: the exit status, how the host's person left the screen
    (``"finished"`` when nobody sat at it), and the port the table listened on."""

    status: int
    ending: str
    port: int | None


async def host_table(
    plan: HostPlan, found: Registry, profile: Profile, *, terminal: Terminal | None = None
) -> int:
    """Open the table, serve it until the game is over, close everything; the exit status.

    When the host's person asks for a rematch on the result screen, the next game (the same, or
    another chosen on the host form) opens as a new table, with a new id and new secrets, at the same
    address and with the same key, and new bot processes; the others find it by knocking there
    (:func:`join_table`). ``terminal`` is for tests (a pipe input and a dummy output).
    """
    rebinding = False
    while True:
        host, files, held = _open_table(plan, found, profile)
        try:
            served = await _serve(
                plan, host, files, found, profile, start_bots=True, terminal=terminal, rebinding=rebinding
            )
        except PortTaken:
            # nobody has seen this table: its folder goes, so `atoll host --resume` never finds it
            host.table.log.close()
            held.release()
            shutil.rmtree(files.folder, ignore_errors=True)
            raise
        finally:
            held.release()
        rebinding = True  # the next game listens where this one did, which may take a moment to let go
        following = await _next_game(served, plan, found, terminal)
        if following is None:
            return served.status
        plan = following
        if not plan.quiet:
            print(f"opening the next game at the same address: {plan.game} ({plan.variant})", flush=True)


async def _next_game(
    served: Served, plan: HostPlan, found: Registry, terminal: Terminal | None
) -> HostPlan | None:
    """The plan of the rematch the host's person asked for (the host form, filled in with the game
    just played), or ``None``: no rematch asked, or the form closed without one."""
    if served.ending != REMATCH or served.status != 0:
        return None
    from atoll.tui.host_form import HostChoice, choose_next_game

    games = [installed.game.info for installed in found.games.values()]
    last = HostChoice(plan.game, plan.variant, plan.seats, plan.bots, plan.bot_kind)
    terminal = terminal or Terminal()
    choice = await choose_next_game(
        games,
        lambda game: sorted(kind.name for kind in found.bots_for(game)),
        last,
        input=terminal.input,
        output=terminal.output,
    )
    if choice is None:
        return None
    return replace(
        plan,
        game=choice.game,
        variant=choice.variant,
        seats=choice.seats,
        bots=choice.bots,
        bot_kind=choice.bot_kind or plan.bot_kind,
        port=served.port,
    )


def _table_in(files: TableFiles, table_id: str, host_key: bytes, key: SigningKey, found: Registry,
              master: bytes) -> Table:
    """This machine's copy of table ``table_id`` (hosted by ``host_key``), kept in ``files``."""
    return Table(table_id, host_key, key, found.game, log_path=files.log, master=master,
                 sealed_path=files.sealed)


def check_installed(table: Table, found: Registry) -> None:
    """Raise :class:`~atoll.pin.GameDiffers` if ``table`` (read back from disk) pins another build of
    its game than the one installed here: playing on would play, and judge, other rules."""
    if table.pinned is not None:
        game, pinned = table.pinned
        require_same(game, pinned, found.installed_pin(game))


def _open_table(plan: HostPlan, found: Registry, profile: Profile) -> tuple[Sequencer, TableFiles, Held]:
    """A new table for ``plan``: a new id and master secret, its folder (locked for this process), and
    the host's own seat."""
    key = profile.identity.signing_key()
    table_id = f"{plan.game.replace('_', '-')}-{secrets.token_hex(12)}"
    files = table_files(tables_dir(profile.home), table_id)
    held = files.hold()
    try:
        master = os.urandom(32)
        write_secrets(files, {"master": master.hex(), "table": table_id, "role": "host"})
        host = _open_sequencer(plan, found, key, files, master)
    except BaseException:
        held.release()
        raise
    if not plan.headless:
        host.local(host.table.compose(Kind.SIT, {"name": profile.name}))
    return host, files, held


def _open_sequencer(
    plan: HostPlan, found: Registry, key: SigningKey, files: TableFiles, master: bytes
) -> Sequencer:
    return Sequencer.open(
        files.folder.name,
        key,
        found.game,
        game=plan.game,
        variant=plan.variant,
        seats=plan.seats,
        name=plan.table_name,
        pin=found.pin(plan.game),
        master=master,
        log_path=files.log,
        sealed_path=files.sealed,
        late_watchers=plan.late_watchers,
        host_timeout=plan.host_timeout,
    )


async def resume_host(table_id: str | None, found: Registry, profile: Profile, *, quiet: bool) -> int:
    """Take back a table this machine hosted (the latest unfinished one, or ``table_id``) and serve it.

    The log is read back and checked entry by entry, the table listens on the same port again, and
    the peers, which keep knocking, reconnect and catch up by themselves.
    """
    try:
        files = resumable(tables_dir(profile.home), hosting=True, table_id=table_id)
    except TableOver as over:
        print(f"{over}: nothing to resume; `atoll audit {over.log}` checks its log")
        return 0
    with files.hold():
        return await _resume_host(files, found, profile, quiet=quiet)


async def _resume_host(files: TableFiles, found: Registry, profile: Profile, *, quiet: bool) -> int:
    master = bytes.fromhex(read_secrets(files)["master"])
    place = read_place(files)
    try:
        plan = HostPlan(**{**place["plan"], "quiet": quiet})
    except (KeyError, TypeError) as exc:
        raise AtollError(f"{files.place}: not a host's place file ({exc})") from exc
    key = profile.identity.signing_key()
    table = _table_in(files, files.folder.name, key.verify_key.encode(), key, found, master)
    try:
        restored = table.restore()
    except (BadEntry, HostEquivocated) as exc:
        # the peers hold every entry the host signed: a host that went on from a shorter log would sign
        # a second history, so it refuses, and its seats take the table over after the host timeout
        table.log.close()
        line = exc.line if isinstance(exc, UnreadableLine) else len(table.log.entries) + 1
        problem = exc.reason if isinstance(exc, UnreadableLine) else str(exc)
        raise AtollError(
            f"{files.log}, line {line}: {problem}; this machine cannot host the table again from a damaged "
            "log (nothing was changed; its seats take the table over once the host timeout passes)"
        ) from exc
    if restored == 0:
        raise AtollError(f"{files.log}: no entries to resume the table from")
    check_installed(table, found)
    elsewhere = await moved_to(key, table, wait=2.0)  # short: the peers are waiting for this host
    if elsewhere is None:
        host = Sequencer.restored(table, key, late_watchers=plan.late_watchers)
        if not quiet:
            print(f"resuming table {table.id} from {len(table.log.entries)} entries", flush=True)
        try:
            served = await _serve(plan, host, files, found, profile, start_bots=False, rebinding=True)
            following = await _next_game(served, plan, found, None)
            return served.status if following is None else await host_table(following, found, profile)
        except NobodyCame as exc:
            elsewhere = await moved_to(key, table, wait=10.0)  # ask once more, patiently, before giving up
            if elsewhere is None:
                print(f"atoll host: {exc}", file=sys.stderr)
                return 1
    if elsewhere is not None:  # a seat took the table over meanwhile: this machine joins it as a peer
        role = "sit" if table.my_seat is not None else "watch"
        # its own last entries may never have reached anyone: keep this log aside, take the table's
        table.log.close()
        aside = _set_aside(files.log)
        if not quiet:
            print(
                f"table {table.id} has moved to another seat while this host was away; joining it "
                f"(this host's own log is kept as {aside})"
            )
        table = _table_in(files, table.id, key.verify_key.encode(), key, found, master)
        link = Link(key, elsewhere)
        try:
            status, ending = await _play(table, link, role, plan.own_bot, quiet, found, profile, standby=None)
        finally:
            link.close()
        # the others look for a rematch where the table first was: at this machine (decision 0005)
        following = await _next_game(Served(status, ending, plan.port), plan, found, None)
        return status if following is None else await host_table(following, found, profile)
    raise AssertionError("unreachable")


def _set_aside(log: Path) -> Path:
    """Rename ``log`` to a free ``log.jsonl.before-N`` (never over a file); the new name."""
    for number in range(1, 10_000):
        aside = log.with_name(f"{log.name}.before-{number}")
        if not aside.exists():
            os.link(log, aside)
            os.unlink(log)
            return aside
    raise AtollError(f"too many set-aside copies of {log}")


async def _serve(
    plan: HostPlan,
    host: Sequencer,
    files: TableFiles,
    found: Registry,
    profile: Profile,
    *,
    start_bots: bool,
    terminal: Terminal | None = None,
    rebinding: bool = False,
) -> Served:
    """Listen, announce, start the bots, serve until the game is over, close everything; the exit
    status, how the host's person left the screen, and the port. ``rebinding``: the port was this
    table's (or the previous game's) and may take a moment to be let go of; :class:`PortTaken` when
    it stays taken, with nothing written."""
    key = host.key
    host_fp = fingerprint(key.verify_key.encode())
    table = host.table
    table_id = table.id
    host.turn_time = plan.turn_time
    choose: Chooser | None = None
    if not plan.headless:
        choose = (
            _seat_bot(found, plan.own_bot, table) if plan.own_bot else person_chooser(_current_match(table))
        )
    server_keys = curve_keys(key)
    raise_limit()  # before the sockets: their doors share out what the limit allows
    socket = HostSocket(server_keys, host.admit)
    keys: KeyService | None = None
    key_task: asyncio.Task[None] | None = None
    announcer: Announcer | None = None
    bots: list[subprocess.Popen[bytes]] = []
    say = _quiet if plan.quiet else say_event
    ending, port = FINISHED, plan.port
    try:
        keys = KeyService(
            canonical_bytes({"curve": server_keys[0].decode(), "fp": host_fp, "table": table_id})
        )
        port = await _listen(plan, socket, keys, again=rebinding and plan.port is not None,
                             resuming=not start_bots)
        if not files.place.exists():
            # written once both ports are held: `atoll host --resume` listens there again
            write_place(files, {"role": "host", "plan": {**asdict(plan), "port": port, "quiet": False}})
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
        for index in range(plan.bots if start_bots else 0):
            bots.append(_start_bot(profile.home, table_id, index, address, plan.bot_kind))
        person = not plan.headless and not plan.own_bot and not plan.quiet
        if person and (terminal is not None or full_screen()):
            ending = await play_on_screen(
                table,
                lambda mine, heard: run_host(host, socket, mine, _with_seats(heard, table, announcer)),
                host_sender(host, socket),
                role="sit",
                hearing=host,
                hosting=True,
                note=f"others join with: atoll join --address {address}",
                terminal=terminal,
            )
        else:
            lobby = table.lobby
            alone = None
            if not start_bots and lobby is not None and lobby.full():
                # resumed: if no seat comes back, the table went on (or ended) under another seat
                alone = lobby.host_timeout * (len(table.successors()) + 1) + 10.0
            await run_host(host, socket, choose, _with_seats(say, table, announcer), alone_limit=alone)
    finally:
        if key_task is not None:
            key_task.cancel()
        if announcer is not None:
            await announcer.close()
        socket.close()
        if keys is not None:
            keys.close()
        _stop(bots)
    return Served(_report(table, files.log), ending, port)


class PortTaken(AtollError):
    """The table's port (or the next one, for key requests) cannot be listened on."""


async def _listen(
    plan: HostPlan, socket: HostSocket, keys: KeyService, *, again: bool, resuming: bool
) -> int:
    """Bind the table's port and the next one (key requests); the port. :class:`PortTaken` in one line
    when either cannot be had: a new table is told of a free pair to use instead."""
    at = plan.port
    try:
        for tries in range(1, PAIR_TRIES + 1):
            port = await _bound(lambda: socket.bind(plan.bind, plan.port), again)
            at = port + 1
            try:
                await _bound(partial(keys.bind, plan.bind, at), again and plan.port is not None)
                break
            except zmq.ZMQError as exc:
                # a port the system chose can have its next one taken (by any program's outgoing
                # connection, on the same ephemeral range): another pair is tried
                if plan.port is not None or exc.errno != errno.EADDRINUSE or tries == PAIR_TRIES:
                    raise
                socket.unbind()
    except zmq.ZMQError as exc:
        if exc.errno != errno.EADDRINUSE:
            raise PortTaken(
                f"cannot listen on {plan.bind} port {at} ({exc.strerror}): check --bind and --port"
            ) from exc
        if resuming:
            advice = ("its peers knock at that port: free it (is this table's host still running?) "
                      "and resume again")
        else:
            free = _free_pair(plan.bind)
            advice = (f"choose another: --port {free} (it and {free + 1} are free now)" if free is not None
                      else "choose another with --port")
        raise PortTaken(
            f"port {at} on {plan.bind} is in use by another table or program (a table listens on its "
            f"port and the next); {advice}"
        ) from exc
    return port


def _free_pair(address: str) -> int | None:
    """A port P with P+1 free too on ``address`` now (``None`` if none is found in a few tries)."""
    import socket as sockets

    def free(port: int) -> bool:
        with sockets.socket() as probe:
            try:
                probe.bind((address, port))
            except OSError:
                return False
        return True

    for _ in range(20):
        with sockets.socket() as probe:
            try:
                probe.bind((address, 0))
            except OSError:
                return None
            port = int(probe.getsockname()[1])
        if port < 65000 and free(port) and free(port + 1):
            return port
    return None


async def _bound(bind: Callable[[], T], again: bool) -> T:
    """``bind()``, tried ``again`` for up to :data:`BIND_WAIT_S` while the address is in use."""
    deadline = time.monotonic() + BIND_WAIT_S
    while True:
        try:
            return bind()
        except zmq.ZMQError as exc:
            if not again or exc.errno != errno.EADDRINUSE or time.monotonic() > deadline:
                raise
        await asyncio.sleep(0.2)


def _quiet(event: Event) -> None:
    if event.blame is not None or event.ending is not None:  # how the game ended is news, quiet or not
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
    announcement = announcement_of(table, curve, host_fp)
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
    if table.left is not None:  # a clear end, if not a finished game: nobody did anything wrong
        print(f"the game ended: {table.ended}; the table's log: {log}")
        return 0
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
    announced: bool = False
    """Whether the table was found through DNS-SD: a seat that takes it over announces it again."""

    @classmethod
    def chosen(cls, found: FoundTable, *, spectate: bool) -> JoinPlan:
        """The plan for a table chosen in the lobby: its first address, and the key and fingerprint it
        announced (so no key is asked for, and a host with another fingerprint is refused)."""
        a = found.announcement
        return cls(found.addresses[0], found.port, a.curve_key, a.fingerprint, None, spectate, False,
                   announced=True)


@dataclass
class JoinState:
    """Where a join is, for what an interrupt should say: ``finished`` is the id of the table whose game
    ended while this machine knocks for the host's next one (nothing is owed there), else ``None``."""

    finished: str | None = None


async def learn_host_key(profile: Profile, host: str, port: int, *, quiet: bool) -> tuple[str, str]:
    """The CURVE key of the host at ``host:port``, asked of it and remembered (trust on first use).

    A key that differs from the one remembered for the address is refused (HostKeyChanged says how
    to pin or forget it).
    """
    address = f"{host}:{port}"
    try:
        answer = parse_json(await ask_key(host, port + 1))
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


async def join_table(
    plan: JoinPlan,
    found: Registry,
    profile: Profile,
    *,
    after: str | None = None,
    terminal: Terminal | None = None,
    state: JoinState | None = None,
) -> int:
    """Sit (or watch) at the table, play until it is over; the exit status.

    When the person asks for a rematch on the result screen, the next game is the next table that
    answers at the same address (``after``: the id of the table just played, which may answer a
    little longer); it is joined as this one was. ``state`` tells the caller, while this waits for
    the next game, which finished table it waits after. ``terminal`` is for tests.
    """
    state = state if state is not None else JoinState()
    while True:
        state.finished = after
        status, ending, played = await _join_once(plan, found, profile, after, terminal, state)
        if ending != REMATCH or status != 0:
            return status
        after = played
        if not plan.quiet:
            print(
                f"waiting for the host's next game at {plan.host}:{plan.port} "
                f"(up to {REMATCH_WAIT_S:.0f} s; Ctrl-C gives up)",
                flush=True,
            )


async def knock(
    host: str,
    port: int,
    curve: str,
    key: SigningKey,
    *,
    after: str | None,
    wait: float = REMATCH_WAIT_S,
    spectate: bool = False,
) -> tuple[PeerSocket, Welcome]:
    """A socket to the table at ``host:port`` and its welcome. With ``after`` (a table id), knock
    until a table other than that one answers, for up to ``wait`` seconds: the host closes the
    finished table and opens the next one at the same address. A host that does not admit this
    identity (its seats are taken by others) is told in one line at once (AtollError; ``spectate``:
    the identity came to watch)."""
    deadline = time.monotonic() + wait
    while True:
        socket = PeerSocket(key, curve.encode())
        try:
            socket.connect(host, port)
            welcome = await handshake(socket, key, timeout=10.0 if after is None else KNOCK_S)
            if welcome.table_id != after:
                return socket, welcome
            failed: Exception = TableFailed(f"the host at {host}:{port} still holds the finished table")
        except Refused as exc:  # definite: knocking again would be refused again
            socket.close()
            why = (
                "its seats are taken and it admits no more spectators (a host can: "
                "atoll host --late-watchers)"
                if spectate
                else "its seats are taken and none is this identity's; watch with --spectate if its host "
                "admits late spectators (atoll host --late-watchers)"
            )
            who = fingerprint(key.verify_key.encode())
            raise AtollError(
                f"the table at {host}:{port} refused this identity ({who}): {why}"
            ) from exc
        except (TableFailed, OSError) as exc:
            failed = exc
        socket.close()
        if after is None or time.monotonic() > deadline:
            if after is not None:
                raise AtollError(
                    f"no next game opened at {host}:{port} within {wait:.0f} s ({failed}); "
                    "ask the host, or look in the lobby: atoll join"
                ) from failed
            raise failed
        await asyncio.sleep(1.0)


async def _join_once(
    plan: JoinPlan,
    found: Registry,
    profile: Profile,
    after: str | None,
    terminal: Terminal | None,
    state: JoinState,
) -> tuple[int, str, str]:
    """Join one table (the next one after ``after``): the exit status, how the screen ended, its id."""
    key = profile.identity.signing_key()
    socket, welcome = await knock(plan.host, plan.port, plan.curve, key, after=after, spectate=plan.spectate)
    held: Held | None = None
    state.finished = None  # seated at a new table from here on
    try:
        host_fp = fingerprint(welcome.host_key)
        if plan.expected_fp is not None and host_fp != plan.expected_fp:
            raise AtollError(
                f"the host at {plan.host}:{plan.port} has fingerprint {host_fp}, "
                f"not the announced {plan.expected_fp}"
            )
        if welcome.pinned is not None:  # at the door: before anything is written or anyone sits
            game, pinned = welcome.pinned
            require_same(game, pinned, found.installed_pin(game))
        files = table_files(tables_dir(profile.home), welcome.table_id)
        held = files.hold()  # let go below, when the socket closes
        master = os.urandom(32)
        role = "watch" if plan.spectate else "sit"
        write_secrets(files, {"master": master.hex(), "table": welcome.table_id, "role": role})
        write_place(
            files,
            {
                "role": role,
                "host": plan.host,
                "port": plan.port,
                "curve": plan.curve,
                "host_key": welcome.host_key.hex(),
                "bot": plan.bot,
                "announced": plan.announced,
            },
        )
        table = _table_in(files, welcome.table_id, welcome.host_key, key, found, master)
        link = Link(key, socket, announce=plan.announced)
        standby = standby_address(plan.host, plan.port) if role == "sit" else None
        try:
            status, ending = await _play(
                table, link, role, plan.bot, plan.quiet, found, profile, standby=standby, terminal=terminal
            )
            return status, ending, welcome.table_id
        finally:
            link.close()
    finally:
        socket.close()
        if held is not None:
            held.release()


async def resume_join(
    table_id: str | None,
    found: Registry,
    profile: Profile,
    *,
    quiet: bool,
    leave: bool = False,
    state: JoinState | None = None,
) -> int:
    """Go back to a table this machine sat at (the latest unfinished one, or ``table_id``) and play on.

    The log is read back and checked entry by entry; whatever arrived since comes from the host (which
    may itself be restarting; if it stays silent past the table's host timeout, the peer follows the
    table to the seat that takes it over, or takes it over itself if it is next). With ``leave``, the
    seat leaves the table for good instead, once caught up: the game ends there, with no result.
    A rematch asked at the end is looked for as :func:`join_table` does (``state`` as there).
    """
    try:
        files = resumable(tables_dir(profile.home), hosting=False, table_id=table_id)
    except TableOver as over:
        print(f"{over}: nothing to resume; `atoll audit {over.log}` checks its log")
        return 0
    with files.hold():
        return await _resume_join(files, found, profile, quiet=quiet, leave=leave, state=state)


async def _resume_join(
    files: TableFiles, found: Registry, profile: Profile, *, quiet: bool, leave: bool, state: JoinState | None
) -> int:
    master = bytes.fromhex(read_secrets(files)["master"])
    place = read_place(files)
    key = profile.identity.signing_key()
    try:
        host_key = strict_hex(place["host_key"], 32, "host key")
        role, host, curve = str(place["role"]), str(place["host"]), str(place["curve"])
        port = int(place["port"])
    except (KeyError, TypeError, ValueError) as exc:
        raise AtollError(f"{files.place}: not a peer's place file ({exc})") from exc
    table = _table_in(files, files.folder.name, host_key, key, found, master)
    try:
        # a damaged line and the lines after it are moved aside: the host sends those entries again
        restored = table.restore(repair=True)
    except HostEquivocated as exc:
        table.log.close()
        raise AtollError(f"{files.log}: {exc}; `atoll audit {files.log}` shows the proof") from exc
    if table.repaired is not None:
        fixed = table.repaired
        kept = f"lines 1-{fixed.line - 1} are kept" if fixed.line > 1 else "no line is kept"
        print(
            f"{files.log}, line {fixed.line}: {fixed.problem}; {kept}, the rest is moved to "
            f"{fixed.aside.name}, and the host sends those entries again",
            file=sys.stderr,
            flush=True,
        )
    check_installed(table, found)
    bot = place.get("bot")
    standby = table.lobby.standby.get(table.me or "") if table.lobby is not None else None
    link = Link(key, None, announce=place.get("announced") is True)
    try:
        if table.log.host.encode() == key.verify_key.encode():
            assert standby is not None  # only a seat with a standby address takes a table over
            if not quiet:
                print(f"resuming table {table.id} from {restored} entries; this seat hosts it at {standby}")
            host_here(link, table, standby, taking_over=False)
        else:
            if table.log.host.encode() != host_key:  # the table moved to another seat meanwhile
                link.peer = connect_to(key, table)
                where = "the seat that took it over"
            else:
                link.peer = PeerSocket(key, curve.encode())
                link.peer.connect(host, port)
                where = f"{host}:{port}"
            if not quiet:
                print(f"resuming table {table.id} from {restored} entries; reaching its host at {where}")
            # no handshake: every entry is checked against the host's signature anyway, and a host
            # that does not answer is followed to the seat that takes the table over (see follow)
        if leave:
            if table.my_seat is None:
                raise AtollError(f"this machine holds no seat at table {table.id}; there is nothing to leave")
            session = PeerSession(
                table, role, profile.name, found.installed_pin, standby=standby, leaving=True
            )
            await follow(session, link, None, _quiet if quiet else say_event)
            print(f"you left table {table.id}: {table.ended or 'the game had ended'}")
            return 0
        status, ending = await _play(
            table, link, role, bot if isinstance(bot, str) else None, quiet, found, profile, standby=standby
        )
    finally:
        link.close()
    if ending == REMATCH and status == 0:  # the next game at the address this seat first came to
        again = JoinPlan(host, port, curve, None, None, role == "watch", quiet)
        return await join_table(again, found, profile, after=table.id, state=state)
    return status


async def _play(
    table: Table,
    link: Link,
    role: str,
    bot: str | None,
    quiet: bool,
    found: Registry,
    profile: Profile,
    *,
    standby: str | None,
    terminal: Terminal | None = None,
) -> tuple[int, str]:
    """Sit (or watch) at ``table`` through ``link`` until the game is over, following the table if its
    host goes and hosting it here if this seat is next; the exit status, and how the person left the
    screen (``"finished"`` without one)."""
    session = PeerSession(table, role, profile.name, found.installed_pin, standby=standby)
    spectate = role == "watch"
    choose: Chooser | None = None
    if bot:
        choose = _seat_bot(found, bot, table)
    elif not spectate:
        choose = person_chooser(_current_match(table))
    ending = FINISHED
    try:
        try:
            if not bot and not quiet and (terminal is not None or full_screen()):
                ending = await play_on_screen(
                    table,
                    lambda mine, heard: follow(session, link, mine, heard),
                    link.send,
                    role=role,
                    hearing=session,
                    leave_line="your seat is kept; take it again with: atoll join --resume",
                    terminal=terminal,
                )
                if ending == LEFT:
                    return 0, ending
            else:
                await follow(session, link, choose, _quiet if quiet else say_event)
        except TableFailed as exc:
            print(f"atoll join: {exc}", file=sys.stderr)
            return 1, ending
    finally:
        table.log.close()
    if quiet and (table.results() is not None or table.left is not None):
        return 0, ending
    assert table.log.path is not None
    return _report(table, table.log.path), ending
