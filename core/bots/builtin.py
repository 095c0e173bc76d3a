"""The built-in bot kinds, contributed through the bot hook like any plugin's."""

from __future__ import annotations

from atoll.bots.base import Bot, BotKind
from atoll.bots.random_bot import make_random_bot
from atoll.game import Game
from atoll.hookspecs import hookimpl

#: What ``atoll games`` and the help say of the search bot.
SEARCH_SUMMARY = "Monte Carlo tree search over guesses at the hidden cards"


def make_search_bot(game: Game, seat: int, seed: int) -> Bot:
    """Make the default search bot, importing the search only now: listing the games need not."""
    from atoll.bots.search import make_search_bot as make

    return make(game, seat, seed)


@hookimpl
def atoll_bots() -> list[BotKind]:
    """The random bot and the search bot, for every game."""
    return [
        BotKind("random", "a uniformly random legal action", make_random_bot),
        BotKind("search", SEARCH_SUMMARY, make_search_bot),
    ]
