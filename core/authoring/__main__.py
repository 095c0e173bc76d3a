"""``python -m atoll.authoring [--example EXAMPLE] NAME DIR``: start a game plugin (``atoll new-plugin``)."""

import sys

from atoll.authoring.new_plugin import main

if __name__ == "__main__":
    sys.exit(main())
