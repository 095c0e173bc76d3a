"""The table screen at a network table on loopback: the host's own seat typed at the screen (pipe
input, dummy output) while bot peers play from their own processes; the status line, the log in the
game's words, table talk, and leaving."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from nacl.signing import SigningKey
from prompt_toolkit.input import PipeInput

from atoll.app.person import host_sender, table_screen
from atoll.app.serve import run_host
from atoll.client.net_source import NetTable
from atoll.net.transport import HostSocket, curve_keys
from atoll.table.host import Sequencer
from atoll.tui.screen import Ending, ScreenResult, TableScreen
from tests.tui.driver import CTRL_C, ENTER, SizedOutput, pipe, registry

#: How long a loopback game in the screen may take before the test fails rather than hangs.
GAME_TIMEOUT = 180.0


@contextmanager
def bot_peers(home: Path, address: str, count: int) -> Iterator[list[subprocess.Popen[bytes]]]:
    """``count`` random bots joining ``address`` as separate processes (their errors in ``home``);
    killed afterwards if still running, also on failure."""
    processes = []
    try:
        for index in range(count):
            env = dict(os.environ, ATOLL_HOME=str(home / f"bot{index}"))
            command = [sys.executable, "-m", "atoll.cli.main", "join", "--address", address,
                       "--bot", "random", "--name", f"bot {index + 1}", "--quiet"]
            with open(home / f"bot{index}.err", "wb") as errors:
                processes.append(subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL,
                                                  stdout=subprocess.DEVNULL, stderr=errors,
                                                  start_new_session=True))
        yield processes
    finally:
        for process in processes:
            if process.poll() is None:
                os.killpg(process.pid, 9)
            process.wait()


@dataclass
class Played:
    """How a game at the screen went: the source, the screen, how it ended, the statuses seen, and
    the bot processes' exit codes."""

    source: NetTable
    screen: TableScreen
    result: ScreenResult
    statuses: list[str]
    bots: list[int | None]


async def play_hosted(home: Path, game: str, seats: int, keys: PipeInput, *, chat: str | None = None,
                      leave_after: int | None = None) -> Played:
    """Host ``game`` on loopback with the person in seat 0 at the screen and bot processes in the
    others; the person plays the first legal text on each turn (saying ``chat`` on the first), and
    leaves at the end (or after ``leave_after`` moves)."""
    key = SigningKey(os.urandom(32))
    info = registry().game(game).info
    host = Sequencer.open(f"{game}-{os.urandom(6).hex()}", key, registry().game, game=game,
                          variant=info.default_variant, seats=seats, name="screen table",
                          pin=registry().pin(game))
    host.local(host.table.compose("sit", {"name": "Ann"}))
    curve = curve_keys(key)
    socket = HostSocket(curve, host.admit)
    try:
        port = socket.bind("127.0.0.1", None)
        with bot_peers(home, f"127.0.0.1:{port}#{curve[0].decode()}", seats - 1) as bots:
            played = await _play(host, socket, keys, chat, leave_after)
            if played.result.ending is Ending.FINISHED:
                for bot in bots:
                    await asyncio.wait_for(asyncio.to_thread(bot.wait), 60)
            played.bots = [bot.poll() for bot in bots]
            return played
    finally:
        socket.close()


async def _play(host: Sequencer, socket: HostSocket, keys: PipeInput, chat: str | None,
                leave_after: int | None) -> Played:
    source = NetTable(host.table, role="sit", send=host_sender(host, socket), hosting=True)
    host.on_chat = source.hear
    source.start(lambda mine, heard: run_host(host, socket, mine, heard, grace=2.0))
    return await _drive(source, keys, chat, leave_after)


async def _drive(source: NetTable, keys: PipeInput, chat: str | None, leave_after: int | None) -> Played:
    """Once seated, type at the screen: ``chat`` on the first turn, then the first legal text each turn;
    Enter at the end, or leave after ``leave_after`` moves."""
    await source.ready()
    screen = table_screen(source, input=keys, output=SizedOutput(24, 80))
    task = asyncio.ensure_future(screen.run())
    statuses: list[str] = []
    moves = 0
    loop = asyncio.get_running_loop()
    deadline = loop.time() + GAME_TIMEOUT
    try:
        while not task.done():
            assert loop.time() < deadline, f"the game did not end: {source.waiting().text}"
            await asyncio.sleep(0.01)
            waiting = source.waiting()
            if not statuses or statuses[-1] != waiting.text:
                statuses.append(waiting.text)
            if waiting.over and not screen.buffer.text:
                keys.send_text(ENTER)
                await asyncio.wait({task}, timeout=2)
            elif waiting.local and screen.viewer is not None and not screen.buffer.text:
                if chat is not None:
                    keys.send_text(f"'{chat}{ENTER}")
                    chat = None
                    continue
                if leave_after is not None and moves >= leave_after:
                    keys.send_text(CTRL_C + "y")
                    await asyncio.wait({task}, timeout=5)
                    break
                texts = source.texts(screen.viewer)
                keys.send_text(texts[0] + ENTER)
                moves += 1
                await _until(lambda seat=screen.viewer, before=texts:  # type: ignore[misc]
                             not source.waiting().local or source.texts(seat) != before)
        result = await task
    finally:
        await source.close(grace=5.0)
    return Played(source, screen, result, statuses, [])


