"""What a peer keeps of a table on its disk: the folder, its log, and its own secrets.

``$ATOLL_HOME/tables/<table id>/`` holds ``log.jsonl`` (every entry, written before it is acted on)
and ``secrets.json`` (this peer's master secret for the fair protocols and how it sits at the table),
mode 0600, written atomically and fsynced before the secret is used, never overwritten. A process
that plays or hosts the table holds ``in-use.lock`` there (:meth:`TableFiles.hold`): one process a seat.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from atoll.errors import AtollError
from atoll.locks import Held, hold
from atoll.net.durable import write_new
from atoll.net.encoding import parse_json, strict_hex
from atoll.wire import Kind


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

    @property
    def sealed(self) -> Path:
        """The values of this peer's sealed choices, kept until they open (mode 0600)."""
        return self.folder / "sealed.jsonl"

    @property
    def place(self) -> Path:
        """Where the table is and how this peer sits there, to resume it (``place.json``)."""
        return self.folder / "place.json"

    @property
    def lock(self) -> Path:
        """The lock a process holds while it plays at (or hosts) the table: one process per seat."""
        return self.folder / "in-use.lock"

    def hold(self) -> Held:
        """Take the table's lock for this process; :class:`~atoll.locks.InUse` names the process that
        has it (a second ``atoll join --resume``, say), and nothing of the table is touched."""
        return hold(self.lock, f"table {self.folder.name} ({self.folder})")


def table_files(tables: Path, table_id: str) -> TableFiles:
    """The folder of ``table_id`` under ``tables`` (made, mode 0700)."""
    folder = tables / table_id
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    return TableFiles(folder)


def write_secrets(files: TableFiles, secrets: dict[str, Any]) -> None:
    """Write this peer's secrets for the table once: atomically, fsynced, mode 0600, never over a file."""
    write_once(files.secrets, secrets)


def write_place(files: TableFiles, place: dict[str, Any]) -> None:
    """Write where the table is and how this peer sits (once, like the secrets)."""
    write_once(files.place, place)


def read_place(files: TableFiles) -> dict[str, Any]:
    """Where the table is and how this peer sits; AtollError naming the file if it cannot be read."""
    try:
        data = parse_json(files.place.read_bytes())
    except (OSError, ValueError) as exc:
        raise AtollError(f"{files.place}: cannot read where this table is ({exc})") from exc
    if not isinstance(data, dict):
        raise AtollError(f"{files.place}: not a table place file")
    return data


def write_once(path: Path, data: dict[str, Any]) -> None:
    """Write ``data`` as JSON to ``path``: atomically, fsynced, mode 0600, never over an existing file."""
    if path.exists() or not write_new(path, json.dumps(data, sort_keys=True).encode()):
        raise AtollError(f"{path} exists already; a table's files are never overwritten")


def read_secrets(files: TableFiles) -> dict[str, Any]:
    """This peer's secrets for the table; AtollError naming the file if they cannot be read."""
    try:
        data = parse_json(files.secrets.read_bytes())
        strict_hex(data["master"], 32, "master secret")
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise AtollError(f"{files.secrets}: cannot read this table's secrets ({exc})") from exc
    if not isinstance(data, dict):
        raise AtollError(f"{files.secrets}: not a secrets file")
    return data


class TableOver(AtollError):
    """The table to resume has ended already; ``log`` is where its log is."""

    def __init__(self, message: str, log: Path) -> None:
        super().__init__(message)
        self.log = log


def resumable(tables: Path, *, hosting: bool, table_id: str | None = None) -> TableFiles:
    """The table to resume: ``table_id``, or the one this machine played at (or hosted) last.

    Only tables whose game has not ended qualify (a log whose last entry is the host's ``end`` is
    over); AtollError says what was found instead.
    """
    role_ok = (lambda role: role == "host") if hosting else (lambda role: role in ("sit", "watch"))
    what = "hosted" if hosting else "joined"
    if table_id is not None:
        files = TableFiles(tables / table_id)
        if not files.place.exists() or not files.secrets.exists():
            raise AtollError(f"no table {table_id!r} to resume under {tables}")
        if not role_ok(read_place(files).get("role")):
            raise AtollError(f"this machine has not {what} table {table_id!r}")
        if _finished(files.log):
            raise TableOver(f"table {table_id!r} is over", files.log)
        return files
    candidates = [
        TableFiles(folder)
        for folder in (tables.iterdir() if tables.is_dir() else [])
        if (folder / "place.json").exists() and (folder / "secrets.json").exists()
    ]
    open_tables = [
        files
        for files in candidates
        if role_ok(read_place(files).get("role")) and files.log.exists() and not _finished(files.log)
    ]
    if not open_tables:
        over = [f for f in candidates if role_ok(read_place(f).get("role")) and f.log.exists()]
        if over:
            last = max(over, key=lambda files: files.log.stat().st_mtime)
            raise TableOver(f"the last table this machine {what}, {last.folder.name}, is over", last.log)
        raise AtollError(f"no unfinished table that this machine {what} under {tables}")
    return max(open_tables, key=lambda files: files.log.stat().st_mtime)


def _finished(log: Path) -> bool:
    """Whether the log's last whole entry is the host's ``end`` (or ``close``)."""
    try:
        lines = log.read_bytes().splitlines()
    except OSError:
        return False
    for line in reversed(lines):
        try:
            entry = parse_json(line)
        except ValueError:
            continue  # a torn last line
        message = entry.get("msg") if isinstance(entry, dict) else None
        # the host's end, or its close: a table its host closed before the game was over is over too
        return isinstance(message, dict) and message.get("kind") in (Kind.END, Kind.CLOSE)
    return False


class SealedFile:
    """A peer's sealed values in ``sealed.jsonl`` (mode 0600): one line a sealed move, appended and
    fsynced before the move leaves (a :class:`~atoll.table.table.SealedKeeper`)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def held(self) -> dict[int, list[Any]]:
        """The values written before this peer stopped (a torn last line was never sent: skipped)."""
        if not self.path.exists():
            return {}
        held: dict[int, list[Any]] = {}
        for line in self.path.read_bytes().splitlines():
            try:
                record = parse_json(line)
                held[int(record["at"])] = list(record["values"])
            except (ValueError, KeyError, TypeError):
                continue
        return held

    def keep(self, at: int, values: list[Any]) -> None:
        """Append the values sealed at log position ``at``, fsynced."""
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, (json.dumps({"at": at, "values": values}, sort_keys=True) + "\n").encode())
            os.fsync(fd)
        finally:
            os.close(fd)
