"""Local games: setting one up (people at the first seats, bots at the others) or resuming a save."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from atoll.bots.base import BotKind
from atoll.client.local_table import LocalTable
from atoll.client.model import GameModel, bot_seats
from atoll.client.saves import read_save
from atoll.engine.local import LocalResolver
from atoll.engine.match import Match
from atoll.engine.save import save
from atoll.errors import AtollError, CorruptSave
from atoll.game import Game
from atoll.jsondata import digest
from atoll.numbering import seat_label
from atoll.registry import Registry
from atoll.types import Config

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
        raise SetupError(f"{seat_label(seat)} does not exist: {game.info.title} has seats 1-{config.seats} "
                         "here")
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


def new_local_table(
    registry: Registry,
    name: str,
    *,
    seed: int,
    seats: int | None = None,
    variant: str | None = None,
    humans: int = 1,
    seat: int = 0,
    bots: Sequence[str] = (),
    names: Mapping[int, str] | None = None,
    save_path: Path | None = None,
    pace: float = 0.0,
) -> LocalTable:
    """A local table of ``name``: one person at ``seat``, or ``humans`` people at the first seats, and
    bots of kinds ``bots`` at the others (one kind per bot seat, one for all, or none for the default),
    saved to ``save_path`` as it goes."""
    game = registry.game(name)
    config = game.configure(seats, variant)
    if not 1 <= humans <= config.seats:
        raise SetupError(f"{humans} people cannot sit at {config.seats} seats: give --humans 1-{config.seats}"
                         if config.seats > 1 else f"{humans} people cannot sit at one seat")
    if not 0 <= seat < config.seats:
        raise SetupError(f"{seat_label(seat)} does not exist: {game.info.title} has seats 1-{config.seats} "
                         "here")
    if humans > 1 and seat != 0:
        raise SetupError("with several people at one terminal they take the first seats; leave out --seat")
    people = [seat] if humans == 1 else list(range(humans))
    others = [s for s in range(config.seats) if s not in people]
    kinds = (list(bots) or [default_bot(registry, game.info.name)]) if others else []
    if len(kinds) == 1:
        kinds *= len(others)
    if len(kinds) != len(others):
        raise SetupError(
            f"{len(kinds)} bot kinds given for {len(others)} bot seats; give one kind, or one per bot seat"
        )
    return _table(registry, game, config, seed, people, dict(zip(others, kinds, strict=True)),
                  names or {}, save_path, pace)


def _table(
    registry: Registry, game: Game, config: Config, seed: int, humans: list[int], kinds: Mapping[int, str],
    names: Mapping[int, str], save_path: Path | None, pace: float,
) -> LocalTable:
    chosen = {seat: registry.bot(kind, game.info.name) for seat, kind in kinds.items()}
    agents = {seat: kind.make(game, seat, bot_seed(seed, seat)) for seat, kind in chosen.items()}
    labels = {seat: f"{kind.name} bot" for seat, kind in chosen.items()}
    return LocalTable(game, config, seed, humans=humans, bots=agents, labels=labels, names=names,
                      save_path=save_path, pace=pace)


def resume_local_table(registry: Registry, path: Path, *, pace: float = 0.0) -> LocalTable:
    """The unfinished game saved at ``path``, played again up to where it stopped and saved there as it
    goes on. Raises :class:`CorruptSave` (naming the line) or :class:`SetupError` when it cannot."""
    found = read_save(path)
    saved = found.saved
    if found.finished:
        raise SetupError(f"the game in {path} is finished; watch it with: atoll replay {path}")
    if saved.seed is None:
        raise SetupError(f"{path} has no seed (it was not a local game), so it cannot be resumed here")
    game = registry.game(saved.game)
    try:
        config = game.configure(saved.config.seats, saved.config.variant, saved.config.options)
    except AtollError as exc:
        raise CorruptSave(f"{path}:1: {exc}") from exc
    record = found.client
    try:
        humans = sorted(int(seat) for seat in record.get("humans", [0]))
        kinds = {int(seat): str(kind) for seat, kind in record.get("bots", {}).items()}
        names = {int(seat): str(name) for seat, name in record.get("names", {}).items()}
    except (AttributeError, TypeError, ValueError) as exc:
        raise CorruptSave(f"{path}: the last line's record of who plays which seat is malformed") from exc
    if not kinds and not record:  # a save written by the line client: the player at seat 0, bots elsewhere
        kinds = {seat: default_bot(registry, game.info.name) for seat in range(1, config.seats)}
    if sorted([*humans, *kinds]) != list(range(config.seats)):
        raise CorruptSave(f"{path}: the last line's record of who plays which seat does not fit the game")
    table = _table(registry, game, config, saved.seed, humans, kinds, names, path, pace)
    try:
        table.redrive(saved.events, saved.faces)
    except CorruptSave as exc:
        raise CorruptSave(f"{path}:{str(exc).removeprefix('line ')}") from exc
    return table


def rematch_table(
    registry: Registry, table: LocalTable, *, seed: int, save_path: Path | None, pace: float = 0.0
) -> LocalTable:
    """Another game of ``table``'s game with the same people, bots and settings, new chance (``seed``)."""
    record = table.client_record()
    kinds = {int(seat): str(kind) for seat, kind in record["bots"].items()}
    return _table(registry, table.game, table.config, seed, list(table.humans()), kinds,
                  {seat: table.who(seat) for seat in table.humans() if table.named(seat)}, save_path, pace)
