"""The built-in bot kinds, contributed through the bot hook like any plugin's."""

from __future__ import annotations

from atoll.bots.base import BotKind
from atoll.bots.random_bot import make_random_bot
from atoll.bots.search import make_search_bot
from atoll.hookspecs import hookimpl


@hookimpl
def atoll_bots() -> list[BotKind]:
    """The random bot and the search bot, for every game."""
    return [
        BotKind("random", "a uniformly random legal action", make_random_bot),
        BotKind("search", "Monte Carlo tree search over guesses at the hidden cards", make_search_bot),
    ]
