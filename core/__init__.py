"""atoll: peer-to-peer tabletop games for LAN parties. This module is the game-author API.

Its names are loaded when first used (PEP 562), so that importing a lower layer, such as
``atoll.net``, does not load the engine, the bots and the game API with it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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
    from atoll.guide import Guide
    from atoll.hookspecs import hookimpl
    from atoll.jsondata import JSON, clone
    from atoll.numbering import seat_label
    from atoll.scoresheet import ScoreLine, ScoreSheet, places_by
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

#: Where each public name lives.
_HOMES: dict[str, str] = {
    "Action": "atoll.types",
    "AmbiguousAction": "atoll.errors",
    "AtollError": "atoll.errors",
    "Bot": "atoll.bots.base",
    "BotKind": "atoll.bots.base",
    "Chance": "atoll.types",
    "CheatDetected": "atoll.errors",
    "clone": "atoll.jsondata",
    "Config": "atoll.types",
    "Deal": "atoll.chance",
    "Decision": "atoll.types",
    "End": "atoll.types",
    "Fragments": "atoll.game",
    "Game": "atoll.game",
    "GameInfo": "atoll.types",
    "Guide": "atoll.guide",
    "hookimpl": "atoll.hookspecs",
    "IllegalAction": "atoll.errors",
    "JSON": "atoll.jsondata",
    "Kind": "atoll.chance",
    "Knowledge": "atoll.types",
    "Ledger": "atoll.engine.ledger",
    "MalformedInput": "atoll.errors",
    "Observation": "atoll.engine.observation",
    "Pick": "atoll.chance",
    "PluginError": "atoll.errors",
    "ProtocolViolation": "atoll.errors",
    "Request": "atoll.chance",
    "Results": "atoll.types",
    "Reveal": "atoll.chance",
    "Roll": "atoll.chance",
    "ScoreLine": "atoll.scoresheet",
    "ScoreSheet": "atoll.scoresheet",
    "places_by": "atoll.scoresheet",
    "seat_label": "atoll.numbering",
    "Shuffle": "atoll.chance",
    "State": "atoll.types",
    "Step": "atoll.types",
    "Tensors": "atoll.tensors",
    "UnknownAction": "atoll.errors",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'atoll' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # found once; later lookups do not come here
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_HOMES])


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
    "Guide",
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
    "ScoreLine",
    "ScoreSheet",
    "Shuffle",
    "State",
    "Step",
    "Tensors",
    "UnknownAction",
    "clone",
    "hookimpl",
    "places_by",
    "seat_label",
]
