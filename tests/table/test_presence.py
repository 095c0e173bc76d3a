"""Presence everyone can trust, over real sockets (issue 27, point 1): a seat killed while another is on
turn is shown away to the others within seconds, beside its name and in the log, and back within two
seconds of ``atoll join --resume``; a person who leaves is shown as gone, never as thinking."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from nacl.signing import SigningKey

from atoll.app.follow import Link, follow
from atoll.app.peer_loop import handshake
from atoll.app.reaching import reach
from atoll.client.net_source import NetTable
from atoll.net.joinline import parse_address
from atoll.net.transport import PeerSocket
from atoll.table.peer import PeerSession
from atoll.table.table import Table
from tests.commands import ATOLL, env_for
from tests.table.harness import REGISTRY

HOST = ["host", "kariba", "--seats", "2", "--headless", "--no-announce", "--bind", "127.0.0.1"]


async def started(argv: list[str], root: Path) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        *ATOLL, *argv, env=env_for(root), stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT, start_new_session=True,
    )


async def line_starting(process: asyncio.subprocess.Process, start: str, timeout: float = 60.0) -> str:
    """The first line ``process`` prints that starts with ``start``."""
    assert process.stdout is not None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = (await asyncio.wait_for(process.stdout.readline(), deadline - time.monotonic())).decode()
        if not line:
            break
        if line.startswith(start):
            return line.strip()
    raise AssertionError(f"no line starting {start!r}")


async def until(check: Callable[[], bool], timeout: float, what: str) -> float:
    """Seconds until ``check()`` holds, polled as a screen polls its table; fails after ``timeout``."""
    begun = time.monotonic()
    while not check():
        if time.monotonic() - begun > timeout:
            raise AssertionError(f"{what} did not happen within {timeout:g} s")
        await asyncio.sleep(0.05)
    return time.monotonic() - begun


@dataclass
class Person:
    """A person at the table in this process: their table as the screen reads it, and their link."""

    seen: NetTable
    session: PeerSession
    link: Link

    async def leave(self) -> None:
        await self.seen.close(grace=0)
        self.link.close()


async def sit_as(line: str, name: str) -> Person:
    """Sit at the table the join ``line`` names as a person called ``name`` who never moves unless told
    (``seen.submit``), following the table if its host goes (no standby address: never hosting it)."""
    where = parse_address(line.split()[-1])
    reached = await reach(where, None, quiet=True)
    key = SigningKey.generate()
    socket = PeerSocket(key, reached.curve.encode())
    socket.connect(reached.host, where.port)
    link = Link(key, socket)
    try:
        welcome = await handshake(socket, key)
        table = Table(welcome.table_id, welcome.host_key, key, REGISTRY.game)
        session = PeerSession(table, "sit", name, REGISTRY.installed_pin)
        seen = NetTable(table, role="sit", send=link.send, away=lambda: session.away,
                        left=lambda: session.left)
        seen.start(lambda mine, heard: follow(session, link, mine, heard))  # type: ignore[arg-type]
        await seen.ready(60)
    except BaseException:
        link.close()
        raise
    return Person(seen, session, link)


@asynccontextmanager
async def table_of_two(tmp_path: Path) -> AsyncIterator[tuple[NetTable, asyncio.subprocess.Process, str]]:
    """A host with two seats: Bea, a bot in a process of her own, and Ann, a person here whose turn it is
    (she never moves). Ann's table as her screen reads it, Bea's process and the join line."""
    processes: list[asyncio.subprocess.Process] = []
    ann: Person | None = None
    try:
        host = await started(HOST, tmp_path / "host")
        processes.append(host)
        line = await line_starting(host, "atoll join ")
        bea = await started(["join", *line.split()[2:4], "--bot", "random", "--name", "Bea", "--quiet"],
                            tmp_path / "bea")
        processes.append(bea)
        await until(lambda: any((tmp_path / "bea" / "home" / "tables").glob("*/log.jsonl")), 60, "Bea sits")
        await asyncio.sleep(1.0)  # her sit is in (it comes right after her copy of the log opens)
        ann = await sit_as(line, "Ann")
        seen = ann.seen
        await until(lambda: seen.waiting().local, 60, "Ann's turn")
        yield seen, bea, line
    finally:
        if ann is not None:
            await ann.leave()
        await stop(processes)


async def stop(processes: list[asyncio.subprocess.Process]) -> None:
    """Kill each process (and what it started) that still runs."""
    for process in processes:
        if process.returncode is None:
            os.killpg(process.pid, signal.SIGKILL)
            await process.wait()


def marks(ann: NetTable, name: str) -> str:
    line = next(seat for seat in ann.seats() if seat.who == name)
    return line.presence


def test_a_seat_killed_while_another_is_on_turn_is_away_within_five_seconds_and_back_within_two_of_resume(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with table_of_two(tmp_path) as (ann, bea, _line):
            assert marks(ann, "Bea") == "random bot"
            os.killpg(bea.pid, signal.SIGKILL)  # gone without a word, while Ann is on turn
            await bea.wait()
            took = await until(lambda: marks(ann, "Bea") == "away", 5.0, "Bea shown away")
            assert any(line.text == "Bea is away; the table waits" for line in ann.log()), took
            resumed = await started(["join", "--resume"], tmp_path / "bea")
            try:
                await line_starting(resumed, "resuming table ")
                await until(lambda: marks(ann, "Bea") == "back", 2.0, "Bea shown back")
                assert any(line.text == "Bea is back" for line in ann.log())
            finally:
                if resumed.returncode is None:
                    os.killpg(resumed.pid, signal.SIGKILL)
                    await resumed.wait()

    asyncio.run(scenario())
