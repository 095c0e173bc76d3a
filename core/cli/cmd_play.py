"""``atoll play GAME``: play a game in this terminal, one seat yours and bots at the others."""

from __future__ import annotations

import argparse
import secrets
from collections.abc import Callable, Mapping
from datetime import datetime
from pathlib import Path

from prompt_toolkit.input import Input
from prompt_toolkit.output import Output

from atoll.cli.common import add_game_arguments, registry
from atoll.client.console import Console
from atoll.client.local import LocalGame, start_local_game
from atoll.client.prompt import PromptClient, Saver, SessionResult
from atoll.client.saves import new_save_path
from atoll.errors import AtollError
from atoll.registry import Registry

HELP = "play a game in this terminal against bots (your seat at a prompt that completes legal moves)"

#: Seeds offered when none is given: small enough to read out and type again.
SEED_RANGE = 1_000_000_000


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``play`` options."""
    add_game_arguments(parser)
    parser.add_argument(
        "--bots", metavar="KIND[,KIND...]",
        help="bot kind for the other seats, or one kind per bot seat in seat order "
             "(default: a bot made for the game if installed, else search, else random)",
    )
    parser.add_argument("--seed", type=int, help="seed of the dice and shuffles (default: random, printed)")
    parser.add_argument("--seat", type=int, default=0, help="your seat, counted from 0 (default: 0)")
    parser.add_argument(
        "--save", type=Path, metavar="FILE",
        help="save the game to FILE, which must not exist (default: a new file in the data directory)",
    )


def run(args: argparse.Namespace) -> int:
    """Play the game."""
    play(args, registry())
    return 0


def play(
    args: argparse.Namespace,
    found: Registry,
    *,
    input: Input | None = None,
    output: Output | None = None,
    env: Mapping[str, str] | None = None,
    clock: Callable[[], datetime] = datetime.now,
) -> SessionResult:
    """Play with the games of ``found``; ``input``, ``output``, ``env`` and ``clock`` are for tests."""
    if args.save is not None and args.save.exists():
        raise AtollError(f"{args.save} already exists; choose a new file name for --save")
    seed = args.seed if args.seed is not None else secrets.randbelow(SEED_RANGE)
    kinds = [k.strip() for k in args.bots.split(",")] if args.bots else []
    local = start_local_game(
        found, args.game, seed=seed, seats=args.seats, variant=args.variant, seat=args.seat, bots=kinds
    )
    model = local.model
    config = model.match.config
    console = Console(output)
    console.say(
        f"{model.game.info.title}, {config.seats} seats, variant {config.variant}; "
        f"you are {model.game.seat_names(config)[model.seat]}", "bold",
    )
    console.say(f"seed {seed} (play the same deal again with --seed {seed}); type help for help")
    saver = _saver(local, args.save, console, env, clock)
    return PromptClient(model, console, saver, input=input, output=output).run()


def _saver(
    local: LocalGame,
    named: Path | None,
    console: Console,
    env: Mapping[str, str] | None,
    clock: Callable[[], datetime],
) -> Saver:
    """Save to the named file; if that fails, say why and save to the data directory instead."""

    def save() -> Path:
        if named is not None:
            try:
                local.save(named)
                return named
            except (AtollError, OSError) as exc:
                console.say(f"could not save to {named}: {exc}; saving to the data directory instead")
        path = new_save_path(local.model.game.info.name, clock(), env)
        try:
            local.save(path)
        except OSError as exc:
            raise AtollError(f"cannot write {path}: {exc.strerror}") from exc
        return path

    return save
