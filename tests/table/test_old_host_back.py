"""The old host rejoining a table that moved (issue 27, "How it is checked"): a host killed mid-game, the
next seat takes the table over, the old host comes back with ``atoll host --resume`` and plays its seat
on as a peer, and no screen shows an internal refusal (``refused sit: already at the table``, ``refused
fair: …``), nor says the game again from its start, over real sockets on loopback."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from pathlib import Path

import pytest

from atoll.app.person import REFUSALS_FILE, refusals_kept, verbose
from atoll.net.encoding import fingerprint
from atoll.table.audit import audit_log
from atoll.table.table import Table
from tests.table.harness import REGISTRY
from tests.table.test_presence import line_starting, started, stop, until

HOST = ["host", "kariba", "--seats", "3", "--bot", "random", "--no-announce", "--bind", "127.0.0.1",
        "--host-timeout", "3"]


async def _read_all(process: asyncio.subprocess.Process, into: list[str]) -> None:
    assert process.stdout is not None
    while line := await process.stdout.readline():
        into.append(line.decode())


def test_the_old_host_rejoining_a_moved_table_plays_on_and_no_screen_shows_an_internal_refusal(
    tmp_path: Path,
) -> None:
    said: dict[str, list[str]] = {}

    async def scenario() -> None:
        processes: list[asyncio.subprocess.Process] = []
        readers: list[asyncio.Task[None]] = []

        async def run(name: str, argv: list[str], root: Path) -> asyncio.subprocess.Process:
            process = await started(argv, root)
            processes.append(process)
            readers.append(asyncio.ensure_future(_read_all(process, said.setdefault(name, []))))
            return process

        try:
            host = await started(HOST, tmp_path / "host")  # its own seat played by a bot, line by line
            processes.append(host)
            line = await line_starting(host, "atoll join ")
            for name in ("Bea", "Cid"):
                joining = ["join", *line.split()[2:4], "--bot", "random", "--name", name]
                await run(name, joining, tmp_path / name)
            log = tmp_path / "host" / "home" / "tables"
            await until(lambda: any(p.read_bytes().count(b"\n") >= 30 for p in log.glob("*/log.jsonl")), 60,
                        "30 entries")
            os.killpg(host.pid, signal.SIGKILL)
            await host.wait()
            await until(lambda: any("hosts the table now" in s for s in said["Bea"] + said["Cid"]), 60,
                        "the next seat takes the table over")
            await run("old host", ["host", "--resume"], tmp_path / "host")
            for process in processes[1:]:
                assert await asyncio.wait_for(process.wait(), 120) == 0
            await asyncio.gather(*readers)
        finally:
            await stop(processes)
            for reader in readers:
                reader.cancel()

    asyncio.run(scenario())
    back = "".join(said["old host"])
    assert "has moved to another seat while this host was away; joining it" in back
    for name, lines in said.items():
        screen = "".join(lines)
        assert "refused" not in screen, (name, screen)
        assert screen.count("opened: kariba") == 1, (name, screen)  # said once, not again at each new host
        assert "game over: {" in screen, (name, screen)
    logs = [p for who in ("host", "Bea", "Cid") for p in (tmp_path / who / "home").glob("tables/*/log.jsonl")]
    assert len(logs) == 3 and len({p.read_bytes() for p in logs}) == 1
    report = audit_log(logs[0], REGISTRY.game, fingerprint)
    assert report.cheat is None and report.blame is None and not report.refused
    # nor was anything of the old host's refused between the machines (what --verbose would show): it sat
    # and sent protocol messages again only once caught up
    kept = "".join(p.read_text() for p in tmp_path.rglob(REFUSALS_FILE))
    for sent_again in ("refused sit", "already in the log", "another history", "no protocol step waits"):
        assert sent_again not in kept, kept


@pytest.mark.parametrize("shown", [False, True])
def test_without_a_screen_what_is_logged_goes_to_the_tables_folder_and_to_stderr_only_with_verbose(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], shown: bool
) -> None:
    from nacl.signing import SigningKey

    key = SigningKey.generate()
    table = Table("kariba-plain", key.verify_key.encode(), key, REGISTRY.game,
                  log_path=tmp_path / "log.jsonl")
    refusal, flood = "host: refused sit: already at the table", "the table's port: refusing new connections"
    verbose(shown)
    try:
        with refusals_kept(table):
            logging.getLogger("atoll.table.peer").warning(refusal)
            logging.getLogger("atoll.net.door").warning(flood)
    finally:
        verbose(False)
    err = capsys.readouterr().err
    assert (refusal in err) is shown and (flood in err) is shown
    kept = (tmp_path / REFUSALS_FILE).read_text()
    assert refusal in kept and flood in kept
