"""Opening a table for ``atoll host``: the sockets, the files, the bots and the announcement.

:func:`host_table` sets up everything a hosted table needs on this machine (identity, table folder
and secrets, sockets, DNS-SD, bot processes) and tears it down again, also when the game fails;
:func:`resume_host` opens an unfinished one again.

Why one module of over 500 lines: opening, resuming and rejoining a hosted table share one set-up
and one teardown (sockets, files, bots, the announcement), which must stay in one order, also when the
game fails; the host loop, the bots, the big screen and the hand-over are modules of their own."""

from __future__ import annotations

import asyncio
import os
import secrets
import shutil
import subprocess
import sys
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from nacl.signing import SigningKey

from atoll.app.big_screen import host_page, screen_field
from atoll.app.bot_peers import BotPeer, start_bot, stop_bots
from atoll.app.follow import (
    Link,
    alone_limit,
    announcement_of,
    moved_to,
)
from atoll.app.joining import play
from atoll.app.person import (
    FINISHED,
    LEFT,
    REMATCH,
    Hearing,
    Terminal,
    host_sender,
    person_chooser,
    play_person,
    refusals_kept,
    say_event,
)
from atoll.app.ports import PortTaken, lan_addresses, listen, listening_on, standby_here
from atoll.app.serve import NobodyCame, SteppedDown, close_table, run_host
from atoll.app.store import (
    SealedFile,
    TableFiles,
    TableOver,
    read_place,
    read_secrets,
    resumable,
    table_files,
    write_place,
    write_secrets,
)
from atoll.app.tables import check_installed, current_match, report, say_endings, seat_bot, table_in
from atoll.client.source import TableMoved
from atoll.errors import AtollError
from atoll.locks import Held
from atoll.net.descriptors import raise_limit
from atoll.net.discovery import Announcer
from atoll.net.encoding import canonical_bytes, fingerprint
from atoll.net.identity import Profile, tables_dir
from atoll.net.joinline import join_line, shell_key
from atoll.net.transport import HostSocket, KeyService, PeerSocket, curve_keys
from atoll.registry import Registry
from atoll.table.host import Sequencer
from atoll.table.log import BadEntry, HostEquivocated, UnreadableLine
from atoll.table.peer import Chooser
from atoll.table.table import HOST_TIMEOUT_S, Event, Table
from atoll.web.server import PageServer, WebAddress
from atoll.wire import KeptSeat, Kind, OnLeave

#: How long each bot process may take to finish once the game is over, in seconds, before it is stopped.
BOT_PATIENCE_S = 10.0
#: How long a host without a person (headless, or its own bot at a seat) keeps its big screen's page up
#: after the game, so that the room reads the result.
PAGE_LINGER_S = 30.0


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
    web: str | None = None
    """Where the big screen's page listens (``[ADDR:]PORT``), or ``None`` for no page."""
    on_leave: str = OnLeave.HAND
    """What the table does when a seat leaves (:class:`~atoll.wire.OnLeave`; a plan saved before the
    choice existed resumes as opened, the ``open`` entry decides)."""
    stand_in: str | None = None
    """The kind of a bot stand-in this machine starts (a headless host without bots: it plays no seat)."""
    think: float | None = None
    """CPU seconds a decision for the search bots this host starts (``None``: their default)."""
    seat: int | None = None
    """The host's own seat (from 0), else the first free one (at a rematch: the one it had)."""
    bot_delay: float | None = None
    """The least seconds a move of this machine's bots takes; ``None``: paced while people watch."""


