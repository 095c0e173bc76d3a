"""A local game against bots: the seeded resolver, the bots at the other seats, and its save."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from atoll.bots.base import BotKind
from atoll.client.model import GameModel, bot_seats
from atoll.engine.local import LocalResolver
from atoll.engine.match import Match
from atoll.engine.save import save
from atoll.errors import AtollError
from atoll.jsondata import digest
from atoll.registry import Registry

#: The bot kind to use when none is named, if a plugin provides it; else the first fallback.
PREFERRED_BOTS = ("search", "random")


class SetupError(AtollError):
    """A local game that cannot be set up as asked (seat out of range, wrong number of bot kinds)."""


@dataclass(frozen=True)
class LocalGame:
    """A game on this machine: the model the client draws, and the resolver that holds every secret."""

    model: GameModel
    resolver: LocalResolver

    def save(self, path: Path) -> None:
        """Write the game (finished or not) to ``path`` as `atoll replay` reads it; never overwrites."""
        save(self.model.match, path, seed=self.resolver.seed, faces=self.resolver.faces())


def default_bot(registry: Registry, game: str) -> str:
    """The bot kind for ``game`` when none is named: a bot made for that game if a plugin offers
    one (it knows the game better than any general bot), else ``search``, else ``random``."""
    kinds = registry.bots_for(game)
    specific = sorted(kind.name for kind in kinds if kind.games is not None)
    if specific:
        return specific[0]
    usable = {kind.name for kind in kinds}
    for name in PREFERRED_BOTS:
        if name in usable:
            return name
    raise SetupError(f"no bot kind plays {game}; install one, or play with a single seat")


def bot_seed(seed: int, seat: int) -> int:
    """Each bot's own seed, derived from the game's, so one ``--seed`` reproduces the whole game."""
    return int(digest(["atoll.client.bot", seed, seat])[:12], 16)


def start_local_game(
    registry: Registry,
    name: str,
    *,
    seed: int,
    seats: int | None = None,
    variant: str | None = None,
    seat: int = 0,
    bots: Sequence[str] = (),
) -> LocalGame:
    """Set up ``name`` with the player at ``seat`` and bots of kinds ``bots`` at the other seats.

    ``bots`` holds one kind for every bot seat, or a single kind for all of
    them, or nothing (the default kind). Chance comes from a resolver seeded
    with ``seed``.
    """
    game = registry.game(name)
    config = game.configure(seats, variant)
    if not 0 <= seat < config.seats:
        raise SetupError(f"seat {seat} does not exist: {game.info.title} has seats 0-{config.seats - 1} here")
    others = bot_seats(config.seats, seat)
    kinds = list(bots) or [default_bot(registry, name)]
    if len(kinds) == 1:
        kinds *= len(others)
    if len(kinds) != len(others):
        raise SetupError(
            f"{len(kinds)} bot kinds given for {len(others)} bot seats; give one kind, or one per bot seat"
        )
    chosen: list[BotKind] = [registry.bot(kind, name) for kind in kinds]
    resolver = LocalResolver(seed)
    match = Match(game, config, resolver)
    agents = {s: kind.make(game, s, bot_seed(seed, s)) for s, kind in zip(others, chosen, strict=True)}
    labels = {s: f"{kind.name} bot" for s, kind in zip(others, chosen, strict=True)}
    model = GameModel(match, seat, agents, seed=seed, labels=labels)
    return LocalGame(model, resolver)
