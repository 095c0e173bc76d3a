"""scripts/new-plugin: the generated plugin installs on its own, shows up in `atoll games`, passes its tests.

The plugin is installed into a throwaway venv that sees the project venv's packages
through a .pth file, never into the project venv (it would show up in every other test).
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import stat
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path

import pytest

import atoll
from atoll.authoring.new_plugin import FILES, TemplateError, check_not_installed, generate, placeholders

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def scratch() -> Iterator[Path]:
    """A temporary folder removed afterwards, even when the test fails."""
    folder = Path(tempfile.mkdtemp(prefix="atoll-new-plugin-"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def run(*command: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PIP_", "VIRTUAL_ENV", "MYPY"))}
    env["PIP_NO_INDEX"] = "1"  # never reach for the network
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return subprocess.run([str(c) for c in command], capture_output=True, text=True, cwd=cwd, env=env,
                          timeout=120)


def sibling_venv(folder: Path) -> Path:
    """A venv without packages of its own that sees the project venv's site-packages; its python."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True, timeout=60)
    python = folder / "bin" / "python"
    purelib = run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").stdout.strip()
    seen = [sysconfig.get_paths()["purelib"]]
    wheel = importlib.util.find_spec("wheel")
    if wheel is not None and wheel.origin is not None:  # `wheel` may sit outside the project venv
        seen.append(str(Path(wheel.origin).parent.parent))
    lines = "".join(f"import site; site.addsitedir({folder!r})\n" for folder in seen)
    Path(purelib, "atoll-project.pth").write_text(lines)
    return python


def can_build_wheels_offline() -> bool:
    """Whether pip can build a wheel without build isolation: setuptools 70.1+, or `wheel` beside it."""
    if importlib.util.find_spec("wheel") is not None:
        return True
    major, minor = (int(part) for part in metadata.version("setuptools").split(".")[:2])
    return (major, minor) >= (70, 1)


