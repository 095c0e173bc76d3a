"""Dice Under Cups (Liar's Dice), an atoll game plugin: the hooks atoll calls to find it and its bot.

This is the worked example behind ``scripts/new-plugin --example dice-under-cups NAME DIR``: a game
whose dice only their owner sees (a private roll). As a plugin it is found through the
``atoll.games`` entry point in its pyproject.toml.
"""

from __future__ import annotations

from atoll import BotKind, Game, hookimpl

from .bots import make_odds_bot
from .game import DiceUnderCups

__all__ = ["DiceUnderCups", "atoll_bots", "atoll_games"]


@hookimpl
def atoll_games() -> list[Game]:
    """Contribute Dice Under Cups."""
    return [DiceUnderCups()]


@hookimpl
def atoll_bots() -> list[BotKind]:
    """Contribute the odds bot, for Dice Under Cups only (atoll's own bots play every game)."""
    return [BotKind("odds", "bids what the odds of the hidden dice support, calls the rest a lie",
                    make_odds_bot, games=("dice_under_cups",))]
