"""The random bot: a uniformly random legal action, from its own seeded generator."""

from __future__ import annotations

import random

from atoll.engine.observation import Observation
from atoll.game import Game
from atoll.types import Action


class RandomBot:
    """Plays a uniformly random legal action."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def choose(self, observation: Observation) -> Action:
        """A random one of the legal actions."""
        return self._rng.choice(observation.legal)


def make_random_bot(game: Game, seat: int, seed: int) -> RandomBot:
    """Build a random bot for ``seat`` of ``game``."""
    return RandomBot(seed)
