"""Simulation: bot games tallied reproducibly, and `atoll sim` with its errors."""

from __future__ import annotations

import argparse
import io
import json
import multiprocessing
import sys
from typing import Any

import pytest

from atoll import system
from atoll.bots.base import BotKind
from atoll.bots.search import DEFAULT_ITERATIONS, SearchBot, search_kind
from atoll.cli import cmd_sim
from atoll.cli.common import use_think
from atoll.cli.main import main
from atoll.errors import AtollError
from atoll.randomness import Stream
from atoll.registry import Registry, load_registry
from atoll.sim import CHANCE, bot_kinds, chunks, default_workers, derive_seed, fast_path_applies, simulate
from tests.games import highcard

TIMING = ("seconds", "games_per_s")


@pytest.fixture(scope="module")
def found() -> Registry:
    """A registry holding only the built-in bots and high card."""
    return load_registry(entry_points=False, extra=[("highcard", highcard)])


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch, found: Registry) -> None:
    """Make `atoll sim` find high card, as if it were installed."""
    monkeypatch.setattr(cmd_sim, "registry", lambda quiet=False: found)


def sim(*args: str) -> int:
    """Run `atoll sim ARGS` through its own subcommand module."""
    parser = argparse.ArgumentParser(prog="atoll sim")
    cmd_sim.add_arguments(parser)
    return cmd_sim.run(parser.parse_args(args))


def sim_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    """Run `atoll sim ... --json` and read its one JSON object."""
    assert sim(*args, "--json") == 0
    report: dict[str, object] = json.loads(capsys.readouterr().out)
    return report


def without_timing(report: dict[str, object]) -> dict[str, object]:
    return {key: value for key, value in report.items() if key not in TIMING}


def test_the_same_seed_gives_the_same_tally(cli: None, capsys: pytest.CaptureFixture[str]) -> None:
    first = sim_json(capsys, "highcard", "--games", "30", "--seed", "5")
    second = sim_json(capsys, "highcard", "--games", "30", "--seed", "5")
    assert without_timing(first) == without_timing(second)


def test_another_seed_gives_other_games(cli: None, capsys: pytest.CaptureFixture[str]) -> None:
    first = sim_json(capsys, "highcard", "--games", "30", "--seed", "5")
    second = sim_json(capsys, "highcard", "--games", "30", "--seed", "6")
    assert without_timing(first) != without_timing(second)


def test_the_json_counts_wins_per_seat_and_decisions_per_game(
    cli: None, capsys: pytest.CaptureFixture[str]
) -> None:
    """High card for 3 seats: each seat bets and plays once, so every game takes 6 decisions."""
    report = sim_json(capsys, "highcard", "--seats", "3", "--games", "20")
    assert report["games"] == 20 and report["seats"] == 3 and report["bots"] == ["random"] * 3
    wins = report["wins"]
    assert isinstance(wins, list) and len(wins) == 3
    assert 20 <= sum(wins) <= 20 + int(str(report["shared"])) * 2
    assert report["mean_turns"] == 6
    assert float(str(report["games_per_s"])) > 0


def test_a_shared_win_counts_for_every_winner(found: Registry) -> None:
    game = found.game("highcard")
    config = game.configure(2)
    report = simulate(game, config, bot_kinds(found, "highcard", ["random"], 2), games=60, seed=1)
    assert report.shared > 0
    assert sum(report.wins) == report.games + report.shared


def test_rotating_bots_counts_wins_per_bot(found: Registry) -> None:
    """Search against random with seats rotating: each bot's wins are counted wherever it sat."""
    game = found.game("highcard")
    kinds = bot_kinds(found, "highcard", ["search", "random"], 2)
    report = simulate(game, game.configure(2), kinds, games=6, seed=2, rotate=True)
    assert sum(report.bot_wins) == sum(report.wins)
    assert report.bots == ("search", "random")


def test_each_game_and_seat_gets_its_own_seed() -> None:
    seeds = {derive_seed(0, index, role) for index in range(10) for role in (0, 1, 2, CHANCE)}
    assert len(seeds) == 40
    assert derive_seed(3, 1, 0) == derive_seed(3, 1, 0)


