"""Where games are saved when the player names no file: the user's data directory."""

from __future__ import annotations

import os
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path


def data_dir(env: Mapping[str, str] | None = None) -> Path:
    """atoll's data directory: ``$XDG_DATA_HOME/atoll``, else ``~/.local/share/atoll``.

    A relative ``XDG_DATA_HOME`` is ignored, as the XDG spec asks.
    """
    env = os.environ if env is None else env
    xdg = env.get("XDG_DATA_HOME", "")
    if xdg and os.path.isabs(xdg):
        return Path(xdg) / "atoll"
    home = Path(env["HOME"]) if env.get("HOME") else Path.home()
    return home / ".local" / "share" / "atoll"


def new_save_path(game: str, when: datetime, env: Mapping[str, str] | None = None) -> Path:
    """A file name for a new save of ``game`` under the data dir, made unique; creates the folder."""
    folder = data_dir(env) / "games"
    folder.mkdir(parents=True, exist_ok=True)
    stem = f"{game}-{when:%Y-%m-%d-%H%M%S}"
    path = folder / f"{stem}.jsonl"
    number = 2
    while path.exists():
        path = folder / f"{stem}-{number}.jsonl"
        number += 1
    return path
