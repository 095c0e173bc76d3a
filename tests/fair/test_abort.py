"""Leaving and aborting: a late seat forfeits on the others' witness; a leaving seat hands over its keys."""

from __future__ import annotations

from typing import Any

import pytest
from atoll_tools.fair_relay import SeatForfeited, TableAborted, Tamper, replay

from atoll.chance import Deal, Reveal, Roll, Shuffle
from atoll.errors import CheatDetected, ProtocolViolation
from atoll.fair.steps.messages import Message
from tests.fair.helpers import rewrite, table, withhold


def forfeit_of(resolver_call: Any) -> SeatForfeited:
    with pytest.raises(SeatForfeited) as caught:
        resolver_call()
    return caught.value


def test_a_withheld_opening_forfeits_on_the_witness_of_every_other_seat() -> None:
    resolver = table(3, cheat=withhold(2, "chain/open"))
    forfeit = forfeit_of(lambda: resolver.resolve(Roll(1, 6)))
    assert forfeit.seat == 2
    assert sorted(m["seat"] for m in forfeit.witnesses) == [0, 1]
    assert all(m["kind"] == "witness" and m["body"]["missing"] == 2 for m in forfeit.witnesses)


def test_in_a_two_seat_game_a_withheld_message_aborts_the_table_blaming_nobody() -> None:
    """Threat model: with one witness, a timeout is one seat's word against the other's."""
    resolver = table(2, cheat=withhold(1, "chain/open"))
    with pytest.raises(TableAborted, match="not attributable") as caught:
        resolver.resolve(Roll(1, 6))
    assert caught.value.missing == 1
    assert not isinstance(caught.value, CheatDetected)


def test_a_timeout_not_every_other_seat_witnesses_aborts_the_table_blaming_nobody() -> None:
    def relay(participants: Any) -> Tamper:
        def tamper(author: int, message: Message) -> Message | None:
            dropped = {"chain/open": 2, "witness": 1}
            if dropped.get(message["kind"]) == author:
                return None
            return message
        return tamper

    resolver = table(3, cheat=relay)
    with pytest.raises(TableAborted, match="not attributable"):
        resolver.resolve(Roll(1, 6))
    with pytest.raises(TableAborted, match="only seats \\[0\\] witnessed"):
        replay(resolver)


def test_a_witness_that_signs_past_its_timeout_is_caught_equivocating() -> None:
    """Signed receipts: a seat that witnessed the table stop cannot also have signed a later step."""
    resolver = table(3, cheat=withhold(2, "chain/open"))
    witnesses = forfeit_of(lambda: resolver.resolve(Roll(1, 6))).witnesses
    honest = table(3)  # the same seats' real history, in which seat 2's opening arrived
    honest.resolve(Roll(1, 6))
    honest.resolve(Roll(1, 6))
    later = [e["msg"] for e in honest.entries
             if "msg" in e and e["msg"]["n"] >= witnesses[0]["n"]]
    record = resolver.participants[1].record
    with pytest.raises(CheatDetected, match="equivocation") as caught:
        record.receive(next(m for m in later if m["seat"] == 0))
    assert caught.value.seat == 0


def test_after_a_forfeit_the_table_takes_no_more_steps() -> None:
    resolver = table(3, cheat=withhold(1, "chain/open"))
    forfeit_of(lambda: resolver.resolve(Roll(1, 6)))
    with pytest.raises(ProtocolViolation, match="forfeited"):
        resolver.resolve(Roll(1, 6))


def test_the_transcript_of_a_forfeited_game_audits_as_that_seats_forfeit() -> None:
    resolver = table(3, cheat=withhold(1, "chain/open"))
    forfeit_of(lambda: resolver.resolve(Roll(1, 6)))
    with pytest.raises(CheatDetected, match="forfeited") as caught:
        replay(resolver)
    assert caught.value.seat == 1


def _withhold_deck_keys(seat: int) -> Any:
    def build(participants: Any) -> Tamper:
        def tamper(author: int, message: Message) -> Message | None:
            is_open = message["kind"] == "deck" and message["body"]["type"] == "deck/open"
            return None if author == seat and is_open else message
        return tamper
    return build


def test_a_withheld_card_key_forfeits() -> None:
    resolver = table(3, cheat=_withhold_deck_keys(0))
    resolver.resolve(Shuffle("deck", tuple(range(6))))
    forfeit = forfeit_of(lambda: resolver.resolve(Deal(((2, ("deck.0",)),))))
    assert forfeit.seat == 0
    assert "deal" in str(forfeit)


def test_a_seed_withheld_at_the_end_forfeits() -> None:
    resolver = table(3, cheat=withhold(1, "seed"))
    resolver.resolve(Roll(1, 6))
    assert forfeit_of(resolver.finish).seat == 1


def test_the_last_to_open_can_withhold_but_never_choose_its_opening() -> None:
    """Threat model: the last revealer sees every other opening first; its own is fixed by its head."""
    changed = table(3, cheat=rewrite(2, "chain/open", lambda b: b.update(link="77" * 32)))
    with pytest.raises(CheatDetected) as caught:
        changed.resolve(Roll(1, 6))
    assert caught.value.seat == 2
    aborted = table(3, cheat=withhold(2, "chain/open"))
    assert forfeit_of(lambda: aborted.resolve(Roll(1, 6))).seat == 2


def left_table() -> Any:
    resolver = table(3)
    resolver.resolve(Shuffle("deck", tuple(range(8))))
    resolver.resolve(Deal(((2, ("deck.0",)), (1, ("deck.1",)))))
    resolver.leave(2)
    return resolver


def test_a_seat_that_leaves_hands_over_its_keys_so_the_others_go_on() -> None:
    resolver = left_table()
    assert resolver.resolve(Reveal(("deck.5", "deck.1"))).outcome["faces"]["deck.5"] in range(8)
    private = resolver.resolve(Deal(((0, ("deck.6",)),))).privately
    assert set(private[0]) == {"deck.6"}


def test_after_a_seat_leaves_draws_go_on_among_the_others() -> None:
    resolver = left_table()
    resolver.resolve(Roll(1, 6))
    openers = {m["seat"] for m in (e.get("msg") for e in resolver.entries[-3:]) if m}
    assert openers == {0, 1}


def test_the_cards_in_a_leaving_seats_hand_leave_with_it() -> None:
    resolver = left_table()
    with pytest.raises(ProtocolViolation, match="which left"):
        resolver.resolve(Reveal(("deck.0",)))
    with pytest.raises(ProtocolViolation, match="seat 3: it is not at the table"):
        resolver.resolve(Deal(((2, ("deck.7",)),)))
    resolver.finish()
    replay(resolver)  # the refused steps left no trace


def test_a_table_a_seat_left_audits_clean_without_that_seats_seed() -> None:
    resolver = left_table()
    resolver.resolve(Roll(1, 6))
    resolver.finish()
    record, _ = replay(resolver)
    assert record.left == {2: 3} and sorted(record.seeds) == [0, 1]
    faces = resolver.faces()
    assert "deck.0" not in faces and sorted(faces) == [f"deck.{i}" for i in range(1, 8)]
