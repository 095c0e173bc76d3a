"""Kariba K1-K3: the cards, the players, the deal and the turn order."""

from __future__ import annotations

from collections import Counter

import pytest

from atoll import Chance, Deal, IllegalAction, Shuffle
from atoll.engine import Match
from atoll.plugins.kariba.rules import HANDLES
from atoll.testing import RiggedResolver
from tests.kariba.scenario import GAME, hand, play, seat_to_move, start


def test_the_deck_is_eight_cards_of_each_of_eight_animals() -> None:
    """K1: 64 cards, eight of each animal 1 (mouse) to 8 (elephant), shuffled as one pile."""
    step = GAME.next(GAME.setup(GAME.configure(2)))
    assert isinstance(step, Chance) and isinstance(step.request, Shuffle)
    assert Counter(step.request.faces) == {animal: 8 for animal in range(1, 9)}


@pytest.mark.parametrize("seats", [1, 5])
def test_only_two_to_four_players_may_play(seats: int) -> None:
    """K1: Kariba is for 2-4 players."""
    with pytest.raises(IllegalAction, match="2-4 seats"):
        GAME.configure(seats)


def test_every_player_is_dealt_five_cards_in_one_deal() -> None:
    """K2: after the shuffle one deal gives five cards to every seat, from the top of the deck."""
    match = Match(GAME, GAME.configure(3), RiggedResolver())
    match.advance()
    step = match.step()
    assert isinstance(step, Chance) and isinstance(step.request, Deal)
    assert step.request.to == ((0, HANDLES[0:5]), (1, HANDLES[5:10]), (2, HANDLES[10:15]))


def test_the_cards_not_dealt_form_the_draw_pile() -> None:
    """K2: each seat sees its own five cards; the rest of the 64 cards are the draw pile."""
    match = start([[1, 2, 3, 4, 5], [8, 8, 7, 7, 6]])
    assert hand(match, 0) == [1, 2, 3, 4, 5]
    assert hand(match, 1) == [6, 7, 7, 8, 8]
    assert match.view(0)["pile"] == 64 - 10
    assert match.view(0)["hand_sizes"] == [5, 5]


def test_seat_zero_begins_and_turns_pass_in_seat_order() -> None:
    """K3: seat 0 plays first; then seat 1, seat 2, and back to seat 0."""
    match = start([[1] * 5, [2] * 5, [3] * 5])
    seats = []
    for text in ["play 1 mouse", "play 1 meerkat", "play 1 zebra", "play 1 mouse"]:
        seats.append(seat_to_move(match))
        play(match, text)
    assert seats == [0, 1, 2, 0]
