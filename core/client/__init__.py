"""The terminal client: a model of the game being played, and the prompt that plays it."""

from atoll.client.console import Console
from atoll.client.local import LocalGame, SetupError, start_local_game
from atoll.client.model import GameModel
from atoll.client.prompt import Ending, PromptClient, SessionResult
from atoll.client.source import LogLine

__all__ = [
    "Console",
    "Ending",
    "GameModel",
    "LocalGame",
    "LogLine",
    "PromptClient",
    "SessionResult",
    "SetupError",
    "start_local_game",
]
