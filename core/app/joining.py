"""Sitting at (or watching) a table for ``atoll join``: the host's key, the knock, the seat's files, and
following the table through host hand-overs and rematches."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from nacl.signing import SigningKey

from atoll.app.follow import (
    Link,
    connect_to,
    follow,
    host_here,
    standby_address,
)
from atoll.app.peer_loop import Welcome, handshake
from atoll.app.person import (
    FINISHED,
    LEFT,
    REMATCH,
    Terminal,
    person_chooser,
    play_person,
    refusals_kept,
    say_event,
)
from atoll.app.reaching import reach
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
from atoll.app.tables import (
    check_installed,
    current_match,
    ended_cleanly,
    left_line,
    report,
    say_endings,
    seat_bot,
    table_in,
)
from atoll.errors import AtollError
from atoll.locks import Held
from atoll.net.discovery import FoundTable
from atoll.net.encoding import fingerprint, strict_hex
from atoll.net.identity import Profile, tables_dir
from atoll.net.joinline import Address, Pin
from atoll.net.transport import PeerSocket, Refused, WrongKey
from atoll.pin import require_same
from atoll.registry import Registry
from atoll.table.log import HostEquivocated
from atoll.table.peer import Chooser, PeerSession, TableFailed
from atoll.table.table import Table

#: Called with the table and the peer's session once a peer is at a table (``atoll watch``'s big
#: screen reads the table from there).
Shown = Callable[[Table, PeerSession], None]

#: The stand-in "kind" that is the person at this machine (``atoll join --stand-in person``): they
#: watch, and play on their screen a seat handed over to them.
PERSON = "person"

#: How long a person who asked for a rematch waits for the host's next game at the same address.
REMATCH_WAIT_S = 180.0
#: How long one knock at the address waits for a welcome while waiting for the next game.
KNOCK_S = 3.0


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
    seat: int | None = None
    """The seat asked for (from 0; ``atoll join --seat`` counts from 1), else the one the table gives."""
    colour: str | None = None
    """The colour asked for instead (``--colour``): the seat of that colour."""
    bot_delay: float | None = None
    """The least seconds a move of ``bot`` takes (``--bot-delay``); ``None``: paced while people watch."""

    @classmethod
    async def chosen(cls, found: FoundTable, *, spectate: bool, seat: int | None = None) -> JoinPlan:
        """The plan for a table chosen in the lobby: the first of its addresses that answers, and the key
        and fingerprint it announced (so a host with another key or fingerprint is refused); ``seat``:
        the seat chosen there."""
        a = found.announcement
        address = Address(found.addresses, found.port, Pin(curve=a.curve_key.encode()))
        reached = await reach(address, None, quiet=True)
        return cls(
            reached.host, found.port, a.curve_key, a.fingerprint, None, spectate, False, announced=True,
            seat=seat,
        )


@dataclass
class JoinState:
    """Where a join is, for what an interrupt should say: ``finished`` is the id of the table whose game
    ended while this machine knocks for the host's next one (nothing is owed there), else ``None``."""

    finished: str | None = None
    at: str | None = None
    """The id of the table this join sat (or watched) at, once it has its files there."""


