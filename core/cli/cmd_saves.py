"""``atoll saves``: the games saved on this machine, newest first, finished or not.

A file in the saves folder that is not a readable save is named with its line, and the others are
listed; the exit status is then 2 (0 when every file is a save). Only each file's form is checked
here (every line, the header and the footer); its moves are checked when it is replayed or resumed.
"""

from __future__ import annotations

import argparse
import shlex
import sys

from atoll.cli.common import atoll_command

HELP = ("list the saved games (game, seats, date, finished or not) with how to resume or replay each; "
        "exits 2 after naming each file there that is not a readable save")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``saves`` options (none)."""


def run(args: argparse.Namespace) -> int:
    """List the saves."""
    from atoll.client.saves import list_saves
    from atoll.paths import data_root, games_dir

    saves, problems = list_saves()
    for problem in problems:
        print(f"atoll saves: skipped {problem}", file=sys.stderr)
    status = 2 if problems else 0
    if not saves:
        print(f"no saved games in {games_dir(data_root())}")
        return status
    command = atoll_command()
    for save in saves:
        state = "finished" if save.finished else "unfinished"
        when = f"{save.modified:%Y-%m-%d %H:%M}"
        print(f"{when}  {save.game:<12} {save.variant:<13} {save.seats} seats  {state:<10}  {save.path}")
    latest = next((s for s in saves if not s.finished), None)
    if latest is not None:
        resume = f"{command} play --resume {shlex.quote(str(latest.path))}"
        print(f"\ngo on with the newest unfinished game: {resume}")
    print(f"watch any of them: {command} replay FILE")
    return status
