"""Where atoll keeps what it writes: one root folder, decided by :func:`data_root` alone.

``ATOLL_HOME`` names the root when it is set; otherwise it is the platform's folder for a user's
application data, as ``platformdirs`` finds it (docs/decisions/0013-every-laptop.md):

- Linux and other Unix: ``$XDG_DATA_HOME/atoll``, by default ``~/.local/share/atoll``
- macOS: ``~/Library/Application Support/atoll``
- Windows: ``%LOCALAPPDATA%\\atoll`` (not roaming: table logs are large and belong to this machine)

Under the root: ``identity.key``, ``curve.json``, ``known_hosts`` and ``settings.json`` (who this
user is and what they chose), ``tables/<table id>/`` (each network table's log and secrets) and
``games/`` (the saved local games). Nothing atoll writes goes anywhere else, unless a command is
given a path (``--save FILE``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Final

#: Environment variable that names the root folder, overriding the platform's default.
HOME_ENV: Final = "ATOLL_HOME"
#: The folder's name under the platform's data folder (and the application name platformdirs is told).
APP_NAME: Final = "atoll"
#: The folder under the root that holds one folder per network table.
TABLES_DIR: Final = "tables"
#: The folder under the root that holds the saved local games.
GAMES_DIR: Final = "games"


def data_root(environ: Mapping[str, str] | None = None) -> Path:
    """The root of everything atoll writes for this user (not created): ``ATOLL_HOME`` from
    ``environ`` (``os.environ`` if not given) when it is set, else :func:`platform_data_folder`."""
    env = os.environ if environ is None else environ
    if env.get(HOME_ENV, "").strip():
        return Path(env[HOME_ENV]).expanduser().absolute()
    return platform_data_folder()


def platform_data_folder() -> Path:
    """The platform's folder for atoll's data, from ``platformdirs`` (reads ``os.environ``).

    On Linux a relative ``XDG_DATA_HOME`` is ignored, as the XDG specification asks (platformdirs
    would take it relative to the working folder, so the data would move with ``cd``).
    """
    import platformdirs  # imported here: `atoll --help` and the game API never need it

    folder = platformdirs.user_data_path(APP_NAME, appauthor=False, roaming=False)
    if not folder.is_absolute():
        folder = Path.home() / ".local" / "share" / APP_NAME
    return folder


def games_dir(root: Path) -> Path:
    """The folder under ``root`` that holds the saved local games; not created."""
    return root / GAMES_DIR
