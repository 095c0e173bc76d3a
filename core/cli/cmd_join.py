"""``atoll join [TABLE]``: list the tables on the LAN, or sit down at one (as a person or a bot), or watch.

``--seat N`` (from 1, as the seat bar numbers seats) or ``--colour NAME`` chooses the seat
(docs/decisions/0023-seats-at-a-table.md). A table is found by name (in any case) through DNS-SD, or
reached directly with ``--address HOST:PORT``; a direct join learns the host's key on first contact
and shows its fingerprint (trust on first use, remembered for that address), and
``--address HOST[,HOST...]:PORT#PIN``, the line a host prints, pins its fingerprint (or key) instead
(:mod:`atoll.net.joinline`).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from atoll.cli.common import add_think_argument, bot_delay, registry, seat_number, use_think
from atoll.errors import AtollError
from atoll.pace import BOT_DELAY

if TYPE_CHECKING:
    from atoll.app.joining import JoinPlan, JoinState
    from atoll.app.person import Terminal
    from atoll.net.identity import Profile
    from atoll.registry import Registry
    from atoll.tui.host_form import HostChoice
    from atoll.tui.lobby import LobbyChoice

HELP = "find tables on the LAN, or join one as a player, a bot or a spectator"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``join`` options."""
    parser.add_argument("table", nargs="?", help="the table's name or id (without it: list the tables found)")
    parser.add_argument(
        "--address",
        metavar="HOST[,HOST...]:PORT[#PIN]",
        help="go to this address instead of looking: the line the host prints (the first of its addresses "
        "that answers; PIN: the host's fingerprint or key)",
    )
    parser.add_argument(
        "--bot", metavar="KIND", help="a bot of KIND plays the seat (exits 0 when the game ends)"
    )
    add_think_argument(parser)
    parser.add_argument(
        "--bot-delay", type=bot_delay, metavar="SECONDS",
        help=f"with --bot (or a bot --stand-in): the least time each of its moves takes, so people can "
             f"follow them (default: {BOT_DELAY} while a person sits at the table, else 0)",
    )
    parser.add_argument("--spectate", action="store_true", help="watch the game; take no seat")
    parser.add_argument(
        "--stand-in",
        metavar="KIND",
        help="watch, and have a bot of KIND (or you, with 'person') take over a seat whose player leaves "
        "(that seat's secrets come to this machine alone; run it where nobody plays a seat)",
    )
    parser.add_argument(
        "--seat", type=seat_number, metavar="N",
        help="sit at seat N, numbered from 1 as the seat bar shows it (default: the seat you had at the "
             "game before, else the first free one); a seat taken is refused, naming the free ones",
    )
    parser.add_argument(
        "--colour", "--color", metavar="NAME",
        help="sit at the seat of this colour (red, blue, ...: each seat has one; a game that names its "
             "seats by colour draws that seat's pieces in it)",
    )
    parser.add_argument("--name", help="your name at the table (remembered)")
    parser.add_argument(
        "--wait",
        type=float,
        default=3.0,
        metavar="SECONDS",
        help="how long to look for tables on the LAN (default: 3)",
    )
    parser.add_argument("--json", action="store_true", help="list the tables found as JSON")
    parser.add_argument(
        "--verbose",
        action="store_true",
        help="show the table's diagnostics (refusals between machines, trouble at the port) on the screen "
        "too; they are always kept in the table's folder, refusals.log",
    )
    parser.add_argument("--quiet", action="store_true", help="print only problems")
    parser.add_argument(
        "--leave",
        action="store_true",
        help="leave the table this machine joined last (or TABLE) for good: your seat goes to a stand-in "
        "where the host chose so and one is there, else the game ends there",
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="go back to the table this machine joined last (or TABLE, its id) after a crash or a quit",
    )


