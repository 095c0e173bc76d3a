"""``atoll``: the command line. Each subcommand lives in its own module."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from atoll.errors import AtollError

#: Subcommand name -> module with ``add_arguments(parser)``, ``run(args) -> int`` and ``HELP``.
COMMANDS = {
    "audit": "atoll.cli.cmd_audit",
    "games": "atoll.cli.cmd_games",
    "play": "atoll.cli.cmd_play",
    "replay": "atoll.cli.cmd_replay",
    "sim": "atoll.cli.cmd_sim",
}


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = argparse.ArgumentParser(
        prog="atoll",
        description="Peer-to-peer tabletop games for LAN parties: fair dice and cards, no trusted server.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name, module_name in COMMANDS.items():
        module = importlib.import_module(module_name)
        command = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(command)
        command.set_defaults(run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = build_parser().parse_args(argv)
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
