"""``atoll share`` as a person meets it: what it prints to install from it, and what it says when the
folder is not ready."""

from __future__ import annotations

from pathlib import Path

import pytest

from atoll.cli.cmd_share import install_lines
from atoll.cli.main import main
from tests.share.wheelfiles import make_wheel


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ATOLL_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("HOME", str(tmp_path))
    return tmp_path / "home"


def test_the_pip_line_names_the_index_trusts_its_host_and_installs_atoll_and_the_plugins() -> None:
    lines = install_lines("http://10.0.0.5:8473/simple/", "10.0.0.5", ["atoll", "atoll-dice"])
    assert (
        "    pip install --index-url http://10.0.0.5:8473/simple/ --trusted-host 10.0.0.5 atoll atoll-dice"
        in lines
    )


def test_the_pipx_line_installs_atoll_with_the_plugins_in_its_environment() -> None:
    lines = install_lines("http://10.0.0.5:8473/simple/", "10.0.0.5", ["atoll", "atoll-dice"])
    assert (
        "    pipx install --index-url http://10.0.0.5:8473/simple/ --pip-args=--trusted-host=10.0.0.5"
        " --preinstall atoll-dice atoll"
    ) in lines


def test_serving_without_a_prepared_folder_says_how_to_prepare_it(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["share", "--no-announce", "--bind", "127.0.0.1"]) == 2
    err = capsys.readouterr().err
    assert f"no folder of wheels at {home / 'wheels'}" in err and "atoll share --prepare" in err


def test_serving_a_folder_without_atoll_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    make_wheel(tmp_path, "pluggy-1.7.0-py3-none-any.whl")
    assert main(["share", "--folder", str(tmp_path), "--no-announce", "--bind", "127.0.0.1"]) == 2
    assert "holds no wheel of atoll" in capsys.readouterr().err


def test_choosing_targets_without_prepare_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["share", "--local"]) == 2
    assert "add --prepare" in capsys.readouterr().err
