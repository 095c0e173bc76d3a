"""Joining by hand, as a person does where multicast is blocked: the host prints one line, the person
pastes it into a shell. The line must survive the shell, fit 80 columns, name where the host can be
reached, and a wrong key or a Ctrl-C must end the wait at once (issue 27, point 5)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from nacl.signing import SigningKey

from atoll.cli.main import build_parser
from atoll.net.joinline import Address, Pin, parse_address, shell_key
from atoll.net.transport import curve_keys
from atoll.table.host import Sequencer
from tests.commands import ATOLL, env_for
from tests.table.harness import REGISTRY
from tests.table.test_lan import lan4, on_host

__all__ = ["lan4"]  # the simulated LAN's fixture, used here

HOST = ["host", "kariba", "--seats", "2", "--bots", "1", "--bot-kind", "random", "--headless",
        "--no-announce"]
NOWHERE = "127.0.0.2:9#abcd-efgh-ijkl-mnop-qrst-uvwx"  # loopback too, but nothing listens there


@contextmanager
def hosting(tmp_path: Path, *extra: str) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """``atoll host`` on loopback with one bot and one free seat: its process and the join line it prints
    (read as a person reads it). Killed with its bot however the test ends."""
    process = subprocess.Popen(
        [*ATOLL, *HOST, "--bind", "127.0.0.1", *extra], env=env_for(tmp_path / "host"),
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        start_new_session=True,
    )
    try:
        assert process.stdout is not None
        line = next((text for text in process.stdout if text.startswith("atoll join ")), "").rstrip("\n")
        assert line, "the host printed no join line"
        yield process, line
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def joiner(tmp_path: Path, argv: list[str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*ATOLL, *argv], env=env_for(tmp_path / "joiner"), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True, start_new_session=True,
    )


def from_first_line(
    process: subprocess.Popen[str], then: Callable[[], None] | None = None
) -> tuple[str, str, float]:
    """The first line ``process`` prints (once the program runs), the rest to its end, and the seconds
    from the first line to the end; ``then`` is done just after the first line."""
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        if then is not None:
            then()
        started = time.monotonic()
        process.wait(timeout=30)
        took = time.monotonic() - started
        # read through the same buffered reader as the first line: communicate() would read the pipe
        # itself and miss whatever that reader took in with the first line
        return first, process.stdout.read(), took
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)


def test_the_printed_join_line_pasted_into_bash_joins_the_table(tmp_path: Path) -> None:
    with hosting(tmp_path) as (host, line):
        assert len(line) <= 80, line
        assert line.startswith("atoll join --address 127.0.0.1:")  # bound to loopback only: loopback
        bash = subprocess.run(
            ["bash", "-c", f"{line} --bot random --quiet"],
            env={**env_for(tmp_path / "joiner"), "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin"},
            capture_output=True, text=True, timeout=120,
        )
        assert bash.returncode == 0, bash.stdout + bash.stderr
        assert host.wait(timeout=60) == 0


def test_a_join_line_whose_first_address_does_not_answer_joins_at_the_next(tmp_path: Path) -> None:
    with hosting(tmp_path) as (host, line):
        address = parse_address(line.split()[-1])
        nobody = "127.0.0.2"  # loopback too, but nothing listens there
        dead_first = f"{nobody},{address.hosts[0]}:{address.port}#{line.split('#')[1]}"
        joined = joiner(tmp_path, ["join", "--address", dead_first, "--bot", "random", "--quiet"])
        try:
            assert joined.wait(timeout=120) == 0, joined.communicate()[0]
        finally:
            if joined.poll() is None:
                os.killpg(joined.pid, signal.SIGKILL)
        assert host.wait(timeout=60) == 0


@pytest.mark.parametrize("form", ["fingerprint", "base32 key", "z85 key"])
def test_a_wrong_key_is_said_within_two_seconds(tmp_path: Path, form: str) -> None:
    other = SigningKey.generate()
    wrong = {
        "fingerprint": "abcd-efgh-ijkl-mnop-qrst-uvwx",
        "base32 key": shell_key(curve_keys(other)[0]),
        "z85 key": curve_keys(other)[0].decode(),
    }[form]
    with hosting(tmp_path) as (_host, line):
        address = line.split()[-1].split("#")[0]
        joined = joiner(tmp_path, ["join", "--address", f"{address}#{wrong}", "--bot", "random"])
        first, rest, took = from_first_line(joined)
        said = first + rest
        assert joined.returncode == 2, said
        assert took < 2.0, (took, said)
        last = said.strip().splitlines()[-1]
        assert last.startswith(f"atoll join: the table at {address}"), said
        assert "check the line with its host" in last, said


def test_ctrl_c_while_asking_for_a_table_leaves_at_once(tmp_path: Path) -> None:
    joined = joiner(tmp_path, ["join", "--address", NOWHERE, "--bot", "random"])
    first, out, took = from_first_line(joined, then=lambda: joined.send_signal(signal.SIGINT))
    assert first.startswith("asking 127.0.0.2:9 for the table")
    assert joined.returncode == 130, out
    assert took < 1.0, took
    assert "stopped before reaching a table; nothing was written" in out
    assert not (tmp_path / "joiner" / "home" / "tables").exists()


def test_every_key_form_of_a_join_line_is_read() -> None:
    curve = curve_keys(SigningKey.generate())[0]
    fp = "abcd-efgh-ijkl-mnop-qrst-uvwx"
    assert parse_address(f"10.0.0.2,192.168.1.20:47000#{fp}") == Address(
        ("10.0.0.2", "192.168.1.20"), 47000, Pin(fingerprint=fp)
    )
    assert parse_address(f"10.0.0.2:47000#{shell_key(curve)}").pin == Pin(curve=curve)
    assert parse_address(f"10.0.0.2:47000#{curve.decode()}").pin == Pin(curve=curve)
    assert parse_address("[fe80::1]:47000") == Address(("fe80::1",), 47000)


def test_a_z85_key_whose_letters_look_like_a_fingerprint_is_read_as_the_key() -> None:
    # its dots, read as a typed fingerprint's separators, leave exactly 24 letters
    key = "abcd.efgh.ijkl.mnop.qrst.uvwx..........."
    assert parse_address(f"127.0.0.1:47000#{key}").pin == Pin(curve=key.encode())


def test_spectators_may_come_late_unless_the_host_refuses_them() -> None:
    assert build_parser(["host", "kariba"]).parse_args(["host", "kariba"]).late_watchers is True
    refusing = ["host", "kariba", "--no-late-watchers"]
    assert build_parser(refusing).parse_args(refusing).late_watchers is False
    kept = ["host", "kariba", "--late-watchers"]  # the flag of earlier versions is still taken
    assert build_parser(kept).parse_args(kept).late_watchers is True
    host = Sequencer.open("kariba-late", SigningKey.generate(), REGISTRY.game, game="kariba",
                          variant="standard", seats=2, name="t", pin=REGISTRY.pin("kariba"))
    assert host.late_watchers


def test_on_a_lan_the_join_line_names_the_lan_address_and_a_machine_there_joins_with_it(
    lan4: str, tmp_path: Path
) -> None:
    host = on_host(lan4, 1, tmp_path / "h1", "atoll.cli.main", *HOST)  # every interface: the default
    joined: subprocess.Popen[str] | None = None
    try:
        assert host.stdout is not None
        line = next((text for text in host.stdout if text.startswith("atoll join ")), "").strip()
        assert line.startswith("atoll join --address 10.213.0.1:"), line  # not loopback
        assert len(line) <= 80, line
        joined = on_host(lan4, 2, tmp_path / "h2", "atoll.cli.main", *line.split()[1:], "--bot", "random",
                         "--quiet")
        assert joined.wait(timeout=120) == 0, joined.communicate()[1]
        assert host.wait(timeout=60) == 0
    finally:
        for process in (host, joined):
            if process is not None and process.poll() is None:
                process.kill()
                process.wait()


def test_a_spectator_watches_the_same_table_again_after_leaving_it(tmp_path: Path) -> None:
    three = ["host", "kariba", "--seats", "3", "--bots", "2", "--bot-kind", "random", "--headless",
             "--no-announce", "--bind", "127.0.0.1"]
    process = subprocess.Popen([*ATOLL, *three], env=env_for(tmp_path / "host"), stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               start_new_session=True)
    started: list[subprocess.Popen[str]] = []
    try:
        assert process.stdout is not None
        line = next((text for text in process.stdout if text.startswith("atoll join ")), "").strip()
        watch = ["join", "--address", line.split()[-1], "--spectate", "--quiet"]
        first = joiner(tmp_path, watch)
        started.append(first)
        tables = tmp_path / "joiner" / "home" / "tables"
        deadline = time.monotonic() + 60
        while not list(tables.glob("*/log.jsonl")) and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(1.0)  # the spectator is at the table (its log holds entries)
        os.killpg(first.pid, signal.SIGKILL)  # gone without a word
        first.wait()
        again = joiner(tmp_path, watch)  # the same identity, the same table
        started.append(again)
        seat = subprocess.Popen([*ATOLL, "join", "--address", line.split()[-1], "--bot", "random", "--quiet"],
                                env=env_for(tmp_path / "seat"), stdin=subprocess.DEVNULL,
                                start_new_session=True, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, text=True)
        started.append(seat)
        out, _ = again.communicate(timeout=120)
        assert again.returncode == 0, out
        assert "exists already" not in out
        assert seat.wait(timeout=60) == 0
    finally:
        for each in (process, *started):
            if each.poll() is None:
                os.killpg(each.pid, signal.SIGKILL)
            each.wait()
