"""What a prepared folder is made of: where each shared distribution's wheel comes from, which
requirements are downloaded, and the pip options for each kind of laptop."""

from __future__ import annotations

import importlib.metadata
import json
import re
from pathlib import Path

import pytest

from atoll.errors import AtollError
from atoll.registry import ENTRY_POINT_GROUP
from atoll.share.prepare import (
    PLUGIN_GROUP,
    Shared,
    Source,
    SourceKind,
    check_installs,
    dependencies,
    installed,
    source_of,
)
from atoll.share.targets import PYTHONS, TARGETS, binary_options, chosen_targets, manylinux
from tests.share.wheelfiles import make_wheel


def test_a_distribution_installed_from_an_index_is_downloaded_again_at_its_version() -> None:
    assert source_of("atoll-dice", "1.2", None) == Source(SourceKind.DOWNLOAD, "atoll-dice==1.2")


def test_a_distribution_installed_from_a_checkout_is_built_from_it(tmp_path: Path) -> None:
    direct = json.dumps({"url": tmp_path.as_uri(), "dir_info": {"editable": True}})
    assert source_of("atoll", "0.1.0", direct) == Source(SourceKind.BUILD, str(tmp_path))


def test_a_distribution_installed_from_a_wheel_file_still_there_is_copied(tmp_path: Path) -> None:
    wheel = tmp_path / "atoll_dice-1.2-py3-none-any.whl"
    wheel.write_bytes(b"")
    direct = json.dumps({"url": wheel.as_uri(), "archive_info": {}})
    assert source_of("atoll-dice", "1.2", direct) == Source(SourceKind.COPY, str(wheel))


def test_a_distribution_installed_from_version_control_is_built_from_its_commit() -> None:
    direct = json.dumps(
        {"url": "https://example.org/dice.git", "vcs_info": {"vcs": "git", "commit_id": "abc123"}}
    )
    assert source_of("atoll-dice", "1.2", direct) == Source(
        SourceKind.BUILD, "atoll-dice @ git+https://example.org/dice.git@abc123"
    )


def test_requirements_on_shared_distributions_and_of_extras_are_not_downloaded() -> None:
    atoll = Shared("atoll", "0.1", Source(SourceKind.BUILD, "."), ("pyzmq>=25", 'pytest>=8; extra == "dev"'))
    plugin = Shared(
        "Atoll_Dice", "1.2", Source(SourceKind.DOWNLOAD, "x"), ("atoll>=0.1", "pyzmq>=25", "numpy")
    )
    assert dependencies([atoll, plugin]) == ["pyzmq>=25", "numpy"]


def test_atolls_requirements_hold_for_every_platform_and_python() -> None:
    # pip evaluates environment markers for the machine that prepares, not for the target
    # (decision 0014): a requirement that holds only on some platforms needs prepare to handle it
    requires = importlib.metadata.requires("atoll") or []
    marked = [line for line in requires if ";" in line and not re.search(r";\s*extra\s*==\s*\"\w+\"$", line)]
    assert marked == []


def test_a_target_asks_pip_for_cpython_wheels_of_its_platforms_and_python() -> None:
    windows = chosen_targets(["windows"])[0]
    assert binary_options(windows, "3.13") == [
        "--only-binary=:all:", "--implementation", "cp", "--platform", "win_amd64", "--python-version", "3.13"
    ]  # fmt: skip


def test_this_machine_alone_asks_pip_for_wheels_only() -> None:
    assert binary_options(None, None) == ["--only-binary=:all:"]


def test_linux_targets_take_every_glibc_from_2_17_to_2_28() -> None:
    tags = manylinux("x86_64")
    assert tags[0] == "manylinux_2_28_x86_64" and "manylinux_2_17_x86_64" in tags
    assert "manylinux2014_x86_64" in tags and "manylinux_2_16_x86_64" not in tags


def test_every_system_has_targets_and_every_supported_python_is_prepared() -> None:
    assert {t.system for t in TARGETS} == {"windows", "macos", "linux"}
    assert PYTHONS == ("3.11", "3.12", "3.13", "3.14")
    assert [t.label for t in chosen_targets(["macos"])] == ["macOS arm64", "macOS x86-64"]


def test_an_unknown_system_is_refused_with_the_known_ones() -> None:
    with pytest.raises(ValueError, match="windows, macos, linux"):
        chosen_targets(["beos"])


def test_the_plugins_shared_are_those_the_registry_loads() -> None:
    assert PLUGIN_GROUP == ENTRY_POINT_GROUP


def test_a_folder_that_installs_atoll_alone_passes_the_check(tmp_path: Path) -> None:
    make_wheel(tmp_path, "atoll_demo-1.0-py3-none-any.whl", ">=3.8", ("helper>=1",))
    make_wheel(tmp_path, "helper-1.1-py3-none-any.whl", ">=3.8")
    check_installs(tmp_path, binary_options(None, None), ["atoll-demo"])


def test_a_folder_missing_a_dependency_is_refused_before_the_party_naming_it(tmp_path: Path) -> None:
    make_wheel(tmp_path, "atoll_demo-1.0-py3-none-any.whl", ">=3.8", ("helper>=1",))
    with pytest.raises(AtollError, match="helper"):
        check_installs(tmp_path, binary_options(None, None), ["atoll-demo"])


def test_a_folder_without_wheels_for_a_python_is_refused(tmp_path: Path) -> None:
    make_wheel(tmp_path, "atoll_demo-1.0-cp311-cp311-win_amd64.whl", ">=3.8")
    with pytest.raises(AtollError, match="atoll-demo"):
        check_installs(tmp_path, binary_options(TARGETS[0], "3.12"), ["atoll-demo"])


def test_an_egg_info_in_a_checkout_does_not_stand_in_for_the_installed_atoll(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # setuptools leaves NAME.egg-info in a checkout; Python run from there finds it first
    egg = tmp_path / "atoll.egg-info"
    egg.mkdir()
    (egg / "PKG-INFO").write_text("Metadata-Version: 2.1\nName: atoll\nVersion: 9.9\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert importlib.metadata.version("atoll") == "9.9"
    assert installed("atoll").read_text("INSTALLER") is not None
