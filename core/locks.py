"""One process at a time: a lock on what a process writes to (a table's folder, a saved game), which
names the process that holds it.

The lock is an OS lock through :mod:`filelock` (``flock`` on Unix, ``LockFileEx`` on Windows), so it
goes with the process that held it, also when that process is killed: a lock is never left stale.
Beside it, the holder writes who it is (``<lock>.holder``: pid and command), read only by a process
that finds the lock taken, so the refusal can name the process to wait for or stop.
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import sys
from pathlib import Path
from types import TracebackType

from atoll.errors import AtollError
from atoll.net.encoding import parse_json


class InUse(AtollError):
    """What a process wanted to use is held by another process (named in the message)."""


class Held:
    """A lock this process holds; :meth:`release` (or leaving the ``with`` block) lets it go."""

    def __init__(self, lock: object, holder: Path) -> None:
        self._lock = lock
        self._holder = holder

    def release(self) -> None:
        """Let the lock go (the holder record first, so it never names a process that let go)."""
        if self._lock is None:
            return
        with contextlib.suppress(OSError):
            self._holder.unlink()
        self._lock.release()  # type: ignore[attr-defined]
        self._lock = None

    def __enter__(self) -> Held:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.release()


def hold(lock_path: Path, what: str) -> Held:
    """Take the lock at ``lock_path`` for this process, without waiting; :class:`InUse` naming the
    holder (``what`` says what is in use, e.g. ``table kariba-3f2c…``) if another process has it."""
    from filelock import FileLock, Timeout  # only where a lock is taken: `atoll --help` stays fast

    if not lock_path.parent.is_dir():  # the lock would make the folder: never made as a side effect
        raise AtollError(f"cannot lock {lock_path}: {lock_path.parent} is not a folder")
    # no explicit mode: the lock file is empty, and filelock sets one with os.fchmod, which Windows'
    # Python 3.11 and 3.12 lack (its Windows lock does not, but the file is the same either way)
    lock = FileLock(lock_path, timeout=0)
    holder = lock_path.with_name(lock_path.name + ".holder")
    try:
        lock.acquire()
    except Timeout:
        raise InUse(f"{what} is in use by {_holder(holder)}; wait for it to end, or stop it") from None
    except OSError as exc:
        raise AtollError(f"cannot lock {lock_path} ({exc.strerror}): check the folder's permissions") from exc
    command = shlex.join(["atoll", *sys.argv[1:]])
    # the lock holds without the record; a second process is then told less about who holds it
    with contextlib.suppress(OSError):
        holder.write_text(json.dumps({"pid": os.getpid(), "command": command}) + "\n", encoding="utf-8")
    return Held(lock, holder)


def _holder(path: Path) -> str:
    """Who holds a lock, as a holder record says: ``process 4242 (atoll join --resume)``."""
    try:
        record = parse_json(path.read_bytes())
        pid, command = int(record["pid"]), str(record["command"])
    except (OSError, ValueError, KeyError, TypeError):
        return "another process"
    return f"process {pid} ({command})"
