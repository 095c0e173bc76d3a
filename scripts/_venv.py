"""Make .venv if needed and install atoll into it, on Windows, macOS and Linux alike, with no shell.

``scripts/play.py`` and ``scripts/test.py`` import it; the bash scripts reach it through
``scripts/_venv.sh``. Run alone: ``python scripts/_venv.py [EXTRAS]`` (EXTRAS like ``dev``).

atoll is installed editable in setuptools' strict mode: .venv sees a tree of links to the files of
core/, net/ and plugins/ under their import names, which mypy follows (it cannot follow the import
hook of the default mode; docs/decisions/0003-typed-installs.md). The install is redone only when
pyproject.toml changed (a stamp file names its hash); a module added or removed needs new links, so
the list of files is stamped too and a changed list re-links (a second or two).
"""

from __future__ import annotations

import compileall
import hashlib
import os
import platform
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
#: The folders whose files the editable install links, and the kinds of file it links.
LINKED = ("core", "net", "plugins")
LINKED_SUFFIXES = (".py", ".tmpl")


def venv_program(name: str, venv: Path = VENV) -> Path:
    """A program in the venv: ``Scripts\\NAME.exe`` on Windows, ``bin/NAME`` elsewhere."""
    if os.name == "nt":
        return venv / "Scripts" / f"{name}.exe"
    return venv / "bin" / name


def ensure_venv(extras: str = "") -> Path:
    """Make the venv and install atoll (with ``extras``) if needed; returns the venv's Python."""
    if sys.version_info < (3, 11):  # noqa: UP036 (this script may be run by an older Python)
        sys.exit(f"atoll needs Python 3.11 or newer; {sys.executable} is {platform.python_version()} "
                 "(run this script with a newer one, e.g. `py -3.12` on Windows or PYTHON=python3.12)")
    python = venv_program("python")
    if not python.exists():
        print(f"making {VENV} ...", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    config = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()[:16]
    stamp = VENV / f".installed-{config}{'-' + extras if extras else ''}"
    linked = VENV / f".linked-{_files_hash()}"
    # an install with extras serves a plain request too
    if not stamp.exists() and (extras or not list(VENV.glob(f".installed-{config}*"))):
        print(f"installing atoll{f' with [{extras}]' if extras else ''} into {VENV} "
              "(first time takes a minute) ...", file=sys.stderr)
        _pip(python, "--upgrade", "pip")
        _pip(python, "--config-settings", "editable_mode=strict",
             "-e", f"{ROOT}[{extras}]" if extras else str(ROOT))
        _restamp(stamp, linked)
    elif not linked.exists() or _hard_linked():
        if not _hard_linked():
            print(f"linking atoll's modules into {VENV} (a module was added or removed) ...", file=sys.stderr)
        # the dependencies are in place, only the links change: no index, and no build environment
        # unless the venv's own setuptools is too old to build atoll
        offline = ("--no-deps", "--no-index", "--no-build-isolation")
        if not _pip(python, *offline, "--config-settings", "editable_mode=strict", "-e", str(ROOT),
                    show_failure=False):
            _pip(python, "--no-deps", "--config-settings", "editable_mode=strict", "-e", str(ROOT))
        _restamp(None, linked)
    # Byte-compile atoll's modules, as pip does for a regular install: where PYTHONDONTWRITEBYTECODE
    # is set, Python never caches them itself and compiles every module again at each start.
    for built in (ROOT / "build").glob("__editable__.atoll-*"):
        if built.is_dir() and not compileall.compile_dir(built, quiet=1):
            print("note: some of atoll's modules did not byte-compile; Python will say why on import",
                  file=sys.stderr)
    return python


def _hard_linked() -> bool:
    """Whether the link tree is of hard links, as setuptools makes it where symbolic links are not
    allowed (Windows without developer mode). An editor that saves by writing a new file leaves a hard
    link on the old text, so such a tree is made again at every run (a second or two)."""
    return any(
        init.exists() and not init.is_symlink()
        for init in (ROOT / "build").glob("__editable__.atoll-*/atoll/__init__.py")
    )


def _files_hash() -> str:
    """A hash of the list of files the editable install links (a file added or removed changes it)."""
    names = sorted(
        path.relative_to(ROOT).as_posix()
        for folder in LINKED
        for path in (ROOT / folder).rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
        and (path.suffix in LINKED_SUFFIXES or path.name == "py.typed")
    )
    return hashlib.sha256("".join(f"{name}\n" for name in names).encode()).hexdigest()[:16]


def _restamp(stamp: Path | None, linked: Path) -> None:
    for old in [*VENV.glob(".linked-*"), *(VENV.glob(".installed-*") if stamp else [])]:
        old.unlink()
    for new in (stamp, linked):
        if new is not None:
            new.touch()


def _pip(python: Path, *args: str, show_failure: bool = True) -> bool:
    """``pip install ARGS`` quietly (its output is shown only when it fails); exits on a failure
    unless ``show_failure`` is False, when it returns False instead."""
    done = subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                           *args], capture_output=True, text=True)
    if done.returncode == 0:
        return True
    if not show_failure:
        return False
    sys.stderr.write(done.stdout + done.stderr)
    sys.exit(f"installing atoll into {VENV} failed (pip's words above)")


if __name__ == "__main__":
    ensure_venv(sys.argv[1] if len(sys.argv) > 1 else "")
