"""Saved games on this machine: where they go, reading one back with a clear error, listing them;
and the few things the client remembers (the player's name)."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from atoll.engine.match import Match
from atoll.engine.save import SavedGame, load, save
from atoll.errors import AtollError, CorruptSave
from atoll.jsondata import JSON
from atoll.locks import Held, hold
from atoll.net.durable import write_replace
from atoll.net.encoding import parse_json
from atoll.paths import data_root, games_dir

#: The file of remembered choices, shared with the network identity (``atoll.net.identity``).
SETTINGS_FILE = "settings.json"


def new_save_path(game: str, when: datetime, env: Mapping[str, str] | None = None) -> Path:
    """A file name for a new save of ``game`` under the data root, made unique; creates the folder."""
    folder = games_dir(data_root(env))
    folder.mkdir(parents=True, exist_ok=True)
    stem = f"{game}-{when:%Y-%m-%d-%H%M%S}"
    path = folder / f"{stem}.jsonl"
    number = 2
    while path.exists():
        path = folder / f"{stem}-{number}.jsonl"
        number += 1
    return path


@dataclass(frozen=True)
class SaveFile:
    """A save read back with the client's record: who played which seat, and whether it ended."""

    path: Path
    saved: SavedGame
    client: dict[str, JSON]
    """The footer's ``"client"`` record (people, bots, names); empty for saves written elsewhere."""

    @property
    def finished(self) -> bool:
        """Whether the game reached its end."""
        return self.saved.results is not None


def read_save(path: Path) -> SaveFile:
    """Read a save, checking first what :func:`atoll.engine.load` would stumble on; raises
    :class:`CorruptSave` with one line naming the problem and, where there is one, the line number."""
    if not path.exists():
        raise CorruptSave(f"{path}: no such file")
    if path.is_dir():
        raise CorruptSave(f"{path} is a folder, not a saved game")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise CorruptSave(f"cannot read {path}: {exc.strerror}") from exc
    if not data.strip():
        raise CorruptSave(f"{path} is empty, not a saved game")
    lines = data.split(b"\n")
    for number, line in enumerate(lines, 1):
        if b"\0" in line:
            raise CorruptSave(f"{path}:{number}: binary data, not a saved game (JSON lines)")
        try:
            line.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise CorruptSave(f"{path}:{number}: not UTF-8 text, so not a saved game") from exc
    if not data.endswith(b"\n"):
        raise CorruptSave(f"{path}:{len(lines)}: the file is cut short (its last line is unfinished)")
    saved = load(path)
    footer = parse_json(lines[-2])  # read once already, by load
    client = footer.get("client") if isinstance(footer, dict) else None
    return SaveFile(path, saved, client if isinstance(client, dict) else {})


@dataclass(frozen=True)
class SaveSummary:
    """One line of `atoll saves`: a save file and what it holds."""

    path: Path
    game: str
    seats: int
    variant: str
    modified: datetime
    finished: bool


def list_saves(env: Mapping[str, str] | None = None) -> tuple[list[SaveSummary], list[str]]:
    """The saves in the data directory, newest first, and one line for each file that is not a save."""
    folder = games_dir(data_root(env))
    found: list[SaveSummary] = []
    problems: list[str] = []
    if not folder.is_dir():
        return found, problems
    for path in sorted(folder.glob("*.jsonl")):
        try:
            save_file = read_save(path)
        except AtollError as exc:
            problems.append(str(exc))
            continue
        saved = save_file.saved
        modified = datetime.fromtimestamp(path.stat().st_mtime)
        found.append(SaveSummary(path, saved.game, saved.config.seats, saved.config.variant, modified,
                                 save_file.finished))
    found.sort(key=lambda s: (s.modified, s.path.name), reverse=True)
    return found, problems


def latest_unfinished(env: Mapping[str, str] | None = None) -> Path | None:
    """The newest save in the data directory of a game that has not ended, or ``None``."""
    saves, _ = list_saves(env)
    for summary in saves:
        if not summary.finished:
            return summary.path
    return None


def settings_path(env: Mapping[str, str] | None = None) -> Path:
    """Where the client keeps what it remembers (the player's name)."""
    return data_root(env) / SETTINGS_FILE


def remembered_name(env: Mapping[str, str] | None = None) -> str | None:
    """The player's name given last time, or ``None``; a broken settings file is ignored."""
    try:
        settings = parse_json(settings_path(env).read_bytes())
    except (OSError, ValueError):
        return None
    name = settings.get("name") if isinstance(settings, dict) else None
    return name if isinstance(name, str) and name.strip() else None


def remember_name(name: str, env: Mapping[str, str] | None = None) -> None:
    """Keep ``name`` for next time (other settings in the file are kept)."""
    path = settings_path(env)
    try:
        settings = parse_json(path.read_bytes())
    except (OSError, ValueError):
        settings = {}
    if not isinstance(settings, dict):
        settings = {}
    settings["name"] = name
    path.parent.mkdir(parents=True, exist_ok=True)
    # atomically: the file holds the network identity's settings too (atoll.net.identity)
    write_replace(path, (json.dumps(settings, indent=2) + "\n").encode())


def lock_save(path: Path) -> Held:
    """Take the lock on the save at ``path`` for this process while it plays the game (one process a
    game); :class:`~atoll.locks.InUse` names the process that has it."""
    return hold(path.with_name(f".{path.name}.lock"), f"the saved game {path}")


def save_replacing(
    match: Match, path: Path, *, seed: int | None, faces: Mapping[str, JSON],
    extra: Mapping[str, JSON] | None = None,
) -> None:
    """Write ``match`` to ``path`` as :func:`atoll.engine.save` does, replacing an earlier save of the
    same game atomically: the old file stays whole until the new one is complete. Raises
    :class:`AtollError` naming the path when it cannot be written."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        temporary.unlink(missing_ok=True)
        save(match, temporary, seed=seed, faces=faces, extra=extra)
        os.replace(temporary, path)
    except OSError as exc:
        temporary.unlink(missing_ok=True)
        raise AtollError(f"cannot write {path}: {exc.strerror}") from exc
