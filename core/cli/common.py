"""Pieces the subcommands share: the registry, warnings about broken plugins, the game arguments,
names matched regardless of case, and how to print a command that works as printed."""

from __future__ import annotations

import argparse
import dataclasses
import os
import shlex
import shutil
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from atoll.errors import UnknownGame
from atoll.registry import Registry, load_registry


def registry(*, quiet: bool = False, conflicts: bool = True) -> Registry:
    """Load every plugin; unless ``quiet``, warn on stderr about each plugin that failed, and (when
    ``conflicts``, even if ``quiet``) about each game name several plugins claim."""
    found = load_registry()
    warnings: list[object] = [] if quiet else [*found.problems]
    if conflicts:
        warnings.extend(found.conflicts.values())
    for warning in warnings:
        print(f"atoll: warning: {warning}", file=sys.stderr)
    return found


def seat_index(text: str) -> int:
    """A seat a person typed, counted from 1 as every screen counts them, as the index the game API
    uses (counted from 0); ``argparse`` refuses anything else in one line."""
    if not text.strip().isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"a seat is a number from 1 (the first seat), not {text!r}")
    return int(text) - 1


def add_game_arguments(parser: argparse.ArgumentParser, *, optional_game: bool = False) -> None:
    """The arguments every command that sets up a game takes: the game, its variant and seats."""
    if optional_game:
        parser.add_argument("game", nargs="?", help="the game's name, as `atoll games` lists it")
    else:
        parser.add_argument("game", help="the game's name, as `atoll games` lists it")
    parser.add_argument("--variant", help="a variant of the game (default: the game's own)")
    parser.add_argument("--seats", type=int, help="how many seats (default: the fewest the game takes)")


#: CPU seconds a decision of the search bot where people wait for it (``--think``); the same as
#: :data:`atoll.bots.search.DEFAULT_THINK`, kept here so that ``atoll --help`` imports no search.
THINK = 1.0


def add_think_argument(parser: argparse.ArgumentParser, default: float | None = THINK) -> None:
    """``--think SECONDS``: how long the search bot thinks a decision, wherever a bot kind is chosen."""
    said = (f"default: {default:g}" if default is not None
            else "default: a fixed number of iterations, so that a seed gives the same games")
    parser.add_argument(
        "--think", type=think_seconds, default=default, metavar="SECONDS",
        help=f"CPU seconds the search bot thinks a decision ({said}); other bot kinds keep their own pace",
    )


def think_seconds(text: str) -> float:
    """An argparse type: a think time in seconds, above 0 and at most an hour."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds (try 1 or 0.5)") from None
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(f"{text} seconds is not above 0 and at most 3600")
    return value


def use_think(found: Registry, seconds: float | None) -> Registry:
    """A copy of ``found`` whose ``search`` bot kind thinks ``seconds`` a decision (``found`` itself for
    ``None``, or when no search kind is installed)."""
    if seconds is None or "search" not in found.bots:
        return found
    from atoll.bots.search import thinking_kind

    return dataclasses.replace(found, bots={**found.bots, "search": thinking_kind(seconds)})


def game_name(found: Registry, typed: str) -> str:
    """The installed game ``typed`` names, ignoring case (``Kariba`` is ``kariba``); raises
    :class:`UnknownGame` listing the installed games when none fits, or naming the plugins that all
    claim the name."""
    names = [*found.games, *found.conflicts]
    fitting = [typed] if typed in names else [name for name in names if name.casefold() == typed.casefold()]
    if len(fitting) == 1 and fitting[0] in found.conflicts:
        raise UnknownGame(str(found.conflicts[fitting[0]]))
    if len(fitting) == 1:
        return fitting[0]
    installed = ", ".join(sorted(found.games)) or "none"
    raise UnknownGame(f"no game {typed!r} is installed (installed: {installed})")


def variant_name(variants: Sequence[str], typed: str | None) -> str | None:
    """The variant ``typed`` names, ignoring case (``Experienced`` is ``experienced``); the typed
    name itself when none fits, so the game's own error lists its variants."""
    if typed is None or typed in variants:
        return typed
    fitting = [name for name in variants if name.casefold() == typed.casefold()]
    return fitting[0] if len(fitting) == 1 else typed


def atoll_command(argv0: str | None = None, env: Mapping[str, str] | None = None) -> str:
    """How to call atoll in a printed hint, so it works when pasted: ``atoll`` when that is the
    program on the PATH, else the full path of the program that runs now (a venv's ``bin/atoll``
    that is not activated), else ``python -m atoll.cli.main`` with this Python."""
    argv0 = sys.argv[0] if argv0 is None else argv0
    env = os.environ if env is None else env
    program = Path(argv0)
    if program.name == "atoll" and program.exists():
        on_path = shutil.which("atoll", path=env.get("PATH", ""))
        if on_path is not None and Path(on_path).resolve() == program.resolve():
            return "atoll"
        return shlex.quote(str(program.resolve()))
    return f"{shlex.quote(sys.executable)} -m atoll.cli.main"


def bot_delay(text: str) -> float:
    """``--bot-delay SECONDS`` as argparse takes it: 0 to 60 (:func:`atoll.pace.seconds`)."""
    from atoll.pace import seconds

    try:
        return seconds(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def seat_number(text: str) -> int:
    """``--seat N`` as argparse takes it: a seat as the seat bar numbers it, from 1; returned from 0."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"a seat is a number from 1, as the seat bar shows it, not {text!r}")
    return int(text) - 1
