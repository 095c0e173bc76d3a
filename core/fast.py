"""The simulation fast path: an optional, mutable, all-knowing copy of a game for playouts and search.

The :class:`~atoll.game.Game` API is the reference and the only path on a table:
immutable JSON states, dict actions that the game checks in full, and one
round trip through the engine for every chance request. A bot that plays
thousands of games a second in its head needs none of that, so a game may also
offer a :class:`Simulator` through :meth:`Game.simulator <atoll.game.Game.simulator>`:

- actions are small ints (*codes*), listed by :meth:`Simulator.legal` in the
  order of :meth:`Game.legal_actions <atoll.game.Game.legal_actions>`, and
  applied without being checked again;
- it knows every hidden face and answers chance inline from a :class:`Draws`,
  so it is always at a decision or at the end;
- :meth:`Simulator.copy` is cheap, for a tree search.

It plays exactly the games of the full API: the same decisions, the same legal
lists, the same results, given the same chance. Chance lines up because a
simulator draws from its :class:`Draws` exactly as
:class:`~atoll.engine.LocalResolver` draws from its stream: for each
:class:`~atoll.chance.Roll`, ``count`` times ``die(sides)``; for each
:class:`~atoll.chance.Pick`, ``sample(options, count)``; for each
:class:`~atoll.chance.Shuffle`, ``shuffle(faces)``, in the order the game asks;
a deal or a reveal draws nothing. So ``game.simulator(config, Stream.from_int(seed))``
plays the games of ``Match(game, config, LocalResolver(seed))``, and the
conformance kit (:func:`atoll.testing.check_fast_path`) proves it game by game.
"""

from __future__ import annotations

import abc
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from atoll.jsondata import JSON
from atoll.types import Action, Results, State

T = TypeVar("T")

#: What :meth:`Simulator.seat` says once the game is over.
OVER = -1


class Draws(Protocol):
    """Where a simulator's chance comes from. :class:`atoll.randomness.Stream` is one (the local
    resolver's); :class:`RandomDraws` is a fast one over :class:`random.Random` for bots."""

    def die(self, sides: int) -> int:
        """A roll of one die: ``1..sides``."""
        ...

    def sample(self, options: Sequence[T], count: int) -> list[T]:
        """``count`` distinct ``options`` in drawing order (a :class:`~atoll.chance.Pick`)."""
        ...

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """``items`` in a random order, top first (a :class:`~atoll.chance.Shuffle`'s faces)."""
        ...


class RandomDraws:
    """Draws from a :class:`random.Random`: what a bot's simulated worlds use (fast, not for tables)."""

    __slots__ = ("rng",)

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def die(self, sides: int) -> int:
        """A roll of one die: ``1..sides``."""
        return self.rng.randrange(sides) + 1

    def sample(self, options: Sequence[T], count: int) -> list[T]:
        """``count`` distinct ``options`` in drawing order."""
        return self.rng.sample(list(options), count)

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """``items`` in a random order."""
        out = list(items)
        self.rng.shuffle(out)
        return out


@dataclass(frozen=True)
class Position:
    """A point of a game with every hidden face fixed: where a simulator may start instead of set-up.

    ``state`` is the public state at a decision; ``faces`` gives the face of every handle
    shuffled or sealed so far (the true ones, or a bot's guess at those it cannot see);
    ``known[seat]`` is what each seat privately knows, as the engine would hold it.
    """

    state: State
    faces: Mapping[str, JSON]
    known: Sequence[Mapping[str, JSON]]


class Simulator(abc.ABC):
    """One game in play, mutable and all-knowing, with actions as small ints.

    A simulator is always at a decision or at the end: it answers chance itself,
    from the :class:`Draws` it was made with, as soon as the game asks. A sealed
    (secret) decision is taken in the open: its code stands for the values sealed.

    Codes are the game's own: in one state distinct legal actions have distinct codes,
    and a code means the same move (the same :meth:`Game.describe
    <atoll.game.Game.describe>` text) in every state a seat cannot tell apart, so a
    search over guessed worlds may key its tree by code.
    """

    __slots__ = ()

    @abc.abstractmethod
    def seat(self) -> int:
        """The seat to decide now, or :data:`OVER` once the game has ended."""

    @abc.abstractmethod
    def legal(self) -> list[int]:
        """The codes of the deciding seat's legal actions, in the order ``Game.legal_actions`` lists
        the actions (empty at the end). The caller must not change the list."""

    @abc.abstractmethod
    def apply(self, code: int) -> None:
        """The deciding seat takes the action ``code``, which must be one of :meth:`legal`'s (it is
        not checked again); then chance is answered until the next decision or the end."""

    @abc.abstractmethod
    def results(self) -> Results:
        """How the game ended (only once :meth:`seat` is :data:`OVER`)."""

    @abc.abstractmethod
    def copy(self, draws: Draws | None = None) -> Simulator:
        """An independent copy at the same point, drawing chance from ``draws`` (default: the same
        :class:`Draws` as this one, so the two take turns at one stream)."""

    @abc.abstractmethod
    def code(self, state: State, action: Action) -> int:
        """The code of the full API's ``action``, legal in the public ``state`` (of the same game)."""

    def estimate(self) -> Sequence[float] | None:
        """How each seat stands here, as the game judges it: a number per seat in seat order, higher
        better, on the game's own scale (a projected score, say). A search that stops a playout
        early ranks the seats by it, as if the game ended with these scores. ``None`` (the default):
        the game offers no judgement, and playouts go on to the end of the game."""
        return None

    def playout_seats(
        self, choosers: Sequence[random.Random], max_steps: int = 100_000
    ) -> tuple[Results | None, int]:
        """:meth:`playout` with each seat's choices from its own generator (``choosers[seat]``, as
        ``choosers[seat].choice(legal)`` picks): the games of the built-in random bots, one per seat,
        which ``atoll sim`` plays. A simulator may override it to do the same faster."""
        for steps in range(max_steps):
            seat = self.seat()
            if seat == OVER:
                return self.results(), steps
            legal = self.legal()
            if not legal:
                return None, steps
            self.apply(choosers[seat].choice(legal))
        return (self.results() if self.seat() == OVER else None), max_steps

    def playout(self, rng: random.Random, max_steps: int = 100_000) -> tuple[Results | None, int]:
        """Play on with uniformly random legal actions (``legal[rng.randrange(len(legal))]``) to the end:
        the results (``None`` if the game has not ended within ``max_steps`` decisions) and the number
        of decisions played, which a search counts against its budget. A simulator may override it
        to do the same faster."""
        for steps in range(max_steps):
            if self.seat() == OVER:
                return self.results(), steps
            legal = self.legal()
            if not legal:
                return None, steps
            self.apply(legal[rng.randrange(len(legal))])
        return (self.results() if self.seat() == OVER else None), max_steps