def test_one_bot_kind_plays_every_seat(found: Registry) -> None:
    assert [k.name for k in bot_kinds(found, "highcard", ["search"], 3)] == ["search"] * 3


def test_a_bot_list_must_name_one_kind_per_seat(cli: None) -> None:
    with pytest.raises(AtollError, match=r"2 bot kinds \(random, search\) for 3 seats"):
        sim("highcard", "--seats", "3", "--bots", "random,search")


def test_an_unknown_bot_kind_is_named_with_the_kinds_there_are(cli: None) -> None:
    with pytest.raises(AtollError, match=r"no bot kind 'genius' .*random, search"):
        sim("highcard", "--bots", "random,genius")


def test_an_unknown_game_and_a_bad_seat_count_are_errors(cli: None) -> None:
    with pytest.raises(AtollError, match="no game 'chess'"):
        sim("chess")
    with pytest.raises(AtollError, match="2-4 seats, not 9"):
        sim("highcard", "--seats", "9")


def test_the_command_line_prints_a_bad_bot_list_and_exits_2(
    cli: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["sim", "highcard", "--bots", "random,random,random"]) == 2
    assert "atoll sim: 3 bot kinds" in capsys.readouterr().err


def test_no_games_is_an_error(found: Registry) -> None:
    game = found.game("highcard")
    with pytest.raises(AtollError, match="at least one game"):
        simulate(game, game.configure(2), bot_kinds(found, "highcard", ["random"], 2), games=0)


