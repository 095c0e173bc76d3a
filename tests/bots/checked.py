"""A bot wrapper for tests: every choice is checked against the legal actions the bot was offered."""

from __future__ import annotations

from atoll import Action
from atoll.bots.base import Bot
from atoll.engine.observation import Observation


class Checked:
    """Plays as ``bot`` does, failing the test at once if it chooses an action it was not offered."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    def choose(self, seen: Observation) -> Action:
        action = self.bot.choose(seen)
        assert action in seen.legal, f"{action!r} is not among the legal actions"
        return action