def run(args: argparse.Namespace) -> int:
    """List, join or watch."""
    if args.bot and args.spectate:
        raise AtollError("--bot plays a seat and --spectate takes none: choose one")
    if args.stand_in and args.bot:
        raise AtollError("--bot plays a seat now and --stand-in a seat whose player leaves: choose one")
    if (args.resume or args.leave) and (args.address or args.bot or args.spectate or args.stand_in):
        raise AtollError(
            "--resume goes back to a table as you sat there: no --address, --bot, --spectate or --stand-in"
        )
    if args.stand_in and args.stand_in != "person" and args.stand_in not in registry(quiet=args.quiet).bots:
        kinds = ", ".join(sorted(registry(quiet=args.quiet).bots))
        raise AtollError(f"no bot kind {args.stand_in!r} is installed (kinds: {kinds})")
    if (args.spectate or args.stand_in) and (args.seat is not None or args.colour is not None):
        raise AtollError("--spectate and --stand-in take no seat now: no --seat or --colour")
    if args.seat is not None and args.colour is not None:
        raise AtollError("--seat and --colour both choose the seat: give one")
    if args.bot_delay is not None and not args.bot and args.stand_in in (None, "person"):
        raise AtollError("--bot-delay paces the bot of --bot: give --bot KIND, or leave it out")
    if (args.resume or args.leave) and (args.seat is not None or args.colour is not None):
        raise AtollError("--resume goes back to the seat you had: no --seat or --colour")
    from atoll.app.joining import JoinState
    from atoll.app.person import verbose
    from atoll.net import eventloop

    verbose(args.verbose)
    state = JoinState()
    try:
        done = eventloop.run(_join(args, state))
        return done if isinstance(done, int) else _host(done)
    except KeyboardInterrupt:
        print(interrupted_line(state), file=sys.stderr)
        return 130


def interrupted_line(state: JoinState) -> str:
    """What ``atoll join`` says when Ctrl-C stops it: after a finished game (waiting for the host's next
    one) nothing is owed and there is no seat to take again; otherwise how to take the seat again."""
    if state.finished is not None:
        return (f"atoll join: stopped waiting for the next game; the game at table {state.finished} "
                "is over and nothing is owed there")
    if state.at is None:
        return "atoll join: stopped before reaching a table; nothing was written"
    return "atoll join: interrupted; take your seat again with: atoll join --resume"


async def _join(args: argparse.Namespace, state: JoinState) -> int | HostChoice:
    from atoll.app.joining import join_table, resume_join
    from atoll.app.person import full_screen
    from atoll.net.identity import login_name, open_profile
    from atoll.paths import data_root

    if args.resume or args.leave:
        profile = open_profile(data_root(), name=args.name, fallback_name=login_name("player"))
        return await resume_join(
            args.table, use_think(registry(quiet=args.quiet), args.think), profile, quiet=args.quiet,
            leave=args.leave, state=state,
        )
    if args.address is None and args.table is None:
        if not args.json and not args.quiet and full_screen():
            return await _lobby(args, state)
        return await _list(args)
    profile = open_profile(data_root(), name=args.name, fallback_name=login_name("player"))
    # a stand-in watches, with the bot (or the person, "person") that plays a seat handed over to it
    bot, spectate = (args.stand_in, True) if args.stand_in else (args.bot, args.spectate)
    plan = await plan_to(args, profile, bot=bot, spectate=spectate)
    return await join_table(plan, use_think(registry(quiet=args.quiet), args.think), profile, state=state)


