"""Filling a folder, while online, with every wheel a laptop needs to install atoll and the games
installed here: atoll's own wheel and each third-party game plugin's (built from where it was
installed from, or downloaded from its index), and their dependencies' for every target.

pip does the work (``pip wheel`` and ``pip download --only-binary=:all: --platform ...
--python-version ...``), with this machine's pip configuration. pip evaluates environment markers
for the machine that runs it, not the target (docs/decisions/0014-sharing-wheels.md).
"""

from __future__ import annotations

import enum
import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from atoll.errors import AtollError
from atoll.share.targets import Target, binary_options
from atoll.share.wheels import normalize

#: The entry-point group game plugins register in: :data:`atoll.registry.ENTRY_POINT_GROUP`, not
#: imported, as the registry loads the engine, which sharing wheels never needs.
PLUGIN_GROUP = "atoll.games"
#: Shared beside atoll's dependencies: pipx upgrades the pip of its shared environment from the
#: index it is given, and fails to install anything when that index has no pip.
ALSO_SHARED = ("pip",)
_NAME = re.compile(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)")
_EXTRA_ONLY = re.compile(r";.*\bextra\s*==")


class SourceKind(enum.Enum):
    """Where the wheel of a distribution of ours comes from."""

    #: Built with ``pip wheel`` from a folder, an archive or a version-control URL it was installed from.
    BUILD = "build"
    #: The wheel file it was installed from, copied.
    COPY = "copy"
    #: Downloaded from the package index it came from, for each target.
    DOWNLOAD = "download"


@dataclass(frozen=True)
class Source:
    """How to get one distribution's wheel: the kind, and what pip (or the copy) is given."""

    kind: SourceKind
    #: A folder or file path, a ``name @ url`` requirement, or ``name==version``.
    spec: str


@dataclass(frozen=True)
class Shared:
    """A distribution the folder shares as itself (atoll, or a game plugin), not as a dependency."""

    name: str
    version: str
    source: Source
    #: Its ``Requires-Dist`` lines, as written.
    requires: tuple[str, ...]


def source_of(name: str, version: str, direct_url: str | None) -> Source:
    """Where the wheel of ``name`` comes from, given its ``direct_url.json`` (PEP 610) if any.

    Installed from an index (no ``direct_url.json``): downloaded again from it. From a local wheel
    that is still there: copied. From anything else (a checkout, editable or not, an archive, a
    version-control URL): built.
    """
    if direct_url is None:
        return Source(SourceKind.DOWNLOAD, f"{name}=={version}")
    data = json.loads(direct_url)
    url = str(data.get("url", ""))
    parts = urllib.parse.urlsplit(url)
    if parts.scheme == "file":
        path = urllib.request.url2pathname(parts.path)
        if path.endswith(".whl") and Path(path).is_file():
            return Source(SourceKind.COPY, path)
        return Source(SourceKind.BUILD, path)
    vcs = data.get("vcs_info")
    if isinstance(vcs, dict) and vcs.get("vcs") and vcs.get("commit_id"):
        return Source(SourceKind.BUILD, f"{name} @ {vcs['vcs']}+{url}@{vcs['commit_id']}")
    return Source(SourceKind.BUILD, f"{name} @ {url}")


def shared_distributions() -> list[Shared]:
    """atoll and every installed distribution that provides a game plugin (``atoll.games``)."""
    names = {"atoll": "atoll"}
    for entry in importlib.metadata.entry_points(group=PLUGIN_GROUP):
        if entry.dist is not None:
            names.setdefault(normalize(entry.dist.name), entry.dist.name)
    shared = []
    for name in names.values():
        dist = installed(name)
        version = dist.version
        source = source_of(dist.metadata["Name"], version, dist.read_text("direct_url.json"))
        shared.append(Shared(dist.metadata["Name"], version, source, tuple(dist.requires or ())))
    return shared


def installed(name: str) -> importlib.metadata.Distribution:
    """The distribution ``name`` as an installer put it on the path, not a setuptools ``.egg-info``
    in a checkout that stands before it when Python runs from the checkout (an editable install
    writes one there); that one has no record of where the code came from."""
    found = list(importlib.metadata.distributions(name=name))
    if not found:
        raise AtollError(f"{name} is not installed, so it cannot be shared: install it (pip install {name})")
    return next((dist for dist in found if dist.read_text("INSTALLER") is not None), found[0])


