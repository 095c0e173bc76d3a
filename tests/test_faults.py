"""A game's plugin that raises or hangs is named, one line, nobody blamed, no traceback: at `atoll games`,
a local game, `atoll sim`, `atoll audit` and the conformance kit; a turn that runs out of time is worded
so (issue 25 point 2; ``docs/decisions/0015-faults-are-not-cheats.md``). The table's own paths are in
``tests/table/test_faults_at_a_table.py``."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from atoll.client.local_table import LocalTable
from atoll.client.source import Refused
from atoll.errors import PluginFault
from atoll.guard import guard
from atoll.pin import GamePin
from atoll.registry import load_registry
from atoll.testing import conformance
from tests.games import faulty
from tests.table.harness import Net, open_table
from tests.table.test_survive import tick, waiting_on_a_late_seat

ROOT = Path(__file__).resolve().parent.parent
REGISTRY = load_registry(extra=[("faulty-games", faulty)], limit=1.0)


def install(site: Path, modules: dict[str, str]) -> None:
    """Install the faulty games (and any other ``modules``: entry name -> source) as the
    ``faulty-games`` distribution under ``site``, as pip would."""
    info = site / "faulty_games-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: faulty-games\nVersion: 1.0\n")
    entries = {"faulty": "fake_faulty", **{name: f"fake_{name}" for name in modules}}
    (info / "entry_points.txt").write_text(
        "[atoll.games]\n" + "".join(f"{name} = {target}\n" for name, target in entries.items())
    )
    (site / "fake_faulty.py").write_text("from tests.games.faulty import atoll_games  # noqa: F401\n")
    for name, source in modules.items():
        (site / f"fake_{name}.py").write_text(textwrap.dedent(source))


def atoll(tmp_path: Path, *args: str, limit: float = 1.0) -> subprocess.CompletedProcess[str]:
    """Run ``atoll ARGS`` with the faulty games installed, in a home of its own."""
    site = tmp_path / "site"
    if not site.exists():
        install(site, {})
    env = {**os.environ, "ATOLL_HOME": str(tmp_path / "home"), "HOME": str(tmp_path),
           "PYTHONPATH": os.pathsep.join([str(site), str(ROOT)]), "ATOLL_PLUGIN_LIMIT": str(limit)}
    return subprocess.run([sys.executable, "-m", "atoll.cli.main", *args], capture_output=True, text=True,
                          timeout=120, env=env, cwd=tmp_path)


def assert_named_once(done: subprocess.CompletedProcess[str], game: str, method: str) -> None:
    """One line on stderr names the game, its distribution and the method; no traceback, no blame."""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert f"the game {game!r} (from faulty-games) in {method} failed" in lines[0], lines[0]
    assert "nobody is to blame" in lines[0] and "Traceback" not in done.stdout + done.stderr
    assert "cheat" not in (done.stdout + done.stderr).lower()


# -- atoll games ------------------------------------------------------------------------------


def test_atoll_games_lists_every_other_game_when_one_plugin_raises_and_another_hangs_at_import(
    tmp_path: Path,
) -> None:
    install(tmp_path / "site", {"boom": "raise RuntimeError('broken at import')\n",
                                "hang": "import time\ntime.sleep(3600)\n"})
    started = time.monotonic()
    done = atoll(tmp_path, "games", limit=0.5)
    assert time.monotonic() - started < 30
    assert done.returncode == 0, done.stderr
    for name in ("kariba", "kiribati", "raises_in_next", "refuses_revealed_bets"):
        assert name in done.stdout
    assert "'boom': failed to load" in done.stderr and "broken at import" in done.stderr
    assert "'hang': did not finish loading" in done.stderr and "Traceback" not in done.stderr


def test_a_plugin_that_loops_at_import_is_stopped_and_named() -> None:
    from atoll.guard import within

    started = time.monotonic()
    with pytest.raises(TimeoutError):
        within(lambda: [None for _ in iter(int, 1)], 0.2)  # a loop in Python code, stopped
    assert time.monotonic() - started < 5


# -- a local game ---------------------------------------------------------------------------


def local_game(name: str, variant: str = "standard") -> LocalTable:
    """A local game of two: a person at seat 0 (played by :func:`play_as_person`), a bot at seat 1."""
    game = REGISTRY.game(name)
    config = game.configure(2, variant)
    return LocalTable(game, config, 1, humans=[0], bots={1: REGISTRY.bot("random", name).make(game, 1, 1)})


async def play_as_person(table: LocalTable) -> None:
    """Run the table, the person always typing the first legal text when asked, until it stops."""
    task = asyncio.create_task(table.run(lambda: None))
    while not task.done():
        waiting = table.waiting()
        texts = table.texts(0) if waiting.local else []
        if texts:
            with contextlib.suppress(Refused):  # the game stopped: the loop ends with the task
                table.submit(0, texts[0])
        await asyncio.sleep(0.001)
    await task


@pytest.mark.parametrize("method", ["next", "legal_actions", "apply", "resolve", "describe"])
def test_a_local_game_stops_naming_the_plugin_that_raised(method: str) -> None:
    table = local_game(faulty.raising_name(method))
    asyncio.run(asyncio.wait_for(play_as_person(table), 60))
    problem = table.problem()
    assert problem is not None
    assert f"the game {faulty.raising_name(method)!r} (from tests) in {method}" in problem
    assert "nobody is to blame" in problem
    assert table.waiting().over and table.waiting().text.startswith("the game stopped: ")
    assert "cheat" not in " ".join(line.text for line in table.log()).lower()


def test_a_local_game_whose_setup_raises_names_the_plugin() -> None:
    with pytest.raises(PluginFault, match=r"raises_in_setup.*in setup failed: Broken: setup is broken"):
        local_game(faulty.raising_name("setup"), "quick")


def test_a_board_the_plugin_cannot_draw_says_so_by_name() -> None:
    for method in ("view", "render"):
        table = local_game(faulty.raising_name(method))
        with pytest.raises(PluginFault, match=f"in {method} failed"):
            table.board(0)


# -- atoll sim ------------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["setup", "next", "legal_actions", "apply", "resolve"])
def test_atoll_sim_says_in_one_line_which_plugin_failed(method: str, tmp_path: Path) -> None:
    variant = ["--variant", "quick"] if method == "setup" else []
    done = atoll(tmp_path, "sim", faulty.raising_name(method), "--games", "3", "--workers", "1", *variant)
    assert done.returncode == 1, done.stdout + done.stderr
    assert_named_once(done, faulty.raising_name(method), method)
    log = (tmp_path / "home" / "faults.log").read_text()
    assert "Traceback" in log and f"Broken: {method} is broken on purpose" in log  # for the author


def test_atoll_sim_stops_a_plugin_that_loops_in_legal_actions_and_names_it(tmp_path: Path) -> None:
    started = time.monotonic()
    done = atoll(tmp_path, "sim", "loops_in_legal_actions", "--games", "1", "--workers", "1", limit=0.5)
    assert time.monotonic() - started < 60
    assert done.returncode == 1
    assert_named_once(done, "loops_in_legal_actions", "legal_actions")
    assert "ran past its time limit of 0.5 s and was stopped" in done.stderr


# -- atoll audit ----------------------------------------------------------------------------


def written(table_log: Net, path: Path) -> Path:
    path.write_bytes(b"".join(e.to_bytes() + b"\n" for e in table_log.host.table.log.entries))
    return path


def pinned_as_the_command_line_installs_it(tmp_path: Path, game: str) -> GamePin:
    """The pin of ``game`` as ``atoll`` run by :func:`atoll` sees it (the ``faulty-games``
    distribution): a log the audit should judge must pin the build the audit has (decision 0017)."""
    code = ("import json; from atoll.registry import load_registry; "
            f"print(json.dumps(load_registry().installed_pin({game!r}).to_json()))")
    site = tmp_path / "site"
    if not site.exists():
        install(site, {})
    env = {**os.environ, "ATOLL_HOME": str(tmp_path / "home"), "HOME": str(tmp_path),
           "PYTHONPATH": os.pathsep.join([str(site), str(ROOT)])}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env,
                          cwd=tmp_path, check=True)
    return GamePin.from_json(json.loads(done.stdout))


def test_atoll_audit_of_a_table_the_plugin_stopped_names_the_plugin_and_nobody_else(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = faulty.raising_name("resolve")
    pin = pinned_as_the_command_line_installs_it(tmp_path, game)
    monkeypatch.setattr(REGISTRY, "pin", lambda name: pin)
    net = open_table(game, 3, registry=REGISTRY)
    net.run()
    done = atoll(tmp_path, "audit", str(written(net, tmp_path / "log.jsonl")), "--json")
    assert done.returncode == 3, done.stdout + done.stderr
    verdict = json.loads(done.stdout)
    assert verdict["outcome"] == "fault" and verdict["seat"] is None and verdict["reason"] == "plugin_fault"
    assert "'raises_in_resolve' (from faulty-games) in resolve failed" in verdict["problem"]
    assert "Traceback" not in done.stderr


def test_atoll_audit_of_a_forfeit_says_ran_out_of_time_and_names_no_cheat(tmp_path: Path) -> None:
    net, late = waiting_on_a_late_seat()
    tick(net, 31.0)  # the turn time and the host's margin
    done = atoll(tmp_path, "audit", str(written(net, tmp_path / "log.jsonl")))
    assert done.returncode == 3, done.stdout + done.stderr
    assert f"seat {late + 1} forfeits" in done.stderr and "ran out of time" in done.stderr
    assert "cheat" not in (done.stdout + done.stderr).lower()
    verdict = json.loads(atoll(tmp_path, "audit", str(tmp_path / "log.jsonl"), "--json").stdout)
    assert verdict["outcome"] == "forfeited" and verdict["seat"] == late and verdict["reason"] == "forfeit"


def test_atoll_audit_names_the_plugin_when_the_auditing_install_fails_outside_the_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from atoll.cli.main import main

    monkeypatch.setenv("ATOLL_HOME", str(tmp_path / "home"))

    def failing(args: object) -> int:
        raise PluginFault("kariba", "atoll", "next", "Broken: on purpose")

    monkeypatch.setattr("atoll.cli.cmd_audit.run", failing)
    assert main(["audit", str(tmp_path / "any.jsonl")]) == 3


# -- the conformance kit --------------------------------------------------------------------


@pytest.mark.parametrize("method", [m for m in faulty.METHODS if m != "setup"])
def test_the_kit_reports_a_raising_plugin_by_name_and_method(method: str) -> None:
    game = faulty.raising_in(method)  # as an author hands it to the kit: not installed, not guarded
    with pytest.raises(conformance.ConformanceError) as caught:
        conformance.check_game(game, seats=[2], variants=["standard"], playouts=1)
    assert f"the game {faulty.raising_name(method)!r} (from tests) in {method} failed" in str(caught.value)
    assert f"Broken: {method} is broken on purpose" in str(caught.value)


def test_the_kit_stops_a_plugin_that_loops_and_names_it() -> None:
    stopped = "in legal_actions failed: ran past its time limit"
    with pytest.raises(conformance.ConformanceError, match=stopped):
        conformance.check_game(faulty.Looping(), seats=[2], variants=["standard"], playouts=1, limit=0.3)
    assert guard(faulty.Looping()).source == "tests"


# -- what a person reads ----------------------------------------------------------------------


def test_a_forfeit_is_printed_as_running_out_of_time_never_as_a_cheat(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from atoll.app.person import say_event
    from atoll.table.reasons import forfeited
    from atoll.table.table import Event

    ending = forfeited(1, "seat 2 (Bea)", "seats 1, 3")
    say_event(Event(ending.text, 40, ending=ending))
    printed = capsys.readouterr().out
    assert printed == "seat 2 forfeits: seat 2 (Bea) ran out of time (witnessed by seats 1, 3)\n"


def test_a_call_that_cannot_be_stopped_is_reported_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    from atoll import guard as guard_module

    told: list[str] = []
    monkeypatch.setattr(guard_module, "_WATCHDOG", [guard_module.Watchdog(told.append)])
    release = threading.Event()

    class Blocked(faulty.HighCard):
        def legal_actions(self, state: object, seat: int, known: object) -> list[dict[str, object]]:
            release.wait()  # blocked outside Python code: the stop cannot land until it returns
            return []

    game = guard(Blocked(), "blocked-dist", limit=0.2)
    state = game.setup(game.configure())
    outcome: list[PluginFault] = []

    def call() -> None:
        try:
            game.legal_actions(state, 0, {})
        except PluginFault as exc:
            outcome.append(exc)

    worker = threading.Thread(target=call)
    worker.start()
    try:
        deadline = time.monotonic() + 30
        while not told and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        release.set()
        worker.join(10)
    assert told == ["atoll: the game 'highcard' (from blocked-dist) in legal_actions ran past its time limit "
                    "and cannot be stopped (it is stuck outside Python code); end atoll with Ctrl-C"]
    assert len(outcome) == 1 and isinstance(outcome[0], PluginFault) and outcome[0].timed_out


def test_short_calls_with_waits_between_them_wake_the_watchdog_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A network table's plugin calls are short, with waits for the next frame between them: the watchdog
    sleeps until the first call's deadline, not woken again by each call (a context switch per call)."""
    from atoll import guard as guard_module

    dog = guard_module.Watchdog(lambda _line: None)
    monkeypatch.setattr(guard_module, "_WATCHDOG", [dog])
    wakes: list[float] = []
    wake = dog.wake

    def counted(deadline: float) -> None:
        wakes.append(deadline)
        wake(deadline)

    monkeypatch.setattr(dog, "wake", counted)
    game = guard(faulty.HighCard(), "tests", limit=20.0)
    config = game.configure()
    for _ in range(10):
        game.setup(config)
        time.sleep(0.01)  # the watchdog thread runs meanwhile, with no call in flight
    assert len(wakes) == 1 and dog.until == wakes[0]


