"""Kiribati's fast path: the rule modules themselves, driven without the engine and without checks.

The simulator keeps the public state and every kept card's face. An action it
lists comes from :func:`atoll.plugins.kiribati.turn.legal`, so it is applied
with :func:`~atoll.plugins.kiribati.turn.apply_legal` on the state in place
(the rules never change a value inside the state, they give its keys new ones,
so a copy shares everything else safely); chance is answered at once.

Codes pack an action's public fields (never a card's handle) into one int:
``kind * 1_000_000 + detail``, the kind by :data:`KINDS`. The same code is the
same text in any state, as a search over guessed worlds needs.
"""

from __future__ import annotations

import random
from typing import Any

from atoll import JSON, Action, Config, Pick, Results, Reveal, Roll, State
from atoll.fast import OVER, Draws, Position, Simulator
from atoll.plugins.kiribati import turn
from atoll.plugins.kiribati.board import ISLAND, MAINLAND, PLACES
from atoll.plugins.kiribati.meta import ANIMALS, CARDS
from atoll.plugins.kiribati.scoring import results
from atoll.plugins.kiribati.state import initial_state

#: The kinds of action, by their ``do`` (``"secret"``: keeping four cards).
KINDS = ("secret", "die", "turtle", "new", "dive", "float", "throw", "move", "play", "answer", "pass", "done")
_KIND = {name: index * 1_000_000 for index, name in enumerate(KINDS)}
_ANIMAL = {kind: index for index, kind in enumerate(ANIMALS)}
_CARD = {card: index for index, card in enumerate(CARDS)}
#: Where a move may go: the places (``col * 4 + row``), then the island and the mainland.
_TO = {**{name: col * 4 + row for name, (col, row) in PLACES.items()}, ISLAND: 24, MAINLAND: 25}
_KEEP = {tuple(kept): index for index, kept in enumerate(turn.KEEPS)}
#: The phases in which chance acts.
_CHANCE = frozenset({"setup", "event", "roll", "reveal"})


def _piece(pair: Any) -> int:
    """An animal of a seat, ``[seat, kind]``, as one number."""
    return int(pair[0]) * 5 + _ANIMAL[pair[1]]


def encode(action: Action) -> int:
    """The code of a Kiribati action."""
    if "secret" in action:
        return _KIND["secret"] + _KEEP[tuple(action["secret"])]
    do = action["do"]
    base = _KIND[do]
    if do == "move":
        bump = action.get("bump")
        return base + (_ANIMAL[action["animal"]] * 32 + _TO[action["to"]]) * 32 + (
            0 if bump is None else 1 + _piece(bump))
    if do in ("turtle", "dive", "float"):
        return base + _TO[action["at"]]
    if do == "die":
        return base + int(action["value"])
    if do == "new":
        return base + int(action["size"]) * 8 + int(action["row"])
    if do == "throw":
        return base + int(action["seat"]) * 5 + _ANIMAL[action["animal"]]
    if do == "play":
        detail = 0
        if "at" in action:
            detail = 1 + _TO[action["at"]]
        elif "animal" in action:
            detail = 1 + _ANIMAL[action["animal"]]
        elif "target" in action:
            detail = 1 + _piece(action["target"])
        return base + _CARD[action["card"]] * 64 + detail
    if do == "answer":
        return base + _CARD[action["card"]]
    return base  # pass, done


