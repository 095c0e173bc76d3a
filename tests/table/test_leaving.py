"""Leaving and quitting are clean (issue 27, point 2), over real sockets: a host whose person leaves closes
the table for everyone with a signed entry, every peer is told within two seconds and leaves the table
cleanly, and a seat resuming a closed table is told it is over; a seat on turn while its host dies plays
on at the next host without a restart."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import Coroutine
from pathlib import Path

import pytest
from nacl.signing import SigningKey
from prompt_toolkit.application import create_app_session

from atoll.app.hosting import HostPlan, host_table
from atoll.app.person import Terminal
from atoll.client.net_source import NetTable
from atoll.net.encoding import fingerprint
from atoll.net.identity import open_profile
from atoll.table.audit import audit_log
from atoll.table.host import Sequencer
from atoll.table.peer import HEARTBEAT_S, heartbeat_s
from atoll.table.reasons import EndReason
from atoll.tui.screen import TableScreen
from tests.table.harness import REGISTRY
from tests.table.test_presence import Person, line_starting, sit_as, started, stop, until
from tests.tui.driver import CTRL_C, SizedOutput, pipe
from tests.tui.test_net_rematch import free_port


def test_a_host_whose_person_leaves_closes_the_table_for_everyone_within_two_seconds(tmp_path: Path) -> None:
    ann = open_profile(tmp_path / "ann", name="Ann")
    port = free_port()
    plan = HostPlan("kariba", "standard", 2, "closing table", "127.0.0.1", port, 0, "random", None,
                    headless=False, announce=False, late_watchers=True)
    screens: list[TableScreen] = []

    async def scenario() -> None:
        with pipe() as keys:
            hosting = asyncio.ensure_future(_apart(host_table(
                plan, REGISTRY, ann, terminal=Terminal(keys, SizedOutput(24, 80), screens.append))))
            bea = None
            try:
                await until(lambda: bool(screens) and screens[0].app.is_running, 30, "the host's screen")
                line = f"127.0.0.1:{port}"
                bea = await started(["join", "--address", line, "--bot", "random", "--name", "Bea"],
                                    tmp_path / "bea")
                source = screens[0].source
                assert isinstance(source, NetTable)
                await until(lambda: source.waiting().local, 60, "Ann's turn")  # the game is on: Ann waits
                keys.send_text(CTRL_C + "y")  # leave, and yes
                left = time.monotonic()
                assert await asyncio.wait_for(bea.wait(), 10) == 0
                told = time.monotonic() - left
                out = (await bea.stdout.read()).decode() if bea.stdout else ""
                assert told < 2.0, (told, out)
                assert "Ann, the host, closed the table; the game ends here, with no result" in out
                assert await asyncio.wait_for(hosting, 30) == 0
            finally:
                await stop([bea] if bea is not None else [])
                hosting.cancel()
                await asyncio.gather(hosting, return_exceptions=True)

    asyncio.run(scenario())
    bea_log = next((tmp_path / "bea" / "home" / "tables").glob("*/log.jsonl"))
    report = audit_log(bea_log, REGISTRY.game, fingerprint)
    assert report.reason is EndReason.CLOSED and report.cheat is None and report.blame is None

    async def resume() -> str:
        again = await started(["join", "--resume"], tmp_path / "bea")
        out, _ = await asyncio.wait_for(again.communicate(), 30)
        assert again.returncode == 0
        return out.decode()

    said = asyncio.run(resume())
    assert "is over: nothing to resume" in said


async def _apart(machine: Coroutine[object, object, int]) -> int:
    with create_app_session():
        return await machine


def test_a_seat_on_turn_when_its_host_dies_plays_on_at_the_next_host(tmp_path: Path) -> None:
    host_argv = ["host", "kariba", "--seats", "3", "--headless", "--no-announce", "--bind", "127.0.0.1",
                 "--host-timeout", "2"]

    async def scenario() -> None:
        processes: list[asyncio.subprocess.Process] = []
        ann: Person | None = None
        try:
            host = await started(host_argv, tmp_path / "host")
            processes.append(host)
            line = await line_starting(host, "atoll join ")
            for name in ("Bea", "Cid"):  # bots with standby addresses: one of them takes the table over
                processes.append(await started(["join", *line.split()[2:4], "--bot", "random", "--name", name,
                                                "--quiet"], tmp_path / name))
            ann = await sit_as(line, "Ann")
            seen, table = ann.seen, ann.seen.table
            await until(lambda: seen.waiting().local, 60, "Ann's turn")
            os.killpg(host.pid, signal.SIGKILL)  # the host dies while Ann is on turn
            await host.wait()
            first_host = table.log.host.encode()
            await until(lambda: table.log.host.encode() != first_host, 60, "a seat takes the table over")
            await until(lambda: seen.waiting().local, 30, "Ann asked again")
            seat = table.my_seat
            assert seat is not None
            before = len(table.log.entries)
            seen.submit(seat, seen.texts(seat)[0])
            await until(lambda: any(e.message.author == table.me for e in table.log.entries[before:]), 30,
                        "Ann's move in the log")
        finally:
            if ann is not None:
                await ann.leave()
            await stop(processes)

    asyncio.run(scenario())


def test_only_the_host_closes_a_table() -> None:
    from tests.table.harness import open_table
    from tests.table.test_survive import start

    net = open_table("kariba", 2)
    start(net)
    before = len(net.host.table.log.entries)
    net.send(0, net.peers[0].table.compose("close", {}))
    assert len(net.host.table.log.entries) == before and not net.host.table.over()


def test_a_seat_away_when_its_host_closed_the_table_is_not_left_hosting_it_alone(tmp_path: Path) -> None:
    """Cid's machine is off when Ann closes the table, so the closing entry never reaches it. Back with
    ``atoll join --resume``, Cid finds nobody (Ann's machine and Bea's left), takes the table over as
    the next seat and waits for the others; none comes, and it says honestly what it cannot know."""
    ann = open_profile(tmp_path / "ann", name="Ann")
    port = free_port()
    plan = HostPlan("kariba", "standard", 3, "closing table", "127.0.0.1", port, 0, "random", None,
                    headless=False, announce=False, late_watchers=True, host_timeout=2)
    screens: list[TableScreen] = []

    async def scenario() -> None:
        processes: list[asyncio.subprocess.Process] = []
        with pipe() as keys:
            hosting = asyncio.ensure_future(_apart(host_table(
                plan, REGISTRY, ann, terminal=Terminal(keys, SizedOutput(24, 80), screens.append))))
            try:
                await until(lambda: bool(screens) and screens[0].app.is_running, 30, "the host's screen")
                for name in ("Bea", "Cid"):
                    argv = ["join", "--address", f"127.0.0.1:{port}", "--bot", "random", "--name", name,
                            "--quiet"]
                    processes.append(await started(argv, tmp_path / name))
                source = screens[0].source
                assert isinstance(source, NetTable)
                await until(lambda: source.waiting().local, 60, "Ann's turn")
                bea, cid = processes
                os.killpg(cid.pid, signal.SIGKILL)  # Cid's laptop goes off
                await cid.wait()
                keys.send_text(CTRL_C + "y")  # Ann leaves, closing the table
                assert await asyncio.wait_for(bea.wait(), 10) == 0
                assert await asyncio.wait_for(hosting, 30) == 0
                back = await started(["join", "--resume"], tmp_path / "Cid")
                processes.append(back)
                out, _ = await asyncio.wait_for(back.communicate(), 60)
                assert back.returncode == 1, out.decode()
                said = " ".join(out.decode().split())
                assert "nobody else came back to table" in said, said
                assert "its host may have closed it while this seat was away" in said, said
                assert "your seat is kept: `atoll join --resume` tries again" in said, said
            finally:
                await stop(processes)
                hosting.cancel()
                await asyncio.gather(hosting, return_exceptions=True)

    asyncio.run(scenario())


@pytest.mark.parametrize("host_timeout", [1, 2, 6, 60])
def test_a_peer_hears_a_quiet_healthy_host_at_least_twice_within_the_host_timeout(host_timeout: int) -> None:
    # a host answers heartbeats only while a seat thinks: at one heartbeat per host timeout, the seats
    # took a healthy new host for gone and a second seat took the table over from it
    host = Sequencer.open("kariba-quiet", SigningKey.generate(), REGISTRY.game, game="kariba",
                          variant="standard", seats=2, name="t", pin=REGISTRY.pin("kariba"),
                          host_timeout=host_timeout)
    assert heartbeat_s(host.table) <= min(HEARTBEAT_S, host_timeout / 3)
