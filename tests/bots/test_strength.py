"""How strong the search bot is on a real game (Kariba), on a budget small enough for CI."""

from __future__ import annotations

import pytest

from atoll.bots.base import BotKind
from atoll.bots.search import SearchBot
from atoll.registry import load_registry
from atoll.sim import simulate


@pytest.mark.slow
def test_a_small_search_beats_the_random_bot_at_kariba() -> None:
    """20 two-seat Kariba games, seats alternating: 50 iterations a move win at least 15.

    The default budget is four times larger (measure it with `atoll sim kariba --bots
    search,random --rotate`); this smaller search won all 20 (one shared) when the test was
    written, in 25 s of CPU time.
    """
    found = load_registry()
    if "kariba" not in found.games:
        pytest.skip("Kariba is not installed")
    game = found.game("kariba")
    small = BotKind("small search", "", lambda _game, _seat, seed: SearchBot(seed, iterations=50))
    kinds = [small, found.bot("random", "kariba")]
    report = simulate(game, game.configure(2), kinds, games=20, seed=0, rotate=True)
    assert report.bot_wins[0] >= 15
