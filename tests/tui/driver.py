"""Driving the table screen headless: a pipe for the keys, a dummy output of a chosen size, and a
script that says what to type whenever the table waits for a person."""

from __future__ import annotations

import asyncio
import functools
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output import DummyOutput

from atoll.client.local_table import LocalTable
from atoll.registry import Registry, load_registry
from atoll.tui.screen import ScreenResult, TableScreen

#: How long a headless game may take before the test fails rather than hangs.
GAME_TIMEOUT = 240.0
ENTER = "\r"
CTRL_C = "\x03"
ESCAPE = "\x1b"
F1, F2, F3, F5, F6 = "\x1bOP", "\x1bOQ", "\x1bOR", "\x1b[15~", "\x1b[17~"


class SizedOutput(DummyOutput):
    """A dummy output that says it is a terminal of ``rows`` x ``columns``."""

    def __init__(self, rows: int = 24, columns: int = 80) -> None:
        self.size = Size(rows=rows, columns=columns)

    def get_size(self) -> Size:
        return self.size


@dataclass
class Moves:
    """What to type: on each turn of a person, ``choose(table, screen)`` gives the keys (or ``None``).

    A turn is answered once: the next answer waits until the game has moved on.
    """

    choose: Callable[[LocalTable, TableScreen], str | None]
    answered: set[tuple[int, int, int]] = field(default_factory=set)

    def keys(self, table: LocalTable, screen: TableScreen) -> str | None:
        waiting = table.waiting()
        moment = (len(table.match.events), len(table.log()), -1 if screen.handoff is None else screen.handoff)
        if waiting.over:
            moment = (-1, -1, -1)
        elif not waiting.local:
            return None
        if moment in self.answered:
            return None
        keys = self.choose(table, screen)
        if keys is not None:
            self.answered.add(moment)
        return keys


def any_legal(seed: int = 1) -> Callable[[LocalTable, TableScreen], str | None]:
    """Type a random legal action (seeded, so a game is the same each run); take the keyboard when it
    is handed over; leave at the end."""
    rng = random.Random(seed)

    def choose(table: LocalTable, screen: TableScreen) -> str | None:
        if table.waiting().over or screen.handoff is not None:
            return ENTER
        return rng.choice(list(table.texts(screen.viewer))) + ENTER

    return choose


def first_legal(table: LocalTable, screen: TableScreen) -> str | None:
    """Type the first legal action; take the keyboard when it is handed over; leave at the end."""
    if table.waiting().over or screen.handoff is not None:
        return ENTER
    return table.texts(screen.viewer)[0] + ENTER


@contextmanager
def pipe() -> Iterator[PipeInput]:
    """A pipe input, closed afterwards."""
    with create_pipe_input() as keys:
        yield keys


async def drive(screen: TableScreen, keys: PipeInput, moves: Moves, *, timeout: float = GAME_TIMEOUT,
                task: asyncio.Future[ScreenResult] | None = None) -> ScreenResult:
    """Run ``screen`` (or go on with its running ``task``), typing what ``moves`` says, until it closes."""
    table = screen.source
    assert isinstance(table, LocalTable)
    task = task if task is not None else start(screen)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not task.done():
        if loop.time() > deadline:
            task.cancel()
            raise AssertionError(f"the game did not end in {timeout} s: {table.waiting().text}")
        await asyncio.sleep(0.005)
        typed = moves.keys(table, screen)
        if typed is not None:
            keys.send_text(typed)
    return task.result()


async def headless(source: LocalTable, seed: int = 1) -> None:
    """Play ``source`` to its end without a screen: the people type random legal actions (seeded)."""
    rng = random.Random(seed)
    task = asyncio.ensure_future(source.run(lambda: None))
    while not task.done():
        await asyncio.sleep(0)
        waiting = source.waiting()
        if waiting.local and waiting.seat is not None:
            source.submit(waiting.seat, rng.choice(list(source.texts(waiting.seat))))


def start(screen: TableScreen) -> asyncio.Future[ScreenResult]:
    """Start ``screen`` on the running loop."""
    return asyncio.ensure_future(screen.run())


async def wait_for(condition: Callable[[], object], timeout: float = 30.0) -> None:
    """Wait until ``condition()`` is true; fail after ``timeout`` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError("the screen did not get there in time")
        await asyncio.sleep(0.005)


@functools.cache
def registry() -> Registry:
    """The installed games (the built-in ones included), loaded once."""
    return load_registry()
