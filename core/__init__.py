"""atoll: peer-to-peer tabletop games for LAN parties. This module is the game-author API."""

from atoll.bots.base import Bot, BotKind
from atoll.chance import Deal, Kind, Pick, Request, Reveal, Roll, Shuffle
from atoll.engine.ledger import Ledger
from atoll.engine.observation import Observation
from atoll.errors import (
    AmbiguousAction,
    AtollError,
    CheatDetected,
    IllegalAction,
    MalformedInput,
    PluginError,
    ProtocolViolation,
    UnknownAction,
)
from atoll.game import Fragments, Game
from atoll.hookspecs import hookimpl
from atoll.jsondata import JSON, clone
from atoll.tensors import Tensors
from atoll.types import (
    Action,
    Chance,
    Config,
    Decision,
    End,
    GameInfo,
    Knowledge,
    Results,
    State,
    Step,
)

__all__ = [
    "JSON",
    "Action",
    "AmbiguousAction",
    "AtollError",
    "Bot",
    "BotKind",
    "Chance",
    "CheatDetected",
    "Config",
    "Deal",
    "Decision",
    "End",
    "Fragments",
    "Game",
    "GameInfo",
    "IllegalAction",
    "Kind",
    "Knowledge",
    "Ledger",
    "MalformedInput",
    "Observation",
    "Pick",
    "PluginError",
    "ProtocolViolation",
    "Request",
    "Results",
    "Reveal",
    "Roll",
    "Shuffle",
    "State",
    "Step",
    "Tensors",
    "UnknownAction",
    "clone",
    "hookimpl",
]