@dataclass(frozen=True)
class Seating:
    """Who sat where at the game before, for a rematch: the people's seats, kept for them, and the
    seats the bots played, where this host's new bots sit (docs/decisions/0023-seats-at-a-table.md)."""

    kept: tuple[KeptSeat, ...] = ()
    bot_seats: tuple[int, ...] = ()

    @classmethod
    def of(cls, table: Table) -> Seating:
        """The seating at ``table`` (its host's own seat kept, even when a bot played it)."""
        lobby = table.lobby
        if lobby is None:
            return cls()
        kept: list[KeptSeat] = []
        bot_seats: list[int] = []
        for who in lobby.seated:
            seat = lobby.chairs[who]
            if who in lobby.bots and who != table.me:
                bot_seats.append(seat)
            else:
                kept.append({"who": who, "seat": seat, "name": lobby.names.get(who, "?")})
        return cls(tuple(kept), tuple(bot_seats))

    def within(self, seats: int) -> Seating:
        """This seating at a table of ``seats`` seats (another game may have fewer)."""
        return Seating(tuple(k for k in self.kept if k["seat"] < seats),
                       tuple(s for s in self.bot_seats if s < seats))


@dataclass(frozen=True)
class Served:
    """How serving a table ended: the exit status, how the host's person left the screen
    (``"finished"`` when nobody sat at it), and the port the table listened on."""

    status: int
    ending: str
    port: int | None


async def host_table(
    plan: HostPlan,
    found: Registry,
    profile: Profile,
    *,
    terminal: Terminal | None = None,
    seating: Seating | None = None,
) -> int:
    """Open the table, serve it until the game is over, close everything; the exit status.

    When the host's person asks for a rematch on the result screen, the next game (the same, or
    another chosen on the host form) opens as a new table, with a new id and new secrets, at the same
    address and with the same key, and new bot processes; the others find it by knocking there
    (:func:`join_table`), and everyone keeps their seat (``seating``: the game before's, when this is
    itself a rematch). ``terminal`` is for tests (a pipe input and a dummy output).
    """
    rebinding = False
    seating = seating or Seating()
    while True:
        seating = seating.within(plan.seats)
        host, files, held = _open_table(plan, found, profile, seating.kept)
        try:
            served = await _serve(
                plan, host, files, found, profile, start_bots=True, terminal=terminal, rebinding=rebinding,
                bot_seats=seating.bot_seats,
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
        seating = Seating.of(host.table)  # everyone keeps their seat at the next game (decision 0023)
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
        seat=None,  # the host's seat is kept for it, as everyone's is
    )


def _open_table(
    plan: HostPlan, found: Registry, profile: Profile, kept: tuple[KeptSeat, ...] = ()
) -> tuple[Sequencer, TableFiles, Held]:
    """A new table for ``plan``: a new id and master secret, its folder (locked for this process), the
    seats ``kept`` for the people of the game before, and the host's own seat."""
    key = profile.identity.signing_key()
    table_id = f"{plan.game.replace('_', '-')}-{secrets.token_hex(12)}"
    files = table_files(tables_dir(profile.home), table_id)
    held = files.hold()
    try:
        master = os.urandom(32)
        write_secrets(files, {"master": master.hex(), "table": table_id, "role": "host"})
        host = _open_sequencer(plan, found, key, files, master, kept)
        if not plan.headless:
            host.local(host.table.compose(Kind.SIT, _own_sit(plan, host.table, profile.name)))
    except BaseException:
        held.release()
        raise
    return host, files, held


def _own_sit(plan: HostPlan, table: Table, name: str) -> dict[str, object]:
    """The host's own ``sit``: its name, its standby address, the seat asked for (``atoll host``
    checked it against the game) and its bot, if one plays it."""
    body: dict[str, object] = {"name": name}
    # where the other seats reach this one once another seat hosts the table (decision 0020): asked
    # directly before anyone witnesses its timeout, and a successor like every seat
    standby = standby_here(plan.bind)
    if standby is not None:
        body["standby"] = standby
    if plan.seat is not None:
        body["seat"] = plan.seat
    if plan.own_bot:
        body["bot"] = plan.own_bot
    return body


