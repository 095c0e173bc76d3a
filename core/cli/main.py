"""``atoll``: the command line. Each subcommand lives in its own module."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple

from atoll.errors import AtollError, Fault, failing_module
from atoll.faultlog import FAULTS_FILE, keep_faults_in, record_fault


class Command(NamedTuple):
    """A subcommand: its module (with ``add_arguments(parser)``, ``run(args) -> int`` and ``HELP``)
    and that ``HELP`` copied here, so ``atoll --help`` lists every command without importing any."""

    module: str
    summary: str


COMMANDS = {
    "audit": Command(
        "atoll.cli.cmd_audit",
        "re-check a table's log (every signature, entry, move, roll, shuffle, card, commitment and seed) "
        "from the file alone; exits 0 if it is consistent and signed by the identities it prints, 1 naming "
        "a seat that cheated, 2 if the file is not a valid table log, 3 if the game did not reach its end "
        "or ended early with no seat accused (one ran out of time or left; the game's plugin failed)",
    ),
    "games": Command(
        "atoll.cli.cmd_games",
        "list the installed games: name, title, seats, variants and where each comes from",
    ),
    "host": Command("atoll.cli.cmd_host", "open a table on this machine for players on the LAN"),
    "join": Command(
        "atoll.cli.cmd_join", "find tables on the LAN, or join one as a player, a bot or a spectator"
    ),
    "new-plugin": Command(
        "atoll.cli.cmd_new_plugin",
        "write a new game plugin to start from: its own installable package, with tests (--example for one)",
    ),
    "play": Command(
        "atoll.cli.cmd_play",
        "play a game in this terminal against bots, or with friends at one keyboard (--humans)",
    ),
    "replay": Command(
        "atoll.cli.cmd_replay",
        "step through a saved game (every step checked), or print its final state and result",
    ),
    "saves": Command(
        "atoll.cli.cmd_saves",
        "list the saved games (game, seats, date, finished or not) with how to resume or replay each; "
        "exits 2 after naming each file there that is not a readable save",
    ),
    "share": Command(
        "atoll.cli.cmd_share",
        "share atoll and its games with the laptops around you: prepare a folder of wheels while online "
        "(--prepare), then serve it on the LAN as a package index and print the line that installs it",
    ),
    "sim": Command(
        "atoll.cli.cmd_sim",
        "play many bot-only games of a game and print wins per seat, mean length and games per second",
    ),
    "watch": Command(
        "atoll.cli.cmd_watch",
        "watch a table as a spectator on a big screen: a live read-only page for a web browser",
    ),
}


#: The exit status of a command stopped by a fault (a plugin's or atoll's own): 1, but for the audit,
#: whose 1 names a seat, 3 (its verdict is unfinished, nobody is named).
FAULT_STATUS = {"audit": 3}


def faults_file() -> Path:
    """Where fault tracebacks go: ``faults.log`` in the data folder."""
    from atoll.paths import data_root

    return data_root() / FAULTS_FILE


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The argument parser with every subcommand.

    Given ``argv`` naming a subcommand, only that subcommand's module is
    imported; without one (``atoll --help``) none is, the list being drawn from
    :data:`COMMANDS`. So a command starts fast and does not depend on the
    others loading. A module that fails to import is reported when its command
    is asked for, not before.
    """
    parser = argparse.ArgumentParser(
        prog="atoll",
        description="Peer-to-peer tabletop games for LAN parties: fair dice and cards, no trusted server.",
    )
    parser.add_argument("--version", action=_Version, help="show atoll's version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    wanted = next((arg for arg in argv or () if not arg.startswith("-")), None)
    for name, (module_name, summary) in COMMANDS.items():
        if name != wanted:
            sub.add_parser(name, help=summary)
            continue
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:
            broken = sub.add_parser(name, help=f"(cannot be loaded: {exc})")
            broken.set_defaults(run=_unavailable(name, exc))
            continue
        command = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(command)
        command.set_defaults(run=module.run)
    return parser


def _unavailable(name: str, problem: ImportError) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        raise AtollError(f"this command cannot be loaded ({problem}); reinstall atoll")

    return run


def version() -> str:
    """The installed atoll's version (``unknown`` when it runs from an uninstalled source tree)."""
    import importlib.metadata  # only when asked: it costs a noticeable part of a start

    try:
        return importlib.metadata.version("atoll")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


class _Version(argparse.Action):
    """``--version``: print the version and exit, looking it up only then."""

    def __init__(self, option_strings: Sequence[str], dest: str, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        print(f"atoll {version()}")
        parser.exit()


def _refusals() -> tuple[type[Exception], ...]:
    """The errors that refuse bad input in one line (exit 2): atoll's own, and the identity files' and
    names' (``atoll.net`` knows nothing of atoll's errors; it is looked up only if it was loaded, since
    only then can it have raised, and ``atoll --help`` stays fast)."""
    identity = sys.modules.get("atoll.net.identity")
    return (AtollError,) if identity is None else (AtollError, identity.IdentityError)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    argv = sys.argv[1:] if argv is None else argv
    args = build_parser(argv).parse_args(argv)
    keep_faults_in(faults_file)
    try:
        status: int = args.run(args)
    except Fault as exc:  # a plugin's or atoll's own failure: one line, nobody blamed, details kept
        record_fault(f"atoll {args.command}", exc)
        print(f"atoll {args.command}: {exc} (the details are in {faults_file()})", file=sys.stderr)
        return FAULT_STATUS.get(args.command, 1)
    except KeyboardInterrupt:
        print(f"atoll {args.command}: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:
        if isinstance(exc, _refusals()):  # bad input, refused in one line
            print(f"atoll {args.command}: {exc}", file=sys.stderr)
            return 2
        # a bug of atoll's own: the same as a fault, naming the module that failed
        record_fault(f"atoll {args.command}", exc)
        print(f"atoll {args.command}: atoll's {failing_module(exc)} failed ({type(exc).__name__}: {exc}); "
              f"nobody is to blame; please report it with {faults_file()}", file=sys.stderr)
        return FAULT_STATUS.get(args.command, 1)
    return status


if __name__ == "__main__":
    sys.exit(main())
