"""Bot kinds: how a plugin contributes a bot, and the interface every bot has."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from atoll.engine.observation import Agent
from atoll.game import Game

#: A bot is an agent: it gets an Observation (its seat's information only) and returns an action.
Bot = Agent


@dataclass(frozen=True)
class BotKind:
    """A kind of bot: ``make(game, seat, seed)`` builds one for a seat of a game.

    ``games`` names the games it can play; ``None`` means any game.
    """

    name: str
    summary: str
    make: Callable[[Game, int, int], Bot]
    games: tuple[str, ...] | None = None

    def plays(self, game: str) -> bool:
        """Whether this kind can play ``game``."""
        return self.games is None or game in self.games
