"""``python -m atoll``: the command line, as the ``atoll`` command (``py -m atoll`` on Windows)."""

import sys

from atoll.cli.main import main

# the guard matters: `atoll sim`'s spawned workers import this module again as __mp_main__
if __name__ == "__main__":
    sys.exit(main())
