"""A table on this machine: its copy read from its folder, the game it pins, the bot that plays a seat
here, and what is printed when it ends."""

from __future__ import annotations

import asyncio
import json
import secrets
import sys
import time
from collections.abc import Callable
from pathlib import Path

from nacl.signing import SigningKey

from atoll.app.peer_loop import bot_chooser
from atoll.app.person import (
    say_event,
)
from atoll.app.store import SealedFile, TableFiles
from atoll.engine.match import Match
from atoll.engine.observation import Observation
from atoll.errors import AtollError
from atoll.pace import BOT_DELAY
from atoll.pin import require_same
from atoll.registry import Registry
from atoll.table.peer import Chooser
from atoll.table.reasons import EndReason
from atoll.table.table import Event, Table
from atoll.types import Action


def current_match(table: Table) -> Callable[[], Match]:
    def current() -> Match:
        if table.engine is None:
            raise AtollError("the game has not started")
        return table.engine.match

    return current


def seat_bot(found: Registry, kind: str, table: Table, delay: float | None = None) -> Chooser:
    """A chooser for a bot of ``kind``, built for this peer's seat when it first moves. Each move takes
    at least ``delay`` seconds, its thinking included, so that people can follow it (``--bot-delay``);
    without one, :data:`~atoll.pace.BOT_DELAY` while a person sits at the table, and no
    pause at a table of bots alone, where it would only slow the game (decision 0023)."""
    made: list[Chooser] = []

    async def choose(observation: Observation) -> Action:
        began = time.monotonic()
        if not made:
            game = table.lobby.game if table.lobby is not None else observation.game.info.name
            bot = found.bot(kind, game).make(observation.game, observation.seat, secrets.randbelow(2**31))
            made.append(bot_chooser(bot))
        action = await made[0](observation)
        rest = bot_pace(table, delay) - (time.monotonic() - began)
        if rest > 0:
            await asyncio.sleep(rest)
        return action

    return choose


def bot_pace(table: Table, delay: float | None) -> float:
    """The least seconds a bot's move takes at ``table``: ``delay`` when given, else
    :data:`~atoll.pace.BOT_DELAY` while a person sits there, else none (decision 0023)."""
    if delay is not None:
        return delay
    return BOT_DELAY if table.lobby is not None and table.lobby.people_here() else 0.0


def table_in(
    files: TableFiles, table_id: str, host_key: bytes, key: SigningKey, found: Registry, master: bytes
) -> Table:
    """This machine's copy of table ``table_id`` (hosted by ``host_key``), kept in ``files``."""
    return Table(
        table_id, host_key, key, found.game, log_path=files.log, master=master,
        sealed=SealedFile(files.sealed),
    )


def check_installed(table: Table, found: Registry) -> None:
    """Raise :class:`~atoll.pin.GameDiffers` if ``table`` (read back from disk) pins another build of
    its game than the one installed here: playing on would play, and judge, other rules."""
    if table.pinned is not None:
        game, pinned = table.pinned
        require_same(game, pinned, found.installed_pin(game))


def say_endings(event: Event) -> None:
    """Say only how the game ended (a quiet seat or host prints nothing else)."""
    if event.blame is not None or event.ending is not None:  # how the game ended is news, quiet or not
        say_event(event)


def left_line(table: Table) -> str:
    """What a seat that left is told: to whom its seat went, or how the game ended."""
    handed, lobby = table.handed_away, table.lobby
    if handed is not None and lobby is not None:
        return f"your seat went to {lobby.names.get(handed.after, 'a stand-in')} and the game goes on"
    if table.awaits_choice():
        return ("the host chooses whether to wait for you (come back with: atoll join --resume), end the "
                "game, or hand your seat to a stand-in")
    return table.ended or "the game had ended"


def ended_cleanly(table: Table) -> bool:
    """Whether the game ended early without anyone doing wrong: a seat left, or the host closed it."""
    return table.left is not None or (table.ending is not None and table.ending.reason is EndReason.CLOSED)


def report(table: Table, log: Path) -> int:
    """Print how the table ended for this machine; the exit status (0 unless the game did not finish)."""
    if table.handed_away is not None or table.awaits_choice():  # this seat left: nothing went wrong
        print(f"you left the table: {left_line(table)}; the table's log: {log}")
        return 0
    if ended_cleanly(table):  # a clear end, if not a finished game: nobody did anything wrong
        print(f"the game ended: {table.ended}; the table's log: {log}")
        return 0
    end = table.results()
    if end is None or not table.closed:
        print(f"the game did not finish: {table.ended or 'the table closed early'}", file=sys.stderr)
        return 1
    print(f"game over: {json.dumps(end.results.to_json())}; the table's log: {log}")
    return 0
