"""Properties of the mental deck over 2-5 seats and 1-100 cards (few examples: each builds whole decks)."""

from __future__ import annotations

from collections import Counter

import pytest
from atoll_tools.deck_audit import audit_deck
from atoll_tools.deck_table import DeckTable
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from atoll.errors import CheatDetected
from atoll.fair.deck.machine import DeckSpec, Message
from atoll.fair.primitives import group

SLOW = settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FEW = settings(SLOW, max_examples=2)


def build(seats: int, size: int, salt: int, tamper: object = None) -> DeckTable:
    spec = DeckSpec(f"table-{salt}", "pile", tuple(f"c{i % 13}" for i in range(size)), seats)
    seeds = [(salt * 10 + s).to_bytes(32, "little") for s in range(seats)]
    return DeckTable(spec, seeds, spectator=False, tamper=tamper)  # type: ignore[arg-type]


@FEW
@example(seats=5, size=100, salt=0)
@given(seats=st.integers(2, 5), size=st.integers(1, 100), salt=st.integers(0, 2**16))
def test_every_card_goes_to_one_seat_and_the_deck_audits_clean(seats: int, size: int, salt: int) -> None:
    t = build(seats, size, salt)
    t.setup()
    t.open({card: card % seats for card in range(size)})
    hands = t.hands()
    assert Counter(f for hand in hands for f in hand.values()) == Counter(t.spec.faces)
    assert all(set(hand) == set(range(s, size, seats)) for s, hand in enumerate(hands))
    t.open_seeds()
    report = audit_deck(t.spec, t.transcript)
    assert all(report.faces[c] == f for hand in hands for c, f in hand.items())


@SLOW
@given(seats=st.integers(2, 5), size=st.integers(1, 100), salt=st.integers(0, 2**16), data=st.data())
def test_a_changed_card_in_any_step_is_blamed_on_the_seat_that_sent_it(
    seats: int, size: int, salt: int, data: st.DataObject
) -> None:
    cheater = data.draw(st.integers(0, seats - 1), label="cheater")
    kind = data.draw(st.sampled_from(["deck/shuffle", "deck/lock"]), label="step")
    card = data.draw(st.integers(0, size - 1), label="card")
    stranger = group.hash_to_point("test/stranger", {"salt": salt}).hex()

    def tamper(sender: int, message: Message) -> Message:
        if sender == cheater and message["type"] == kind:
            message = {**message, "cards": list(message["cards"])}
            message["cards"][card] = stranger
        return message

    with pytest.raises(CheatDetected) as info:
        build(seats, size, salt, tamper).setup()
    assert info.value.seat == cheater
