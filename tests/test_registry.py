"""Plugin discovery: entry points, bot kinds, and broken plugins reported by name."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path
from types import ModuleType

import pytest

from atoll import hookimpl
from atoll import registry as registry_module
from atoll.errors import UnknownGame
from atoll.registry import load_registry
from tests.games import highcard


def fake_distribution(root: Path, dist: str, entries: dict[str, str], modules: dict[str, str]) -> None:
    """Write an installed distribution (dist-info + modules) under ``root``, as pip would."""
    info = root / f"{dist.replace('-', '_')}-1.0.dist-info"  # named as pip names it
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n")
    lines = "\n".join(f"{name} = {target}" for name, target in entries.items())
    (info / "entry_points.txt").write_text(f"[atoll.games]\n{lines}\n")
    for name, source in modules.items():
        (root / f"{name}.py").write_text(textwrap.dedent(source))


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A directory on sys.path for fake distributions; their modules are forgotten afterwards."""
    monkeypatch.syspath_prepend(str(tmp_path))
    before = set(sys.modules)
    yield tmp_path
    for name in set(sys.modules) - before:
        if name.startswith("fake_"):
            del sys.modules[name]


GOOD = """
    from tests.games.highcard import HighCard
    from atoll import hookimpl, GameInfo

    class Other(HighCard):
        info = GameInfo("othercard", "Other Card", 2, 3)

    @hookimpl
    def atoll_games():
        return [Other()]
"""


def test_a_third_party_game_is_found_through_its_entry_point(site: Path) -> None:
    fake_distribution(site, "atoll-othercard", {"othercard": "fake_good"}, {"fake_good": GOOD})
    registry = load_registry()
    assert registry.games["othercard"].source == "atoll-othercard"
    assert registry.games["othercard"].plugin == "othercard"


def test_a_plugin_that_fails_to_import_is_named_and_the_others_still_load(site: Path) -> None:
    broken = {"fake_broken": "raise ImportError('no numpy')"}
    fake_distribution(site, "atoll-broken", {"broken": "fake_broken"}, broken)
    fake_distribution(site, "atoll-othercard", {"othercard": "fake_good"}, {"fake_good": GOOD})
    registry = load_registry()
    assert "othercard" in registry.games
    [problem] = [p for p in registry.problems if p.plugin == "broken"]
    assert "no numpy" in str(problem)


def test_a_plugin_whose_hook_raises_is_named(site: Path) -> None:
    source = """
        from atoll import hookimpl
        @hookimpl
        def atoll_games():
            raise RuntimeError("boom")
    """
    fake_distribution(site, "atoll-boom", {"boom": "fake_boom"}, {"fake_boom": source})
    registry = load_registry()
    [problem] = [p for p in registry.problems if p.plugin == "boom"]
    assert "boom" in str(problem) and "atoll_games" in str(problem)


def test_a_plugin_contributing_something_else_than_a_game_is_named(site: Path) -> None:
    source = """
        from atoll import hookimpl
        @hookimpl
        def atoll_games():
            return ["not a game"]
    """
    fake_distribution(site, "atoll-odd", {"odd": "fake_odd"}, {"fake_odd": source})
    [problem] = [p for p in load_registry().problems if p.plugin == "odd"]
    assert "neither an atoll.Game" in str(problem)


def test_a_game_that_crashes_on_setup_is_named() -> None:
    class Crashing(highcard.HighCard):
        def setup(self, config):  # type: ignore[no-untyped-def]
            raise KeyError("seats")

    plugin = ModuleType("crashing")
    plugin.atoll_games = hookimpl(lambda: [Crashing()])  # type: ignore[attr-defined]
    registry = load_registry(entry_points=False, extra=[("crashing", plugin)])
    assert "highcard" not in registry.games
    [problem] = registry.problems
    assert "breaks the game API" in str(problem) and "crashing" in str(problem)


def test_two_plugins_with_one_game_name_keep_the_first() -> None:
    copy = ModuleType("copycat")
    copy.atoll_games = hookimpl(lambda: [highcard.HighCard()])  # type: ignore[attr-defined]
    registry = load_registry(entry_points=False, extra=[("one", highcard), ("two", copy)])
    assert registry.games["highcard"].plugin == "one"
    [problem] = registry.problems
    assert problem.plugin == "two" and "already provided" in str(problem)


def test_the_built_in_bots_come_through_the_bot_hook() -> None:
    registry = load_registry(entry_points=False)
    assert "random" in registry.bots


def test_an_unknown_game_lists_the_installed_ones() -> None:
    registry = load_registry(entry_points=False, extra=[("highcard", highcard)])
    with pytest.raises(UnknownGame, match="installed: highcard"):
        registry.game("chess")


def test_a_bot_kind_limited_to_other_games_is_refused() -> None:
    registry = load_registry(entry_points=False, extra=[("highcard", highcard)])
    with pytest.raises(UnknownGame, match="no bot kind 'genius'"):
        registry.bot("genius", "highcard")


def test_the_built_in_games_are_registered_through_entry_points() -> None:
    import importlib.metadata

    names = {e.name for e in importlib.metadata.entry_points(group="atoll.games") if e.dist.name == "atoll"}
    assert "kariba" in names


def test_games_from_entry_points_are_sourced_without_scanning_every_installed_package(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Scanning every distribution took half a second of each start (issue 16); the entry points
    already say where the built-in games and bots come from."""

    def scan() -> None:
        raise AssertionError("packages_distributions() was called")

    monkeypatch.setattr(registry_module, "_distributions", scan)
    registry = load_registry()
    assert {installed.source for installed in registry.games.values()} == {"atoll"}
