"""Numbers for learning algorithms: a game's fixed-shape tensors of what one seat may know.

Optional. A game offers them through :meth:`atoll.Game.tensors`; adapters such as the
OpenSpiel bridge (:mod:`atoll.openspiel`) hand them to algorithms that train on
vectors rather than strings. A tensor is a flat list of floats, read row-major
into its shape, and it is built from the same inputs as :meth:`atoll.Game.view`:
the public state and the seat's own faces, never anything else.
"""

from __future__ import annotations

import abc
import math
from collections.abc import Mapping, Sequence
from typing import Any

from atoll.types import Knowledge, State

#: One entry of the public log, as :class:`~atoll.engine.Match` records it: ``{"seat", "action"}``,
#: ``{"seat", "sealed"}`` or ``{"request", "outcome"}``. Every seat has seen all of it.
LogEntry = Mapping[str, Any]


class Tensors(abc.ABC):
    """The tensors of one configured game (one seat count and variant): their shapes never change."""

    @abc.abstractmethod
    def observation_shape(self) -> tuple[int, ...]:
        """The shape of every :meth:`observation` of this configured game."""

    @abc.abstractmethod
    def observation(self, state: State, seat: int, known: Knowledge) -> list[float]:
        """What ``seat`` sees now (the public ``state`` and the faces it privately ``known``s)."""

    def information_shape(self) -> tuple[int, ...]:
        """The shape of every :meth:`information` tensor (by default the observation's)."""
        return self.observation_shape()

    def information(self, state: State, seat: int, known: Knowledge, log: Sequence[LogEntry]) -> list[float]:
        """What ``seat`` has learnt so far: what it sees now and what it remembers of the public ``log``
        (oldest first). By default the observation alone; a game whose past matters beyond its
        state (cards that left play, say) adds a summary of the log."""
        return self.observation(state, seat, known)


def size(shape: Sequence[int]) -> int:
    """How many numbers a tensor of ``shape`` holds."""
    return math.prod(shape)
