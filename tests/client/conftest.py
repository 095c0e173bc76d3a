"""Fixtures for the client: High Card with a stacked deck, so every hand is known in advance."""

from __future__ import annotations

import pytest

from atoll.bots.random_bot import RandomBot
from atoll.client.model import GameModel
from atoll.engine import Match
from atoll.testing import RiggedResolver
from tests.games.highcard import HighCard

#: Deck order, top first: you (seat 0) get 8 and 1, the bot (seat 1) 2 and 3.
STACKED = [8, 1, 2, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 1, 2, 3]


def stacked_model(seats: int = 2, *, rolls: tuple[int, ...] = (6,)) -> GameModel:
    """A High Card model with you at seat 0, random bots elsewhere, the deck stacked as STACKED."""
    game = HighCard()
    resolver = RiggedResolver(3, piles={"deck": STACKED}, rolls=rolls)
    match = Match(game, game.configure(seats), resolver)
    bots = {seat: RandomBot(seat) for seat in range(1, seats)}
    return GameModel(match, 0, bots, seed=3, labels={seat: "random bot" for seat in bots})


@pytest.fixture
def model() -> GameModel:
    """A two-seat stacked High Card model, not yet advanced."""
    return stacked_model()
