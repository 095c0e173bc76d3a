"""Files that survive a crash and that only their owner reads, on every platform.

A file is written to a temporary file beside it (``tempfile.mkstemp`` makes it mode 0600, readable by
its owner alone), fsynced, then linked or renamed into place, and the folder is fsynced so the new
name survives a power cut too. Windows differs at two seams (docs/decisions/0013-every-laptop.md):

- a folder cannot be opened to flush it (``os.open`` of a folder is refused), and need not be: NTFS
  journals the link and the rename itself;
- a file's mode means nothing (every writable file shows 0o666, and ``chmod`` sets only the
  read-only flag), so the owner-only check is not made there: atoll's data folder lives in the
  user's profile, whose access list admits that user (and the administrators) only.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from atoll import system


def write_new(path: Path, data: bytes) -> bool:
    """Write ``data`` to ``path`` (owner-only) only if no file is there; False if one already was.

    The temp file is hard-linked into place: unlike rename, a link never replaces a file that
    another process made meanwhile, so two first runs cannot overwrite each other's file.
    """
    tmp = _written_beside(path, data)
    try:
        try:
            os.link(tmp, path)
        except FileExistsError:
            return False
        fsync_folder(path.parent)
        return True
    finally:
        os.unlink(tmp)


def write_replace(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` (owner-only) atomically, replacing what was there."""
    tmp = _written_beside(path, data)
    try:
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    fsync_folder(path.parent)


def _written_beside(path: Path, data: bytes) -> str:
    """A temporary file beside ``path`` (mode 0600) holding ``data``, fsynced; its name."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
    except BaseException:
        os.unlink(tmp)
        raise
    return tmp


def fsync_folder(folder: Path) -> None:
    """Flush ``folder``'s entries to disk, so a file just linked or renamed into it survives a crash;
    nothing on Windows, which cannot open a folder and journals its entries itself."""
    if system.WINDOWS:
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def others_may_use(mode: int) -> bool:
    """Whether a file with ``st_mode`` ``mode`` may be read or written by other users; never said on
    Windows, where the mode is not how files are protected (see the module's docstring)."""
    return not system.WINDOWS and bool(mode & 0o077)
