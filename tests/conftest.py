"""Shared fixtures: the test games and a match factory."""

from __future__ import annotations

import pytest

from atoll.engine import LocalResolver, Match
from atoll.game import Game
from tests.games.highcard import HighCard


@pytest.fixture
def highcard() -> Game:
    """The high-card test game."""
    return HighCard()


@pytest.fixture
def highcard_match(highcard: Game) -> Match:
    """A fresh three-seat high-card match on a seeded local resolver."""
    return Match(highcard, highcard.configure(3), LocalResolver(11))
