"""The package as a publisher uploads it and a player installs it: ``python -m build`` makes an sdist and a
wheel; the wheel, installed into a fresh venv outside the source tree, runs the CLI, a headless loopback
table and its audit, and starts a plugin; the sdist holds the whole suite, and a part of it runs from
the unpacked sdist against that install (README, "Publishing").

The fresh venv installs atoll's dependencies from the package index (or pip's cache).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from _venv import venv_program

from atoll.cli.main import version

ROOT = Path(__file__).resolve().parent.parent
#: The part of the suite run from the unpacked sdist: quick, and needing nothing beyond pytest and
#: hypothesis (the whole suite also wants tmux, the simulated LAN, OpenSpiel and minutes).
SDIST_SUBSET = ("tests/engine", "tests/test_paths.py", "tests/test_registry.py")


@dataclass(frozen=True)
class Installed:
    """The built distributions, and a fresh venv outside the tree with the wheel installed."""

    wheel: Path
    sdist: Path
    venv: Path
    work: Path

    def run(self, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        """A program of the venv, in a folder outside the tree, with its own ATOLL_HOME and HOME."""
        env = {**os.environ, "ATOLL_HOME": str(self.work / "atoll-home"), "HOME": str(self.work / "home")}
        env.pop("PYTHONPATH", None)
        program = str(venv_program(args[0], self.venv))
        return subprocess.run([program, *args[1:]], cwd=self.work, env=env, capture_output=True, text=True,
                              stdin=subprocess.DEVNULL, timeout=timeout)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Installed]:
    work = tmp_path_factory.mktemp("distribution")
    dist = work / "dist"
    # --no-isolation: the dev venv's setuptools builds it, with no index needed for that step
    command = [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(dist), str(ROOT)]
    built = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stdout[-2000:] + built.stderr[-2000:]
    [wheel], [sdist] = dist.glob("*.whl"), dist.glob("*.tar.gz")
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    pip = subprocess.run(
        [str(venv_program("python", venv)), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
         str(wheel), "pytest", "hypothesis", "pytest-timeout"],
        capture_output=True, text=True, timeout=600,
    )
    assert pip.returncode == 0, pip.stderr[-3000:]
    yield Installed(wheel, sdist, venv, work)


def test_the_license_is_in_the_repository_the_wheel_and_the_sdist(installed: Installed) -> None:
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License")
    with zipfile.ZipFile(installed.wheel) as wheel:
        assert wheel.read(f"atoll-{version()}.dist-info/licenses/LICENSE").decode() == text
    with tarfile.open(installed.sdist) as sdist:
        member = sdist.extractfile(f"atoll-{version()}/LICENSE")
        assert member is not None and member.read().decode() == text


def test_the_metadata_names_the_project_urls_and_the_three_platforms(installed: Installed) -> None:
    with zipfile.ZipFile(installed.wheel) as wheel:
        metadata = wheel.read(f"atoll-{version()}.dist-info/METADATA").decode()
    assert "Project-URL: Source, " in metadata and "Project-URL: Issues, " in metadata
    for system in ("Microsoft :: Windows", "MacOS", "POSIX :: Linux"):
        assert f"Classifier: Operating System :: {system}" in metadata
    assert "License-Expression: MIT" in metadata


def test_the_sdist_holds_the_whole_suite(installed: Installed) -> None:
    with tarfile.open(installed.sdist) as sdist:
        shipped = {name.split("/", 1)[1] for name in sdist.getnames() if "/tests/" in name}
    on_disk = {
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "tests").rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
    }
    assert on_disk <= shipped
    assert "tests/conftest.py" in shipped


def test_python_m_atoll_is_the_cli(installed: Installed) -> None:
    done = installed.run("python", "-m", "atoll", "--version")
    assert done.stdout.strip() == f"atoll {version()}", done.stderr


def test_atoll_games_lists_the_built_in_games(installed: Installed) -> None:
    done = installed.run("atoll", "games")
    assert done.returncode == 0, done.stderr
    for game in ("kariba", "kiribati", "survival", "animals_on_board"):
        assert game in done.stdout


def test_a_headless_loopback_table_plays_to_the_end_and_its_log_audits_clean(installed: Installed) -> None:
    done = installed.run("atoll", "host", "kariba", "--seats", "2", "--bots", "2", "--bot-kind", "random",
                         "--headless", "--bind", "127.0.0.1", "--no-announce", "--quiet", timeout=240)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    [log] = (installed.work / "atoll-home" / "tables").glob("*/log.jsonl")
    audit = installed.run("atoll", "audit", str(log))
    assert audit.returncode == 0, audit.stdout + audit.stderr


def test_an_author_with_only_the_wheel_starts_a_plugin(installed: Installed) -> None:
    done = installed.run("atoll", "new-plugin", "dice_race", str(installed.work / "atoll-dice-race"))
    assert done.returncode == 0, done.stderr
    assert (installed.work / "atoll-dice-race" / "src" / "atoll_dice_race" / "game.py").is_file()
    assert "next: pip install -e" in done.stdout


def test_a_part_of_the_suite_runs_from_the_unpacked_sdist(installed: Installed) -> None:
    with tarfile.open(installed.sdist) as sdist:
        sdist.extractall(installed.work / "unpacked", filter="data")
    source = installed.work / "unpacked" / f"atoll-{version()}"
    env = {**os.environ, "ATOLL_HOME": str(installed.work / "sdist-home")}
    env.pop("PYTHONPATH", None)
    done = subprocess.run(
        [str(venv_program("python", installed.venv)), "-m", "pytest", "-q", "-p", "no:cacheprovider",
         *SDIST_SUBSET],
        cwd=source, env=env, capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert " passed" in done.stdout.splitlines()[-1]
