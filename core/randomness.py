"""Unbiased draws from a byte stream: dice, ranges, choices and shuffles without bias.

The local resolver draws from a seeded SHAKE-256 stream; the fair protocols
reduce a jointly chosen seed with the same functions, so a die is the same die
however its seed was agreed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


class Stream:
    """An endless, reproducible stream of bytes from a seed (SHAKE-256 in counter blocks)."""

    __slots__ = ("_buffer", "_counter", "_seed", "_used")

    _BLOCK = 64

    def __init__(self, seed: bytes) -> None:
        self._seed = seed
        self._counter = 0
        self._buffer = b""
        #: How much of ``_buffer`` has been read (kept as an offset: slicing it away at every draw
        #: was the dearest part of a simulated game's shuffle).
        self._used = 0

    @classmethod
    def from_int(cls, seed: int, domain: str = "atoll.local") -> Stream:
        """A stream for an integer seed, separated by ``domain`` from other uses of the same seed."""
        return cls(f"{domain}:{seed}".encode())

    def _refill(self, n: int) -> None:
        """Make at least ``n`` unread bytes ready."""
        buffer = self._buffer[self._used:]
        while len(buffer) < n:
            buffer += hashlib.shake_256(self._seed + self._counter.to_bytes(8, "big")).digest(self._BLOCK)
            self._counter += 1
        self._buffer, self._used = buffer, 0

    def read(self, n: int) -> bytes:
        """The next ``n`` bytes."""
        if len(self._buffer) - self._used < n:
            self._refill(n)
        start = self._used
        self._used = start + n
        return self._buffer[start:start + n]

    def below(self, n: int) -> int:
        """A uniform integer in ``0..n-1`` by rejection sampling (no modulo bias)."""
        if n < 1:
            raise ValueError(f"no integer below {n}")
        if n == 1:
            return 0
        bits = (n - 1).bit_length()
        mask = (1 << bits) - 1
        if bits <= 8:  # one byte a try: read it in place
            while True:
                if self._used >= len(self._buffer):
                    self._refill(1)
                value = self._buffer[self._used] & mask
                self._used += 1
                if value < n:
                    return value
        nbytes = (bits + 7) // 8
        while True:
            value = int.from_bytes(self.read(nbytes), "big") & mask
            if value < n:
                return value

    def die(self, sides: int) -> int:
        """A roll of a die with ``sides`` sides: ``1..sides``."""
        return self.below(sides) + 1

    def sample(self, options: Sequence[T], count: int) -> list[T]:
        """``count`` distinct positions of ``options`` drawn in order, as their values."""
        pool = list(options)
        picked = []
        for _ in range(count):
            picked.append(pool.pop(self.below(len(pool))))
        return picked

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """A uniformly random permutation of ``items`` (Fisher–Yates)."""
        out = list(items)
        below = self.below
        for i in range(len(out) - 1, 0, -1):
            if i > 255:
                j = below(i + 1)
            else:  # below(i + 1) inlined for a one-byte draw: a simulated game's set-up shuffles
                mask = (1 << i.bit_length()) - 1
                while True:
                    if self._used >= len(self._buffer):
                        self._refill(1)
                    j = self._buffer[self._used] & mask
                    self._used += 1
                    if j <= i:
                        break
            out[i], out[j] = out[j], out[i]
        return out
