"""``atoll play GAME``: play a game in this terminal, your seat (or several people's) and bots at the
others; ``atoll play --resume [FILE]`` goes on with a saved one.

In a terminal it opens the full-screen client; with ``--plain``, ``TERM=dumb`` or input
that is not a terminal it plays line by line (the prompt client), without escape codes
on a dumb terminal.
"""

from __future__ import annotations

import argparse
import os
import secrets
import shlex
import sys
from collections.abc import Callable, Mapping
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from atoll import pace
from atoll.cli.common import (
    add_game_arguments,
    add_think_argument,
    atoll_command,
    bot_delay,
    game_name,
    registry,
    seat_index,
    use_think,
    variant_name,
)
from atoll.engine.series import Series
from atoll.errors import AtollError
from atoll.registry import Registry
from atoll.system import full_screen_terminal

if TYPE_CHECKING:  # prompt_toolkit is imported only when a game is played (atoll --help stays fast)
    from prompt_toolkit.input import Input
    from prompt_toolkit.output import Output

    from atoll.client.console import Console
    from atoll.client.local import LocalGame
    from atoll.client.local_table import LocalTable
    from atoll.client.prompt import SessionResult
    from atoll.locks import Held
    from atoll.tui.screen import ScreenResult

HELP = "play a game in this terminal against bots, or with friends at one keyboard (--humans)"

