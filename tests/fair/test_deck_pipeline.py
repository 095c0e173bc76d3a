"""A seat that answers a shuffle or lock before checking its proof (pipelining, as network peers do):
the deck comes out the same, and a proof that does not check still names its author before any card
is opened (``docs/decisions/0006-pipelined-deck-setup.md``)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from atoll.errors import CheatDetected
from atoll.fair.deck.machine import DeckSpec, MentalDeck, Message
from atoll.fair.primitives import group

FACES = tuple(f"card-{i}" for i in range(6))
SEEDS = [bytes([1 + s]) * 32 for s in range(3)]
OTHER_POINT = group.hash_to_point("test/other", {}).hex()


def decks(*, pipeline: bool) -> list[MentalDeck]:
    spec = DeckSpec("table-1", "deck", FACES, 3)
    out = [MentalDeck(spec, seat, SEEDS[seat]) for seat in range(3)]
    for deck in out:
        deck.pipeline = pipeline
    return out


def shuffle_and_lock(
    copies: list[MentalDeck], change: Callable[[int, Message], Message] | None = None, *, settle: bool = True
) -> list[Message]:
    """Every shuffle and lock, delivered in turn; each seat settles once its answers are out."""
    sent: list[Message] = []
    pending = [(0, m) for m in copies[0].start()]
    while pending:
        sender, message = pending.pop(0)
        if change is not None:
            message = change(sender, message)
        sent.append(message)
        for seat, deck in enumerate(copies):
            if seat != sender:
                pending += [(seat, m) for m in deck.receive(message)]
                if settle:
                    deck.settle()
    return sent


def test_pipelined_seats_send_exactly_the_messages_of_seats_that_check_first() -> None:
    assert shuffle_and_lock(decks(pipeline=True)) == shuffle_and_lock(decks(pipeline=False))


def first_point_swapped(author: int, kind: str, field: str) -> Callable[[int, Message], Message]:
    """A change to ``author``'s ``kind`` messages: the first point of ``field`` swapped for another."""

    def change(sender: int, message: Message) -> Message:
        if sender == author and message["type"] == kind:
            message = dict(message, **{field: [OTHER_POINT, *message[field][1:]]})
        return message

    return change


def test_a_bad_shuffle_answered_ahead_names_its_author_when_the_answer_has_left() -> None:
    substitute = first_point_swapped(1, "deck/shuffle", "cards")
    copies = decks(pipeline=True)
    (first,) = copies[0].start()
    copies[2].receive(first)
    (second,) = copies[1].receive(first)
    bad = substitute(1, second)
    answered = copies[2].receive(bad)  # seat 2 shuffles next: it answers first
    assert [m["type"] for m in answered] == ["deck/shuffle"]
    with pytest.raises(CheatDetected, match="not a re-keyed permutation") as caught:
        copies[2].settle()
    assert caught.value.seat == 1
    with pytest.raises(CheatDetected) as not_pipelined:
        copies[0].receive(bad)  # a seat not next checks at once, as ever
    assert not_pipelined.value.seat == 1


def test_no_card_opens_before_a_lock_answered_ahead_is_checked() -> None:
    wrong_key = first_point_swapped(0, "deck/lock", "keys")
    copies = decks(pipeline=True)
    with pytest.raises(CheatDetected) as caught:
        # nobody settles: seat 1 answers seat 0's bad lock, and the next message it takes checks it
        shuffle_and_lock(copies, wrong_key, settle=False)
    assert caught.value.seat == 0
    with pytest.raises(CheatDetected, match="Chaum"):
        copies[1].open({0: 1})
