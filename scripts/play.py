"""``py scripts\\play.py [ARGS]`` (Windows) or ``python3 scripts/play.py [ARGS]``: what ``scripts/play`` does,
with no shell. Makes .venv if needed, installs atoll, and starts a game in this terminal against bots.

With no game named it starts the main game, Kiribati (family variant, 3 seats), and options alone
apply to it (``play.py --seed 5``); ``play.py GAME ...`` goes to ``atoll play`` as it is.
"""

from __future__ import annotations

import subprocess
import sys

from _venv import ensure_venv


def main(args: list[str]) -> int:
    """Install if needed, then play; returns atoll's exit status."""
    python = ensure_venv()
    if not args or args[0].startswith("-"):
        args = ["kiribati", "--variant", "family", "--seats", "3", *args]  # a later --variant or --seats wins
    return subprocess.run([str(python), "-m", "atoll", "play", *args]).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