def dependencies(shared: Sequence[Shared]) -> list[str]:
    """The requirements the shared distributions have on others (not on each other), without those
    of extras, each once, in order."""
    ours = {normalize(s.name) for s in shared}
    wanted: list[str] = []
    for line in (line for s in shared for line in s.requires):
        match = _NAME.match(line)
        if match and normalize(match[1]) not in ours and not _EXTRA_ONLY.search(line) and line not in wanted:
            wanted.append(line)
    return wanted


#: One prepared kind of laptop: a target and a Python, or (None, None) for this machine alone.
Goal = tuple[Target | None, str | None]
Report = Callable[[str], None]


def prepare(folder: Path, goals: Sequence[Goal], report: Report) -> list[Path]:
    """Put into ``folder`` (made if missing) the wheels of atoll, the game plugins and their
    dependencies for every goal; wheels already there are kept. Returns the wheels now in it."""
    folder.mkdir(parents=True, exist_ok=True)
    shared = shared_distributions()
    for item in shared:
        if item.source.kind is SourceKind.COPY:
            _copy(Path(item.source.spec), folder)
            report(f"{item.name} {item.version}: copied {Path(item.source.spec).name}")
        elif item.source.kind is SourceKind.BUILD:
            report(f"{item.name} {item.version}: building its wheel from {item.source.spec}")
            _build(item.source.spec, folder)
    downloaded = [s.source.spec for s in shared if s.source.kind is SourceKind.DOWNLOAD]
    needed = [*dependencies(shared), *ALSO_SHARED]
    for target, python in goals:
        options = binary_options(target, python)
        count = len(needed) + len(downloaded)
        report(f"{_label(target, python)}: downloading {count} requirements and theirs")
        if downloaded:
            _pip("download", "--no-deps", "--dest", str(folder), *options, *downloaded)
        _pip("download", "--dest", str(folder), *options, *needed)
    names = [s.name for s in shared]
    for target, python in goals:
        try:
            check_installs(folder, binary_options(target, python), names)
        except AtollError as exc:
            raise AtollError(f"for {_label(target, python)}: {exc}") from None
    report(f"checked: the folder alone installs {' '.join(names)} on each of them")
    return sorted(folder.glob("*.whl"))


def _label(target: Target | None, python: str | None) -> str:
    return "this machine" if target is None else f"{target.label}, Python {python}"


def check_installs(folder: Path, options: list[str], names: list[str]) -> None:
    """Resolve ``names`` from ``folder`` alone with ``options``, as a guest's pip will, or fail
    saying what is missing. pip's settings are left out, so no other index fills a gap."""
    with tempfile.TemporaryDirectory() as target:
        _pip(
            "install", "--dry-run", "--ignore-installed", "--no-index", "--find-links", str(folder),
            "--target", target, *options, *names, isolated=True,
        )  # fmt: skip


def _build(spec: str, folder: Path) -> None:
    """Build the wheel of ``spec`` into ``folder``, leaving a checkout as it was.

    setuptools writes ``NAME.egg-info`` and ``build/lib`` into the checkout: the first would stand in
    for the installed distribution when Python runs from there, and a module left in the second
    would go into the next wheel built after it was deleted. What the build made is removed.
    """
    tree = Path(spec)
    places = [tree, tree / "build"] if tree.is_dir() else []
    before = {place: _entries(place) for place in places}
    try:
        _pip("wheel", "--no-deps", "--wheel-dir", str(folder), spec)
    finally:
        for place in places:
            for made in _entries(place) - before[place]:
                if place != tree or made.name == "build" or made.name.endswith(".egg-info"):
                    shutil.rmtree(made, ignore_errors=True)


def _entries(folder: Path) -> set[Path]:
    return set(folder.iterdir()) if folder.is_dir() else set()


def _copy(wheel: Path, folder: Path) -> None:
    target = folder / wheel.name
    if target.resolve() != wheel.resolve():
        target.write_bytes(wheel.read_bytes())


def _pip(*args: str, isolated: bool = False) -> None:
    """Run this Python's pip; ``isolated`` leaves out every pip setting of the user and machine."""
    command = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input", "-q", *args]
    env = None
    if isolated:
        env = {key: value for key, value in os.environ.items() if not key.startswith("PIP_")}
        env["PIP_CONFIG_FILE"] = os.devnull
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        lines = done.stderr.splitlines()
        errors = [line for line in lines if line.startswith("ERROR")] or lines
        hint = "a wheel is missing from the folder" if isolated else "are you online?"
        raise AtollError(f"pip {args[0]} failed ({' '.join(errors[-2:]) or 'no message'}); {hint}")
