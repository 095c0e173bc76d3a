"""The layers a reader can see: the contracts in pyproject.toml hold, and the bottom loads alone."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_import_contracts_of_pyproject_hold() -> None:
    lint = Path(sys.executable).parent / "lint-imports"
    done = subprocess.run([str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "0 broken" in done.stdout


def test_importing_the_network_layer_loads_no_engine_and_no_game_api() -> None:
    code = (
        "import sys, atoll.net.envelope, atoll.net.transport, atoll.net.identity, atoll.net.discovery\n"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith('atoll'))))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    loaded = done.stdout.split()
    # atoll.paths and atoll.system are the platform's facts (where data lives, which OS this is),
    # under every layer and importing no other atoll module (a contract in pyproject.toml)
    below = {"atoll", "atoll.paths", "atoll.system"}
    assert all(name in below or name.startswith("atoll.net") for name in loaded), loaded


def test_the_game_api_is_still_imported_from_atoll_itself() -> None:
    import atoll
    from atoll.game import Game

    assert atoll.Game is Game
    for name in atoll.__all__:  # each public name is found where its home says
        assert getattr(atoll, name) is not None, name


def test_the_developer_tools_are_not_in_the_wheel() -> None:
    import tomllib

    packages = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    assert not [p for p in packages if p.startswith("atoll.bench") or "soak" in p]
    assert not (ROOT / "core" / "bench").exists()
    assert not (ROOT / "core" / "table" / "soak.py").exists()