#: Seeds offered when none is given: small enough to read out and type again.
SEED_RANGE = 1_000_000_000
#: Seconds to pause between two bot moves in the full-screen client, so people can see each land on
#: the board (``--bot-delay``); a person's turn comes without a pause. The same pace as at a network table.
BOT_DELAY = pace.BOT_DELAY


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``play`` options."""
    add_game_arguments(parser, optional_game=True)
    parser.add_argument(
        "--bots", metavar="KIND[,KIND...]",
        help="bot kind for the other seats, or one kind per bot seat in seat order "
             "(default: a bot made for the game if installed, else search, else random)",
    )
    parser.add_argument("--seed", type=int, help="seed of the dice and shuffles (default: random, printed)")
    parser.add_argument("--seat", type=seat_index, default=0, metavar="N",
                        help="your seat, counted from 1 as the seat bar shows (default: 1)")
    parser.add_argument("--humans", type=int, default=1, metavar="N",
                        help="people taking turns at this keyboard, at the first N seats (default: 1)")
    parser.add_argument("--name", help="your name at the table (remembered for next time)")
    parser.add_argument(
        "--save", type=Path, metavar="FILE",
        help="save the game to FILE, which must not exist (default: a new file in the data directory)",
    )
    parser.add_argument(
        "--resume", nargs="?", const="", metavar="FILE",
        help="go on with a saved game (default: the newest unfinished one; `atoll saves` lists them)",
    )
    parser.add_argument("--plain", action="store_true",
                        help="play line by line instead of full screen (as when TERM=dumb or piped)")
    parser.add_argument("--ascii", action="store_true", help="draw seat marks with ASCII only")
    parser.add_argument("--match", type=int, default=1, metavar="N",
                        help="play a match of N games with the same people, each seat's scores added "
                             "up (default: 1, a single game)")
    add_think_argument(parser)
    parser.add_argument("--bot-delay", type=bot_delay, default=BOT_DELAY, metavar="SECONDS",
                        help=f"pause after each bot move, to follow it (default: {BOT_DELAY}; 0: none)")


def run(args: argparse.Namespace) -> int:
    """Play the game."""
    if args.name is not None:  # checked as at a network table: printable, 1-32 characters
        from atoll.net.identity import check_name

        args.name = check_name(args.name, "your name (--name)")
    found = use_think(registry(), args.think)
    if args.match < 1:
        raise AtollError(f"--match {args.match}: a match is at least one game")
    if args.match > 1 and args.resume is not None:
        raise AtollError("--match starts a new match; a saved game is resumed on its own, without --match")
    if full_screen_possible(args):
        play_screen(args, found)
    else:
        if args.resume is not None or args.humans != 1 or args.match > 1:
            what = "--resume" if args.resume is not None else "--humans" if args.humans != 1 else "--match"
            raise AtollError(f"{what} needs the full-screen client: run it in a terminal (not piped), "
                             "without --plain and with TERM other than dumb")
        play(args, found)
    return 0


def full_screen_possible(args: argparse.Namespace, env: Mapping[str, str] | None = None) -> bool:
    """Whether to open the full-screen client: not ``--plain``, and a terminal on both ends that is
    not dumb (:func:`atoll.system.full_screen_terminal`; Windows consoles set no ``TERM``)."""
    return not args.plain and full_screen_terminal(env)


def _names(args: argparse.Namespace, found: Registry) -> None:
    """Accept the game and variant in any case."""
    if args.game is None:
        raise AtollError("name a game to play (`atoll games` lists them), or go on with one: --resume")
    args.game = game_name(found, args.game)
    args.variant = variant_name(found.game(args.game).info.variants, args.variant)


# -- the full-screen client ---------------------------------------------------------


def play_screen(
    args: argparse.Namespace,
    found: Registry,
    *,
    input: Input | None = None,
    output: Output | None = None,
    env: Mapping[str, str] | None = None,
    clock: Callable[[], datetime] = datetime.now,
) -> ScreenResult:
    """Play full screen; ``input``, ``output``, ``env`` and ``clock`` are for tests.
    Prints, once the screen is gone, the result and how to resume or replay the game."""
    import asyncio

    from atoll.client.local import rematch_table
    from atoll.client.saves import lock_save, new_save_path, remember_name, remembered_name
    from atoll.tui.palette import Look
    from atoll.tui.screen import Ending, TableScreen

    if args.name:
        remember_name(args.name, env)
    pace = args.bot_delay
    table, held = _open_table(args, found, remembered_name(env), env, clock, pace)
    encoding = (getattr(sys.stdout, "encoding", "") or "").lower()
    look = Look(unicode=not args.ascii and encoding.startswith("utf"), palette=True)
    series = Series(args.match) if args.match > 1 else None
    try:
        while True:
            screen = TableScreen(table, look=look, input=input, output=output, leave_hint=_hint(table),
                                 **_match_screen(table, series))
            result = asyncio.run(screen.run())
            for line in result.lines:
                print(line)
            ended = table.results()
            if series is not None and ended is not None:
                series = series.add(ended)
                if series.over:
                    series = Series(series.games)  # r after the last game starts a new match
            if result.ending is not Ending.REMATCH:
                return result
            seed = secrets.randbelow(SEED_RANGE)
            path = new_save_path(table.game.info.name, clock(), env)
            held.release()
            held = lock_save(path)
            table = rematch_table(found, table, seed=seed, save_path=path, pace=pace)
            table.autosave()
    finally:
        held.release()


def _match_screen(table: LocalTable, series: Series | None) -> dict[str, Any]:
    """The table screen's match lines and ``r`` hint for the game of ``series`` played at ``table``
    (nothing when a single game is played): the totals count this game once it is over."""
    if series is None:
        return {}

    def now() -> Series:
        ended = table.results()
        return series.add(ended) if ended is not None else series

    def lines() -> list[str]:
        return now().summary([line.name for line in table.seats()])

    def hint() -> str:
        after = now()
        if after.over:
            return f"r: a new match of {after.games} games · Enter leaves"
        return f"r: game {len(after.played) + 1} of the match · Enter leaves with the totals so far"

    return {"match_lines": lines, "rematch_hint": hint}


def _hint(table: LocalTable) -> Callable[[], str | None]:
    """The line that says how to come back to ``table``'s game: replay it, or resume it."""
    command = atoll_command()
    path = table.save_path

    def hint() -> str | None:
        if path is None:
            return None
        if table.results() is not None:
            return f"replay it with: {command} replay {shlex.quote(str(path))}"
        return f"it is saved; go on later with: {command} play --resume {shlex.quote(str(path))}"

    return hint


def _open_table(
    args: argparse.Namespace, found: Registry, name: str | None, env: Mapping[str, str] | None,
    clock: Callable[[], datetime], pace: float,
) -> tuple[LocalTable, Held]:
    """The table to play and the lock on its save, held by this process until the game is left."""
    from atoll.client.local import new_local_table, resume_local_table
    from atoll.client.saves import latest_unfinished, lock_save, new_save_path

    if args.resume is not None:
        path = Path(args.resume) if args.resume else latest_unfinished(env)
        if path is None:
            raise AtollError("no unfinished game is saved; start one with: atoll play GAME")
        held = lock_save(path)  # before reading: another process may be writing it
        try:
            return resume_local_table(found, path, pace=pace), held
        except BaseException:
            held.release()
            raise
    _names(args, found)
    if args.save is not None and args.save.exists():
        raise AtollError(f"{args.save} already exists; choose a new file name for --save")
    seed = args.seed if args.seed is not None else secrets.randbelow(SEED_RANGE)
    kinds = [k.strip() for k in args.bots.split(",")] if args.bots else []
    path = args.save if args.save is not None else new_save_path(args.game, clock(), env)
    names = {args.seat: name} if name and args.humans == 1 else {}
    table = new_local_table(found, args.game, seed=seed, seats=args.seats, variant=args.variant,
                            humans=args.humans, seat=args.seat, bots=kinds, names=names, save_path=path,
                            pace=pace)
    table.autosave()  # a save path that cannot be written is told now, before the game
    return table, lock_save(path)


