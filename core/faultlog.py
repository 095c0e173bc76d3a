"""Where the details of a fault go: one line to the person, the traceback to a file for whoever
must fix it (the plugin's author, or atoll's), ``faults.log`` in the data folder.

Faults are reported through the ``atoll.faults`` logger, which reaches nobody's terminal: it has no
handler but the file one the command line installs (:func:`keep_faults_in`), and does not pass its
records up to the ``atoll`` logger that a table's screen shows.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

#: The logger every fault's traceback goes to.
FAULTS = logging.getLogger("atoll.faults")
FAULTS.addHandler(logging.NullHandler())  # no handler at all would print to stderr (logging's last resort)
FAULTS.propagate = False

#: The file's name in the data folder.
FAULTS_FILE = "faults.log"


def record_fault(what: str, error: BaseException) -> None:
    """Keep ``error``'s traceback, under the line ``what`` (where it happened)."""
    FAULTS.error("%s: %s", what, error, exc_info=error)


class _FaultFile(logging.Handler):
    """Appends each fault to the file ``where()`` names, made (with its folder) only when a fault comes."""

    def __init__(self, where: Callable[[], Path]) -> None:
        super().__init__(logging.ERROR)
        self.where = where
        self.setFormatter(logging.Formatter("%(asctime)s %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        try:
            path = self.where()
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            with path.open("a", encoding="utf-8") as out:
                out.write(self.format(record) + "\n")
        except OSError:
            pass  # the person has the one line already; a fault log that cannot be written is no news


def keep_faults_in(where: Callable[[], Path]) -> None:
    """Write every fault's traceback to the file ``where()`` names (once per process)."""
    if not any(isinstance(h, _FaultFile) for h in FAULTS.handlers):
        FAULTS.addHandler(_FaultFile(where))
