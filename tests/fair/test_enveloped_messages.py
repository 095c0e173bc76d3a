"""At a network table a fair message is authenticated by the envelope its seat's identity signed.

The table checks that signature over exactly the message's bytes before anything reads them, and the
same signature is the evidence against the seat; the message's own signature (by the seat's table
key) adds nothing, so it is not checked again there. A ``hello`` proves the table key itself, so it
is always checked in full. Anywhere else (a local table, a saved transcript) every signature counts.
"""

from __future__ import annotations

import pytest

from atoll.chance import Roll
from atoll.errors import CheatDetected
from atoll.fair.messages import Message, Unauthenticated
from atoll.fair.seat import Participant
from tests.fair.helpers import seated


def _spoiled(message: Message) -> Message:
    """``message`` with its own signature turned to nonsense (all else as its seat wrote it)."""
    return dict(message, sig="00" * 64)


def _hellos(seats: list[Participant]) -> list[Message]:
    return [m for s in seats for m in s.begin({"n": 0, "step": "setup"})]


def _openings(seats: list[Participant]) -> list[Message]:
    for message in _hellos(seats):
        for s in seats:
            s.receive(message)
    draw = {"n": 1, "step": "draw", "draw": 1, "request": Roll(1, 6).to_json()}
    return [m for s in seats for m in s.begin(draw)]


def test_an_enveloped_opening_is_taken_on_its_envelope_and_the_draw_is_the_same() -> None:
    plain, enveloped = seated(2), seated(2)
    for message in _openings(plain):
        for s in plain:
            s.receive(message)
    for message in _openings(enveloped):
        for s in enveloped:
            s.receive(_spoiled(message), enveloped=True)
    assert enveloped[0].record.result == enveloped[1].record.result == plain[0].record.result


def test_outside_an_envelope_a_message_with_a_bad_signature_is_refused_and_blames_nobody() -> None:
    seats = seated(2)
    openings = _openings(seats)
    with pytest.raises(Unauthenticated, match="signature"):
        seats[0].receive(_spoiled(openings[1]))
    assert seats[0].record.owed() == [(0, "chain/open"), (1, "chain/open")]


def test_a_hello_is_checked_in_full_even_inside_an_envelope() -> None:
    seats = seated(2)
    hellos = _hellos(seats)
    with pytest.raises(Unauthenticated, match="signature"):
        seats[0].receive(_spoiled(hellos[1]), enveloped=True)


def test_what_an_enveloped_message_says_is_checked_as_ever() -> None:
    seats = seated(2)
    openings = _openings(seats)
    wrong = dict(openings[1], body={"link": "ab" * 32})
    with pytest.raises(CheatDetected, match="link") as caught:
        seats[0].receive(wrong, enveloped=True)
    assert caught.value.seat == 1


def test_a_seat_keeps_no_note_of_its_own_enveloped_messages_once_they_are_back() -> None:
    seats = seated(2)
    for message in _openings(seats):
        for s in seats:
            s.receive(message, enveloped=True)
    assert seats[0]._signed == {} and seats[1]._signed == {}  # nothing left over, game after game
