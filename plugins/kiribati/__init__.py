"""Kiribati (Spieltrieb, 2022) for 2-5 players as an atoll plugin: children, family and professional.

The rules page is ``docs/rules/kiribati.md``; every rule there (K1, K2, ...) has a
scenario test in ``tests/kiribati``.
"""

from atoll import Bot, BotKind, Game, hookimpl
from atoll.plugins.kiribati.game import Kiribati

__all__ = ["Kiribati", "atoll_bots", "atoll_games"]


def make_kiribati_bot(game: Game, seat: int, seed: int) -> Bot:
    """Make the bot, importing it only now: listing the games need not load every bot."""
    from atoll.plugins.kiribati.bot import make_kiribati_bot as make

    return make(game, seat, seed)


@hookimpl
def atoll_games() -> list[Game]:
    """Contribute Kiribati."""
    return [Kiribati()]


@hookimpl
def atoll_bots() -> list[BotKind]:
    """Contribute the Kiribati bot, which plans each turn with a heuristic evaluation."""
    return [
        BotKind(
            "kiribati", "plans each turn: rescues animals, uses its cards, avoids obvious losses",
            make_kiribati_bot, games=("kiribati",),
        )
    ]
