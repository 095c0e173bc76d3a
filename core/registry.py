"""Plugin discovery: load the ``atoll.games`` entry points, collect games and bots.

Bootstrap in one place and one order: hookspecs, entry points, built-in bots,
``check_pending``. A plugin that fails to import or breaks the API is reported
with its name and the reason; every other game still loads.
"""

from __future__ import annotations

import functools
import importlib
import importlib.metadata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import ModuleType

import pluggy

from atoll import hookspecs
from atoll.bots.base import BotKind
from atoll.errors import PluginError, PluginFault, UnknownGame
from atoll.game import Game
from atoll.guard import GuardedGame, call_limit, guard, within
from atoll.pin import GamePin, pin_module

ENTRY_POINT_GROUP = "atoll.games"


@dataclass(frozen=True)
class InstalledGame:
    """A game (behind its guard) and where it comes from: the plugin name, the distribution that
    provides it and its version, and the plugin's module (whose package's code the game's pin digests)."""

    game: Game
    plugin: str
    source: str
    version: str = "unknown"
    module: str = ""
    """The plugin's module (empty: the module of the game's class)."""


@dataclass(frozen=True)
class Claim:
    """One plugin's claim to a game name: the plugin and the distribution (and version) it comes from."""

    plugin: str
    source: str
    version: str


@dataclass
class GameConflict:
    """A game name that two or more plugins claim. None of them is loaded under it: which one won
    would depend on the order the entry points happen to come in (docs/decisions/0025-authors.md)."""

    name: str
    claims: list[Claim]

    @property
    def reason(self) -> str:
        """What is wrong and what to do, without the game's name: ``provided by both atoll 1.0 and
        atoll-kariba 0.1: neither loads; uninstall one (pip uninstall atoll-kariba)``."""
        sources = [c.source for c in self.claims]
        shared = len(set(sources)) < len(sources)  # one distribution twice: its plugins tell them apart
        texts = [c.source + (f" {c.version}" if c.version != "unknown" else "")
                 + (f" (plugin {c.plugin!r})" if shared else "") for c in self.claims]
        listed = ", ".join(texts[:-1]) + f" and {texts[-1]}"
        both = "both " if len(texts) == 2 else "each of "
        outside = [s for s in dict.fromkeys(sources) if s != "atoll"]
        if len(set(sources)) == 1:
            fix = f"give one of {sources[0]}'s games another name"
        else:
            fix = f"uninstall one (pip uninstall {outside[-1]})"
        return f"provided by {both}{listed}: neither loads; {fix}"

    def __str__(self) -> str:
        return f"game {self.name!r} is {self.reason}"


@dataclass
class Registry:
    """Every installed game and bot kind, the game names several plugins claim, and the plugins that
    could not be loaded."""

    games: dict[str, InstalledGame] = field(default_factory=dict)
    bots: dict[str, BotKind] = field(default_factory=dict)
    problems: list[PluginError] = field(default_factory=list)
    conflicts: dict[str, GameConflict] = field(default_factory=dict)

    def game(self, name: str) -> Game:
        """The game called ``name``; raises :class:`UnknownGame` listing the installed ones, or naming
        the plugins that all claim ``name``."""
        if name in self.conflicts:
            raise UnknownGame(str(self.conflicts[name]))
        try:
            return self.games[name].game
        except KeyError:
            installed = ", ".join(sorted(self.games)) or "none"
            raise UnknownGame(f"no game {name!r} is installed (installed: {installed})") from None

    def bot(self, kind: str, game: str) -> BotKind:
        """The bot kind ``kind`` for ``game``; raises :class:`UnknownGame` if it cannot play it."""
        found = self.bots.get(kind)
        if found is None or not found.plays(game):
            usable = ", ".join(sorted(k for k, b in self.bots.items() if b.plays(game)))
            raise UnknownGame(f"no bot kind {kind!r} plays {game} (kinds for {game}: {usable})")
        return found

    def pin(self, name: str) -> GamePin:
        """The pin of the installed game ``name``: what a table opened here writes into its ``open``
        entry. Raises :class:`UnknownGame` as :meth:`game` does."""
        self.game(name)
        installed = self.games[name]
        # imported already, as the plugin loaded; a game registered by hand stands for its plugin
        game = installed.game.game if isinstance(installed.game, GuardedGame) else installed.game
        module = importlib.import_module(installed.module or type(game).__module__)
        return pin_module(module, installed.source, installed.version)

    def installed_pin(self, name: str) -> GamePin | None:
        """The pin of the game ``name`` as installed here, ``None`` if it is not: what a table's pin
        is compared with."""
        return self.pin(name) if name in self.games else None

    def bots_for(self, game: str) -> list[BotKind]:
        """The bot kinds that can play ``game``."""
        return [b for b in self.bots.values() if b.plays(game)]


def plugin_manager() -> pluggy.PluginManager:
    """A plugin manager that knows atoll's hookspecs and nothing else yet."""
    manager = pluggy.PluginManager("atoll")
    manager.add_hookspecs(hookspecs)
    return manager


