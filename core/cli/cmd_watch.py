"""``atoll watch [TABLE]``: watch a table as a spectator and show it on a live read-only web page, for
a projector or a TV at the party (``--web [ADDR:]PORT``; loopback unless an address is given).

The table is found as ``atoll join`` finds it (by name through DNS-SD, or ``--address``); the page
shows only what a spectator may see, and keeps following the table through host hand-overs.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from atoll.cli.common import registry
from atoll.errors import AtollError

if TYPE_CHECKING:
    from atoll.web.server import WebAddress

HELP = "watch a table as a spectator on a big screen: a live read-only page for a web browser"
#: The page's port when none is given.
DEFAULT_WEB = "127.0.0.1:8480"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``watch`` options."""
    parser.add_argument("table", nargs="?", help="the table's name or id, as the lobby shows it")
    parser.add_argument("--address", metavar="HOST:PORT[#KEY]", help="go to this address instead of looking")
    parser.add_argument(
        "--web",
        default=DEFAULT_WEB,
        metavar="[ADDR:]PORT",
        help=f"where the page listens (default: {DEFAULT_WEB}, this machine only; 0.0.0.0:PORT for the "
        "LAN; port 0: a free one)",
    )
    parser.add_argument("--name", help="your name at the table, as the others see the spectator (remembered)")
    parser.add_argument(
        "--wait", type=float, default=3.0, metavar="SECONDS",
        help="how long to look for the table on the LAN (default: 3)",
    )
    parser.add_argument(
        "--linger", type=float, metavar="SECONDS",
        help="after the game, keep the result on the page this long, then exit (default: until Ctrl-C)",
    )
    parser.add_argument("--quiet", action="store_true", help="print only the page's address and problems")
    parser.add_argument(
        "--resume",
        action="store_true",
        help="watch again the table this machine watched last (or TABLE, its id) after a crash or a quit",
    )


def run(args: argparse.Namespace) -> int:
    """Watch the table on the page."""
    from atoll.net import eventloop
    from atoll.web.server import WebAddress

    if args.resume and args.address:
        raise AtollError("--resume goes back to a table this machine watched: no --address (TABLE: its id)")
    if args.table is None and args.address is None and not args.resume:
        raise AtollError("which table? `atoll watch TABLE` (`atoll join` lists them) or --address HOST:PORT")
    if args.linger is not None and not args.linger >= 0:
        raise AtollError(f"--linger is a number of seconds, 0 or more, not {args.linger:g}")
    address = WebAddress.parse(args.web)
    try:
        return eventloop.run(_watch(args, address))
    except KeyboardInterrupt:
        print("atoll watch: stopped; the page is closed (watch the table again with: atoll watch --resume)",
              file=sys.stderr)
        return 130


async def _watch(args: argparse.Namespace, address: WebAddress) -> int:
    from atoll.app.big_screen import resume_watch, watch_table
    from atoll.cli.cmd_join import plan_to
    from atoll.net.identity import login_name, open_profile
    from atoll.paths import data_root

    profile = open_profile(data_root(), name=args.name, fallback_name=login_name("big screen"))
    if args.resume:
        return await resume_watch(
            args.table, registry(quiet=args.quiet), profile, address, linger=args.linger, quiet=args.quiet
        )
    plan = await plan_to(args, profile, bot=None, spectate=True)
    return await watch_table(plan, registry(quiet=args.quiet), profile, address, linger=args.linger)
