"""A token bucket per sender, so that one identity cannot flood a table (no sockets, no zmq)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class RateLimit:
    """A token bucket per sender (the host counts per identity): ``rate`` messages a second, bursts
    up to ``burst``."""

    rate: float = 200.0
    burst: float = 400.0
    clock: Callable[[], float] = time.monotonic
    _buckets: dict[bytes, tuple[float, float]] = field(default_factory=dict)

    def allow(self, who: bytes) -> bool:
        """Whether ``who`` may send one more message now."""
        now = self.clock()
        tokens, last = self._buckets.get(who, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        if tokens < 1:
            self._buckets[who] = (tokens, now)
            return False
        self._buckets[who] = (tokens - 1, now)
        return True
