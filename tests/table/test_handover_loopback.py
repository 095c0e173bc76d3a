"""Handing a seat over at a loopback table of processes (decision 0022): a seat leaves mid-game, a bot
stand-in on a machine that plays no seat (its own data folder) takes it, the game finishes, every log is
identical and audits clean, and only the stand-in learns the leaving seat's hidden cards, and no other
seat's (checked against what each process kept and can open)."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from atoll.app.store import SealedFile
from atoll.net.encoding import fingerprint
from atoll.net.identity import load_identity
from atoll.net.sealed import NotForMe
from atoll.table.audit import audit_log
from atoll.table.handover import open_seat
from atoll.table.log import read_log
from atoll.table.table import Table
from atoll.wire import Kind
from tests.table.harness import REGISTRY

SHORT = {"kiribati": "professional"}
#: Entries the leaving seat's log holds, past the lobby, when it is stopped: mid-game in every game.
MID_GAME = 12
LEAVER = 1
#: The games in which a seat holds something hidden by then: dealt cards (kariba, animals_on_board) or
#: sealed choices (kiribati, animals_on_board); survival's dice are all public.
HIDES = {"kariba", "kiribati", "animals_on_board"}


def atoll(home: Path, *args: str, **kwargs: Any) -> subprocess.Popen[str]:
    env = dict(os.environ, ATOLL_HOME=str(home), HOME=str(home))
    return subprocess.Popen(
        [sys.executable, "-m", "atoll.cli.main", *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
        **kwargs,
    )


@contextmanager
def processes() -> Iterator[list[subprocess.Popen[str]]]:
    started: list[subprocess.Popen[str]] = []
    try:
        yield started
    finally:
        for process in started:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            for stream in (process.stdout, process.stderr):
                if stream is not None:
                    stream.close()


def address_of(host: subprocess.Popen[str]) -> str:
    assert host.stdout is not None
    for line in host.stdout:
        found = re.search(r"--address (\S+)", line)
        if found:
            return found.group(1)
    raise AssertionError(f"the host printed no address: {host.stderr.read() if host.stderr else ''}")


def log_of(home: Path) -> Path | None:
    logs = sorted(home.rglob("log.jsonl"))
    return logs[0] if logs else None


def wait_for_entries(home: Path, count: int, limit: float = 60) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        log = log_of(home)
        if log is not None and log.read_bytes().count(b"\n") >= count:
            return
        time.sleep(0.02)
    raise AssertionError(f"{home.name}'s log did not reach {count} entries within {limit} s")


def finished(process: subprocess.Popen[str], limit: float = 120) -> str:
    out, err = process.communicate(timeout=limit)
    assert process.returncode == 0, (process.args, out[-1500:], err[-1500:])
    return out


def known_cards(home: Path, table_id: str, host_key: bytes) -> tuple[int | None, dict[str, Any]]:
    """The seat a process plays (by its own files) and what that seat privately knows by the time its
    log ends: read from a copy of its log with its own identity and master secret, as it would resume."""
    folder = home / "tables" / table_id
    copy = home.parent / f"{home.name}-copy.jsonl"
    shutil.copy(folder / "log.jsonl", copy)
    secrets = json.loads((folder / "secrets.json").read_text())
    key = load_identity(home).signing_key()
    master = bytes.fromhex(secrets["master"])
    table = Table(table_id, host_key, key, REGISTRY.game, master=master, log_path=copy,
                  sealed=SealedFile(folder / "sealed.jsonl"))
    table.restore()
    table.log.close()
    copy.unlink()
    engine = table.engine
    me = None if engine is None else engine.resolver.me
    return (None, {}) if me is None else (me.seat, dict(me.known))


def leave_mid_game(
    leaver: subprocess.Popen[str], home: Path, entries: int, started: list[subprocess.Popen[str]]
) -> str:
    """Stop the seat of ``leaver`` (Ctrl-C) once its log holds ``entries``, then leave with
    ``atoll join --leave`` from its data folder; what that printed."""
    wait_for_entries(home, entries)
    os.kill(leaver.pid, signal.SIGSTOP)  # mid-game: the table waits on this seat from now on
    os.kill(leaver.pid, signal.SIGINT)
    os.kill(leaver.pid, signal.SIGCONT)
    out, err = leaver.communicate(timeout=30)
    assert leaver.returncode == 130, (out[-1500:], err[-1500:])
    leaving = atoll(home, "join", "--leave")
    started.append(leaving)
    return finished(leaving, 60)


@pytest.mark.parametrize("game", sorted(REGISTRY.games))
def test_a_seat_left_mid_game_goes_to_a_bot_stand_in_and_the_game_finishes_with_its_cards_sealed_to_it(
    tmp_path: Path, game: str
) -> None:
    info = REGISTRY.game(game).info
    seats = info.min_seats
    variant = ["--variant", SHORT[game]] if game in SHORT else []
    homes = {name: tmp_path / name for name in ["host", "stand-in", *(f"seat{i}" for i in range(seats))]}
    with processes() as started:
        host = atoll(homes["host"], "host", game, "--seats", str(seats), *variant, "--headless", "--bind",
                     "127.0.0.1", "--no-announce", "--quiet", "--late-watchers")
        started.append(host)
        address = address_of(host)
        stand_in = atoll(homes["stand-in"], "join", "--address", address, "--stand-in", "random", "--quiet",
                         "--name", "stand-in")
        started.append(stand_in)
        wait_for_entries(homes["host"], 2)  # the stand-in watches before the seats fill
        sitting = []
        for i in range(seats):
            sitting.append(atoll(homes[f"seat{i}"], "join", "--address", address, "--bot", "random",
                                 "--quiet", "--name", f"seat {i}"))
            started.append(sitting[-1])
            wait_for_entries(homes["host"], 3 + i)  # in seat order
        said = leave_mid_game(sitting[LEAVER], homes[f"seat{LEAVER}"], 2 + seats + MID_GAME, started)
        assert "your seat went to stand-in and the game goes on" in said
        for process in [host, stand_in, *(p for i, p in enumerate(sitting) if i != LEAVER)]:
            finished(process)

    logs = {name: log_of(home) for name, home in homes.items()}
    playing = [name for name in logs if name != f"seat{LEAVER}"]
    contents = {logs[name].read_bytes() for name in playing}  # type: ignore[union-attr]
    assert len(contents) == 1
    host_log = logs["host"]
    assert host_log is not None
    report = audit_log(host_log, REGISTRY.game, fingerprint)
    assert report.clean, report.cheat or report.ended
    # the leaving seat's copy is the table's up to its leave, at least
    assert contents.pop().startswith(logs[f"seat{LEAVER}"].read_bytes())  # type: ignore[union-attr]

    entries = read_log(host_log)
    table_id = entries[0]["msg"]["table"]
    host_key = bytes.fromhex(entries[0]["msg"]["author"])
    leaves = [e["msg"] for e in entries if e["msg"]["kind"] == Kind.LEAVE]
    assert len(leaves) == 1 and "box" in leaves[0]["body"]
    box = leaves[0]["body"]["box"]
    assert leaves[0]["body"]["to"] == load_identity(homes["stand-in"]).public_key.hex()
    for name, home in homes.items():
        key = load_identity(home).signing_key()
        if name == "stand-in":
            assert open_seat(key, box, table_id, LEAVER)[0].hex() == json.loads(
                (homes[f"seat{LEAVER}"] / "tables" / table_id / "secrets.json").read_text())["master"]
        else:
            with pytest.raises(NotForMe):
                open_seat(key, box, table_id, LEAVER)

    seen = {name: known_cards(home, table_id, host_key) for name, home in homes.items() if name != "host"}
    assert seen["stand-in"][0] == LEAVER
    left_with = seen[f"seat{LEAVER}"][1]
    assert left_with or game not in HIDES  # it left holding cards or sealed choices, where the game has any
    taken = seen["stand-in"][1]
    assert left_with.items() <= taken.items()  # what the seat held went to the stand-in
    for i in range(seats):
        if i != LEAVER:
            assert seen[f"seat{i}"][0] == i
            assert not set(seen[f"seat{i}"][1]) & set(taken)  # no other seat's cards or choices
    masters = {
        name: json.loads((home / "tables" / table_id / "secrets.json").read_text())["master"]
        for name, home in homes.items()
    }
    for name, home in homes.items():  # no process keeps another's master secret in the clear
        kept = b"".join(p.read_bytes() for p in home.rglob("*") if p.is_file())
        assert [other for other, master in masters.items() if master.encode() in kept] == [name]


def test_a_headless_host_starts_a_bot_stand_in_that_takes_over_a_seat_left_mid_game(tmp_path: Path) -> None:
    homes = {name: tmp_path / name for name in ("host", "seat0", "seat1")}
    with processes() as started:
        host = atoll(homes["host"], "host", "survival", "--seats", "2", "--headless", "--stand-in", "random",
                     "--bind", "127.0.0.1", "--no-announce", "--quiet")
        started.append(host)
        address = address_of(host)
        wait_for_entries(homes["host"], 2)  # its stand-in watches first
        sitting = []
        for i in range(2):
            seat = atoll(homes[f"seat{i}"], "join", "--address", address, "--bot", "random", "--quiet")
            sitting.append(seat)
            started.append(sitting[-1])
            wait_for_entries(homes["host"], 3 + i)
        said = leave_mid_game(sitting[1], homes["seat1"], 4 + MID_GAME, started)
        assert "your seat went to stand-in bot and the game goes on" in said
        finished(host)
        finished(sitting[0])
    logs = sorted(tmp_path.rglob("log.jsonl"))  # the host's, its stand-in's (under its bots/) and the seats'
    assert len(logs) == 4
    table_log = next(log for log in logs if log.is_relative_to(homes["seat0"]))
    assert len({log.read_bytes() for log in logs if not log.is_relative_to(homes["seat1"])}) == 1
    report = audit_log(table_log, REGISTRY.game, fingerprint)
    assert report.clean, report.cheat or report.ended
    assert [(seat, name) for seat, name, _, _ in report.handed] == [(1, "stand-in bot")]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["host", "survival", "--stand-in", "random", "--no-announce"],
         "--stand-in needs --headless and no --bots"),
        (["host", "survival", "--headless", "--bots", "1", "--stand-in", "random", "--no-announce"],
         "--stand-in needs --headless and no --bots"),
        (["host", "survival", "--headless", "--on-leave", "end", "--stand-in", "random", "--no-announce"],
         "--on-leave end hands none over"),
        (["join", "--address", "127.0.0.1:9", "--bot", "random", "--stand-in", "random"], "choose one"),
        (["join", "--address", "127.0.0.1:9", "--stand-in", "nosuchbot"], "no bot kind 'nosuchbot'"),
    ],
)
def test_a_stand_in_where_it_would_hold_a_second_seat_or_cannot_play_is_refused_in_one_line(
    tmp_path: Path, args: list[str], words: str
) -> None:
    process = atoll(tmp_path, *args)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 2, out + err
    assert words in err and err.count("\n") == 1 and "Traceback" not in err


def test_a_seat_that_vanishes_in_survival_goes_to_the_stand_in_after_the_turn_time(tmp_path: Path) -> None:
    homes = {name: tmp_path / name for name in ("host", "stand-in", "seat0", "seat1", "seat2")}
    with processes() as started:
        host = atoll(homes["host"], "host", "survival", "--seats", "3", "--headless", "--turn-time", "8",
                     "--bind", "127.0.0.1", "--no-announce", "--quiet", "--late-watchers")
        started.append(host)
        address = address_of(host)
        stand_in = atoll(homes["stand-in"], "join", "--address", address, "--stand-in", "random", "--quiet",
                         "--name", "stand-in")
        started.append(stand_in)
        wait_for_entries(homes["host"], 2)
        sitting = []
        for i in range(3):
            seat = atoll(homes[f"seat{i}"], "join", "--address", address, "--bot", "random", "--quiet")
            sitting.append(seat)
            started.append(seat)
            wait_for_entries(homes["host"], 3 + i)
        wait_for_entries(homes["seat1"], 5 + MID_GAME)
        os.killpg(sitting[1].pid, signal.SIGKILL)  # the machine is gone, and its secrets with it
        for process in (host, stand_in, sitting[0], sitting[2]):
            finished(process)
    logs = [log_of(homes[name]) for name in ("host", "stand-in", "seat0", "seat2")]
    assert len({log.read_bytes() for log in logs if log is not None}) == 1
    host_log = logs[0]
    assert host_log is not None
    report = audit_log(host_log, REGISTRY.game, fingerprint)
    assert report.clean, report.cheat or report.ended
    assert [(seat, name) for seat, name, _, _ in report.handed] == [(1, "stand-in")]
    assert not any(e["msg"]["kind"] == Kind.LEAVE for e in read_log(host_log))  # nothing was handed over