class KiribatiSimulator(Simulator):
    """One Kiribati game in play, every kept card known, on the rule modules without checks."""

    __slots__ = ("_actions", "_codes", "draws", "faces", "seals", "state")

    def __init__(self, state: State, faces: dict[str, JSON], seals: int, draws: Draws) -> None:
        self.state = state
        #: The face of every kept card (sealed handle -> card).
        self.faces = faces
        self.seals = seals
        self.draws = draws
        self._actions: list[Action] | None = None
        self._codes: list[int] = []
        self._chance()

    def seat(self) -> int:
        """The seat to decide, or OVER."""
        seat = turn.actor(self.state)
        return OVER if seat is None else seat

    def legal(self) -> list[int]:
        """The codes of :func:`turn.legal`'s actions, in its order."""
        actions = self._legal()
        if not self._codes and actions:
            self._codes = [encode(action) for action in actions]
        return self._codes

    def _legal(self) -> list[Action]:
        if self._actions is None:
            seat = turn.actor(self.state)
            self._actions = [] if seat is None else turn.legal(self.state, seat, self.faces)
            self._codes = []
        return self._actions

    def apply(self, code: int) -> None:
        """Take the listed action with this code."""
        actions = self._legal()
        self._take(actions[self.legal().index(code)])

    def _take(self, action: Action) -> None:
        state = self.state
        seat = turn.actor(state)
        assert seat is not None
        if state["phase"] == "keep":
            handles = [f"s{seat}-{self.seals}.{i}" for i in range(len(action["secret"]))]
            self.seals += 1
            self.faces.update(zip(handles, action["secret"], strict=True))
            self.state = turn.apply_action(state, {"sealed": handles})
        else:
            # the state is this simulator's own (see copy()), so it is the working copy
            turn.apply_legal(state, seat, action)
        self._actions = None
        self._chance()

    def _chance(self) -> None:
        """Answer chance until a seat decides or the game is over, drawing as the local resolver does."""
        while self.state["phase"] in _CHANCE:
            step = turn.next_step(self.state)
            request = step.request  # type: ignore[union-attr]
            outcome: dict[str, JSON]
            if isinstance(request, Roll):
                outcome = {"values": [self.draws.die(request.sides) for _ in range(request.count)]}
            elif isinstance(request, Pick):
                outcome = {"picked": self.draws.sample(request.options, request.count)}
            else:
                assert isinstance(request, Reveal)
                outcome = {"faces": {h: self.faces[h] for h in request.handles}}
            self.state = turn.resolve_chance(self.state, request, outcome)

    def results(self) -> Results:
        """Rules K28, K46-K48."""
        return results(self.state)

    def copy(self, draws: Draws | None = None) -> KiribatiSimulator:
        """An independent copy: the state copied one level deep, as the rules' working copies are."""
        twin = KiribatiSimulator.__new__(KiribatiSimulator)
        twin.state = dict(self.state)
        twin.faces = dict(self.faces)
        twin.seals = self.seals
        twin.draws = self.draws if draws is None else draws
        twin._actions = self._actions
        twin._codes = self._codes
        return twin

    def code(self, state: State, action: Action) -> int:
        """The code of a full-API action (``state`` does not matter: codes are the action's own)."""
        return encode(action)

    def playout(self, rng: random.Random, max_steps: int = 100_000) -> tuple[Results | None, int]:
        """Random legal actions to the end, without coding them."""
        legal, apply_legal, on_turn = turn.legal, turn.apply_legal, turn.ON_TURN
        randrange, faces = rng.randrange, self.faces
        for steps in range(max_steps):
            state = self.state
            phase = state["phase"]
            if phase in on_turn:
                seat: int = state["turn"]
            elif phase == "answer":
                seat = state["pending"]["target"][0]
            else:
                return self.results(), steps
            if phase == "keep" or self._actions is not None:
                actions = self._legal()
                self._take(actions[randrange(len(actions))])
                continue
            actions = legal(state, seat, faces)
            apply_legal(state, seat, actions[randrange(len(actions))])
            if state["phase"] in _CHANCE:
                self._chance()
        return (self.results() if turn.actor(self.state) is None else None), max_steps


def simulator(config: Config, draws: Draws, start: Position | None = None) -> KiribatiSimulator:
    """Kiribati's simulator at set-up, or at ``start``."""
    if start is None:
        return KiribatiSimulator(initial_state(config), {}, 0, draws)
    faces = {h: face for h, face in start.faces.items() if h.startswith("s")}
    seals = 1 + max((int(h[h.index("-") + 1: h.index(".")]) for h in faces), default=-1)
    return KiribatiSimulator(dict(start.state), faces, seals, draws)
