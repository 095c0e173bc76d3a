"""The local resolver: seeded, reproducible chance for hot-seat play, bots, simulation and tests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from atoll.chance import Deal, Pick, Request, Roll, Shuffle
from atoll.engine.resolver import Resolution
from atoll.errors import CheatDetected, ProtocolViolation
from atoll.jsondata import JSON
from atoll.randomness import Stream


class LocalResolver:
    """Answers chance from a seeded stream and keeps every hidden face itself.

    It knows all secrets, so it belongs to one process that everybody trusts:
    fine for a hot-seat game against bots, never for a network table.
    """

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._stream = Stream.from_int(seed)
        self._faces: dict[str, JSON] = {}

    def faces(self) -> dict[str, JSON]:
        """Every hidden face so far (handle -> face): saved at the end so a replay can check reveals."""
        return dict(self._faces)

    def resolve(self, request: Request) -> Resolution:
        """Answer ``request`` from the stream."""
        if isinstance(request, Roll) and request.to is not None:
            values = [self._stream.die(request.sides) for _ in range(request.count)]
            return self._private_roll(request, values)
        if isinstance(request, Roll):
            return Resolution({"values": [self._stream.die(request.sides) for _ in range(request.count)]})
        if isinstance(request, Pick):
            return Resolution({"picked": self._stream.sample(request.options, request.count)})
        if isinstance(request, Shuffle):
            handles = request.handles()
            if handles[0] in self._faces:
                raise ProtocolViolation(f"pile {request.pile!r} was already shuffled in this game")
            self._faces.update(zip(handles, self._stream.shuffle(request.faces), strict=True))
            return Resolution({"handles": handles})
        if isinstance(request, Deal):
            return Resolution({}, {seat: self._lookup(handles) for seat, handles in request.to})
        return Resolution({"faces": self._lookup(request.handles)})

    def _private_roll(self, request: Roll, values: Sequence[int]) -> Resolution:
        """Put ``values`` under ``request``'s cup: only its owner learns them."""
        assert request.to is not None
        handles = request.handles()
        if handles[0] in self._faces:
            raise ProtocolViolation(f"cup {request.cup!r} was already rolled in this game")
        dice = dict(zip(handles, values, strict=True))
        self._faces.update(dice)
        return Resolution({"handles": handles}, {request.to: dice})

    def seal(self, seat: int, handles: Sequence[str], values: Sequence[JSON]) -> None:
        """Remember ``seat``'s sealed values."""
        for handle in handles:
            if handle in self._faces:
                raise ProtocolViolation(f"handle {handle!r} is already in use")
        self._faces.update(zip(handles, values, strict=True))

    def prove(self, seat: int, claims: Mapping[str, JSON]) -> None:
        """Compare claimed faces with the true ones."""
        for handle, face in claims.items():
            if handle not in self._faces:
                raise CheatDetected(seat, f"claims card {handle!r}, which does not exist")
            if self._faces[handle] != face:
                raise CheatDetected(seat, f"claims card {handle!r} shows {face!r}; it does not")

    def _lookup(self, handles: Sequence[str]) -> dict[str, JSON]:
        try:
            return {h: self._faces[h] for h in handles}
        except KeyError as exc:
            raise ProtocolViolation(f"no hidden card {exc.args[0]!r} to deal or reveal") from exc
