"""Animals on Board's simulator plays exactly the games of the full API (the conformance kit's
fast-path check), and its quick playout the games of the plain one."""

from __future__ import annotations

import random

import pytest

from atoll.fast import OVER, RandomDraws, Simulator
from atoll.plugins.animals_on_board import AnimalsOnBoard
from atoll.plugins.animals_on_board.fast import CUT, KEEP, SPLIT, TAKE
from atoll.testing import check_fast_path

GAME = AnimalsOnBoard()


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_simulator_plays_the_games_of_the_full_api(seats: int) -> None:
    config = GAME.configure(seats)
    for seed in range(12 if seats == 4 else 20):
        assert check_fast_path(GAME, config, seed, start_at=(seed % 10) / 10)


def test_species_left_out_by_the_host_are_left_out_on_the_fast_path_too() -> None:
    """A2: with the option, chance picks no species; the shuffle holds the others' tiles."""
    config = GAME.configure(2, options={"removed": ["camel", "fox", "hippo", "zebra"]})
    for seed in range(5):
        assert check_fast_path(GAME, config, seed)


def test_every_kind_of_decision_has_its_own_codes() -> None:
    """A6 keep, A11 split, A14 take and A24 cut come up in random games, each in its own range."""
    seen: set[int] = set()
    for seed in range(30):
        sim = GAME.simulator(GAME.configure(2), RandomDraws(random.Random(seed)))
        assert sim is not None
        rng = random.Random(seed)
        while sim.seat() != OVER:
            legal = sim.legal()
            seen.update(legal)
            sim.apply(legal[rng.randrange(len(legal))])
    assert any(KEEP <= code < SPLIT for code in seen)
    assert any(SPLIT <= code < CUT for code in seen)
    assert any(TAKE <= code < KEEP for code in seen)
    assert any(code >= CUT for code in seen)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_quick_playout_plays_the_game_the_plain_playout_plays(seats: int) -> None:
    for seed in range(15):
        sim = GAME.simulator(GAME.configure(seats), RandomDraws(random.Random(seed)))
        assert sim is not None
        twin = sim.copy()
        quick = sim.playout(random.Random(seed))
        assert quick[0] is not None and sim.seat() == OVER
        assert quick == Simulator.playout(twin, random.Random(seed))
