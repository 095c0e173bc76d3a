"""A rigged resolver for scenario tests: piles in a chosen order, dice and picks on demand."""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Iterable, Mapping, Sequence

from atoll.chance import Pick, Request, Roll, Shuffle
from atoll.engine.local import LocalResolver
from atoll.engine.resolver import Resolution
from atoll.jsondata import JSON, canonical


class RiggedResolver(LocalResolver):
    """A :class:`LocalResolver` whose chance a test sets up in advance.

    ``piles`` gives named piles in the order they are to be stacked (top first);
    it must hold the same faces as the game's request, or the rig is refused.
    ``rolls`` and ``picks`` are queues of die values and picked values; when a
    queue is empty (or a pile is not named) chance falls back to the seed.
    """

    def __init__(
        self,
        seed: int = 0,
        *,
        piles: Mapping[str, Sequence[JSON]] | None = None,
        rolls: Iterable[int] = (),
        picks: Iterable[JSON] = (),
    ) -> None:
        super().__init__(seed)
        self._piles = {name: list(order) for name, order in (piles or {}).items()}
        self._rolls: deque[int] = deque(rolls)
        self._picks: deque[JSON] = deque(picks)

    def queue_rolls(self, *values: int) -> None:
        """Add die values to come."""
        self._rolls.extend(values)

    def queue_picks(self, *values: JSON) -> None:
        """Add picked values to come."""
        self._picks.extend(values)

    def resolve(self, request: Request) -> Resolution:
        """Answer from the rig where it says something, else from the seed."""
        if isinstance(request, Roll) and self._rolls:
            values = [self._take_roll(request.sides) for _ in range(request.count)]
            if request.to is not None:  # dice under a cup: rigged like open ones, seen by the owner only
                return self._private_roll(request, values)
            return Resolution({"values": values})
        if isinstance(request, Pick) and self._picks:
            return Resolution({"picked": [self._take_pick(request) for _ in range(request.count)]})
        if isinstance(request, Shuffle) and request.pile in self._piles:
            order = self._piles.pop(request.pile)
            if Counter(map(canonical, order)) != Counter(map(canonical, request.faces)):
                raise ValueError(f"rigged pile {request.pile!r} does not hold the requested faces")
            handles = request.handles()
            self._faces.update(zip(handles, order, strict=True))
            return Resolution({"handles": handles})
        return super().resolve(request)

    def _take_roll(self, sides: int) -> int:
        if not self._rolls:
            return self._stream.die(sides)
        value = self._rolls.popleft()
        if not 1 <= value <= sides:
            raise ValueError(f"rigged roll {value} is not on a die of {sides} sides")
        return value

    def _take_pick(self, request: Pick) -> JSON:
        value = self._picks.popleft()
        if value not in request.options:
            raise ValueError(f"rigged pick {value!r} is not among the options {request.options!r}")
        return value
