"""A table that goes on elsewhere (decision 0020, "The host's person plays on unasked"): when the
table's loop ends with :class:`TableMoved` (its host stepped down and the seat plays on as a peer's), the
table screen and the line-by-line table close by themselves, with no key and nothing printed: the caller
says where the table went and opens the next screen. Any other end of the loop still waits for the
person. (Without sockets: a seat of the table harness, its loop ended by hand.)"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from atoll.client.lines import Ending as LineEnding
from atoll.client.lines import LineTable
from atoll.client.net_source import NetTable
from atoll.client.source import TableMoved
from atoll.engine.observation import Observation
from atoll.table.peer import TableFailed
from atoll.table.table import Event
from atoll.tui.screen import Ending, TableScreen
from atoll.types import Action
from tests.table.harness import Net, open_table
from tests.table.test_survive import start
from tests.tui.driver import SizedOutput, pipe

Chooser = Callable[[Observation], Awaitable[Action]] | None


async def seated(ended: Exception) -> NetTable:
    """Seat 0 of a Kariba table of three under way, its loop ending with ``ended`` a moment after it
    starts (as the host's loop does when it steps down); ready to read."""
    net: Net = open_table("kariba", 3)
    start(net)

    async def send(data: bytes) -> None:
        net.send(0, data)

    async def serve(choose: Chooser, heard: Callable[[Event], None]) -> None:
        await asyncio.sleep(0.2)
        raise ended

    source = NetTable(net.peers[0].table, role="sit", send=send, hosting=True)
    source.start(serve)
    await source.ready()
    return source


async def on_screen(ended: Exception, wait: float) -> tuple[NetTable, Ending | None]:
    """How the table screen over a seat whose loop ends with ``ended`` ends within ``wait`` seconds, no key
    pressed (``None``: still open); and the seat's table."""
    source = await seated(ended)
    with pipe() as keys:
        screen = TableScreen(source, input=keys, output=SizedOutput())
        running = asyncio.ensure_future(screen.run())
        done, _ = await asyncio.wait({running}, timeout=wait)
        if not done:
            screen.leave()  # still open: the person leaves (as after pressing y)
            await running
            return source, None
        assert not running.result().lines  # nothing printed: the caller says where the table went
        return source, running.result().ending


def test_the_table_screen_closes_by_itself_when_the_table_moves_on_elsewhere() -> None:
    source, ending = asyncio.run(on_screen(TableMoved("a seat took the table over"), 5.0))
    assert ending is Ending.MOVED
    assert source.moved() and source.problem() is None


def test_the_table_screen_stays_open_on_a_table_that_failed_until_the_person_leaves() -> None:
    source, ending = asyncio.run(on_screen(TableFailed("the host went"), 1.0))
    assert ending is None
    assert not source.moved() and source.problem() == "the host went"


def test_the_line_by_line_table_ends_by_itself_without_saying_the_game_did_not_finish() -> None:
    printed: list[str] = []

    async def play() -> LineEnding:
        source = await seated(TableMoved("a seat took the table over"))
        typed: asyncio.Queue[str | None] = asyncio.Queue()  # nothing is typed
        return await asyncio.wait_for(LineTable(source, printed.append).play(typed), 5.0)

    assert asyncio.run(play()) is LineEnding.MOVED
    assert not any("did not finish" in line for line in printed), printed