# -- a table of processes -------------------------------------------------------------------


@pytest.mark.parametrize("game", [faulty.raising_name("legal_actions"), faulty.raising_name("resolve")])
def test_atoll_host_with_bot_processes_ends_naming_the_plugin_and_nobody_else(
    tmp_path: Path, game: str
) -> None:
    install(tmp_path / "site", {})
    env = {**os.environ, "ATOLL_HOME": str(tmp_path / "home"), "HOME": str(tmp_path),
           "PYTHONPATH": os.pathsep.join([str(tmp_path / "site"), str(ROOT)]), "ATOLL_PLUGIN_LIMIT": "2"}
    command = [sys.executable, "-m", "atoll.cli.main", "host", game, "--seats", "3", "--bots", "3",
               "--bot-kind", "random", "--headless", "--bind", "127.0.0.1", "--no-announce", "--quiet"]
    with subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          start_new_session=True) as process:
        try:
            out, err = process.communicate(timeout=180)
        finally:
            if process.poll() is None:
                os.killpg(process.pid, 9)  # the host and the bots it started
                process.wait()
    assert "Traceback" not in out + err and "cheat" not in (out + err).lower()
    told = out + err  # the host and its bots each say how the game ended
    assert f"the game {game!r} (from faulty-games)" in told and "nobody is to blame" in told, told
    logs = sorted((tmp_path / "home").rglob("log.jsonl"))
    assert len(logs) == 4 and len({log.read_bytes() for log in logs}) == 1  # every copy kept, alike
    verdict = json.loads(atoll(tmp_path, "audit", str(logs[0]), "--json").stdout)
    assert verdict["seat"] is None and verdict["reason"] in ("left", "plugin_fault")
