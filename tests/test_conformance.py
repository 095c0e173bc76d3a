"""Every installed game, in every variant and seat count, and High Card pass the conformance kit.

Games installed through the ``atoll.games`` entry points show up here by themselves.
One playout per configuration keeps long games (thousands of steps with random bots)
within a few seconds each; a plugin's own suite can ask the kit for more.
"""

from __future__ import annotations

import pytest

from atoll.registry import load_registry
from atoll.testing import ConformanceCase, conformance_cases
from tests.games.highcard import HighCard

REGISTRY = load_registry()
INSTALLED = [REGISTRY.games[name].game for name in sorted(REGISTRY.games)]
CASES = [
    *conformance_cases(HighCard(), playouts=3),
    *(case for game in INSTALLED for case in conformance_cases(game, playouts=1)),
]


def test_every_installed_plugin_loads() -> None:
    assert REGISTRY.problems == []


@pytest.mark.parametrize("case", CASES, ids=str)
def test_game_follows_the_game_api(case: ConformanceCase) -> None:
    case.run()