@pytest.mark.skipif(
    not can_build_wheels_offline(),
    reason="pip cannot build the plugin offline: the project venv has setuptools older than 70.1 "
           "and no `wheel` package (add `wheel` to the dev extras)",
)
def test_the_generated_plugin_installs_lists_and_passes_its_own_tests(scratch: Path) -> None:
    plugin = scratch / "plugin"
    made = run(sys.executable, "-m", "atoll.authoring.new_plugin", "dice_race", plugin)
    assert made.returncode == 0, made.stderr
    python = sibling_venv(scratch / "venv")

    installed = run(python, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation", plugin)
    assert installed.returncode == 0, installed.stdout + installed.stderr

    listed = run(python, "-m", "atoll.cli.main", "games", "--json")
    assert listed.returncode == 0, listed.stderr
    games = {row["name"]: row for row in json.loads(listed.stdout)}
    assert games["dice_race"]["title"] == "Dice Race"
    assert games["dice_race"]["source"] == "atoll-dice-race"
    assert "cautious" in games["dice_race"]["bots"]

    tested = run(python, "-m", "pytest", "-q", "-p", "no:cacheprovider", plugin / "tests", cwd=plugin)
    assert tested.returncode == 0, tested.stdout + tested.stderr
    assert " passed" in tested.stdout and "failed" not in tested.stdout


def test_atoll_is_installed_where_mypy_can_find_it() -> None:
    """setuptools' default editable mode finds atoll through an import hook that mypy cannot follow;
    scripts/_venv.sh installs it in strict mode, a tree of links under the import names."""
    package = Path(atoll.__file__).parent
    assert package != ROOT / "core", (
        "atoll is installed editable in setuptools' default mode, which mypy cannot follow: install it as "
        "scripts/_venv.sh does (pip install --config-settings editable_mode=strict -e .), or run scripts/test"
    )


@pytest.mark.skipif(
    not can_build_wheels_offline(),
    reason="pip cannot build the plugin offline: the project venv has setuptools older than 70.1 "
           "and no `wheel` package (add `wheel` to the dev extras)",
)
def test_the_generated_plugin_installed_editable_passes_strict_mypy(scratch: Path) -> None:
    """atoll as scripts/_venv.sh installs it and the plugin by `pip install -e`: mypy --strict finds
    both by itself, with no MYPYPATH and no link tree of ours."""
    plugin = scratch / "plugin"
    generate("dice_race", plugin)
    python = sibling_venv(scratch / "venv")
    installed = run(python, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                    "-e", plugin)
    assert installed.returncode == 0, installed.stdout + installed.stderr

    checked = run(python, "-m", "mypy", "--strict", "--cache-dir", scratch / "mypy-cache", "src", "tests",
                  cwd=plugin)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.startswith("Success: no issues found")


def test_the_generated_plugin_passes_the_linter(scratch: Path) -> None:
    generate("dice_race", scratch / "plugin")
    linted = run(ROOT / ".venv" / "bin" / "ruff", "check", "--no-cache", ".", cwd=scratch / "plugin")
    assert linted.returncode == 0, linted.stdout + linted.stderr


def test_every_template_file_is_written_with_no_placeholder_left(tmp_path: Path) -> None:
    written = generate("dice_race", tmp_path / "plugin")
    assert sorted(p.relative_to(tmp_path / "plugin").as_posix() for p in written) == sorted(
        path.format(name="dice_race", package="atoll_dice_race") for path in FILES.values()
    )
    for path in written:
        assert "{{" not in path.read_text(), path


def test_names_become_a_package_a_distribution_a_class_and_a_title() -> None:
    assert placeholders("dice_race") == {
        "{{name}}": "dice_race", "{{package}}": "atoll_dice_race", "{{dist}}": "atoll-dice-race",
        "{{Class}}": "DiceRace", "{{title}}": "Dice Race",
    }


@pytest.mark.parametrize("name", ["DiceRace", "dice-race", "1dice", "_dice", "class", "dice race", ""])
def test_a_name_that_is_not_a_lower_case_identifier_is_refused(tmp_path: Path, name: str) -> None:
    with pytest.raises(TemplateError, match="must be a lower-case Python identifier"):
        generate(name, tmp_path / "plugin")
    assert not (tmp_path / "plugin").exists()


def test_a_folder_that_is_not_empty_is_refused(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(TemplateError, match="is not an empty folder"):
        generate("dice_race", tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def test_an_empty_folder_is_used(tmp_path: Path) -> None:
    generate("dice_race", tmp_path)
    assert (tmp_path / "src" / "atoll_dice_race" / "game.py").is_file()


def test_the_command_reports_a_bad_name_and_fails() -> None:
    done = run(sys.executable, "-m", "atoll.authoring.new_plugin", "Bad-Name", "/nonexistent/plugin")
    assert done.returncode == 2
    assert "new-plugin: game name 'Bad-Name' must be a lower-case Python identifier" in done.stderr


def test_the_script_is_executable_and_runs_the_generator() -> None:
    script = ROOT / "scripts" / "new-plugin"
    assert script.stat().st_mode & stat.S_IXUSR
    assert "-m atoll.authoring.new_plugin" in script.read_text()


def test_a_name_an_installed_game_has_is_refused_in_one_line(tmp_path: Path) -> None:
    """Issue 30: a plugin named `kariba`, once installed, took the built-in Kariba's place."""
    done = run(sys.executable, "-m", "atoll.authoring.new_plugin", "kariba", tmp_path / "plugin")
    assert done.returncode == 2
    assert done.stderr == (
        "new-plugin: a game named 'kariba' is installed already (atoll games lists it); choose another "
        "name, as two games of one name both stop loading\n"
    )
    assert not (tmp_path / "plugin").exists()


def test_atoll_new_plugin_refuses_an_installed_name_in_any_case(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from atoll.cli.main import main

    assert main(["new-plugin", "kiribati", str(tmp_path / "plugin")]) == 2
    assert "a game named 'kiribati' is installed already" in capsys.readouterr().err
    with pytest.raises(TemplateError, match="a game named 'Survival' is installed already"):
        check_not_installed("survival", ["Survival"])
    assert not (tmp_path / "plugin").exists()
