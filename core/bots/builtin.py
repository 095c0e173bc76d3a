"""The built-in bot kinds, contributed through the bot hook like any plugin's."""

from __future__ import annotations

from atoll.bots.base import BotKind
from atoll.bots.random_bot import make_random_bot
from atoll.bots.search import search_kind
from atoll.hookspecs import hookimpl


@hookimpl
def atoll_bots() -> list[BotKind]:
    """The random bot and the search bot, for every game."""
    return [
        BotKind("random", "a uniformly random legal action", make_random_bot),
        search_kind(),
    ]
