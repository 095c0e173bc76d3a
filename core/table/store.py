"""What a peer keeps of a table on its disk: the folder, its log, and its own secrets.

``$ATOLL_HOME/tables/<table id>/`` holds ``log.jsonl`` (every entry, written before it is acted on)
and ``secrets.json`` (this peer's master secret for the fair protocols and how it sits at the table),
mode 0600, written atomically and fsynced before the secret is used, never overwritten.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from atoll.errors import AtollError
from atoll.net.envelope import strict_hex


@dataclass(frozen=True)
class TableFiles:
    """The files of one table in a peer's data directory."""

    folder: Path

    @property
    def log(self) -> Path:
        """The peer's copy of the table log."""
        return self.folder / "log.jsonl"

    @property
    def secrets(self) -> Path:
        """The peer's own secrets for this table (mode 0600)."""
        return self.folder / "secrets.json"


def table_files(tables: Path, table_id: str) -> TableFiles:
    """The folder of ``table_id`` under ``tables`` (made, mode 0700)."""
    folder = tables / table_id
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    return TableFiles(folder)


def write_secrets(files: TableFiles, secrets: dict[str, Any]) -> None:
    """Write this peer's secrets for the table once: atomically, fsynced, mode 0600, never over a file."""
    if files.secrets.exists():
        raise AtollError(f"{files.secrets} exists already; a table's secrets are never overwritten")
    fd, tmp = tempfile.mkstemp(dir=files.folder, prefix=".secrets-")
    try:
        os.fchmod(fd, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(secrets, out, sort_keys=True)
            out.flush()
            os.fsync(out.fileno())
        os.link(tmp, files.secrets)  # a link never replaces an existing file
    finally:
        os.unlink(tmp)
    directory = os.open(files.folder, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)


def read_secrets(files: TableFiles) -> dict[str, Any]:
    """This peer's secrets for the table; AtollError naming the file if they cannot be read."""
    try:
        data = json.loads(files.secrets.read_text(encoding="utf-8"))
        strict_hex(data["master"], 32, "master secret")
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise AtollError(f"{files.secrets}: cannot read this table's secrets ({exc})") from exc
    if not isinstance(data, dict):
        raise AtollError(f"{files.secrets}: not a secrets file")
    return data
