"""Windows as its documentation describes it, simulated on Linux at the seams atoll meets.

- ``atoll.system.WINDOWS`` is on: atoll takes its Windows paths.
- Files show mode 0o666 (Windows has no POSIX modes; ``st_mode`` says read-write for everyone).
- A folder cannot be opened (``os.open`` of a folder fails with EACCES), so it cannot be fsynced.
- ``os.fchmod`` does not exist (it came to Windows in Python 3.13).
- asyncio's default loop is the proactor, which has no ``add_reader``/``add_writer`` (pyzmq needs them).
- No ``LOGNAME``/``USER``, no password database: the login name is in ``USERNAME``.

``python -m tests.platforms.windows ARGS...`` runs ``atoll ARGS...`` so simulated; tests call
:func:`simulate_windows` with their own ``monkeypatch``.
"""

from __future__ import annotations

import asyncio
import errno
import os
import stat
import sys
from typing import Any

import pytest

from atoll import system

#: The login name the simulated Windows account has.
USERNAME = "Bea"

_STAT_EXTRAS = ("st_atime", "st_mtime", "st_ctime", "st_atime_ns", "st_mtime_ns", "st_ctime_ns",
                "st_blksize", "st_blocks")


class ProactorLikeLoop(asyncio.SelectorEventLoop):
    """Windows's default event loop as pyzmq meets it: no way to watch a file descriptor."""

    def add_reader(self, *args: Any) -> None:  # type: ignore[override]
        raise NotImplementedError("the proactor event loop has no add_reader")

    def add_writer(self, *args: Any) -> None:  # type: ignore[override]
        raise NotImplementedError("the proactor event loop has no add_writer")


class ProactorLikePolicy(asyncio.DefaultEventLoopPolicy):
    """The event loop policy whose new loops are :class:`ProactorLikeLoop`, as Windows's default is."""

    def new_event_loop(self) -> asyncio.AbstractEventLoop:
        return ProactorLikeLoop()


def simulate_windows(patch: pytest.MonkeyPatch) -> None:
    """Switch Windows's behaviour (the module's docstring) on for this process, undone by ``patch``."""
    patch.setattr(system, "WINDOWS", True)
    patch.setattr(system, "MACOS", False)

    real_open, real_stat = os.open, os.stat

    def windows_open(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if os.path.isdir(path):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_open(path, flags, *args, **kwargs)

    def windows_stat(path: Any, *args: Any, **kwargs: Any) -> os.stat_result:
        found = real_stat(path, *args, **kwargs)
        if not stat.S_ISREG(found.st_mode):
            return found
        extras = {name: getattr(found, name) for name in _STAT_EXTRAS}
        return os.stat_result((found.st_mode | 0o666, *found[1:10]), extras)

    patch.setattr(os, "open", windows_open)
    patch.setattr(os, "stat", windows_stat)
    patch.delattr(os, "fchmod", raising=False)
    # what asyncio.set_event_loop_policy sets, patched so that the test's teardown puts it back
    patch.setattr(asyncio.events, "_event_loop_policy", ProactorLikePolicy())
    for name in ("LOGNAME", "USER", "LNAME"):
        patch.delenv(name, raising=False)
    patch.setenv("USERNAME", USERNAME)
    patch.setitem(sys.modules, "pwd", None)  # what `import pwd` finds on Windows: nothing


if __name__ == "__main__":
    from atoll.cli.main import main

    simulate_windows(pytest.MonkeyPatch())
    sys.exit(main(sys.argv[1:]))
