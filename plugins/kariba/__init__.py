"""Kariba, a card game by Reiner Knizia for 2-4 players, as an atoll plugin."""

from atoll import Game, hookimpl
from atoll.plugins.kariba.game import Kariba

__all__ = ["Kariba", "atoll_games"]


@hookimpl
def atoll_games() -> list[Game]:
    """Contribute Kariba."""
    return [Kariba()]