async def plan_to(args: argparse.Namespace, profile: Profile, *, bot: str | None, spectate: bool) -> JoinPlan:
    """How to reach the table ``args`` name: ``--address`` (the first of its hosts that answers; its key
    learnt once, or pinned by key or fingerprint), or the table found by name (in any case) through
    DNS-SD within ``--wait`` seconds, at the first of its addresses that answers."""
    from atoll.app.joining import JoinPlan
    from atoll.app.reaching import reach
    from atoll.net.discovery import find_table
    from atoll.net.joinline import Address, BadAddress, Pin, parse_address

    expected_fp: str | None = None
    if args.address is not None:
        try:
            address = parse_address(args.address)
        except BadAddress as exc:
            raise AtollError(str(exc)) from exc
    else:
        found = await find_table(args.table, args.wait)
        if found is None:
            raise AtollError(
                f"no table {args.table!r} found on the LAN within {args.wait:g} s "
                "(try a longer --wait, or --address HOST:PORT)"
            )
        address = Address(found.addresses, found.port, Pin(curve=found.announcement.curve_key.encode()))
        expected_fp = found.announcement.fingerprint
    reached = await reach(address, profile, quiet=args.quiet)
    return JoinPlan(
        reached.host,
        address.port,
        reached.curve,
        expected_fp or reached.fingerprint,
        bot,
        spectate,
        args.quiet,
        announced=args.address is None,
        seat=getattr(args, "seat", None),
        colour=getattr(args, "colour", None),
        bot_delay=getattr(args, "bot_delay", None),
    )


async def _list(args: argparse.Namespace) -> int:
    from atoll.net.discovery import browse
    from atoll.tui.lobby import Announcement, installed_builds

    tables = await browse(args.wait)
    if args.json:
        print(json.dumps([t.to_json() for t in tables], indent=2))
        return 0
    if not tables:
        print(f"no tables found on the LAN in {args.wait:g} s (host one with `atoll host GAME`)")
        return 0
    builds = installed_builds(registry(quiet=True))
    for found in tables:
        a = found.announcement
        print(
            f"{a.name!r}: {a.game} ({a.variant}), {a.taken} taken, {a.free} free; host {a.fingerprint}\n"
            f"    atoll join {a.table}    (or: atoll join --address {found.pinned_address})"
        )
        if a.open_seats and len(a.open_seats) > 1:
            print(f"    free seats {', '.join(str(s + 1) for s in a.open_seats)}: choose one with --seat N")
        shown = Announcement.of(found, builds)
        for line in (shown.other_game, shown.big_screen):
            if line:
                print(f"    {line}")
    return 0


async def _lobby(args: argparse.Namespace, state: JoinState) -> int | HostChoice:
    """The lobby screen: the tables on the LAN, live; then what the person chose there."""
    from atoll.net.identity import login_name, open_profile
    from atoll.paths import data_root
    from atoll.tui.lobby import choose_in_lobby

    found = registry()
    choice = await choose_in_lobby(found)
    return await after_lobby(
        choice,
        found,
        lambda: open_profile(data_root(), name=args.name, fallback_name=login_name("player")),
        state=state,
    )


async def after_lobby(
    choice: LobbyChoice | None,
    found: Registry,
    profile: Callable[[], Profile],
    *,
    state: JoinState | None = None,
    terminal: Terminal | None = None,
) -> int | HostChoice:
    """What a choice in the lobby leads to: nothing (the person left, 0); the host form's choice, handed
    back to be opened once this event loop is done; or a seat (or a watch) at the chosen table, played
    at the table screen to its end (the exit status). ``profile`` is opened only to join; ``terminal``
    is for tests."""
    from atoll.app.joining import JoinPlan, join_table

    if choice is None:
        return 0
    if choice.host is not None:
        return choice.host
    if choice.table is None:
        raise AtollError(f"the lobby chose to {choice.action} but named no table")
    plan = await JoinPlan.chosen(choice.table, spectate=choice.action == "spectate", seat=choice.seat)
    return await join_table(plan, found, profile(), state=state, terminal=terminal)


def _host(choice: HostChoice) -> int:
    """Open the table the lobby's host form asked for, as ``atoll host`` would."""
    from atoll.cli import cmd_host
    from atoll.cli.main import build_parser

    argv = ["host", choice.game, "--variant", choice.variant, "--seats", str(choice.seats),
            "--bots", str(choice.bots)]
    if choice.bots and choice.bot_kind:
        argv += ["--bot-kind", choice.bot_kind]
    return cmd_host.run(build_parser(argv).parse_args(argv))
