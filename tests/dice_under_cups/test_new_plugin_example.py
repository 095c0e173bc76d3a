"""scripts/new-plugin --example dice-under-cups: a Liar's Dice plugin of your own, which passes its own
tests, installs, and plays at a table of separate `atoll host` / bot processes on loopback.

The plugin is installed with ``pip install --target`` into a throwaway folder put on ``PYTHONPATH``
of the processes the test starts (never into the project venv, where every other test would see it):
that folder holds the package and its ``.dist-info`` with the ``atoll.games`` entry point, which is
all ``atoll host`` (and the bot processes it starts, which inherit the environment) needs to find it.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from atoll.authoring.new_plugin import EXAMPLES, TemplateError, generate

ROOT = Path(__file__).resolve().parent.parent.parent


def clean_env(**more: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PIP_", "VIRTUAL_ENV"))}
    env.update(PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1", **more)
    return env


def run(*command: str | Path, cwd: Path | None = None, timeout: float = 180,
        **env: str) -> subprocess.CompletedProcess[str]:
    """Run ``command`` to its end (killed with its whole process group if it outlives ``timeout``)."""
    with subprocess.Popen([str(c) for c in command], cwd=cwd, env=clean_env(**env), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, start_new_session=True) as process:
        try:
            out, err = process.communicate(timeout=timeout)
        finally:
            if process.poll() is None:
                os.killpg(process.pid, 9)  # a host and the bots it started
                process.wait()
    return subprocess.CompletedProcess(command, process.returncode, out, err)


def test_the_example_is_renamed_after_the_new_plugin(tmp_path: Path) -> None:
    written = generate("liars_dice", tmp_path / "plugin", "dice-under-cups")
    expected = [path.format(name="liars_dice", package="atoll_liars_dice")
                for path in EXAMPLES["dice-under-cups"][1].values()]
    assert sorted(p.relative_to(tmp_path / "plugin").as_posix() for p in written) == sorted(expected)
    for path in written:
        text = path.read_text()
        for leftover in ("dice_under_cups", "DiceUnderCups", "Dice Under Cups", "{{name}}", "{{package}}"):
            assert leftover not in text, (path, leftover)
    game = (tmp_path / "plugin" / "src" / "atoll_liars_dice" / "game.py").read_text()
    assert 'name="liars_dice"' in game and "class LiarsDice(Game)" in game and "to=seat" in game


def test_an_unknown_example_is_refused_naming_the_examples(tmp_path: Path) -> None:
    with pytest.raises(TemplateError, match="dice-under-cups"):
        generate("liars_dice", tmp_path / "plugin", "poker")
    assert not (tmp_path / "plugin").exists()


def test_the_example_plugin_passes_the_linter_and_its_own_tests(tmp_path: Path) -> None:
    plugin = tmp_path / "plugin"
    made = run(sys.executable, "-m", "atoll.authoring.new_plugin", "--example", "dice-under-cups",
               "liars_dice", plugin)
    assert made.returncode == 0, made.stderr
    linted = run(ROOT / ".venv" / "bin" / "ruff", "check", "--no-cache", ".", cwd=plugin)
    assert linted.returncode == 0, linted.stdout + linted.stderr
    tested = run(sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", "tests",
                 cwd=plugin, PYTHONPATH=str(plugin / "src"))
    assert tested.returncode == 0, tested.stdout + tested.stderr
    assert " passed" in tested.stdout and "failed" not in tested.stdout


def can_build_offline() -> bool:
    from importlib import metadata

    major, minor = (int(part) for part in metadata.version("setuptools").split(".")[:2])
    return importlib.util.find_spec("wheel") is not None or (major, minor) >= (70, 1)


@pytest.mark.skipif(not can_build_offline(), reason="pip cannot build the plugin offline (setuptools < 70.1)")
def test_the_installed_example_plays_at_a_loopback_table_of_processes_and_audits_clean(
    tmp_path: Path,
) -> None:
    plugin, site, home = tmp_path / "plugin", tmp_path / "site", tmp_path / "home"
    generate("liars_dice", plugin, "dice-under-cups")
    installed = run(sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                    "--target", site, plugin)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    env = {"PYTHONPATH": str(site), "ATOLL_HOME": str(home)}
    hosted = run(sys.executable, "-m", "atoll.cli.main", "host", "liars_dice", "--variant", "short",
                 "--seats", "3", "--bots", "3", "--bot-kind", "random", "--headless", "--bind", "127.0.0.1",
                 "--no-announce", "--quiet", timeout=240, **env)
    assert hosted.returncode == 0, hosted.stderr[-2000:]
    logs = sorted(home.rglob("log.jsonl"))
    assert len(logs) == 4  # the host's copy and one per bot peer
    assert len({log.read_bytes() for log in logs}) == 1
    audited = run(sys.executable, "-m", "atoll.cli.main", "audit", logs[0], **env)
    assert audited.returncode == 0, audited.stdout + audited.stderr
    assert "internally consistent" in audited.stdout
