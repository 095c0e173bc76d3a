"""The command line as a user runs it: `atoll games`, `replay`, `saves`, `--version`, and clear errors."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from atoll.cli.common import atoll_command
from atoll.cli.main import COMMANDS
from atoll.engine import LocalResolver, Match, run, save
from atoll.registry import load_registry


def atoll(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "atoll.cli.main", *args], capture_output=True, text=True, timeout=120
    )


def test_games_json_lists_every_installed_game_with_the_promised_fields() -> None:
    out = atoll("games", "--json")
    assert out.returncode == 0, out.stderr
    rows = {row["name"]: row for row in json.loads(out.stdout)}
    assert set(rows) == set(load_registry().games)
    kariba = rows["kariba"]
    assert kariba["title"] == "Kariba"
    assert (kariba["min_seats"], kariba["max_seats"]) == (2, 4)
    assert kariba["variants"] == ["standard", "experienced"]
    assert kariba["source"] == "atoll"


def test_games_prints_one_line_a_game() -> None:
    out = atoll("games")
    assert out.returncode == 0, out.stderr
    assert any(line.startswith("kariba") for line in out.stdout.splitlines())


def test_replay_prints_the_final_result(tmp_path: Path) -> None:
    registry = load_registry()
    game = registry.game("kariba")
    match = Match(game, game.configure(2), LocalResolver(4))
    bots = [registry.bot("random", "kariba").make(game, seat, seat) for seat in range(2)]
    run(match, bots)
    path = tmp_path / "kariba.jsonl"
    save(match, path, seed=4, faces=match.resolver.faces())  # type: ignore[attr-defined]
    out = atoll("replay", str(path))
    assert out.returncode == 0, out.stderr
    assert "every step checks" in out.stdout
    assert "winner:" in out.stdout


def test_replay_of_a_corrupt_file_fails_with_a_reason(tmp_path: Path) -> None:
    path = tmp_path / "broken.jsonl"
    path.write_text("not json\n")
    out = atoll("replay", str(path))
    assert out.returncode == 2
    assert "not JSON" in out.stderr


@pytest.mark.parametrize("command", ["games", "replay", "saves", "play"])
def test_every_command_has_help(command: str) -> None:
    out = atoll(command, "--help")
    assert out.returncode == 0 and "usage:" in out.stdout


def test_version_prints_the_installed_version() -> None:
    out = atoll("--version")
    assert out.returncode == 0
    assert out.stdout.startswith("atoll ") and out.stdout.split()[1][0].isdigit()


@pytest.mark.parametrize(
    ("content", "problem"),
    [(b"\x00\x01binary\x00\n", ":1: binary data, not a saved game"),
     (b'{"format": "atoll-game", "version": 1}\n{"seat": 0', ":2: the file is cut short")],
    ids=["binary", "truncated"],
)
def test_a_bad_save_is_one_line_without_a_traceback(content: bytes, problem: str, tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(content)
    out = atoll("replay", str(path))
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
    assert problem in out.stderr


def test_game_and_variant_names_are_read_in_any_case(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "atoll.cli.main", "play", "KARIBA", "--variant", "Experienced", "--seed", "1"],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120,
        env={**os.environ, "ATOLL_HOME": str(tmp_path / "atoll")},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "Kariba, 2 seats, variant experienced; you are player 1"


def test_saves_lists_each_saved_game_and_how_to_go_on(tmp_path: Path) -> None:
    registry = load_registry()
    game = registry.game("kariba")
    match = Match(game, game.configure(2), LocalResolver(4))
    folder = tmp_path / "atoll" / "games"
    folder.mkdir(parents=True)
    save(match, folder / "kariba-1.jsonl", seed=4, faces={})
    out = subprocess.run([sys.executable, "-m", "atoll.cli.main", "saves"], capture_output=True, text=True,
                         timeout=120, env={**os.environ, "ATOLL_HOME": str(tmp_path / "atoll")})
    assert out.returncode == 0, out.stderr
    line = out.stdout.splitlines()[0]
    assert "kariba" in line and "2 seats" in line and "unfinished" in line
    assert f"play --resume {folder / 'kariba-1.jsonl'}" in out.stdout


def test_a_printed_command_is_the_full_path_when_atoll_is_not_on_the_path(tmp_path: Path) -> None:
    program = tmp_path / "venv" / "bin" / "atoll"
    program.parent.mkdir(parents=True)
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    assert atoll_command(str(program), {"PATH": "/usr/bin"}) == str(program)
    assert atoll_command(str(program), {"PATH": str(program.parent)}) == "atoll"


def test_an_edited_save_is_named_with_its_file_and_line(tmp_path: Path) -> None:
    registry = load_registry()
    game = registry.game("kariba")
    match = Match(game, game.configure(2), LocalResolver(4))
    bots = [registry.bot("random", "kariba").make(game, seat, seat) for seat in range(2)]
    run(match, bots)
    path = tmp_path / "edited.jsonl"
    save(match, path, seed=4, faces=match.resolver.faces())  # type: ignore[attr-defined]
    lines = path.read_text().splitlines()
    number = next(n for n, line in enumerate(lines, 1) if '"action"' in line)
    lines[number - 1] = lines[number - 1].replace('"seat":0', '"seat":1')  # out of turn now
    path.write_text("\n".join(lines) + "\n")
    out = atoll("replay", str(path))
    assert out.returncode == 2
    assert out.stderr.startswith(f"atoll replay: {path}:{number}: ") and out.stderr.count("\n") == 1


def test_help_lists_every_command_with_its_own_summary() -> None:
    out = atoll("--help")
    assert out.returncode == 0, out.stderr
    listed = " ".join(out.stdout.split())
    for name, command in COMMANDS.items():
        module = importlib.import_module(command.module)
        assert command.summary == module.HELP, f"COMMANDS[{name!r}] no longer matches its module's HELP"
        assert f"{name} {' '.join(module.HELP.split())}" in listed


def test_help_and_games_load_no_other_command_and_no_terminal_or_network_library() -> None:
    """The quick start of issue 16: the list of commands comes from main.py alone."""
    probe = (
        "import sys\nfrom atoll.cli.main import main\n"
        "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
        "heavy = ('prompt_toolkit', 'zmq', 'nacl', 'rbcl', 'zeroconf', 'atoll.cli.cmd_')\n"
        "print(sorted({m for m in sys.modules if m.startswith(heavy)}), file=sys.stderr)\n"
    )
    for args, own in ((["--help"], []), (["games"], ["atoll.cli.cmd_games"])):
        out = subprocess.run(
            [sys.executable, "-c", probe, *args], capture_output=True, text=True, timeout=120
        )
        assert out.stderr.strip().splitlines()[-1] == repr(own), (args, out.stderr)
