"""Which operating system atoll runs on, asked in one place so that tests can simulate another, and
whether a person sits at a terminal.

Code that behaves differently on Windows or macOS reads these flags at call time
(``system.WINDOWS``, never ``from atoll.system import WINDOWS``), and a test sets them together
with the behaviour of that system it simulates (docs/decisions/0013-every-laptop.md).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping

#: Windows: files have no POSIX modes (``st_mode`` says 0o666 for every writable file), a folder
#: cannot be opened to flush it, and asyncio's default loop cannot watch sockets (no ``add_reader``).
WINDOWS = sys.platform == "win32"
#: macOS: ``fork`` is unsafe in a process that used system frameworks, so pools spawn their workers.
MACOS = sys.platform == "darwin"


def fork_is_safe() -> bool:
    """Whether a process pool may fork its workers: only on Linux and the other Unix systems
    (Windows has no fork; on macOS Python's own default is spawn, since a forked child may crash)."""
    return not (WINDOWS or MACOS)


def full_screen_terminal(env: Mapping[str, str] | None = None) -> bool:
    """Whether a full-screen client can run here: standard input and output are both a terminal (a
    console on Windows) and ``TERM`` does not say ``dumb``. An unset ``TERM`` does not count against
    it: Windows consoles do not set it, and prompt_toolkit drives them without it."""
    env = os.environ if env is None else env
    return env.get("TERM", "") != "dumb" and sys.stdin.isatty() and sys.stdout.isatty()
