"""Long runs beside the suite: the batches of a many-game check past the first are marked ``long``,
which the suite leaves out (``-m 'not long'`` in pyproject.toml) and ``scripts/long-runs`` runs."""

from __future__ import annotations

from typing import Any

import pytest


def batches(games: int, batch: int) -> list[Any]:
    """The first game of each batch of ``batch`` among ``games``; every batch but the first is long."""
    firsts = range(0, games, batch)
    return [pytest.param(first, marks=() if first == 0 else pytest.mark.long) for first in firsts]
