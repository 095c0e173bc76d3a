"""The distribution: every package under core/, net/ and plugins/ ships, under its import name."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = {"core": "atoll", "net": "atoll.net", "plugins": "atoll.plugins"}


def packages_on_disk() -> set[str]:
    """Folders with an ``__init__.py``, and the template's data folders (``*.tmpl`` files)."""
    found = set()
    for folder, name in FOLDERS.items():
        for marker in [*(ROOT / folder).rglob("__init__.py"), *(ROOT / folder).rglob("*.tmpl")]:
            parts = marker.parent.relative_to(ROOT / folder).parts
            found.add(".".join((name, *parts)))
    return found


def test_every_package_is_listed_in_pyproject() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    listed = set(config["tool"]["setuptools"]["packages"])
    assert packages_on_disk() == listed


def test_the_folders_map_onto_one_import_root() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert config["tool"]["setuptools"]["package-dir"] == {v: k for k, v in FOLDERS.items()}


def test_importing_atoll_does_not_import_the_network_layer() -> None:
    import subprocess
    import sys

    code = "import atoll, sys; print('atoll.net' in sys.modules, 'zmq' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]
