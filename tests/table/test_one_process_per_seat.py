"""One process per seat, and a seat's own damaged log, as processes on loopback (issue 25).

A second ``atoll join --resume`` (or ``atoll host --resume``) on a table folder that a running process
uses is refused in one line naming that process, exit 2, and touches nothing: the game finishes and
the log audits clean. A seat whose own log is damaged at a line keeps the lines before it, moves the
rest aside and takes those entries from the host again, and finishes with a log that audits clean.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from atoll_tools.soak import Process

from atoll.net.encoding import fingerprint
from atoll.table.audit import audit_log
from tests.commands import env_for, run
from tests.table.harness import REGISTRY
from tests.table.test_crash_resume import paused, start_table

#: Seconds a game of Kariba for three bots may take on a loaded machine.
GAME_S = 150


def _said(process: Process, text: str, timeout: float) -> bool:
    """Whether ``process`` printed ``text`` within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if text in process.output.read_text(errors="replace"):
            return True
        time.sleep(0.05)
    return False


def _finish(everyone: list[Process]) -> None:
    """Wait for every process to end (each is killed by the caller's ``finally`` if it does not)."""
    deadline = time.monotonic() + GAME_S
    for process in everyone:
        assert process.process is not None
        process.process.wait(timeout=max(1.0, deadline - time.monotonic()))
        assert process.returncode() == 0, process.output.read_text(errors="replace")[-2000:]


def _audits_clean(process: Process) -> Path:
    (log,) = process.logs()
    report = audit_log(log, REGISTRY.game, fingerprint)
    assert report.clean, report
    return log


def _second(process: Process, argv: list[str]) -> str:
    """Run ``argv`` in ``process``'s data directory while it runs; what it printed (it must exit 2)."""
    env = {**env_for(process.home.parent), "ATOLL_HOME": str(process.home)}
    second = run(argv, env, timeout=60)
    assert second.status == 2, second.output
    return second.output


@pytest.mark.parametrize("command", ["join", "host"])
def test_a_second_resume_on_a_running_seat_or_host_is_refused_naming_the_first_and_the_game_finishes_clean(
    tmp_path: Path, command: str
) -> None:
    host, peers, _ = start_table(tmp_path, [], resume="--resume", entries=30)
    first = peers[1] if command == "join" else host
    try:
        # seat 0 is paused while the second resume is tried: without a turn time the game waits
        # for it, so the game cannot end before the second command runs
        with paused(peers[0]):
            first.kill()
            first.start(resume=True)
            assert _said(first, "resuming table", 60)
            before = first.logs()[0].stat().st_size
            told = _second(first, [command, "--resume"])
            assert first.process is not None
            assert f"is in use by process {first.process.pid} (atoll {command} --resume)" in told
            assert len(told.strip().splitlines()) == 1 and "Traceback" not in told
            assert first.logs()[0].stat().st_size >= before  # nothing of the first's was cut back
        _finish([host, *peers])
    finally:
        for process in [host, *peers]:
            process.kill()
    assert _audits_clean(peers[1]).read_bytes() == _audits_clean(host).read_bytes()


def test_a_seat_whose_log_is_damaged_takes_the_lines_after_the_damage_from_the_host_and_finishes_clean(
    tmp_path: Path,
) -> None:
    host, peers, _ = start_table(tmp_path, [], resume="--resume", entries=40)
    try:
        peers[1].kill()
        (log,) = peers[1].logs()
        lines = log.read_bytes().split(b"\n")
        lines[9] = lines[9][:40] + b"\xff" + lines[9][41:]  # line 10: no longer UTF-8
        log.write_bytes(b"\n".join(lines))
        peers[1].start(resume=True)
        assert _said(peers[1], "line 10: not UTF-8 text", 60)
        _finish([host, *peers])
    finally:
        for process in [host, *peers]:
            process.kill()
    said = peers[1].output.read_text(errors="replace")
    assert "lines 1-9 are kept, the rest is moved to log.jsonl.damaged-1" in said
    assert b"\xff" in log.with_name("log.jsonl.damaged-1").read_bytes()  # kept, never deleted
    assert _audits_clean(peers[1]).read_bytes() == _audits_clean(host).read_bytes()
