"""``atoll host GAME``: open a table on this machine; players on the LAN find it and sit down.

The host orders and relays signed messages and is trusted with nothing else: every peer keeps the
whole log, checks it, and runs the fair protocols with its own secrets. Unless ``--headless``, the
person at this machine takes the first seat, or the one of ``--seat N``/``--colour NAME`` (or a bot
does, with ``--bot``); ``--bots N`` starts N bot peers on this machine, each a separate process with
its own identity, paced by ``--bot-delay`` (docs/decisions/0023-seats-at-a-table.md).
"""

from __future__ import annotations

import argparse
import sys

from atoll.cli.common import (
    add_game_arguments,
    add_think_argument,
    bot_delay,
    game_name,
    registry,
    seat_number,
    use_think,
    variant_name,
)
from atoll.errors import AtollError
from atoll.pace import BOT_DELAY
from atoll.registry import Registry

HELP = "open a table on this machine for players on the LAN"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``host`` options."""
    add_game_arguments(parser, optional_game=True)
    parser.add_argument(
        "--bots", type=int, default=0, metavar="N", help="fill N seats with bot peers started on this machine"
    )
    parser.add_argument(
        "--bot-kind", metavar="KIND", help="the kind of those bots (default: the game's own bot, else random)"
    )
    parser.add_argument("--bot", metavar="KIND", help="a bot of KIND plays the host's own seat")
    add_think_argument(parser)
    parser.add_argument(
        "--bot-delay", type=bot_delay, metavar="SECONDS",
        help=f"the least time each move of this machine's bots takes, so people can follow them "
             f"(default: {BOT_DELAY} while a person sits at the table, else 0)",
    )
    parser.add_argument(
        "--seat", type=seat_number, metavar="N",
        help="your seat, numbered from 1 as the seat bar shows it (default: the first; at a rematch, "
             "the one you had)",
    )
    parser.add_argument("--colour", "--color", metavar="NAME", help="your seat by its colour instead")
    parser.add_argument("--name", metavar="TABLE", help="the table's name, as the lobby shows it")
    parser.add_argument("--player", metavar="NAME", help="your name at the table (remembered)")
    parser.add_argument(
        "--port",
        type=int,
        help="the port to listen on (default: a free one); the next "
        "port answers key requests of direct joins",
    )
    parser.add_argument(
        "--bind",
        default="0.0.0.0",
        metavar="ADDR",
        help="the address to listen on (default: every interface)",
    )
    parser.add_argument(
        "--no-announce", action="store_true", help="do not announce the table on the LAN (nothing multicasts)"
    )
    parser.add_argument("--headless", action="store_true", help="take no seat: only host the table")
    parser.add_argument(
        "--late-watchers",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="admit spectators after the seats are taken (the default; --no-late-watchers refuses them)",
    )
    parser.add_argument(
        "--verbose",
        action="store_true",
        help="show the table's diagnostics (refusals between machines, trouble at the port) on the screen "
        "too; they are always kept in the table's folder, refusals.log",
    )
    parser.add_argument("--quiet", action="store_true", help="print only the table's address and the result")
    parser.add_argument(
        "--turn-time",
        type=float,
        metavar="SECONDS",
        help="how long a seat may take over a move or a protocol message, signed in the table's first "
        "entry; past it the other seats witness a timeout on their own clocks and the late seat forfeits "
        "(default: no limit; the table waits, and nobody forfeits for time)",
    )
    parser.add_argument(
        "--on-leave",
        choices=["hand", "end", "ask"],
        default="hand",
        help="when a player leaves: hand the seat to a stand-in watching the table (atoll join "
        "--stand-in KIND, on a machine that plays no seat), the game ending if none is there (hand, "
        "the default), end the game (end), or ask you on your screen each time: wait for the player, "
        "end the game, or hand the seat to a stand-in (ask)",
    )
    parser.add_argument(
        "--stand-in",
        metavar="KIND",
        help="start a bot of KIND that watches and takes over a seat whose player leaves (with "
        "--headless and no --bots only: the seat's secrets come to this machine, which then plays no seat)",
    )
    parser.add_argument(
        "--host-timeout",
        type=int,
        default=20,
        metavar="SECONDS",
        help="how long the seats wait for a host that went silent before the next seat takes the "
        "table over (default: 20)",
    )
    parser.add_argument(
        "--web",
        metavar="[ADDR:]PORT",
        help="show the table on a big screen too: a live read-only page for a web browser at PORT "
        "(this machine only; 0.0.0.0:PORT for the LAN); the lobby shows that the table has one",
    )
    parser.add_argument(
        "--resume",
        nargs="?",
        const="",
        metavar="TABLE",
        help="take back the table this machine hosted last (or TABLE, its id) after a crash or a quit",
    )


def run(args: argparse.Namespace) -> int:
    """Host the table until the game is over."""
    from atoll.app.hosting import HostPlan, host_table, resume_host
    from atoll.app.person import verbose
    from atoll.net import eventloop
    from atoll.net.identity import MAX_NAME_LENGTH, check_name, login_name, open_profile
    from atoll.paths import data_root

    found = use_think(registry(quiet=args.quiet), args.think)
    verbose(args.verbose)
    if args.turn_time is not None and not args.turn_time > 0:
        raise AtollError(f"--turn-time is a number of seconds above 0, not {args.turn_time:g}")
    if not 1 <= args.host_timeout <= 3600:
        raise AtollError(f"--host-timeout is 1-3600 seconds, not {args.host_timeout}")
    if args.resume is not None:
        if args.game is not None:
            raise AtollError("--resume takes back a table as it was opened: give no GAME (or give TABLE)")
        profile = open_profile(data_root(), name=args.player, fallback_name=login_name("host"))
        try:
            resumed = resume_host(args.resume or None, found, profile, quiet=args.quiet)
            return eventloop.run(resumed, terminate=True)
        except KeyboardInterrupt:
            print("atoll host: interrupted; resume the table with: atoll host --resume", file=sys.stderr)
            return 130
    if args.game is None:
        raise AtollError("which game? `atoll host GAME` (`atoll games` lists them), or `atoll host --resume`")
    if args.headless and (args.seat is not None or args.colour is not None):
        raise AtollError("--headless takes no seat: no --seat or --colour")
    if args.seat is not None and args.colour is not None:
        raise AtollError("--seat and --colour both choose your seat: give one")
    name = game_name(found, args.game)
    info = found.game(name).info
    variant = variant_name(info.variants, args.variant) or info.default_variant
    if variant not in info.variants:
        raise AtollError(f"{name} has no variant {variant!r} (variants: {', '.join(info.variants)})")
    seats = args.seats or info.min_seats
    if not info.min_seats <= seats <= info.max_seats:
        raise AtollError(f"{name} takes {info.min_seats}-{info.max_seats} seats, not {seats}")
    if args.bots < 0 or args.bots + (0 if args.headless else 1) > seats:
        raise AtollError(
            f"{args.bots} bots and {'no' if args.headless else 'your'} seat do not fit {seats} seats"
        )
    bot_kind = args.bot_kind or _default_bot(found, name)
    if args.stand_in and (not args.headless or args.bots):
        raise AtollError(
            "--stand-in needs --headless and no --bots: a seat handed to it brings that seat's secrets to "
            "this machine, which must play no other seat (a stand-in can also join from another laptop: "
            "atoll join --stand-in KIND)"
        )
    if args.on_leave == "ask" and (args.headless or args.bot or args.quiet):
        raise AtollError("--on-leave ask asks you at your table screen: it needs your own seat, played by "
                         "you (not --headless, --bot or --quiet)")
    if args.stand_in and args.on_leave != "hand":
        raise AtollError("--stand-in takes over a seat whose player leaves; --on-leave end hands none over")
    for kind in {k for k in (bot_kind, args.bot, args.stand_in) if k}:
        found.bot(kind, name)  # refuses an unknown kind before anything opens
    profile = open_profile(data_root(), name=args.player, fallback_name=login_name("host"))
    # a name given is checked (never cut short); the one made up from the player's name fits by cutting
    table_name = (
        check_name(args.name, "table name (--name)") if args.name is not None
        else f"{profile.name}'s {name}"[:MAX_NAME_LENGTH]
    )
    plan = HostPlan(
        game=name,
        variant=variant,
        seats=seats,
        table_name=table_name,
        bind=args.bind,
        port=args.port,
        bots=args.bots,
        bot_kind=bot_kind,
        own_bot=args.bot,
        headless=args.headless,
        announce=not args.no_announce,
        late_watchers=args.late_watchers,
        quiet=args.quiet,
        turn_time=args.turn_time,
        host_timeout=args.host_timeout,
        web=_web(args.web),
        on_leave=args.on_leave,
        stand_in=args.stand_in,
        think=args.think,
        seat=_own_seat(found, name, variant, seats, args.seat, args.colour),
        bot_delay=args.bot_delay,
    )
    try:
        return eventloop.run(host_table(plan, found, profile), terminate=True)
    except KeyboardInterrupt:
        print("atoll host: interrupted; resume the table with: atoll host --resume", file=sys.stderr)
        return 130


def _web(text: str | None) -> str | None:
    """``--web`` checked before anything opens (WebAddress says what is wrong), kept as given."""
    if text is not None:
        from atoll.web.server import WebAddress

        WebAddress.parse(text)
    return text
def _own_seat(
    found: Registry, game: str, variant: str, seats: int, seat: int | None, colour: str | None
) -> int | None:
    """The host's own seat asked for by number (from 0) or by colour, checked against the game; ``None``
    when none was asked for."""
    from atoll.seat_colours import seat_colours
    from atoll.table.seating import SeatRefused, choose_seat, seat_of_colour
    from atoll.types import Config

    if seat is None and colour is None:
        return None
    colours = seat_colours(found.game(game).seat_names(Config(seats, variant, {})))
    try:
        if colour is not None:
            seat = seat_of_colour(colour, colours=colours, held={})
        return choose_seat("", seat, seats=seats, held={}, kept=[], names={}, colours=colours)
    except SeatRefused as exc:
        raise AtollError(str(exc)) from None


def _default_bot(found: Registry, game: str) -> str:
    """The game's own bot if a plugin brings one, else ``random`` (fast enough for any table)."""
    specific = sorted(kind.name for kind in found.bots_for(game) if kind.games is not None)
    return specific[0] if specific else "random"
