"""Survival of the Fittest for 2-4 players as an atoll plugin, on a board we designed.

The rules page is ``docs/rules/survival.md``; every rule there (S1, S2, ...) has a scenario
test in ``tests/survival``.
"""

from atoll import Bot, BotKind, Game, hookimpl
from atoll.plugins.survival.game import Survival

__all__ = ["Survival", "atoll_bots", "atoll_games"]


def make_survival_bot(game: Game, seat: int, seed: int) -> Bot:
    """Make the bot, importing it only now: listing the games need not load every bot."""
    from atoll.plugins.survival.bot import make_survival_bot as make

    return make(game, seat, seed)


@hookimpl
def atoll_games() -> list[Game]:
    """Contribute Survival of the Fittest."""
    return [Survival()]


@hookimpl
def atoll_bots() -> list[BotKind]:
    """Contribute the Survival bot, which hunts with its predator and keeps its prey out of reach."""
    return [
        BotKind("survival", "hunts the richest prey in reach, moves its own prey out of danger",
                make_survival_bot, games=("survival",))
    ]
