"""A host that was only paused, not dead (issue 26, issue 27's hand-over; decision 0028): a seat takes
the table over while the host is stopped (SIGSTOP) for longer than the host timeout, then the host wakes
(SIGCONT). The take-over wins: the old host finds the seat that hosts the table, says so in one line,
and plays its own seat on as a peer; the game ends once for everyone, with identical logs that audit
clean and nobody named. Real processes over sockets on loopback."""

from __future__ import annotations

import asyncio
import json
import os
import signal
from pathlib import Path

from atoll.net.encoding import fingerprint
from atoll.table.audit import audit_log
from tests.table.harness import REGISTRY
from tests.table.test_presence import line_starting, started, stop, until

#: The host plays its own seat with a bot; a seat takes the table over after 3 s of silence.
HOST = ["host", "kariba", "--seats", "3", "--bot", "random", "--host-timeout", "3", "--no-announce", "--bind",
        "127.0.0.1"]


def _logs(root: Path) -> list[Path]:
    return sorted(root.glob("home/tables/*/log.jsonl"))


async def _said(process: asyncio.subprocess.Process, lines: list[str]) -> None:
    """Keep each line ``process`` prints in ``lines`` until it ends."""
    assert process.stdout is not None
    async for line in process.stdout:
        lines.append(line.decode())


async def _paused_game(tmp_path: Path, said: dict[str, list[str]], *, with_seat: str | None) -> None:
    """Host, Bea and Cid play; once the game is under way the host (and ``with_seat``, if given) is paused
    until a seat hosts the table, then woken (the host first); every process must finish with 0."""
    processes: list[asyncio.subprocess.Process] = []
    readers: list[asyncio.Task[None]] = []

    async def run(name: str, argv: list[str]) -> asyncio.subprocess.Process:
        process = await started(argv, tmp_path / name)
        processes.append(process)
        if name != "host":
            readers.append(asyncio.ensure_future(_said(process, said.setdefault(name, []))))
        return process

    try:
        host = await run("host", HOST)  # its own seat played by a bot
        line = await line_starting(host, "atoll join ")
        readers.append(asyncio.ensure_future(_said(host, said.setdefault("host", []))))
        seats = {name: await run(name, ["join", *line.split()[2:4], "--bot", "random", "--name", name])
                 for name in ("Bea", "Cid")}
        await until(lambda: any(p.read_bytes().count(b"\n") >= 30 for p in _logs(tmp_path / "host")), 90,
                    "30 entries")
        paused = [host, *([seats[with_seat]] if with_seat else [])]
        for process in paused:  # paused, not dead: their sockets stay open
            os.killpg(process.pid, signal.SIGSTOP)
        try:
            await until(lambda: any("hosts the table now" in s for s in said["Bea"] + said["Cid"]), 60,
                        "a seat takes the table over")
        finally:
            for process in paused:
                os.killpg(process.pid, signal.SIGCONT)
        for name, process in [("host", host), *seats.items()]:
            status = await asyncio.wait_for(process.wait(), 120)
            await asyncio.gather(*readers)
            assert status == 0, f"{name} exited {status}:\n" + "\n".join(
                f"--- {who}:\n{''.join(lines)}" for who, lines in said.items())
        await asyncio.gather(*readers)
    finally:
        await stop(processes)
        for reader in readers:
            reader.cancel()


def _one_game_for_all(tmp_path: Path, said: dict[str, list[str]]) -> None:
    """The old host said once that a seat took the table over, and played on; the game ended for all with
    identical logs that audit clean, one take-over in them, and nobody named or replaced for a misdeed."""
    back = "".join(said["host"])
    assert back.count("a seat took table") == 1, back
    assert "plays on as a peer" in back, back
    for name, lines in said.items():
        assert "game over: {" in "".join(lines), (name, lines)
    logs = [log for who in ("host", "Bea", "Cid") for log in _logs(tmp_path / who)]
    assert len(logs) == 3 and len({log.read_bytes() for log in logs}) == 1
    report = audit_log(logs[0], REGISTRY.game, fingerprint)
    assert report.clean and report.blame is None and not report.refused
    assert not report.hosts_named and not report.hosts_replaced
    # one take-over at least (a loaded machine can starve the new host past the timeout in its turn)
    entries = [json.loads(line) for line in logs[0].read_text().splitlines()]
    assert [e for e in entries if e["msg"]["kind"] == "host"], logs[0]
    # the host's own seat named a standby address too, where it listens once it plays on as a peer
    first_host = entries[0]["msg"]["author"]
    (own_sit,) = [e["msg"] for e in entries if e["msg"]["kind"] == "sit" and e["msg"]["author"] == first_host]
    assert own_sit["body"]["standby"].startswith("127.0.0.1:"), own_sit


def test_a_host_paused_past_the_host_timeout_steps_down_when_it_wakes_and_the_game_ends_once_for_all(
    tmp_path: Path,
) -> None:
    said: dict[str, list[str]] = {}
    asyncio.run(_paused_game(tmp_path, said, with_seat=None))
    _one_game_for_all(tmp_path, said)


def test_a_seat_paused_with_its_host_is_shown_the_take_over_when_it_wakes_and_follows_it(
    tmp_path: Path,
) -> None:
    # Cid slept through the take-over, longer than every seat would need to take the table over: only
    # being shown it (by the new host, at Cid's standby address) tells it where the table went
    said: dict[str, list[str]] = {}
    asyncio.run(_paused_game(tmp_path, said, with_seat="Cid"))
    _one_game_for_all(tmp_path, said)
    assert any("Bea took the table over" in line for line in said["Cid"]), said["Cid"]
