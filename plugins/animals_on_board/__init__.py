"""Animals on Board (zur Linde and Sentker, 2016) for 2-4 players as an atoll plugin.

The rules page is ``docs/rules/animals-on-board.md``; every rule there (A1, A2, ...) has a
scenario test in ``tests/animals_on_board``.
"""

from atoll import Bot, BotKind, Game, hookimpl
from atoll.plugins.animals_on_board.game import AnimalsOnBoard

__all__ = ["AnimalsOnBoard", "atoll_bots", "atoll_games"]


def make_ark_bot(game: Game, seat: int, seed: int) -> Bot:
    """Make the bot, importing it only now: listing the games need not load every bot."""
    from atoll.plugins.animals_on_board.bot import make_ark_bot as make

    return make(game, seat, seed)


@hookimpl
def atoll_games() -> list[Game]:
    """Contribute Animals on Board."""
    return [AnimalsOnBoard()]


@hookimpl
def atoll_bots() -> list[BotKind]:
    """Contribute the ark bot, which weighs each take against the herds and pairs it makes."""
    return [
        BotKind(
            "ark", "ranks takes and splits by the herds and pairs they make, then tries the best in playouts",
            make_ark_bot, games=("animals_on_board",),
        )
    ]
