"""`atoll sim --ray`: the same games as Ray tasks, on a Ray instance started for the test.

Skipped where Ray is not installed (it is the optional extra ``atoll[ray]``).
"""

from __future__ import annotations

import pytest

from atoll.bots.search import search_kind
from atoll.registry import load_registry
from atoll.sim import LOCAL_RAY, simulate

pytest.importorskip("ray", reason="Ray is not installed (pip install 'atoll[ray]')")

TIMING = ("seconds", "games_per_s")


def test_ray_tasks_give_the_tally_of_one_process() -> None:
    """Issue 16: a Ray cluster plays the same games as this machine; here a local instance, which
    ``simulate`` starts and shuts down itself."""
    found = load_registry()
    game = found.game("kariba")
    config = game.configure(3)
    random = found.bot("random", "kariba")
    kinds = [random, search_kind(20), random]  # a search bot with its own budget: a closure to ship
    here = simulate(game, config, kinds, games=8, seed=11, rotate=True)
    seen: list[int] = []
    on_ray = simulate(game, config, kinds, games=8, seed=11, rotate=True, ray=LOCAL_RAY, on_game=seen.append)
    assert {k: v for k, v in on_ray.to_json().items() if k not in TIMING} == {
        k: v for k, v in here.to_json().items() if k not in TIMING
    }
    assert seen[-1] == 8
