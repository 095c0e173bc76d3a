"""``atoll``: the command line. Each subcommand lives in its own module."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence

from atoll.errors import AtollError

#: Subcommand name -> module with ``add_arguments(parser)``, ``run(args) -> int`` and ``HELP``.
COMMANDS = {
    "audit": "atoll.cli.cmd_audit",
    "games": "atoll.cli.cmd_games",
    "host": "atoll.cli.cmd_host",
    "join": "atoll.cli.cmd_join",
    "play": "atoll.cli.cmd_play",
    "replay": "atoll.cli.cmd_replay",
    "saves": "atoll.cli.cmd_saves",
    "sim": "atoll.cli.cmd_sim",
}


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The argument parser with every subcommand.

    Given ``argv`` naming a subcommand, only that subcommand's module is
    imported (the others are parsed by name only), so a command starts fast
    and does not depend on the others loading. A module that fails to import
    is reported when its command is asked for, not before.
    """
    parser = argparse.ArgumentParser(
        prog="atoll",
        description="Peer-to-peer tabletop games for LAN parties: fair dice and cards, no trusted server.",
    )
    parser.add_argument("--version", action=_Version, help="show atoll's version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    wanted = next((arg for arg in argv or () if not arg.startswith("-")), None)
    only = wanted if wanted in COMMANDS else None
    for name, module_name in COMMANDS.items():
        if only is not None and name != only:
            sub.add_parser(name)
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


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    argv = sys.argv[1:] if argv is None else argv
    args = build_parser(argv).parse_args(argv)
    try:
        status: int = args.run(args)
    except AtollError as exc:
        print(f"atoll {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"atoll {args.command}: interrupted", file=sys.stderr)
        return 130
    return status


if __name__ == "__main__":
    sys.exit(main())
