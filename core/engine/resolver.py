"""The resolver interface: who answers chance requests, seals secrets and proves reveals."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from atoll.chance import Request
from atoll.jsondata import JSON


@dataclass(frozen=True)
class Resolution:
    """A resolver's answer: the public ``outcome`` and what each seat learnt ``privately``."""

    outcome: dict[str, JSON]
    privately: Mapping[int, Mapping[str, JSON]] = field(default_factory=dict)


class Resolver(Protocol):
    """Answers chance; the local, fair (network) and replay resolvers all fit this shape."""

    def resolve(self, request: Request) -> Resolution:
        """Answer ``request``; raises :class:`~atoll.errors.ProtocolViolation` on a bad one."""
        ...

    def seal(self, seat: int, handles: Sequence[str], values: Sequence[JSON]) -> None:
        """Commit ``seat`` to ``values`` under ``handles`` (only that seat learns them)."""
        ...

    def prove(self, seat: int, claims: Mapping[str, JSON]) -> None:
        """Check that ``seat``'s claimed faces are the true ones; raises CheatDetected if not."""
        ...