def test_the_text_report_names_each_seat(cli: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert sim("highcard", "--games", "10") == 0
    out = capsys.readouterr().out
    assert "seat 1 (random):" in out and "seat 2 (random):" in out and "games/s" in out


class Terminal(io.StringIO):
    """A text stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_progress_is_drawn_on_a_terminal_and_cleared_at_the_end() -> None:
    terminal = Terminal()
    show = cmd_sim.progress_line(4, terminal)
    assert show is not None
    show(2)
    assert terminal.getvalue().endswith("2/4 games")
    show(4)
    assert terminal.getvalue().endswith("\r")


def test_progress_says_the_time_left_once_the_pace_is_known() -> None:
    terminal, now = Terminal(), [0.0]
    show = cmd_sim.progress_line(100, terminal, clock=lambda: now[0])
    assert show is not None
    show(1)
    assert terminal.getvalue().endswith("1/100 games")
    now[0] = 20.0
    show(25)
    assert terminal.getvalue().endswith("25/100 games, 60 s left")
    now[0] = 95.0
    show(95)
    assert terminal.getvalue().endswith("95/100 games, 5 s left ")  # a blank wipes the longer line


def test_no_progress_is_drawn_when_stderr_is_not_a_terminal() -> None:
    assert cmd_sim.progress_line(4, io.StringIO()) is None


def test_search_iterations_set_the_search_bots_budget_and_are_reported(
    cli: None, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--search-iterations 7`: every search bot thinks 7 iterations a decision; random bots are untouched."""
    made: list[object] = []
    real_make = SearchBot.__init__

    def spy(self: SearchBot, seed: int, **budget: Any) -> None:
        real_make(self, seed, **budget)
        made.append(self.iterations)

    monkeypatch.setattr(SearchBot, "__init__", spy)
    report = sim_json(
        capsys, "highcard", "--bots", "search,random", "--games", "3", "--search-iterations", "7",
        "--workers", "1",  # the spy sees only the bots made in this process
    )
    assert made == [7, 7, 7]
    assert report["search_iterations"] == 7 and report["bots"] == ["search", "random"]


def test_without_search_iterations_the_search_bot_keeps_its_default(found: Registry) -> None:
    bot = bot_kinds(found, "highcard", ["search"], 2)[0].make(found.game("highcard"), 0, 1)
    assert isinstance(bot, SearchBot) and bot.iterations == DEFAULT_ITERATIONS
    tuned = search_kind(12).make(found.game("highcard"), 0, 1)
    assert isinstance(tuned, SearchBot) and tuned.iterations == 12


@pytest.mark.parametrize("bad", ["0", "-3", "many"])
def test_search_iterations_must_be_a_whole_number_of_at_least_one(
    cli: None, capsys: pytest.CaptureFixture[str], bad: str
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["sim", "highcard", "--search-iterations", bad])
    assert exit_.value.code == 2
    assert f"expected a whole number of at least 1, not '{bad}'" in capsys.readouterr().err


# --- spread over processes ------------------------------------------------------------------------


def test_the_tally_is_the_same_whatever_the_number_of_workers(
    cli: None, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 16: every game has its own seeds and the outcomes are counted in game order."""
    args = ("highcard", "--seats", "3", "--games", "40", "--seed", "9", "--rotate")
    one, two, three = (without_timing(sim_json(capsys, *args, "--workers", n)) for n in "123")
    assert one == two == three


def test_search_bots_with_their_own_budget_play_the_same_games_in_a_pool(
    cli: None, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--search-iterations` makes a bot kind around a closure: the pool's workers get it as it is."""
    args = ("highcard", "--bots", "search,random", "--search-iterations", "5", "--games", "8", "--rotate")
    assert without_timing(sim_json(capsys, *args, "--workers", "1")) == without_timing(
        sim_json(capsys, *args, "--workers", "2")
    )


def test_a_pool_reports_progress_up_to_every_game(found: Registry) -> None:
    game = found.game("highcard")
    kinds = bot_kinds(found, "highcard", ["random"], 2)
    seen: list[int] = []
    simulate(game, game.configure(2), kinds, games=50, workers=2, on_game=seen.append)
    assert seen == sorted(seen) and seen[-1] == 50 and len(seen) > 1


def test_a_game_that_fails_in_a_worker_fails_the_simulation(found: Registry) -> None:
    game = found.game("highcard")
    broken = BotKind("broken", "refuses to play", lambda game, seat, seed: _Refusing())
    with pytest.raises(RuntimeError, match="this bot refuses to play"):
        simulate(game, game.configure(2), [broken, broken], games=10, workers=2)


class _Refusing:
    def choose(self, observation: object) -> object:
        raise RuntimeError("this bot refuses to play")


@pytest.mark.parametrize("bad", ["0", "-1", "all"])
def test_workers_must_be_a_whole_number_of_at_least_one(
    cli: None, capsys: pytest.CaptureFixture[str], bad: str
) -> None:
    with pytest.raises(SystemExit):
        main(["sim", "highcard", "--workers", bad])
    assert f"expected a whole number of at least 1, not '{bad}'" in capsys.readouterr().err


def test_workers_default_to_every_core() -> None:
    parser = argparse.ArgumentParser()
    cmd_sim.add_arguments(parser)
    assert parser.parse_args(["highcard"]).workers == default_workers() >= 1


# --- the fast path ----------------------------------------------------------------------------------

INSTALLED = load_registry()


@pytest.mark.parametrize("name", sorted(INSTALLED.games))
def test_random_games_on_the_fast_path_are_the_engines_games(name: str) -> None:
    """The same seeds give the same games through a game's simulator as through the engine."""
    game = INSTALLED.game(name)
    config = game.configure()
    if game.simulator(config, Stream.from_int(0)) is None:
        pytest.skip(f"{name} offers no simulator")
    kinds = bot_kinds(INSTALLED, name, ["random"], config.seats)
    assert fast_path_applies(game, config, kinds)
    engine = simulate(game, config, kinds, games=6, seed=4, rotate=True, fast=False)
    fast = simulate(game, config, kinds, games=6, seed=4, rotate=True, fast=True)
    assert without_timing(engine.to_json()) == without_timing(fast.to_json())


def test_the_fast_path_is_taken_only_when_every_seat_is_the_random_bot(found: Registry) -> None:
    kariba = INSTALLED.game("kariba")
    config = kariba.configure(2)
    assert not fast_path_applies(kariba, config, bot_kinds(INSTALLED, "kariba", ["random", "search"], 2))
    highcard = found.game("highcard")
    assert not fast_path_applies(highcard, highcard.configure(2), bot_kinds(found, "highcard", ["random"], 2))


def test_ray_without_ray_installed_says_how_to_get_it(
    cli: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # what an import finds when Ray is absent
    with pytest.raises(AtollError, match=r"pip install 'atoll\[ray\]'"):
        sim("highcard", "--games", "2", "--ray", "local")


@pytest.fixture
def spawning(monkeypatch: pytest.MonkeyPatch) -> None:
    """Windows as its documentation says: no fork, pool workers are spawned (on macOS atoll spawns too)."""
    monkeypatch.setattr(system, "WINDOWS", True)
    monkeypatch.setattr(multiprocessing, "get_all_start_methods", lambda: ["spawn"])


def test_without_fork_bots_that_cannot_be_pickled_are_refused_with_what_to_do(
    found: Registry, spawning: None
) -> None:
    """On a system whose processes are spawned, the workers get the game and bots pickled."""
    game = found.game("highcard")
    random_bot = found.bot("random", "highcard")
    closure = BotKind("closure", "a bot kind around a closure", lambda g, s, n: random_bot.make(g, s, n))
    with pytest.raises(AtollError, match="use --workers 1"):
        simulate(game, game.configure(2), [closure, found.bot("random", "highcard")], games=4, workers=2)


def test_on_macos_the_pool_spawns_its_workers_though_fork_exists(
    found: Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Python's own default on macOS is spawn: a forked child of a process that used system frameworks
    may crash. The tally is that of one worker."""
    monkeypatch.setattr(system, "MACOS", True)
    real_get_context = multiprocessing.get_context
    asked: list[str | None] = []

    def get_context(method: str | None = None) -> Any:
        asked.append(method)
        return real_get_context(method)

    monkeypatch.setattr(multiprocessing, "get_context", get_context)
    game = found.game("highcard")
    kinds = bot_kinds(found, "highcard", ["random"], 2)
    pooled = simulate(game, game.configure(2), kinds, games=6, workers=2, seed=4)
    assert "fork" in multiprocessing.get_all_start_methods() and asked[0] == "spawn"
    assert pooled.wins == simulate(game, game.configure(2), kinds, games=6, workers=1, seed=4).wins


def test_spawned_workers_play_search_bots_with_a_budget_to_the_same_tally(
    found: Registry, spawning: None
) -> None:
    """`atoll sim --search-iterations N --workers 2` on Windows and macOS: the same games as one worker."""
    game = found.game("highcard")
    kinds = [search_kind(5), found.bot("random", "highcard")]
    pooled = simulate(game, game.configure(2), kinds, games=6, workers=2, seed=3)
    alone = simulate(game, game.configure(2), kinds, games=6, workers=1, seed=3)
    assert (pooled.wins, pooled.mean_scores) == (alone.wins, alone.mean_scores)


def test_think_gives_every_search_bot_a_time_and_says_so(
    cli: None, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--think 0.01`: the search bots think 0.01 s a decision; the report records the time."""
    report = sim_json(capsys, "highcard", "--bots", "search,random", "--games", "2", "--think", "0.01",
                      "--workers", "1")
    assert report["think"] == 0.01 and report["games"] == 2


def test_think_and_search_iterations_are_refused_together(cli: None) -> None:
    with pytest.raises(AtollError, match="choose one"):
        sim("highcard", "--bots", "search", "--think", "1", "--search-iterations", "5")


@pytest.mark.parametrize("bad", ["0", "-1", "soon", "7200"])
def test_think_must_be_a_time_above_zero_and_at_most_an_hour(cli: None, bad: str) -> None:
    with pytest.raises(SystemExit):
        sim("highcard", "--think", bad)


def test_think_changes_the_search_kind_of_a_copy_of_the_registry(found: Registry) -> None:
    """The registry the command was given keeps its own search kind (other commands may share it)."""
    timed = use_think(found, 0.5).bot("search", "highcard").make(found.game("highcard"), 0, 1)
    assert isinstance(timed, SearchBot) and timed.seconds == 0.5
    untouched = found.bot("search", "highcard").make(found.game("highcard"), 0, 1)
    assert isinstance(untouched, SearchBot) and untouched.seconds is None


def test_a_pool_gets_every_game_once_in_tasks_that_shrink_to_single_games() -> None:
    """Large tasks first (cheap to send), single games last (no worker waits long on the other)."""
    tasks = chunks(1000, 2)
    assert [i for task in tasks for i in task] == list(range(1000))
    sizes = [len(task) for task in tasks]
    assert sizes == sorted(sizes, reverse=True)
    assert sizes[0] == 64 and sizes[-1] == 1
