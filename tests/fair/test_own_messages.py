"""A seat does not check its own signature again on a message it signed, and nothing else gets past.

A seat's messages come back to it through the relay like everyone's; one that is byte for byte what
it signed carries its own valid signature, so the check is skipped (an Ed25519 check is most of the
work of taking in a message). Everything else in its name is checked as any seat's message is.
"""

from __future__ import annotations

import pytest
from nacl.signing import SigningKey

from atoll.chance import Roll
from atoll.fair.messages import Message, Unauthenticated, sign
from atoll.fair.seat import Participant
from tests.fair.helpers import seated


def _first_draw() -> tuple[list[Participant], list[Message]]:
    """Two seats that said hello, and the openings each wrote for the first draw."""
    seats = seated(2)
    hello = [m for s in seats for m in s.begin({"n": 0, "step": "setup"})]
    for message in hello:
        for s in seats:
            s.receive(message)
    draw = {"n": 1, "step": "draw", "draw": 1, "request": Roll(1, 6).to_json()}
    return seats, [m for s in seats for m in s.begin(draw)]


def test_a_seat_takes_back_its_own_opening_and_everyone_agrees_on_the_draw() -> None:
    seats, openings = _first_draw()
    for message in openings:
        for s in seats:
            s.receive(message)
    assert seats[0].record.result == seats[1].record.result
    assert seats[0].record.result is not None


def test_a_seat_refuses_its_own_opening_signed_by_another_key() -> None:
    seats, openings = _first_draw()
    forged = sign(openings[0], SigningKey(b"\x07" * 32))
    with pytest.raises(Unauthenticated, match="signature"):
        seats[0].receive(forged)


def test_a_seat_refuses_its_own_opening_changed_after_it_signed_it() -> None:
    seats, openings = _first_draw()
    changed = dict(openings[0], body=dict(openings[0]["body"], link="11" * 32))
    with pytest.raises(Unauthenticated, match="signature"):
        seats[0].receive(changed)
    seats[0].receive(openings[0])  # the genuine one is still taken, checked like anyone's
    assert seats[0].record.owed() == [(1, "chain/open")]
