"""Pieces the subcommands share: the registry, warnings about broken plugins, seat checks."""

from __future__ import annotations

import sys

from atoll.registry import Registry, load_registry


def registry(*, quiet: bool = False) -> Registry:
    """Load every plugin; unless ``quiet``, warn on stderr about each plugin that failed."""
    found = load_registry()
    if not quiet:
        for problem in found.problems:
            print(f"atoll: warning: {problem}", file=sys.stderr)
    return found
