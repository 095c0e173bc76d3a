"""Which rules a table plays: the game's pin, written into the table's signed ``open`` entry.

Two laptops with the same game name may hold different rules (another version of the plugin, or the
same version with one constant changed). :class:`GamePin` names the plugin's distribution and
version, a digest of the plugin's code and atoll's version, so a peer whose installed game differs is
told at the door instead of playing a silently different game, and an audit under another install
says so instead of blaming a seat (``docs/decisions/0017-the-game-pinned.md``).
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from atoll.errors import AtollError
from atoll.net.encoding import canonical_bytes
from atoll.wire import PinBody

#: What the digest of a plugin's code starts from (bump it if the way files are hashed changes).
_CODE_DOMAIN = b"atoll-plugin-code/1\x00"
#: Files that are not the plugin's code: compiled caches, and hidden files (an editor's swap file).
_SKIPPED_SUFFIXES = (".pyc", ".pyo")
_DIGEST = re.compile(r"[0-9a-f]{64}")
_LABEL_LIMIT = 100
#: Hex digits of :meth:`GamePin.short`, as a table's DNS-SD announcement carries it.
SHORT_LENGTH = 16


class GameDiffers(AtollError):
    """The game installed here is not the one a table plays (or pinned): the message says both and
    what to install."""


@dataclass(frozen=True)
class GamePin:
    """The identity of a game's rules: its plugin's distribution and version, the digest of the
    plugin's code (:func:`code_digest`) and atoll's version."""

    dist: str
    version: str
    digest: str
    """SHA-256 (hex) over the plugin package's files, sorted by relative path."""
    atoll: str

    def to_json(self) -> PinBody:
        """The pin as the ``open`` entry carries it."""
        return {"atoll": self.atoll, "digest": self.digest, "dist": self.dist, "version": self.version}

    @classmethod
    def from_json(cls, value: Any) -> GamePin:
        """The pin in ``value`` (an ``open`` entry's ``pin``); ``ValueError`` saying what is wrong."""
        if not isinstance(value, dict) or sorted(value) != ["atoll", "digest", "dist", "version"]:
            raise ValueError("a game pin has the fields dist, version, digest and atoll")
        for field in ("dist", "version", "atoll"):
            text = value[field]
            if not isinstance(text, str) or not 0 < len(text) <= _LABEL_LIMIT or not text.isprintable():
                raise ValueError(f"a game pin's {field} is 1-{_LABEL_LIMIT} printable characters")
        if not isinstance(value["digest"], str) or not _DIGEST.fullmatch(value["digest"]):
            raise ValueError("a game pin's digest is 64 lowercase hex digits")
        return cls(value["dist"], value["version"], value["digest"], value["atoll"])

    def short(self) -> str:
        """A short digest of the whole pin (:data:`SHORT_LENGTH` hex digits), small enough for a
        DNS-SD TXT record: two tables with the same short digest play the same build."""
        return hashlib.sha256(canonical_bytes(self.to_json())).hexdigest()[:SHORT_LENGTH]

    def describe(self) -> str:
        """The pin in words: ``atoll 0.1.0 (code 1a2b3c4d5e6f)``, naming atoll's version too when the
        game comes from another distribution."""
        text = f"{self.dist} {self.version} (code {self.digest[:12]})"
        if self.dist == "atoll" and self.version == self.atoll:
            return text
        return f"{text} on atoll {self.atoll}"


def differs(game: str, pinned: GamePin, installed: GamePin | None) -> str | None:
    """What a person is told when the game ``pinned`` for a table is not the one ``installed`` here
    (``None``: not installed at all): both builds and what to install, in one line; ``None`` when
    they are the same."""
    if installed == pinned:
        return None
    wanted = f"this table plays {game} from {pinned.describe()}"
    if installed is None:
        return f"{wanted}, which is not installed here: {_install(pinned)}"
    if (installed.dist, installed.version, installed.atoll) == (pinned.dist, pinned.version, pinned.atoll):
        return (
            f"{wanted}; this machine has {game} from {installed.describe()}: the same version with other "
            f"code (one copy was changed), so install the host's copy of {pinned.dist} {pinned.version}"
        )
    return f"{wanted}; this machine has {game} from {installed.describe()}: {_install(pinned)}"


def require_same(game: str, pinned: GamePin, installed: GamePin | None) -> None:
    """Raise :class:`GameDiffers` (saying what :func:`differs` says) unless ``installed`` is ``pinned``."""
    problem = differs(game, pinned, installed)
    if problem is not None:
        raise GameDiffers(problem)


def _install(pinned: GamePin) -> str:
    line = f"install {pinned.dist} {pinned.version} (pip install '{pinned.dist}=={pinned.version}')"
    if pinned.dist != "atoll":
        line += f" with atoll {pinned.atoll}"
    return line


def pin_module(module: ModuleType, dist: str, version: str) -> GamePin:
    """The pin of the game a plugin ``module`` contributes, which ``dist`` at ``version`` installed:
    the digest covers the module's package (the package itself, or the one a plain module sits in)."""
    return GamePin(dist, version, code_digest(_code_roots(module)), atoll_version())


def _code_roots(module: ModuleType) -> tuple[str, ...]:
    """The folders (or the one file) that hold a plugin module's code."""
    paths = getattr(module, "__path__", None)
    if paths is not None:  # a package: all of it (a namespace package may span several folders)
        return tuple(sorted(str(p) for p in paths))
    # a plain module's game code is its package's (a top-level module is its own file)
    package = sys.modules.get(module.__package__) if module.__package__ else None
    if package is not None and getattr(package, "__path__", None) is not None:
        return tuple(sorted(str(p) for p in package.__path__))
    return (module.__file__,) if module.__file__ else ()


@functools.cache
def code_digest(roots: tuple[str, ...]) -> str:
    """SHA-256 (hex) over the files under ``roots`` (folders, or one file): their sorted relative paths
    and contents, leaving out ``__pycache__``, compiled files and hidden files. Cached per process:
    a plugin's files do not change under a running atoll that has imported them."""
    files: dict[str, Path] = {}
    for root in map(Path, roots):
        if root.is_file():
            files.setdefault(root.name, root)
            continue
        for folder, dirs, names in os.walk(root):
            dirs[:] = [d for d in dirs if d != "__pycache__" and not d.startswith(".")]
            for name in names:
                if name.startswith(".") or name.endswith(_SKIPPED_SUFFIXES):
                    continue
                path = Path(folder, name)
                files.setdefault(path.relative_to(root).as_posix(), path)
    digest = hashlib.sha256(_CODE_DOMAIN)
    for relative in sorted(files):
        data = files[relative].read_bytes()
        digest.update(relative.encode() + b"\x00" + len(data).to_bytes(8, "big"))
        digest.update(data)
    return digest.hexdigest()


@functools.cache
def atoll_version() -> str:
    """The installed atoll's version (``unknown`` when it runs from an uninstalled source tree)."""
    try:
        return importlib.metadata.version("atoll")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"
