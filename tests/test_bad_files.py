"""The bad-file corpus: every command that reads atoll's files, run as a user runs it, on every kind of
damage, answers in one line that names the file (and the line), exits 2, and prints no traceback.

The originals are real: a table's ``log.jsonl`` from a short game on loopback (a headless host and two
bot processes) and a save that ``atoll play`` wrote. Each damage is applied to the fourth line.
Where a damage leaves a file that still means something, the command says what it means instead:
``atoll audit`` gives a log cut at a line boundary its verdict (3, unfinished), ``atoll saves`` checks
only each file's form (a save whose lines are whole is listed, and its moves are checked when it is
replayed or resumed), and a peer takes its own log up to the damaged line, moves the rest aside and
waits for its host to send those entries again (docs/decisions/0016-bad-files-and-locks.md).
"""

from __future__ import annotations

import json
import re
import shutil
import signal
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.commands import InTerminal, Ran, env_for, run, run_in_terminal

Lines = list[bytes]
DEEP = 100_000


def _non_utf8(lines: Lines, k: int) -> Lines:
    spoiled = bytearray(lines[k])
    spoiled[len(spoiled) // 2] = 0xFF
    return [*lines[:k], bytes(spoiled), *lines[k + 1 :]]


def _nested_value(lines: Lines, k: int) -> Lines:
    return [*lines[:k], b'{"deep":' + b"[" * DEEP + b"]" * DEEP + b"," + lines[k][1:], *lines[k + 1 :]]


def _truncated(lines: Lines, k: int) -> Lines:
    return [*lines[:k], lines[k][: len(lines[k]) // 2]]  # the file ends in the middle of a line


def _cut_at_a_line(lines: Lines, k: int) -> Lines:
    return lines[:k]


def _reordered(lines: Lines, k: int) -> Lines:
    return [*lines[:k], lines[k + 1], lines[k], *lines[k + 2 :]]


def _duplicated(lines: Lines, k: int) -> Lines:
    return [*lines[: k + 1], lines[k], *lines[k + 1 :]]


def _out_of_range(lines: Lines, k: int) -> Lines:
    """Every number after ``"seat":`` or ``"seq":`` from line ``k`` on made 30 digits long."""
    huge = rb"\g<1>" + b"9" * 30
    return [*lines[:k], *(re.sub(rb'("(?:seat|seq)":)\d+', huge, line) for line in lines[k:])]


def _float(lines: Lines, k: int) -> Lines:
    return [*lines[:k], lines[k][:-1] + b',"float":1e999}', *lines[k + 1 :]]


DAMAGES: dict[str, Callable[[Lines, int], Lines]] = {
    "non_utf8": _non_utf8,
    "nested_value": _nested_value,
    "truncated": _truncated,
    "cut_at_a_line": _cut_at_a_line,
    "reordered": _reordered,
    "duplicated": _duplicated,
    "out_of_range": _out_of_range,
    "float": _float,
}
#: Damage a crash can leave: a peer or a host resumes from it as from any crash, so it is no bad input.
CRASHES = ("truncated", "cut_at_a_line")
#: Damage that leaves every line of a save whole: `atoll saves` (which reads each file's form) lists it.
WHOLE_LINES = ("reordered", "duplicated", "out_of_range")


#: The line damaged (counted from 0): early, so the readers of a long log stop soon.
DAMAGED_LINE = 3


def damaged(data: bytes, damage: str) -> bytes:
    """``data`` (JSON lines) with ``damage`` done to its fourth line; a truncated file ends without a
    newline."""
    lines = data.split(b"\n")[:-1]
    spoiled = DAMAGES[damage](lines, DAMAGED_LINE)
    return b"".join(line + b"\n" for line in spoiled).removesuffix(b"\n" if damage == "truncated" else b"")


@dataclass(frozen=True)
class Originals:
    """The undamaged files: a finished table's log and the folders of its host and a seat (each with
    its identity), and an unfinished save of `atoll play`."""

    log: bytes
    host: Path
    seat: Path
    table: str
    save: bytes
    save_name: str


@pytest.fixture(scope="module")
def originals(tmp_path_factory: pytest.TempPathFactory) -> Originals:
    root = tmp_path_factory.mktemp("originals")
    env = env_for(root)
    hosted = run(["host", "kariba", "--seats", "2", "--headless", "--bots", "2", "--no-announce",
                  "--bind", "127.0.0.1", "--quiet"], env, timeout=120)  # fmt: skip
    assert hosted.status == 0, hosted.output
    host_home = root / "home"
    (folder,) = (host_home / "tables").iterdir()
    seat_home = next((host_home / "bots").iterdir())
    moves = "".join(f"play 1 {animal}\n" for animal in ("mouse", "meerkat", "zebra", "giraffe", "ostrich"))
    played = subprocess_play(moves, env)
    assert played.status == 0, played.output
    (save,) = [*root.rglob("games/kariba-*.jsonl")]
    assert json.loads(save.read_bytes().splitlines()[-1])["end"] is None, "the save should be unfinished"
    return Originals((folder / "log.jsonl").read_bytes(), host_home, seat_home, folder.name,
                     save.read_bytes(), save.name)


def subprocess_play(typed: str, env: dict[str, str]) -> Ran:
    """`atoll play kariba --plain` against a bot, on ``typed`` lines (the end of input leaves, saving)."""
    import subprocess

    from tests.commands import ATOLL

    done = subprocess.run([*ATOLL, "play", "kariba", "--plain", "--seed", "3", "--bots", "random"],
                          input=typed.encode(), env=env, capture_output=True, timeout=120)
    return Ran(done.returncode, (done.stdout + done.stderr).decode(errors="replace"))


@dataclass(frozen=True)
class Case:
    """One reader on one damaged file: what it ran, how it ended, and what is expected of it."""

    reader: str
    damage: str
    file: Path
    ran: Ran
    statuses: tuple[int, ...] = (2,)
    line: bool = True
    """Whether the answer must name a line (not for a file of the wrong kind)."""


def _seat_folder(work: Path, originals: Originals, source: Path, log: bytes) -> tuple[dict[str, str], Path]:
    """A data directory for the host or the seat at ``source``: its identity and the table's folder,
    with ``log`` as the table's log; the environment to run in it, and the log's path."""
    root = work
    home = root / "home"
    shutil.copytree(source / "tables" / originals.table, home / "tables" / originals.table)
    for name in ("identity.key", "curve.json", "settings.json"):
        if (source / name).exists():
            shutil.copy2(source / name, home / name)
    path = home / "tables" / originals.table / "log.jsonl"
    path.write_bytes(log)
    return env_for(root), path


def _save_folder(work: Path, originals: Originals, data: bytes) -> tuple[dict[str, str], Path]:
    """A data directory whose saves folder holds ``data`` as the save (where `atoll play` keeps saves:
    under ``ATOLL_HOME`` and under ``HOME``, so `atoll saves` finds it wherever it looks)."""
    env = env_for(work)
    paths = [work / "home" / "games" / originals.save_name,
             work / ".local" / "share" / "atoll" / "games" / originals.save_name]
    for path in paths:
        path.parent.mkdir(parents=True)
        path.write_bytes(data)
    return env, paths[-1]


def _peer_resumes(env: dict[str, str], log: Path) -> Ran:
    """`atoll join --resume` up to the line that says what it set aside (its host is gone: it would wait
    for it), then Ctrl-C."""
    seat = InTerminal(["join", "--resume", "--quiet"], env)
    try:
        seat.read_until("host sends those entries again", 30)
        seat.process.send_signal(signal.SIGINT)
        return seat.finish(30)
    finally:
        seat.stop()


@pytest.fixture(scope="module")
def cases(originals: Originals, tmp_path_factory: pytest.TempPathFactory) -> list[Case]:
    """Every reader on every damaged file, run a few at a time."""
    work = tmp_path_factory.mktemp("corpus")
    unfinished = b"".join(line + b"\n" for line in originals.log.split(b"\n")[:-2])  # as after a crash
    jobs: list[Callable[[], Case]] = []
    for damage in DAMAGES:
        spoiled_log = damaged(originals.log, damage)
        folder = work / f"log-{damage}"
        folder.mkdir()
        log = folder / "log.jsonl"
        log.write_bytes(spoiled_log)
        env = env_for(folder)
        verdict = (3,) if damage == "cut_at_a_line" else (2,)
        jobs += [
            lambda d=damage, e=env, f=log, v=verdict: Case("audit", d, f, run(["audit", str(f)], e), v),
            lambda d=damage, e=env, f=log: Case("replay", d, f, run(["replay", str(f)], e), line=False),
            lambda d=damage, e=env, f=log: Case(
                "play --resume", d, f, run_in_terminal(["play", "--resume", str(f)], e), line=False
            ),
        ]
        if damage not in CRASHES:
            host_env, host_log = _seat_folder(folder / "host", originals, originals.host,
                                              damaged(unfinished, damage))
            jobs.append(lambda d=damage, e=host_env, f=host_log: Case(
                "host --resume", d, f, run(["host", "--resume", "--quiet"], e, timeout=60)))
        if damage not in CRASHES:
            seat_env, seat_log = _seat_folder(folder / "seat", originals, originals.seat,
                                              damaged(unfinished, damage))
            jobs.append(lambda d=damage, e=seat_env, f=seat_log: Case(
                "join --resume", d, f, _peer_resumes(e, f), (130,)))
        save_env, save = _save_folder(work / f"save-{damage}", originals, damaged(originals.save, damage))
        jobs += [
            # a save is refused as a whole, by its first line: a local game holds no signatures to audit
            lambda d=damage, e=save_env, f=save: Case("audit", d, f, run(["audit", str(f)], e), line=False),
            lambda d=damage, e=save_env, f=save: Case("replay", d, f, run(["replay", str(f)], e)),
            lambda d=damage, e=save_env, f=save: Case(
                "play --resume", d, f, run_in_terminal(["play", "--resume", str(f)], e)
            ),
            lambda d=damage, e=save_env, f=save: Case(
                "saves", d, f, run(["saves"], e), (0,) if d in WHOLE_LINES else (2,),
                line=d not in WHOLE_LINES,
            ),
        ]
    with ThreadPoolExecutor(4) as pool:
        return list(pool.map(lambda job: job(), jobs))


def test_no_reader_prints_a_traceback_on_any_damaged_file(cases: list[Case]) -> None:
    shown = [f"{c.reader} on {c.damage} {c.file.name}:\n{c.ran.output[-1500:]}" for c in cases
             if "Traceback" in c.ran.output]
    assert not shown, "\n\n".join(shown)


def test_every_reader_exits_2_on_bad_input_or_gives_the_verdict_the_damage_makes(cases: list[Case]) -> None:
    wrong = [f"{c.reader} on {c.damage} {c.file.name}: exit {c.ran.status}, not {c.statuses}: "
             f"{c.ran.output[-400:]}" for c in cases if c.ran.status not in c.statuses]
    assert not wrong, "\n".join(wrong)


def test_every_refusal_names_the_file_and_the_line(cases: list[Case]) -> None:
    unnamed = [
        f"{c.reader} on {c.damage}: {c.ran.output[-400:]}"
        for c in cases
        if c.statuses == (2,)
        and (c.file.name not in c.ran.output or (c.line and not re.search(r"(:|line )\d+", c.ran.output)))
    ]
    assert not unnamed, "\n".join(unnamed)


def test_a_peer_keeps_its_log_up_to_the_damaged_line_and_moves_the_rest_aside(cases: list[Case]) -> None:
    peers = [c for c in cases if c.reader == "join --resume"]
    assert len(peers) == len(DAMAGES) - len(CRASHES)
    for case in peers:
        said = re.search(r", line (\d+): .*; lines 1-\d+ are kept, the rest is moved to (\S+),",
                         case.ran.output)
        assert said, f"{case.damage}: {case.ran.output[-600:]}"
        line, aside = int(said.group(1)), case.file.with_name(said.group(2))
        assert case.file.read_bytes().count(b"\n") == line - 1
        assert aside.exists() and aside.read_bytes()[:1] in (b"{", b"[")  # the damaged line is kept there


def test_a_host_refuses_its_own_damaged_log_and_changes_nothing(cases: list[Case]) -> None:
    hosts = [c for c in cases if c.reader == "host --resume"]
    assert hosts
    for case in hosts:
        assert not list(case.file.parent.glob("log.jsonl.*")), case.damage


@pytest.mark.parametrize("damage", ["non_utf8", "nested_value"])
def test_a_damaged_place_or_secrets_file_is_named_by_a_resuming_host_or_seat(
    originals: Originals, tmp_path: Path, damage: str
) -> None:
    jobs = []
    unfinished = b"".join(line + b"\n" for line in originals.log.split(b"\n")[:-2])
    for command, source in (("host", originals.host), ("join", originals.seat)):
        for name in ("place.json", "secrets.json"):
            env, log = _seat_folder(tmp_path / f"{command}-{name}", originals, source, unfinished)
            spoiled = log.with_name(name)
            (line,) = DAMAGES[damage]([spoiled.read_bytes().strip()], 0)  # a file of one line
            spoiled.write_bytes(line + b"\n")
            jobs.append((spoiled, env, [command, "--resume", "--quiet"]))
    with ThreadPoolExecutor(4) as pool:
        ran = list(pool.map(lambda job: (job[0], run(job[2], job[1], timeout=60)), jobs))
    for spoiled, answer in ran:
        assert answer.status == 2 and str(spoiled) in answer.output, answer.output
        assert "Traceback" not in answer.output and len(answer.output.strip().splitlines()) == 1
