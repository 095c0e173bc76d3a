"""Plugin discovery: entry points, bot kinds, and broken plugins reported by name."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path
from types import ModuleType

import pytest

from atoll import hookimpl
from atoll import registry as registry_module
from atoll.cli.main import main
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


def test_two_plugins_with_one_game_name_load_neither_and_name_both() -> None:
    copy = ModuleType("copycat")
    copy.atoll_games = hookimpl(lambda: [highcard.HighCard()])  # type: ignore[attr-defined]
    registry = load_registry(entry_points=False, extra=[("one", highcard), ("two", copy)])
    assert "highcard" not in registry.games
    assert [claim.plugin for claim in registry.conflicts["highcard"].claims] == ["one", "two"]
    assert registry.problems == []
    with pytest.raises(UnknownGame, match="'highcard' is provided by both tests and copycat: neither loads"):
        registry.game("highcard")


def copy_of(game: str, title: str) -> str:
    """A plugin module whose game is High Card under the name ``game``."""
    return f"""
        from tests.games.highcard import HighCard
        from atoll import hookimpl, GameInfo

        class Copy(HighCard):
            info = GameInfo({game!r}, {title!r}, 2, 3)

        @hookimpl
        def atoll_games():
            return [Copy()]
    """


def install_two_copies(site: Path, entry_names: tuple[str, str]) -> None:
    """atoll-copy-a and atoll-copy-b, each with a game called `othercard`, under these entry points."""
    for letter, entry in zip("ab", entry_names, strict=True):
        module, source = f"fake_copy_{letter}", copy_of("othercard", letter)
        fake_distribution(site, f"atoll-copy-{letter}", {entry: module}, {module: source})


def test_two_distributions_claiming_one_game_name_are_both_named_and_neither_wins(site: Path) -> None:
    """Both distributions name their entry point alike too: pluggy's own refusal of a name taken
    twice must not decide which game loads."""
    install_two_copies(site, ("othercard", "othercard"))
    registry = load_registry()
    assert "othercard" not in registry.games
    conflict = registry.conflicts["othercard"]
    assert sorted(claim.source for claim in conflict.claims) == ["atoll-copy-a", "atoll-copy-b"]
    assert str(conflict).startswith("game 'othercard' is provided by both atoll-copy-")
    assert not [p for p in registry.problems if "othercard" in str(p)]


def test_a_plugin_cannot_replace_a_built_in_game(site: Path) -> None:
    """Issue 30: `new-plugin kariba`, installed, dropped the built-in Kariba with a raw pluggy error."""
    copy = copy_of("kariba", "Kariba")
    fake_distribution(site, "atoll-kariba", {"kariba": "fake_kariba"}, {"fake_kariba": copy})
    registry = load_registry()
    assert "kariba" not in registry.games
    assert registry.problems == []
    reason = registry.conflicts["kariba"].reason
    assert "atoll 1.0" not in reason and "atoll-kariba 1.0" in reason  # the fake's version, not atoll's
    assert reason.endswith("neither loads; uninstall one (pip uninstall atoll-kariba)")


def test_atoll_games_lists_a_name_two_distributions_claim_in_one_line_naming_both(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    install_two_copies(site, ("copy_a", "copy_b"))
    assert main(["games"]) == 0
    out, err = capsys.readouterr()
    [line] = [line for line in out.splitlines() if "othercard" in line or "atoll-copy" in line]
    assert line.startswith("othercard ") and "atoll-copy-a 1.0 and atoll-copy-b 1.0" in line
    assert any(row.startswith("kariba ") for row in out.splitlines())  # the others still list
    assert err == ""


def test_playing_a_name_two_distributions_claim_is_refused_naming_both(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    install_two_copies(site, ("copy_a", "copy_b"))
    assert main(["sim", "OtherCard", "--games", "1"]) == 2
    err = capsys.readouterr().err
    assert err.splitlines()[-1] == (
        "atoll sim: game 'othercard' is provided by both atoll-copy-a 1.0 and atoll-copy-b 1.0: neither "
        "loads; uninstall one (pip uninstall atoll-copy-b)"
    )


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
