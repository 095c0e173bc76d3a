"""Where atoll writes: ATOLL_HOME, else the platform's data folder; one function decides it."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import platformdirs
import platformdirs.macos
import platformdirs.unix
import pytest

from atoll.client.saves import new_save_path, settings_path
from atoll.paths import data_root, games_dir

HOME = Path("/home/me")


@pytest.fixture
def plain_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """No ATOLL_HOME and no XDG_DATA_HOME; HOME is /home/me."""
    monkeypatch.delenv("ATOLL_HOME", raising=False)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.setenv("HOME", str(HOME))


def test_atoll_home_overrides_every_other_place(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", "/xdg")
    assert data_root({"ATOLL_HOME": "/srv/me"}) == Path("/srv/me")


def test_a_relative_atoll_home_is_taken_from_the_working_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert data_root({"ATOLL_HOME": "party"}) == tmp_path / "party"


def test_an_empty_atoll_home_counts_as_unset(plain_env: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(platformdirs, "PlatformDirs", platformdirs.unix.Unix)
    assert data_root({"ATOLL_HOME": " "}) == HOME / ".local" / "share" / "atoll"


def test_on_linux_the_default_is_local_share_under_home(
    plain_env: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(platformdirs, "PlatformDirs", platformdirs.unix.Unix)
    assert data_root({}) == HOME / ".local" / "share" / "atoll"


def test_on_linux_xdg_data_home_is_followed(plain_env: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(platformdirs, "PlatformDirs", platformdirs.unix.Unix)
    monkeypatch.setenv("XDG_DATA_HOME", "/xdg")
    assert data_root({}) == Path("/xdg/atoll")


def test_on_linux_a_relative_xdg_data_home_is_ignored_as_xdg_says(
    plain_env: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(platformdirs, "PlatformDirs", platformdirs.unix.Unix)
    monkeypatch.setenv("XDG_DATA_HOME", "relative")
    assert data_root({}) == HOME / ".local" / "share" / "atoll"


def test_on_macos_the_default_is_application_support(
    plain_env: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(platformdirs, "PlatformDirs", platformdirs.macos.MacOS)
    assert data_root({}) == HOME / "Library" / "Application Support" / "atoll"


def test_saves_and_settings_live_under_the_one_root(tmp_path: Path) -> None:
    env = {"ATOLL_HOME": str(tmp_path)}
    assert settings_path(env) == tmp_path / "settings.json"
    assert games_dir(data_root(env)) == tmp_path / "games"
    assert new_save_path("kariba", datetime(2025, 1, 2), env).parent == tmp_path / "games"