def load_registry(
    *, entry_points: bool = True, extra: Iterable[tuple[str, object]] = (), limit: float | None = None
) -> Registry:
    """Discover every plugin and build the registry; every game in it is guarded
    (:class:`~atoll.guard.GuardedGame`).

    :param entry_points: load the ``atoll.games`` entry-point group (off in some tests).
    :param extra: further ``(name, plugin)`` pairs to register, as tests and hosts do.
    :param limit: seconds a plugin may take to load, to contribute its games, or in one call of its
        game (default: :func:`~atoll.guard.call_limit`).
    """
    manager = plugin_manager()
    registry = Registry()
    limit = call_limit() if limit is None else limit
    sources: dict[str, tuple[str, str]] = {}
    tops: dict[str, str] = {}
    if entry_points:
        for entry in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
            dist = entry.dist.name if entry.dist is not None else "unknown"
            version = entry.dist.version if entry.dist is not None else "unknown"
            # Two distributions may name their entry points alike (both `kariba`); pluggy refuses a
            # name twice, so the later one is told apart by its distribution and its games still load.
            name = entry.name if manager.get_plugin(entry.name) is None else f"{entry.name}@{dist}"
            try:
                plugin = within(entry.load, limit)  # a plugin that hangs at import must not hang the rest
            except TimeoutError as exc:
                registry.problems.append(PluginError(name, f"did not finish loading: {exc}"))
                continue
            except Exception as exc:  # a broken plugin must not take the others down
                registry.problems.append(PluginError(name, f"failed to load: {exc!r}"))
                continue
            if manager.is_registered(plugin):
                loaded = manager.get_name(plugin)
                problem = f"loads {entry.value}, as plugin {loaded!r} does: its games count once"
                registry.problems.append(PluginError(name, problem))
                continue
            manager.register(plugin, name=name)
            sources[name] = (dist, version)
            # The distribution of an entry point also names the source of any other plugin
            # module under the same top-level package, without scanning every installed one.
            tops.setdefault(entry.value.split(".")[0].split(":")[0], dist)
    from atoll.bots import builtin

    manager.register(builtin, name="atoll.bots")
    for name, plugin in extra:
        manager.register(plugin, name=name)
    manager.check_pending()
    for name, plugin in manager.list_name_plugin():
        if plugin is None:
            continue
        source, version = sources[name] if name in sources else _module_source(plugin, tops)
        _collect(manager, registry, name, plugin, (source, version), limit)
    return registry


def _module_source(plugin: object, known: Mapping[str, str]) -> tuple[str, str]:
    """The distribution that installed ``plugin`` (or its top-level package's name) and its version."""
    top = _module_of(plugin).split(".")[0]
    if top in known:
        source = known[top]
    else:
        try:
            source = _distributions().get(top, [top])[0]
        except Exception:
            source = top
    try:
        return source, importlib.metadata.version(source)
    except (importlib.metadata.PackageNotFoundError, ValueError):
        return source, "unknown"


def _module_of(plugin: object) -> str:
    """The name of the module a plugin is (or whose class it is an instance of)."""
    return plugin.__name__ if isinstance(plugin, ModuleType) else type(plugin).__module__


@functools.cache
def _distributions() -> Mapping[str, list[str]]:
    """Top-level package -> distributions; cached, as it reads every installed package's files."""
    return importlib.metadata.packages_distributions()


def _collect(
    manager: pluggy.PluginManager, registry: Registry, name: str, plugin: object, source: tuple[str, str],
    limit: float,
) -> None:
    others = [p for p in manager.get_plugins() if p is not plugin]
    for hook in ("atoll_games", "atoll_bots"):
        caller = manager.subset_hook_caller(hook, remove_plugins=others)
        try:
            contributed = within(functools.partial(_contributions, caller), limit)
        except TimeoutError as exc:
            registry.problems.append(PluginError(name, f"{hook} did not answer: {exc}"))
            continue
        except Exception as exc:  # pluggy re-raises the plugin's own error here
            registry.problems.append(PluginError(name, f"{hook} raised {exc!r}"))
            continue
        for item in contributed:
            problem = _add(registry, name, source, _module_of(plugin), item, limit)
            if problem:
                registry.problems.append(PluginError(name, problem))


def _contributions(caller: Callable[[], list[list[object] | None]]) -> list[object]:
    """Every item the plugins' answers to a hook hold."""
    return [item for result in caller() for item in (result or [])]


def _add(
    registry: Registry, plugin: str, source: tuple[str, str], module: str, item: object, limit: float
) -> str | None:
    if isinstance(item, BotKind):
        if item.name in registry.bots:
            return f"bot kind {item.name!r} is already provided by another plugin"
        registry.bots[item.name] = item
        return None
    if not isinstance(item, Game):
        return f"contributed {item!r}, which is neither an atoll.Game nor an atoll.BotKind"
    name = getattr(getattr(item, "info", None), "name", None)
    if not isinstance(name, str):
        return f"game {type(item).__name__} has no GameInfo in 'info'"
    claim = Claim(plugin, source[0], source[1])
    if name in registry.conflicts:
        registry.conflicts[name].claims.append(claim)
        return None
    if name in registry.games:
        first = registry.games.pop(name)
        registry.conflicts[name] = GameConflict(name, [Claim(first.plugin, first.source, first.version)])
        registry.conflicts[name].claims.append(claim)
        return None
    game = guard(item, source[0], limit)
    problem = _smoke_test(game)
    if problem:
        return f"game {name!r} breaks the game API: {problem}"
    registry.games[name] = InstalledGame(game, plugin, source[0], source[1], module)
    return None


def _smoke_test(game: Game) -> str | None:
    """Set the game up once and ask its first step: catches a plugin broken at the root."""
    try:
        state = game.setup(game.configure())
        game.next(state)
    except PluginFault as exc:
        return f"{exc.method}: {exc.message}"
    except Exception as exc:
        return repr(exc)
    return None