async def _until(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition() and loop.time() < deadline:
        await asyncio.sleep(0.01)


def test_the_hosts_person_plays_kariba_at_the_screen_against_bot_peers_to_the_result(tmp_path: Path) -> None:
    with pipe() as keys:
        played = asyncio.run(play_hosted(tmp_path, "kariba", 3, keys, chat="good luck"))
    assert played.bots == [0, 0], [p.read_text()[-2000:] for p in tmp_path.glob("*.err")]
    assert played.result.ending is Ending.FINISHED
    source = played.source
    assert source.results() is not None and source.problem() is None
    assert any(s.startswith("waiting for players") for s in played.statuses)
    # either bot: which one the 10 ms sampling catches thinking is down to the machine's speed
    assert any("(bot " in s and "is thinking" in s for s in played.statuses), "\n".join(played.statuses)
    assert any(s.startswith("your turn (") for s in played.statuses)
    lines = [line.seen_by(0) for line in source.log()]
    assert [line.text for line in source.log() if line.chat] == ["Ann (player 1): good luck"], lines
    assert any("takes seat" in line for line in lines)
    assert any("draws" in line for line in lines), lines  # chance in Kariba's words, not "chance: dealt"
    assert played.result.lines and played.result.lines[0].startswith("game over:")


def test_leaving_a_network_table_midway_ends_the_screen_without_results_or_undo(tmp_path: Path) -> None:
    with pipe() as keys:
        played = asyncio.run(play_hosted(tmp_path, "kariba", 2, keys, leave_after=1))
    assert played.result.ending is Ending.LEFT
    assert played.source.results() is None
    assert not played.source.can_undo(0)


@pytest.mark.parametrize("typed", ["'hello all", '"hello all', "/say hello all"])
def test_a_quote_mark_or_say_begins_table_talk(typed: str) -> None:
    from atoll.tui.completion import CHAT_MARKS

    said = next(typed[len(mark):] for mark in CHAT_MARKS if typed.lower().startswith(mark))
    assert said == "hello all"


def test_a_peers_person_plays_at_the_screen_and_reads_its_own_table_talk_once(tmp_path: Path) -> None:
    env = dict(os.environ, ATOLL_HOME=str(tmp_path / "host"))
    command = [sys.executable, "-m", "atoll.cli.main", "host", "kariba", "--seats", "2", "--bots", "1",
               "--bot-kind", "random", "--headless", "--bind", "127.0.0.1", "--no-announce", "--quiet",
               "--bot-delay", "0"]  # a person plays: unpaced, as this test looks not at the pace
    host = subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, start_new_session=True)
    try:
        assert host.stdout is not None
        address = next(line for line in host.stdout if "--address" in line).split("--address ")[1].strip()
        with pipe() as keys:
            played = asyncio.run(join_as_person(address, keys, chat="hello table"))
        assert host.wait(timeout=60) == 0
    finally:
        if host.poll() is None:
            os.killpg(host.pid, 9)
        host.wait()
    assert played.result.ending is Ending.FINISHED and played.source.problem() is None
    talk = [line.text for line in played.source.log() if line.chat]
    assert talk == ["Bea (player 2): hello table"] or talk == ["Bea (player 1): hello table"], talk
    assert any(s.startswith("your turn (") for s in played.statuses)


async def join_as_person(
    address: str, keys: PipeInput, *, chat: str | None, name: str = "Bea", stand_in: bool = False
) -> Played:
    """Join the host at ``address`` as a person (``name``) at the table screen, and play to the end;
    ``stand_in``: watch, and play a seat handed over to them (decision 0022)."""
    from atoll.app.peer_loop import handshake, run_peer
    from atoll.app.reaching import reach
    from atoll.net.joinline import parse_address
    from atoll.net.transport import PeerSocket
    from atoll.table.peer import PeerSession
    from atoll.table.table import Table

    where = parse_address(address)
    reached = await reach(where, None, quiet=True)
    key = SigningKey(os.urandom(32))
    socket = PeerSocket(key, reached.curve.encode())
    try:
        socket.connect(reached.host, where.port)
        welcome = await handshake(socket, key)
        table = Table(welcome.table_id, welcome.host_key, key, registry().game)
        role = "watch" if stand_in else "sit"
        session = PeerSession(table, role, name, registry().installed_pin, stand_in=stand_in)
        source = NetTable(table, role=role, send=socket.send, stand_in=stand_in)
        session.on_chat = source.hear
        source.start(lambda mine, heard: run_peer(session, socket, mine, heard))
        return await _drive(source, keys, chat, None)
    finally:
        socket.close()
