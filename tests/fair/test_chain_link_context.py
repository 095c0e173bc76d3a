"""The hash of a chain link is taken over exactly the canonical encoding of its context, whichever way
the bytes are put together: written out directly for the usual values, or encoded as any context."""

from __future__ import annotations

import pytest

from atoll.fair.primitives.hashing import hash_hex, make_context
from atoll.fair.primitives.randomness import link_below, link_context_text
from atoll.jsondata import canonical

TABLES = ["bench-0123456789abcdef", 'a "quoted" \\ table', "t\u00fcr \u20ac \U0001f600", "tab\tnew\nline\x00"]
LINKS = [
    (0, 0, 1, "ab" * 32),
    (4, 3, 256, "00" * 32),
    (True, 0, 1, "ab" * 32),  # a bool is not a seat number: encoded as true, not 1
    (1, 1, 1, "AB" * 32),  # upper-case hex: not a link, but hashed as the context says
    (2, 0, 5, ""),
]


@pytest.mark.parametrize("table", TABLES)
@pytest.mark.parametrize(("seat", "epoch", "index", "link"), LINKS)
def test_a_chain_link_is_hashed_over_the_canonical_encoding_of_its_context(
    table: str, seat: int, epoch: int, index: int, link: str
) -> None:
    context = make_context(table=table, step="chain/link", seat=seat, inputs=link, epoch=epoch, index=index)
    assert link_context_text(table, seat, epoch, index, link) == canonical(context).encode()
    assert link_below(table, seat, epoch, index, link) == hash_hex("chain/link", context, 32)
