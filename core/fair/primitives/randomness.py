"""Joint randomness from hash chains: one round of openings per draw, nobody able to bias a die.

Each seat derives a hash chain from its secret seed and commits to its head before any draw:
``link[i-1] = H(table, seat, epoch, i, link[i])``. For draw ``k`` every seat opens its next link;
anyone checks it against the link (or head) before it. The draw's seed is one domain-separated hash
of the table id, ``k``, the request it answers and every opening, and the outcome is reduced from it
by :class:`atoll.randomness.Stream`, the same unbiased reduction the local resolver uses. A seat's
contributions are all fixed by its head, so the last seat to open can only refuse to open (and
forfeit), never choose. Chains hold :data:`CHAIN_LENGTH` links; a table that draws more starts a
new epoch, whose heads every seat commits to before any of its links is opened.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from atoll.chance import Pick, Roll
from atoll.errors import CheatDetected, ProtocolViolation
from atoll.fair.primitives.content import hex_bytes, same
from atoll.fair.primitives.hashing import (
    PROTOCOL_VERSION,
    hash_bytes,
    hash_hex,
    hash_hex_canonical,
    make_context,
)
from atoll.jsondata import JSON, canonical
from atoll.randomness import Stream

#: Links per chain (draws per epoch).
CHAIN_LENGTH = 256
#: Bytes in one link.
LINK_SIZE = 32


def position(draw: int, length: int = CHAIN_LENGTH) -> tuple[int, int]:
    """The epoch of draw ``draw`` (counted from 1) and the index of the link it opens (1..length)."""
    if draw < 1:
        raise ProtocolViolation(f"draws are counted from 1, not {draw}")
    epoch, index = divmod(draw - 1, length)
    return epoch, index + 1


def link_below(table: str, seat: int, epoch: int, index: int, link: str) -> str:
    """Link ``index - 1`` of a chain, computed from link ``index``."""
    text = link_context_text(table, seat, epoch, index, link)
    return hash_hex_canonical("chain/link", text, LINK_SIZE)


def link_context_text(table: str, seat: int, epoch: int, index: int, link: str) -> bytes:
    """The canonical encoding of :func:`link_below`'s hash context, written out directly for the usual
    values (whole numbers, a link in lowercase hex) and encoded as any context otherwise: thousands
    of links are hashed a game (every opening, each seat's chain, every chain again at the end)."""
    if type(seat) is int and type(epoch) is int and type(index) is int and _HEX.fullmatch(link):
        return b"".join((_LINK_START, b'%d,"index":%d,"inputs":"' % (epoch, index), link.encode(),
                         b'","outputs":null,"seat":%d,"step":"chain/link","table":' % seat,
                         _text(table), _LINK_END))
    context = make_context(table=table, step="chain/link", seat=seat, inputs=link, epoch=epoch, index=index)
    return canonical(context).encode()


_LINK_START = b'{"commitments":null,"deck":null,"epoch":'
_LINK_END = b',"version":' + canonical(PROTOCOL_VERSION).encode() + b"}"
_HEX = re.compile(r"[0-9a-f]+")


@functools.lru_cache(maxsize=16)
def _text(value: str) -> bytes:
    return canonical(value).encode()


class HashChain:
    """One seat's secret chain for one epoch; only :meth:`link` ever lets a link out."""

    def __init__(self, secret: bytes, table: str, seat: int, epoch: int, length: int = CHAIN_LENGTH) -> None:
        if length < 1:
            raise ValueError(f"a hash chain needs at least one link, not {length}")
        context = make_context(table=table, step="chain/top", seat=seat, inputs=secret.hex(), epoch=epoch,
                               length=length)
        links = [hash_hex("chain/top", context, LINK_SIZE)]
        for index in range(length, 0, -1):
            links.append(link_below(table, seat, epoch, index, links[-1]))
        links.reverse()
        self.epoch = epoch
        self._links = links

    @property
    def head(self) -> str:
        """The commitment to the whole chain (link 0), published before any draw of the epoch."""
        return self._links[0]

    def link(self, index: int) -> str:
        """Link ``index`` (1..length), the opening for the draw at that index of the epoch."""
        if not 1 <= index < len(self._links):
            raise ProtocolViolation(f"chain of epoch {self.epoch} has no link {index}")
        return self._links[index]


class ChainBook:
    """The public record of every seat's chains: heads and the last link each seat opened."""

    def __init__(self, table: str, seats: int, length: int = CHAIN_LENGTH) -> None:
        self.table = table
        self.seats = seats
        self.length = length
        self._heads: dict[tuple[int, int], str] = {}
        self._known: dict[tuple[int, int], tuple[int, str]] = {}

    def head(self, seat: int, epoch: int) -> str | None:
        """The head ``seat`` committed to for ``epoch``, if any."""
        return self._heads.get((seat, epoch))

    def commit(self, seat: int, epoch: int, head: JSON) -> None:
        """Record ``seat``'s head for ``epoch``; a second, different head is a cheat."""
        hex_bytes(seat, head, LINK_SIZE, f"chain head of epoch {epoch}")
        assert isinstance(head, str)
        old = self._heads.get((seat, epoch))
        if old is not None and not same(old, head):
            raise CheatDetected(seat, f"committed to a second chain head for epoch {epoch}")
        self._heads[(seat, epoch)] = head
        self._known.setdefault((seat, epoch), (0, head))

    def check(self, seat: int, draw: int, link: JSON) -> str:
        """Check ``seat``'s opening ``link`` for draw ``draw`` against its chain; return it.

        Raises :class:`CheatDetected` naming ``seat`` if the link does not hash down to the last
        link it opened (or to its head), which also refuses a link replayed from an earlier draw
        or another table.
        """
        epoch, index = position(draw, self.length)
        hex_bytes(seat, link, LINK_SIZE, f"opening for draw {draw}")
        assert isinstance(link, str)
        known = self._known.get((seat, epoch))
        if known is None:
            raise CheatDetected(seat, f"opened draw {draw} without a chain head for epoch {epoch}")
        known_index, known_link = known
        if index <= known_index:
            raise CheatDetected(seat, f"opened draw {draw} with link {index}, already past it")
        value = link
        for i in range(index, known_index, -1):
            value = link_below(self.table, seat, epoch, i, value)
        if not same(value, known_link):
            raise CheatDetected(seat, f"opening for draw {draw} does not hash to its link {known_index}")
        self._known[(seat, epoch)] = (index, link)
        return link


def joint_seed(table: str, draw: int, purpose: JSON, openings: Sequence[str | None]) -> bytes:
    """The seed of draw ``draw``: one hash of the table, the draw, its purpose and every opening.

    ``openings`` lists one link per seat in seat order (``None`` for a seat that has left).
    """
    context = make_context(table=table, step=f"draw/{draw}", inputs={"purpose": purpose,
                                                                      "openings": list(openings)})
    return hash_bytes("draw", context, 32)


def draw_outcome(request: Roll | Pick, seed: bytes) -> dict[str, JSON]:
    """The public outcome of ``request`` from a joint ``seed``, reduced without bias."""
    stream = Stream(seed)
    if isinstance(request, Roll):
        return {"values": [stream.die(request.sides) for _ in range(request.count)]}
    return {"picked": stream.sample(request.options, request.count)}