async def join_table(
    plan: JoinPlan,
    found: Registry,
    profile: Profile,
    *,
    after: str | None = None,
    terminal: Terminal | None = None,
    state: JoinState | None = None,
    shown: Shown | None = None,
) -> int:
    """Sit (or watch) at the table, play until it is over; the exit status.

    When the person asks for a rematch on the result screen, the next game is the next table that
    answers at the same address (``after``: the id of the table just played, which may answer a
    little longer); it is joined as this one was. ``state`` tells the caller, while this waits for
    the next game, which finished table it waits after. ``terminal`` is for tests. ``shown`` is handed
    each table joined (then no table screen opens: the caller shows the table its own way).
    """
    state = state if state is not None else JoinState()
    while True:
        state.finished = after
        status, ending, played = await _join_once(plan, found, profile, after, terminal, state, shown)
        if ending != REMATCH or status != 0:
            return status
        after = played
        # the next game keeps this seat: the host keeps it for this identity (decision 0023), and the
        # seat or colour asked for the first game may not be free, or not exist, in another game
        plan = replace(plan, seat=None, colour=None)
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
                "its seats are taken and it admits no more spectators (its host chose --no-late-watchers)"
                if spectate
                else "its seats are taken and none is this identity's; watch with --spectate if its host "
                "admits late spectators (as it does unless it chose --no-late-watchers)"
            )
            who = fingerprint(key.verify_key.encode())
            raise AtollError(f"the table at {host}:{port} refused this identity ({who}): {why}") from exc
        except WrongKey as exc:  # definite too: the key will not change by knocking again
            socket.close()
            raise AtollError(
                f"the table at {host}:{port} does not hold the key this join was given ({exc}); check the "
                "line with its host, or join without the part after '#'"
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
    shown: Shown | None = None,
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
        state.at = welcome.table_id
        role = "watch" if plan.spectate else "sit"
        if files.secrets.exists():
            # this machine was at this table before (watching it again from the lobby, say): it comes
            # back as it was there, with its own secrets and its copy of the log
            master, role = _again(files, role, plan.quiet)
        else:
            master = os.urandom(32)
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
        table = table_in(files, welcome.table_id, welcome.host_key, key, found, master)
        if files.log.exists():
            table.restore(repair=True)  # a damaged tail is sent again by the host
        link = Link(key, socket, announce=plan.announced)
        # a spectator listens there too, to be shown evidence against the host directly
        standby = standby_address(plan.host, plan.port)
        try:
            status, ending = await play(
                table, link, role, plan.bot, plan.quiet, found, profile, standby=standby, terminal=terminal,
                shown=shown,
                seat=plan.seat, colour=plan.colour, bot_delay=plan.bot_delay,
            )
            return status, ending, welcome.table_id
        finally:
            link.close()
    finally:
        socket.close()
        if held is not None:
            held.release()


def _again(files: TableFiles, role: str, quiet: bool) -> tuple[bytes, str]:
    """The master secret and role this machine had at the table in ``files`` before; says so when the
    role differs from the one asked for now (a seat stays a seat: its identity holds it)."""
    before = read_secrets(files)
    was = str(before.get("role", role))
    if was != role and not quiet:
        held = "a seat" if was == "sit" else "a spectator's place"
        print(f"this machine had {held} at table {files.folder.name} already: back to it", flush=True)
    return bytes.fromhex(before["master"]), was


async def resume_join(
    table_id: str | None,
    found: Registry,
    profile: Profile,
    *,
    quiet: bool,
    leave: bool = False,
    state: JoinState | None = None,
    shown: Shown | None = None,
) -> int:
    """Go back to a table this machine sat at (the latest unfinished one, or ``table_id``) and play on.

    The log is read back and checked entry by entry; whatever arrived since comes from the host (which
    may itself be restarting; if it stays silent past the table's host timeout, the peer follows the
    table to the seat that takes it over, or takes it over itself if it is next). With ``leave``, the
    seat leaves the table for good instead, once caught up: the game ends there, with no result.
    A rematch asked at the end is looked for as :func:`join_table` does (``state`` and ``shown`` as there).
    """
    try:
        files = resumable(tables_dir(profile.home), hosting=False, table_id=table_id)
    except TableOver as over:
        print(f"{over}: nothing to resume; `atoll audit {over.log}` checks its log")
        return 0
    if state is not None:
        state.at = files.folder.name
    with files.hold():
        return await _resume_join(files, found, profile, quiet=quiet, leave=leave, state=state, shown=shown)


async def _resume_join(
    files: TableFiles,
    found: Registry,
    profile: Profile,
    *,
    quiet: bool,
    leave: bool,
    state: JoinState | None,
    shown: Shown | None = None,
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
    table = table_in(files, files.folder.name, host_key, key, found, master)
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
            with refusals_kept(table):
                await follow(session, link, None, say_endings if quiet else say_event)
            print(f"you left table {table.id}: {left_line(table)}")
            return 0
        status, ending = await play(
            table, link, role, bot if isinstance(bot, str) else None, quiet, found, profile, standby=standby,
            shown=shown,
        )
    finally:
        link.close()
    if ending == REMATCH and status == 0:  # the next game at the address this seat first came to
        again = JoinPlan(host, port, curve, None, None, role == "watch", quiet)
        return await join_table(again, found, profile, after=table.id, state=state)
    return status


async def play(
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
    shown: Shown | None = None,
    seat: int | None = None,
    colour: str | None = None,
    bot_delay: float | None = None,
    news: str | None = None,
) -> tuple[int, str]:
    """Sit (or watch) at ``table`` through ``link`` until the game is over, following the table if its
    host goes and hosting it here if this seat is next; the exit status, and how the person left the
    screen (``"finished"`` without one; ``shown``: no screen, the table handed to it instead).
    ``seat`` or ``colour``: the seat asked for; ``bot_delay``: the pace of ``bot``
    (:func:`~atoll.app.tables.seat_bot`); ``news``: the first line of the person's log after what the
    table holds (why this screen opened)."""
    spectate = role == "watch"
    # a spectator with a bot (or the person here) is a stand-in: it watches, and plays a seat handed
    # over to it
    stand_in = spectate and bool(bot)
    person = stand_in and bot == PERSON
    bot = None if person else bot
    session = PeerSession(table, role, profile.name, found.installed_pin, standby=standby, stand_in=stand_in,
                          seat=seat, colour=colour, bot=bot or None)
    if shown is not None:
        shown(table, session)
    choose: Chooser | None = None
    if bot:
        choose = seat_bot(found, bot, table, bot_delay)
    elif not spectate or person:
        choose = person_chooser(current_match(table))
    ending = FINISHED
    try:
        try:
            if not bot and not quiet and shown is None:  # the table screen, or line by line without one
                ending = await play_person(
                    lambda: session.table,  # a copy that sets entries aside is a new one (Table.set_aside)
                    lambda mine, heard: follow(session, link, mine, heard),
                    link.send,
                    role=role,
                    hearing=session,
                    leave_line="your seat is kept; take it again with: atoll join --resume",
                    terminal=terminal,
                    stand_in=person,
                    news=news,
                )
                if ending == LEFT:
                    return 0, ending
            else:
                with refusals_kept(table):
                    await follow(session, link, choose, say_endings if quiet else say_event)
        except TableFailed as exc:
            print(f"atoll join: {exc}", file=sys.stderr)
            return 1, ending
    finally:
        table.log.close()
        session.table.log.close()
    table = session.table  # a copy that set entries aside on the way is a new one (Table.set_aside)
    if quiet and (table.results() is not None or ended_cleanly(table) or table.handed_away is not None
                  or table.awaits_choice()):
        return 0, ending
    assert table.log.path is not None
    return report(table, table.log.path), ending
