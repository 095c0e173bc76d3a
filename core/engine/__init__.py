"""The engine: matches, the turn loop, resolvers, saves and replays."""

from atoll.engine.ledger import Ledger, Seal
from atoll.engine.local import LocalResolver
from atoll.engine.loop import StuckGame, observe, run
from atoll.engine.match import Event, Match
from atoll.engine.observation import Agent, Observation
from atoll.engine.resolver import Resolution, Resolver
from atoll.engine.save import ReplayResolver, SavedGame, load, replay, save

__all__ = [
    "Agent",
    "Event",
    "Ledger",
    "LocalResolver",
    "Match",
    "Observation",
    "ReplayResolver",
    "Resolution",
    "Resolver",
    "SavedGame",
    "Seal",
    "StuckGame",
    "load",
    "observe",
    "replay",
    "run",
    "save",
]
