"""What a seat's agent (a person or a bot) is given when it must decide: only what it may know."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from atoll.engine.ledger import Ledger
from atoll.game import Game
from atoll.types import Action, Config, Knowledge, State


@dataclass(frozen=True)
class Observation:
    """One seat's information set at a decision.

    ``state`` is the public state (it never holds a hidden face), ``known`` the
    seat's private knowledge, ``ledger`` the public record of hidden cards
    (treat it as read-only). Nothing here reveals another seat's secrets.
    """

    game: Game
    config: Config
    seat: int
    state: State
    known: Knowledge
    ledger: Ledger
    legal: list[Action]
    secret: bool = False


class Agent(Protocol):
    """Chooses actions for one seat."""

    def choose(self, observation: Observation) -> Action:
        """One of ``observation.legal``."""
        ...
