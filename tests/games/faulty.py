"""Games that fail on purpose: High Card broken in one method each, one that loops, one that refuses.

Each breaks only once the game is under way (the registry's smoke test sets a game up and asks its
first step), except ``setup``, which breaks in the ``quick`` variant only. Installed as the plugin
module of the ``faulty-games`` test distribution (see ``tests/test_faults.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from atoll import (
    JSON,
    Action,
    Config,
    Fragments,
    Game,
    GameInfo,
    IllegalAction,
    Request,
    Reveal,
    Roll,
    State,
    Step,
    hookimpl,
)
from tests.games.highcard import HighCard

#: The game API's methods a plugin implements; each has a game here that raises in it.
METHODS = ("setup", "next", "legal_actions", "apply", "resolve", "view", "render", "describe")


class Broken(RuntimeError):
    """What the broken games raise: an error the game API does not document."""


def raising_name(method: str) -> str:
    """The name of the game that raises in ``method``."""
    return "raises_in_" + method


class _Raising(HighCard):
    """High Card that raises :class:`Broken` in :attr:`broken` once the game is under way."""

    broken = ""

    def _trip(self, method: str, when: bool = True) -> None:
        if method == self.broken and when:
            raise Broken(f"{method} is broken on purpose")

    def setup(self, config: Config) -> State:
        self._trip("setup", config.variant == "quick")
        return super().setup(config)

    def next(self, state: State) -> Step:
        self._trip("next", state["phase"] == "roll")
        return super().next(state)

    def legal_actions(self, state: State, seat: int, known: Mapping[str, Any]) -> list[Action]:
        self._trip("legal_actions", state["phase"] == "play")
        return super().legal_actions(state, seat, known)

    def apply(self, state: State, action: Action) -> State:
        self._trip("apply", state["phase"] == "play")
        return super().apply(state, action)

    def resolve(self, state: State, request: Request, outcome: Mapping[str, JSON]) -> State:
        self._trip("resolve", isinstance(request, Roll))
        return super().resolve(state, request, outcome)

    def view(self, state: State, seat: int | None, known: Mapping[str, Any]) -> dict[str, JSON]:
        self._trip("view")
        return super().view(state, seat, known)

    def render(self, view: Mapping[str, JSON]) -> Fragments:
        self._trip("render")
        return super().render(view)

    def describe(self, state: State, action: Action) -> str:
        self._trip("describe")
        return super().describe(state, action)


def raising_in(method: str) -> Game:
    """A game that raises in ``method`` once under way (``setup``: in the ``quick`` variant)."""
    info = GameInfo(raising_name(method), f"Raises in {method}", 2, 4, ("standard", "quick"))
    body = {"info": info, "broken": method, "__module__": __name__}
    cls = type(f"RaisesIn{method.title().replace('_', '')}", (_Raising,), body)
    return cls()


class Looping(HighCard):
    """High Card whose ``legal_actions`` never returns once the cards are to be played."""

    info = GameInfo("loops_in_legal_actions", "Loops in legal_actions", 2, 4, ("standard", "quick"))

    def legal_actions(self, state: State, seat: int, known: Mapping[str, Any]) -> list[Action]:
        while state["phase"] == "play":
            pass
        return super().legal_actions(state, seat, known)


class Refusing(HighCard):
    """High Card whose ``resolve`` checks the revealed bets itself (an author's natural defence) and
    refuses any bet but "high" and "low"; in the ``picky`` variant it also refuses "low", which its own
    ``legal_actions`` offers (a plugin at odds with itself)."""

    info = GameInfo("refuses_revealed_bets", "Refuses revealed bets", 2, 4, ("standard", "picky"))

    def setup(self, config: Config) -> State:
        state = super().setup(config)
        state["picky"] = config.variant == "picky"
        return state

    def resolve(self, state: State, request: Request, outcome: Mapping[str, JSON]) -> State:
        if isinstance(request, Reveal):
            allowed = ("high",) if state.get("picky") else ("high", "low")
            faces = outcome["faces"]
            assert isinstance(faces, dict)
            for handle, bet in faces.items():
                if bet not in allowed:
                    raise IllegalAction(f"bet {handle} is {bet!r}, which is no bet")
        return super().resolve(state, request, outcome)


@hookimpl
def atoll_games() -> list[Game]:
    """Every faulty game."""
    return [*(raising_in(m) for m in METHODS), Looping(), Refusing()]