def _open_sequencer(
    plan: HostPlan,
    found: Registry,
    key: SigningKey,
    files: TableFiles,
    master: bytes,
    kept: tuple[KeptSeat, ...] = (),
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
        sealed=SealedFile(files.sealed),
        late_watchers=plan.late_watchers,
        host_timeout=plan.host_timeout,
        on_leave=OnLeave(plan.on_leave),
        turn_time=plan.turn_time,
        kept=list(kept),
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
    table = table_in(files, files.folder.name, key.verify_key.encode(), key, found, master)
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
    if elsewhere is None and table.log.host.encode() != key.verify_key.encode():
        # this machine joined the table as a peer after a seat took it over: it never hosts it again
        elsewhere = await moved_to(key, table, wait=10.0)
        if elsewhere is None:
            table.log.close()
            print(f"atoll host: table {table.id} is hosted by a seat now, which did not answer: the game may "
                  "have ended without this machine; its log here is kept", file=sys.stderr)
            return 1
    if elsewhere is None:
        host = Sequencer.restored(table, key, late_watchers=plan.late_watchers)
        if not quiet:
            print(f"resuming table {table.id} from {len(table.log.entries)} entries", flush=True)
        try:
            served = await _serve(plan, host, files, found, profile, start_bots=False, rebinding=True)
            following = await _next_game(served, plan, found, None)
            if following is None:
                return served.status
            return await host_table(following, found, profile, seating=Seating.of(table))
        except NobodyCame as exc:
            elsewhere = await moved_to(key, table, wait=10.0)  # ask once more, patiently, before giving up
            if elsewhere is None:
                print(f"atoll host: {exc}", file=sys.stderr)
                return 1
    if elsewhere is not None:  # a seat took the table over meanwhile: this machine joins it as a peer
        said = f"table {table.id} has moved to another seat while this host was away; joining it"
        status, ending, table = await _rejoin(plan, files, table, found, profile, elsewhere,
                                              said=None if quiet else said)
        # the others look for a rematch where the table first was: at this machine (decision 0005)
        following = await _next_game(Served(status, ending, plan.port), plan, found, None)
        if following is None:
            return status
        return await host_table(following, found, profile, seating=Seating.of(table))
    raise AssertionError("unreachable")


async def _rejoin(
    plan: HostPlan,
    files: TableFiles,
    table: Table,
    found: Registry,
    profile: Profile,
    peer: PeerSocket,
    *,
    said: str | None,
    terminal: Terminal | None = None,
) -> tuple[int, str, Table]:
    """This machine hosts ``table`` no more: a seat took it over and hosts it, reached through ``peer``.
    It joins that seat as a peer (its own seat, if it has one, plays on), from the table's log as that
    seat sends it; its own log is set aside first (its last entries may never have reached anyone), and
    ``said`` (if given) is printed with where it is kept (the person's new screen says it in its log
    too). The exit status, how the person left the screen, and the table as joined."""
    key = profile.identity.signing_key()
    role = "sit" if table.my_seat is not None else "watch"
    table.log.close()
    aside = _set_aside(files.log)
    if said is not None:
        said = f"{said} (this host's own log is kept as {aside})"
        print(said, flush=True)
    joined = table_in(files, table.id, key.verify_key.encode(), key, found, table.master)
    link = Link(key, peer)
    # its own seat listens where its sit said, as a joined seat does (none at a table of before)
    standby = joined.lobby.standby.get(joined.me or "") if joined.lobby is not None else None
    try:
        status, ending = await play(joined, link, role, plan.own_bot, plan.quiet, found, profile,
                                    standby=standby, terminal=terminal, news=said)
    finally:
        link.close()
    for line in why_replaced(joined):
        print(line, flush=True)
    return status, ending, joined


def stepped_down(table: Table) -> str:
    """What a host's person is told when a seat took the table over from it: one line, saying what
    this machine does now (why the seats did, when it was for more than silence, follows from the
    table's log: :func:`why_replaced`)."""
    lobby = table.lobby
    timeout = f"{lobby.host_timeout:g} s" if lobby is not None else "the host timeout"
    return (f"a seat took table {table.id} over from this machine (the seats had not heard it for "
            f"{timeout}, or replaced it): that seat hosts the table now, and this machine plays on as a peer")


def why_replaced(table: Table) -> list[str]:
    """The lines that tell a host's person why the table named this machine's identity as its host, or
    replaced it for holding back a seat's message, as ``table``'s log records it (none: it was only
    silent)."""
    me = table.key.verify_key.encode() if table.key is not None else b""
    log = table.log

    def was_host(seq: int) -> bool:
        return me in (log.host_at(seq - 1).encode(), log.host_at(seq).encode())

    named = [f"the table named this host at entry {seq}: {ending.text}" for seq, ending in table.hosts_named
             if was_host(seq)]
    replaced = [f"the seats replaced this host at entry {seq}: {why}" for seq, why in table.hosts_replaced
                if was_host(seq)]
    return named + replaced


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
    bot_seats: tuple[int, ...] = (),
) -> Served:
    """Listen, announce, start the bots, serve until the game is over, close everything; the exit
    status, how the host's person left the screen, and the port. ``rebinding``: the port was this
    table's (or the previous game's) and may take a moment to be let go of; :class:`PortTaken` when
    it stays taken, with nothing written. ``bot_seats``: where the bots sit, in order (a rematch)."""
    key = host.key
    host_fp = fingerprint(key.verify_key.encode())
    table = host.table
    table_id = table.id
    choose: Chooser | None = None
    if not plan.headless:
        choose = (
            seat_bot(found, plan.own_bot, table, plan.bot_delay) if plan.own_bot
            else person_chooser(current_match(table))
        )
    server_keys = curve_keys(key)
    raise_limit()  # before the sockets: their doors share out what the limit allows
    socket = HostSocket(server_keys, host.admit)
    keys: KeyService | None = None
    key_task: asyncio.Task[None] | None = None
    announcer: Announcer | None = None
    bots: list[subprocess.Popen[bytes]] = []
    patience = 0.0  # interrupted (Ctrl-C, SIGTERM) or failed: the bots are stopped at once
    say = say_endings if plan.quiet else say_event
    ending, port = FINISHED, plan.port
    page: PageServer | None = None
    hearing: Hearing = host
    # a seat took the table over while this host was silent (set before the try: a port in use fails
    # before the game, and the finally reads it)
    stepped: list[SteppedDown] = []
    try:
        if plan.web is not None:
            page, hearing = await host_page(host, WebAddress.parse(plan.web))
        identity = key.verify_key.encode()
        keys = KeyService(
            canonical_bytes(
                {"curve": server_keys[0].decode(), "fp": host_fp, "id": identity.hex(), "table": table_id}
            )
        )
        port = await listen(
            plan.bind,
            plan.port,
            socket,
            keys,
            again=rebinding and plan.port is not None,
            resuming=not start_bots,
        )
        if not files.place.exists():
            # written once both ports are held: `atoll host --resume` listens there again
            write_place(files, {"role": "host", "plan": {**asdict(plan), "port": port, "quiet": False}})
        key_task = asyncio.create_task(keys.serve())
        # the bots on this machine come over loopback, with the key pinned; people get the LAN line
        address = f"127.0.0.1:{port}#{shell_key(server_keys[0])}" if plan.bind in ("0.0.0.0", "::") \
            else f"{plan.bind}:{port}#{shell_key(server_keys[0])}"
        line = join_line(listening_on(plan.bind), port, identity)
        print(
            f"table {plan.table_name!r}: {plan.game} ({plan.variant}), {plan.seats} seats; id {table_id}",
            flush=True,
        )
        print(f"host fingerprint {host_fp}; others join with:", flush=True)
        print(line, flush=True)
        if plan.announce:
            big_screen = "" if page is None else screen_field(WebAddress.parse(str(plan.web)), page.port)
            announcer = await _announce(plan, table, port, server_keys[0].decode(), host_fp, big_screen)
        if plan.stand_in is not None and start_bots:  # first: it watches before the seats are taken
            stand_in = BotPeer("stand-in", address, plan.stand_in, stand_in=True, think=plan.think,
                               delay=plan.bot_delay)
            bots.append(start_bot(profile.home, table_id, stand_in))
        for index in range(plan.bots if start_bots else 0):
            seat = bot_seats[index] if index < len(bot_seats) else None
            bot = BotPeer(index, address, plan.bot_kind, seat=seat, think=plan.think, delay=plan.bot_delay)
            bots.append(start_bot(profile.home, table_id, bot))
        person = not plan.headless and not plan.own_bot and not plan.quiet

        def elsewhere() -> Awaitable[PeerSocket | None]:
            return moved_to(key, table, wait=2.0)

        if person:  # at the table screen, or line by line where no full screen opens
            async def hosted(mine: Chooser | None, heard: Callable[[Event], None]) -> None:
                try:
                    await run_host(host, socket, mine, _with_seats(heard, table, announcer),
                                   elsewhere=elsewhere)
                except SteppedDown as down:  # the screen closes at once, and the person plays on as a peer
                    stepped.append(down)
                    raise TableMoved(stepped_down(table)) from down

            ending = await play_person(
                table,
                hosted,
                host_sender(host, socket),
                role="sit",
                hearing=hearing,
                hosting=True,
                note=f"others join with:\n{line}",
                terminal=terminal,
            )
            # only a person who left closes the table, and only one this machine still hosts
            if ending == LEFT and not table.over() and not stepped:
                await close_table(host, socket)
                print(f"table {plan.table_name!r} is closed for everyone: {table.ended}", flush=True)
        else:
            lobby = table.lobby
            alone = None
            if not start_bots and lobby is not None and lobby.full():
                # resumed: if no seat comes back, the table went on (or ended) under another seat
                alone = alone_limit(table)
            with refusals_kept(table):
                try:
                    await run_host(host, socket, choose, _with_seats(say, table, announcer),
                                   alone_limit=alone, elsewhere=elsewhere)
                except SteppedDown as down:
                    stepped.append(down)
            if page is not None and table.over():
                # no person holds a result screen open here: the big screen keeps the result up a while
                if not plan.quiet:
                    shown = f"the big screen shows the result for {PAGE_LINGER_S:.0f} s (Ctrl-C: sooner)"
                    print(shown, flush=True)
                await asyncio.sleep(PAGE_LINGER_S)
        if stepped:
            # this machine hosts the table no more: it stops listening and announcing, and joins the seat
            # that hosts it now; the bots it started play on meanwhile, as any seat does
            closing, announcer, keys = (announcer, keys), None, None
            await _stop_listening(socket, *closing, key_task)
            # said once, as the screen closes by itself; the new screen's log opens with it too
            status, ending, table = await _rejoin(
                plan, files, table, found, profile, stepped[0].peer, said=stepped_down(table),
                terminal=terminal if person else None,
            )
            patience = BOT_PATIENCE_S
            return Served(status, ending, port)
        patience = BOT_PATIENCE_S
    finally:
        if not stepped:
            await _stop_listening(socket, announcer, keys, key_task)
        stop_bots(bots, patience)
        if page is not None:
            await page.close()
    return Served(report(table, files.log), ending, port)


async def _stop_listening(
    socket: HostSocket,
    announcer: Announcer | None,
    keys: KeyService | None,
    key_task: asyncio.Task[None] | None,
) -> None:
    """Stop answering at the table's port and its key service, and announcing the table."""
    if key_task is not None:
        key_task.cancel()
    if announcer is not None:
        await announcer.close()
    socket.close()
    if keys is not None:
        keys.close()


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
            free = lobby.seats - len(lobby.seated)
            task = asyncio.ensure_future(announcer.update_seats(taken[0], free, tuple(lobby.open_seats())))
            updates.add(task)
            task.add_done_callback(updates.discard)

    return on_event


async def _announce(
    plan: HostPlan, table: Table, port: int, curve: str, host_fp: str, big_screen: str = ""
) -> Announcer:
    announcement = replace(announcement_of(table, curve, host_fp), web=big_screen)
    interfaces = [plan.bind] if plan.bind not in ("0.0.0.0", "::") else lan_addresses()
    announcer = Announcer(announcement, port=port, interfaces=interfaces)
    await announcer.open()
    return announcer
