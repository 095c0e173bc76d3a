"""Properties of the mental deck at a table of 2-5 seats with 1-100 cards (few examples: each builds
whole decks, every message signed and checked by every peer)."""

from __future__ import annotations

from collections import Counter

from atoll_tools.asked import AskedTable
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from atoll.chance import Deal, Shuffle
from atoll.fair.deck.machine import Message
from atoll.fair.primitives import group
from atoll.fair.steps.seat import Participant
from tests.fair.helpers import Cheat, caught, cheating, table

SLOW = settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FEW = settings(SLOW, max_examples=2)


def build(seats: int, size: int, salt: int, cheat: Cheat | None = None) -> tuple[AskedTable, Shuffle]:
    pile = Shuffle("pile", tuple(f"c{i % 13}" for i in range(size)))
    return table(seats, f"table-{salt}", salt=salt % 200, cheat=cheat), pile


@FEW
@example(seats=5, size=100, salt=0)
@given(seats=st.integers(2, 5), size=st.integers(1, 100), salt=st.integers(0, 2**16))
def test_every_card_goes_to_one_seat_and_the_deck_audits_clean(seats: int, size: int, salt: int) -> None:
    played, pile = build(seats, size, salt)
    handles = played.resolve(pile).outcome["handles"]
    private = played.resolve(Deal(tuple((s, tuple(handles[s::seats])) for s in range(seats)))).privately
    hands = [private.get(s, {}) for s in range(seats)]
    assert Counter(f for hand in hands for f in hand.values()) == Counter(pile.faces)
    assert all(set(hand) == set(handles[s::seats]) for s, hand in enumerate(hands))
    played.finish()  # the host's copy, which holds no key, re-checks every seat's steps as an audit does
    record = played.record()
    faces = record.deck.all_faces(record.seeds)
    assert played.ending() is None and all(faces[h] == f for hand in hands for h, f in hand.items())


@SLOW
@given(seats=st.integers(2, 5), size=st.integers(1, 100), salt=st.integers(0, 2**16), data=st.data())
def test_a_changed_card_in_any_step_is_blamed_on_the_seat_that_sent_it(
    seats: int, size: int, salt: int, data: st.DataObject
) -> None:
    cheater = data.draw(st.integers(0, seats - 1), label="cheater")
    kind = data.draw(st.sampled_from(["deck/shuffle", "deck/lock"]), label="step")
    card = data.draw(st.integers(0, size - 1), label="card")
    stranger = group.hash_to_point("test/stranger", {"salt": salt}).hex()

    def tamper(me: Participant, message: Message) -> list[Message]:
        if message["kind"] == "deck" and message["body"]["type"] == kind:
            body = {**message["body"], "cards": list(message["body"]["cards"])}
            body["cards"][card] = stranger
            return [dict(message, body=body)]
        return [message]

    played, pile = build(seats, size, salt, {cheater: cheating(tamper)})
    with caught(played, cheater):
        played.resolve(pile)