# -- the line-by-line client ----------------------------------------------------------


def play(
    args: argparse.Namespace,
    found: Registry,
    *,
    input: Input | None = None,
    output: Output | None = None,
    env: Mapping[str, str] | None = None,
    clock: Callable[[], datetime] = datetime.now,
) -> SessionResult:
    """Play line by line with the games of ``found``; ``input``, ``output``, ``env`` and ``clock`` are
    for tests. A dumb terminal gets plain text without escape codes."""
    from atoll.client.console import Console
    from atoll.client.local import start_local_game
    from atoll.client.prompt import PromptClient

    _names(args, found)
    if args.save is not None and args.save.exists():
        raise AtollError(f"{args.save} already exists; choose a new file name for --save")
    seed = args.seed if args.seed is not None else secrets.randbelow(SEED_RANGE)
    kinds = [k.strip() for k in args.bots.split(",")] if args.bots else []
    local = start_local_game(
        found, args.game, seed=seed, seats=args.seats, variant=args.variant, seat=args.seat, bots=kinds
    )
    model = local.model
    config = model.match.config
    dumb = (os.environ if env is None else env).get("TERM") == "dumb" and output is None
    console = Console(output, plain=dumb)
    console.say(
        f"{model.game.info.title}, {config.seats} seats, variant {config.variant}; "
        f"you are {model.game.seat_names(config)[model.seat]}", "bold",
    )
    console.say(f"seed {seed} (play the same deal again with --seed {seed}); type help for help")
    saves = _LineSaves(local, args.save, console, env, clock)
    client = PromptClient(model, console, saves.save, input=input, output=output, command=atoll_command(),
                          plain=dumb, autosave=saves.autosave, discard=saves.discard)
    try:
        return client.run()
    finally:
        saves.release()


class _LineSaves:
    """The line client's save: written before each of the player's turns and at the end, always to the
    same file (replaced atomically). If the named file cannot be written, say why and use a new file
    in the data directory instead."""

    def __init__(self, local: LocalGame, named: Path | None, console: Console,
                 env: Mapping[str, str] | None, clock: Callable[[], datetime]) -> None:
        self._local = local
        self._named = named
        self._console = console
        self._env = env
        self._clock = clock
        self.path: Path | None = None
        self._held: Held | None = None
        self._held_path: Path | None = None

    def _write(self, path: Path) -> None:
        from atoll.client.saves import lock_save, save_replacing

        resolver = self._local.resolver
        save_replacing(self._local.model.match, path, seed=resolver.seed, faces=resolver.faces())
        if self._held_path != path:  # written there first: this process holds the save from now on
            self.release()
            self._held, self._held_path = lock_save(path), path

    def save(self) -> Path:
        """Save the game; returns where it went."""
        if self.path is not None:
            self._write(self.path)
            return self.path
        if self._named is not None:
            try:
                self._write(self._named)
                self.path = self._named
                return self.path
            except AtollError as exc:
                self._console.say(f"could not save to {self._named}: {exc}; "
                                  "saving to the data directory instead")
        from atoll.client.saves import new_save_path

        path = new_save_path(self._local.model.game.info.name, self._clock(), self._env)
        self._write(path)
        self.path = path
        return path

    def autosave(self) -> None:
        """Save as the game goes."""
        self.save()

    def discard(self) -> None:
        """The player left without saving: remove what was saved as the game went."""
        if self.path is not None:
            self.path.unlink(missing_ok=True)
            self.path = None
        self.release()

    def release(self) -> None:
        """Let go of the save (the game is left)."""
        if self._held is not None:
            self._held.release()
        self._held, self._held_path = None, None
