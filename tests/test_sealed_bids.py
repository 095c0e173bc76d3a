"""Sealed Bids (tests/games/sealed_bids.py), the simultaneous-decision example: its rules, the kit, and
OpenSpiel's own test on the turn-based form of its simultaneous bids."""

from __future__ import annotations

import random

import pytest

from atoll.engine import Match
from atoll.testing import RiggedResolver, check_game
from atoll.types import Decision
from tests.games.sealed_bids import SealedBids, taker

SEATS = [2, 3, 4, 5]


def bid_round(seats: int, pot_card: int, bids: list[int]) -> Match:
    """A short game whose first vulture card is ``pot_card``, after every seat bid ``bids``."""
    game = SealedBids()
    faces = [pot_card, *(v for v in (-2, -1, 1, 2, 3) if v != pot_card)]
    match = Match(game, game.configure(seats, "short"), RiggedResolver(0, piles={"vultures": faces}))
    match.advance()  # shuffle
    match.advance()  # rule 2: the top card is turned
    for seat in reversed(range(seats)):  # any order: the last seat first
        match.act(seat, {"secret": [bids[seat]]})
    match.advance()  # rule 3: every bid shown at once
    return match


def test_rule_3_every_seat_bids_at_once_in_secret() -> None:
    game = SealedBids()
    match = Match(game, game.configure(4, "short"), RiggedResolver(0))
    match.advance()
    match.advance()
    step = match.step()
    assert isinstance(step, Decision) and step.seats == (0, 1, 2, 3) and step.secret


def test_rule_4_the_highest_bid_left_takes_a_positive_pot_equal_bids_cancel() -> None:
    match = bid_round(3, 3, [5, 5, 2])
    assert match.state["scores"] == [0, 0, 3]
    assert match.state["hands"][0] == [1, 2, 3, 4]


def test_rule_4_the_lowest_bid_left_takes_a_negative_pot() -> None:
    match = bid_round(3, -2, [1, 4, 2])
    assert match.state["scores"] == [-2, 0, 0]


def test_rule_5_if_every_bid_cancels_the_pot_waits_for_the_next_card() -> None:
    match = bid_round(2, 3, [4, 4])
    assert match.state["scores"] == [0, 0] and match.state["pot"] == [3]
    assert taker([3, 1], [2, 2, 1]) == 2


@pytest.mark.parametrize("variant", ["short", "standard"])
def test_sealed_bids_follows_the_game_api(variant: str) -> None:
    check_game(SealedBids(), seats=SEATS, variants=[variant], playouts=1)


pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel (the open-spiel package) is not installed")

from atoll.openspiel import register  # noqa: E402


@pytest.mark.parametrize("seats", SEATS)
def test_openspiel_random_sim_test_passes_on_simultaneous_bids(seats: int) -> None:
    game = pyspiel.load_game(register(SealedBids()), {"players": seats, "variant": "short"})
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_openspiel_asks_every_bidder_in_turn_and_none_sees_an_earlier_bid() -> None:
    game = pyspiel.load_game(register(SealedBids()), {"players": 3, "variant": "short"})
    seen = set()
    for first, second in ((0, 0), (4, 1), (2, 3)):
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        for seat, bid in enumerate((first, second)):
            assert state.current_player() == seat
            state.apply_action(bid)
        assert state.current_player() == 2
        seen.add((state.information_state_string(2), state.observation_string(2)))
        rng = random.Random(3)
        resampled = state.resample_from_infostate(2, rng.random)
        assert resampled.information_state_string(2) == state.information_state_string(2)
    assert len(seen) == 1
