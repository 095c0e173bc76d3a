"""Adversarial seats at a mental deck: every cheat is caught at once, blamed on its author, and leaves
the honest copies as they were before the bad message."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest
from atoll_tools.deck_audit import audit_deck
from atoll_tools.deck_table import DeckTable

from atoll.errors import CheatDetected
from atoll.fair.deck.keys import DeckSecrets
from atoll.fair.deck.machine import DeckSpec, MentalDeck, Message
from atoll.fair.primitives import group
from atoll.jsondata import clone

FACES = tuple(f"card-{i}" for i in range(6))
SEEDS = [bytes([1 + s]) * 32 for s in range(3)]
# strings that are no group element (RFC 9496, appendix A.2), and the identity, refused from outside
NEGATIVE = "01" + "00" * 31  # s = 1: a negative field element
NON_CANONICAL = "ed" + "ff" * 30 + "7f"  # s = p, the field element 0 written unreduced
NO_POINT = "26948d35ca62e643e26a83177332e6b6afeb9d08e4268b650f1f5bbd8d81d371"  # x^2 is not a square
IDENTITY = group.IDENTITY.hex()
NOT_ELEMENTS = {"negative": NEGATIVE, "non-canonical": NON_CANONICAL, "no-point": NO_POINT,
                "identity": IDENTITY}
OTHER_POINT = group.hash_to_point("test/other", {}).hex()


class Cheater:
    """Rewrites the first message of type ``kind`` that ``seat`` sends; records the honest copies then."""

    def __init__(self, seat: int, kind: str, change: Callable[[Message], Message]) -> None:
        self.seat, self.kind, self.change = seat, kind, change
        self.table: DeckTable | None = None
        self.before: list[int] | None = None

    def __call__(self, sender: int, message: Message) -> Message:
        if sender != self.seat or message["type"] != self.kind or self.before is not None:
            return message
        assert self.table is not None
        self.before = [len(deck.log) for deck in self.table.decks]
        return self.change(clone(message))

    def assert_honest_copies_untouched(self) -> None:
        assert self.table is not None and self.before is not None, "the cheat never happened"
        for seat, deck in enumerate(self.table.decks):
            if seat != self.seat:
                assert len(deck.log) == self.before[seat], f"seat {seat}'s copy took the bad message"


def cheating_table(cheater: Cheater, spec: DeckSpec | None = None) -> DeckTable:
    t = DeckTable(spec or DeckSpec("table-1", "deck", FACES, 3), SEEDS, tamper=cheater)
    cheater.table = t
    return t


def setup(t: DeckTable) -> None:
    t.setup()


def nothing(t: DeckTable) -> None:
    """No preparation: the cheat happens during the set-up itself."""


def caught(
    cheater: Cheater, action: Callable[[DeckTable], None], prepare: Callable[[DeckTable], None] = setup
) -> CheatDetected:
    """Run ``action`` at a table where ``cheater`` cheats; return the detection, checked to blame it."""
    t = cheating_table(cheater)
    prepare(t)
    with pytest.raises(CheatDetected) as info:
        action(t)
    assert info.value.seat == cheater.seat, str(info.value)
    cheater.assert_honest_copies_untouched()
    return info.value


def deal(t: DeckTable) -> None:
    t.open({0: 1, 1: 2, 2: 0})


def with_cards(change: Callable[[list[Any]], list[Any]]) -> Callable[[Message], Message]:
    def rewrite(message: Message) -> Message:
        message["cards"] = change(message["cards"])
        return message
    return rewrite


def replace_at(index: int, value: Any) -> Callable[[list[Any]], list[Any]]:
    def change(values: list[Any]) -> list[Any]:
        values[index] = value
        return values
    return change


# -- shuffle --------------------------------------------------------------------------------------------


def test_a_shuffle_that_drops_a_card_is_caught() -> None:
    error = caught(Cheater(1, "deck/shuffle", with_cards(lambda c: c[:-1])), setup, prepare=nothing)
    assert "drops" in str(error)


def test_a_shuffle_that_duplicates_a_card_is_caught() -> None:
    error = caught(Cheater(1, "deck/shuffle", with_cards(lambda c: [c[0], *c[:-1]])), setup, prepare=nothing)
    assert "duplicates" in str(error)


def test_a_shuffle_that_substitutes_a_card_is_caught() -> None:
    error = caught(Cheater(1, "deck/shuffle", with_cards(replace_at(2, OTHER_POINT))), setup, prepare=nothing)
    assert "not a re-keyed permutation" in str(error)


def test_a_shuffle_that_only_permutes_is_caught() -> None:
    def permute_only(message: Message) -> Message:
        message["cards"] = list(reversed(first_shuffle["cards"]))  # seat 0's output, re-ordered, not re-keyed
        return message

    first_shuffle: Message = {}
    cheater = Cheater(1, "deck/shuffle", permute_only)
    t = cheating_table(cheater)
    first_shuffle.update(t.decks[0].start()[0])
    with pytest.raises(CheatDetected) as info:
        t.deliver([(0, first_shuffle)])
    assert info.value.seat == 1 and "not re-encrypted" in str(info.value)
    cheater.assert_honest_copies_untouched()


def test_a_shuffle_with_the_key_one_is_caught() -> None:
    def key_one(message: Message) -> Message:
        message["key"] = group.BASE.hex()
        return message

    error = caught(Cheater(1, "deck/shuffle", key_one), setup, prepare=nothing)
    assert "key is 1" in str(error)


def test_a_shuffle_under_another_key_commitment_is_caught() -> None:
    def other_key(message: Message) -> Message:
        message["key"] = OTHER_POINT
        return message

    caught(Cheater(2, "deck/shuffle", other_key), setup, prepare=nothing)


def test_a_shuffle_that_only_re_encrypts_is_no_cheat() -> None:
    """A seat may leave the order as it is: its key still hides the cards, and the others permute."""
    t = DeckTable(DeckSpec("table-1", "deck", FACES, 3), SEEDS)
    lazy = t.decks[1]
    lazy._secrets = dataclasses.replace(lazy._secrets, permutation=tuple(range(len(FACES))))  # type: ignore[arg-type]
    t.setup()
    t.open({c: 0 for c in range(len(FACES))})
    assert sorted(t.decks[0].hand().values()) == sorted(FACES)


@pytest.mark.parametrize("bad", [*NOT_ELEMENTS.values(), "zz" * 32, "00"],
                         ids=[*NOT_ELEMENTS, "not-hex", "short"])
def test_a_shuffle_with_an_invalid_point_is_caught(bad: str) -> None:
    error = caught(Cheater(1, "deck/shuffle", with_cards(replace_at(0, bad))), setup, prepare=nothing)
    assert "card 0" in str(error)


@pytest.mark.parametrize("bad", NOT_ELEMENTS.values(), ids=NOT_ELEMENTS)
def test_a_shuffle_proof_holding_a_string_that_is_no_element_is_caught(bad: str) -> None:
    def bad_proof(message: Message) -> Message:
        message["proof"]["B"][0] = bad
        return message

    caught(Cheater(0, "deck/shuffle", bad_proof), setup, prepare=nothing)


def test_a_shuffle_replayed_from_an_earlier_table_is_caught() -> None:
    earlier = DeckTable(DeckSpec("table-0", "deck", FACES, 3), SEEDS)
    earlier.setup()
    old = next(m for m in earlier.transcript if m["type"] == "deck/shuffle" and m["seat"] == 1)
    error = caught(Cheater(1, "deck/shuffle", lambda m: clone(old)), setup, prepare=nothing)
    assert "table 'table-0'" in str(error)


def test_a_shuffle_replayed_from_an_earlier_table_under_a_new_header_is_caught() -> None:
    earlier = DeckTable(DeckSpec("table-0", "deck", FACES, 3), SEEDS)
    earlier.setup()
    old = next(m for m in earlier.transcript if m["type"] == "deck/shuffle" and m["seat"] == 1)

    def new_header(message: Message) -> Message:
        return {**clone(old), "table": message["table"], "digest": message["digest"]}

    error = caught(Cheater(1, "deck/shuffle", new_header), setup, prepare=nothing)
    assert "shuffle" in str(error)


def test_a_deck_built_from_a_different_card_list_is_caught() -> None:
    spec = DeckSpec("table-1", "deck", FACES, 3)
    t = DeckTable(spec, SEEDS)
    t.decks[0] = MentalDeck(dataclasses.replace(spec, faces=(*FACES[:-1], "joker")), 0, SEEDS[0])
    with pytest.raises(CheatDetected) as info:
        t.setup()
    assert info.value.seat == 0 and "different card list" in str(info.value)
    assert [len(d.log) for d in t.decks[1:]] == [0, 0]


def test_a_second_shuffle_from_the_same_seat_is_caught_as_a_replay() -> None:
    t = DeckTable(DeckSpec("table-1", "deck", FACES, 3), SEEDS)
    t.setup()
    before = len(t.decks[0].log)
    again = next(m for m in t.transcript if m["type"] == "deck/shuffle" and m["seat"] == 1)
    with pytest.raises(CheatDetected) as info:
        t.decks[0].receive(again)
    assert info.value.seat == 1 and "replay" in str(info.value)
    assert len(t.decks[0].log) == before


# -- lock -----------------------------------------------------------------------------------------------


def test_a_lock_with_a_wrong_card_is_caught() -> None:
    caught(Cheater(2, "deck/lock", with_cards(replace_at(3, OTHER_POINT))), setup, prepare=nothing)


def test_a_lock_with_a_wrong_key_commitment_is_caught() -> None:
    def wrong_commitment(message: Message) -> Message:
        message["keys"][1] = OTHER_POINT
        return message

    caught(Cheater(1, "deck/lock", wrong_commitment), setup, prepare=nothing)


def test_a_lock_proof_with_a_zero_scalar_is_caught() -> None:
    def zero(message: Message) -> Message:
        message["proof"]["z"][0] = "00" * 32
        return message

    error = caught(Cheater(0, "deck/lock", zero), setup, prepare=nothing)
    assert "scalar" in str(error)


def test_a_lock_key_commitment_that_is_the_identity_is_caught() -> None:
    def identity(message: Message) -> Message:
        message["keys"][0] = IDENTITY
        return message

    caught(Cheater(2, "deck/lock", identity), setup, prepare=nothing)


# -- open rounds ----------------------------------------------------------------------------------------


def with_keys(change: Callable[[list[list[Any]]], list[list[Any]]]) -> Callable[[Message], Message]:
    def rewrite(message: Message) -> Message:
        message["keys"] = change(message["keys"])
        return message
    return rewrite


def test_a_wrong_per_card_key_is_caught() -> None:
    def off_by_one(keys: list[list[Any]]) -> list[list[Any]]:
        keys[0][1] = group.scalar_to_hex(group.scalar_from_hex(keys[0][1]) % (group.ORDER - 1) + 1)
        return keys

    error = caught(Cheater(0, "deck/open", with_keys(off_by_one)), deal)
    assert "wrong key" in str(error)


def test_a_zero_key_is_caught() -> None:
    def zero(keys: list[list[Any]]) -> list[list[Any]]:
        keys[0][1] = "00" * 32
        return keys

    error = caught(Cheater(2, "deck/open", with_keys(zero)), deal)
    assert "scalar" in str(error)


def test_a_key_withheld_from_an_open_message_is_caught() -> None:
    error = caught(Cheater(1, "deck/open", with_keys(lambda k: k[1:])), deal)
    assert "withholds" in str(error)


def test_an_open_message_for_other_cards_is_caught() -> None:
    def other_targets(message: Message) -> Message:
        message["targets"] = [[0, 1], [1, 2], [3, 0]]
        return message

    caught(Cheater(1, "deck/open", other_targets), deal)


def test_an_opening_withheld_altogether_names_the_seat_waited_for() -> None:
    t = DeckTable(DeckSpec("table-1", "deck", FACES, 3), SEEDS)
    t.setup()
    outgoing = [(s, m) for s, deck in enumerate(t.decks) for m in deck.open({0: 1}) if s != 2]
    t.deliver(outgoing)
    assert t.decks[1].waiting_for() == [2]
    assert t.decks[1].hand() == {}


def test_keys_replayed_from_an_earlier_round_are_caught() -> None:
    t = DeckTable(DeckSpec("table-1", "deck", FACES, 3), SEEDS)
    t.setup()
    t.open({0: 1})
    old = next(m for m in t.transcript if m["type"] == "deck/open" and m["seat"] == 0)
    for deck in t.decks:
        deck.open({1: 1})
    before = len(t.decks[1].log)
    with pytest.raises(CheatDetected) as info:
        t.decks[1].receive(old)
    assert info.value.seat == 0 and "replayed" in str(info.value)
    assert len(t.decks[1].log) == before


def test_a_message_replayed_from_another_deck_of_the_table_is_caught() -> None:
    tiles = DeckTable(DeckSpec("table-1", "tiles", FACES, 3), SEEDS)
    tiles.setup()
    t = DeckTable(DeckSpec("table-1", "deck", FACES, 3), SEEDS)
    t.setup()
    t.decks[1].open({0: 1})
    tiles.open({0: 1})
    old = next(m for m in tiles.transcript if m["type"] == "deck/open" and m["seat"] == 0)
    with pytest.raises(CheatDetected) as info:
        t.decks[1].receive(old)
    assert info.value.seat == 0 and "deck 'tiles'" in str(info.value)


def test_a_leave_that_withholds_a_key_is_caught() -> None:
    error = caught(Cheater(2, "deck/leave", with_keys(lambda k: k[:-1])), lambda t: t.leave(2))
    assert "withholds" in str(error)


# -- seeds and the audit -----------------------------------------------------------------------------


def test_a_seed_that_does_not_match_its_commitment_is_caught() -> None:
    def other_seed(message: Message) -> Message:
        message["seed"] = "ee" * 32
        return message

    error = caught(Cheater(1, "deck/seed", other_seed), lambda t: t.open_seeds())
    assert "commitment" in str(error)


def test_a_seat_whose_steps_do_not_come_from_its_seed_is_caught_when_it_opens_it() -> None:
    """Its proofs check (it knows the keys it used), but the seed it committed to gives other keys."""
    spec = DeckSpec("table-1", "deck", FACES, 3)
    t = DeckTable(spec, SEEDS)
    t.decks[1]._secrets = DeckSecrets.derive(b"\x77" * 32, "table-1", spec.digest(), 1, len(FACES))
    t.setup()
    t.open({0: 1})
    with pytest.raises(CheatDetected) as info:
        t.open_seeds()
    assert info.value.seat == 1 and "seed" in str(info.value)


def test_the_audit_names_the_seat_whose_step_was_changed() -> None:
    t = DeckTable(DeckSpec("table-1", "deck", FACES, 3), SEEDS)
    t.setup()
    t.open({0: 0, 1: 1})
    t.open_seeds()
    transcript = clone(t.transcript)
    lock = next(m for m in transcript if m["type"] == "deck/lock" and m["seat"] == 2)
    lock["cards"][0] = OTHER_POINT
    with pytest.raises(CheatDetected) as info:
        audit_deck(t.spec, transcript)
    assert info.value.seat == 2


def test_the_audit_names_the_first_of_two_cheating_seats() -> None:
    t = DeckTable(DeckSpec("table-1", "deck", FACES, 3), SEEDS)
    t.setup()
    t.open({0: 0, 1: 1})
    transcript = clone(t.transcript)
    for m in transcript:
        if m["type"] == "deck/open" and m["seat"] == 2:
            m["keys"] = m["keys"][:-1]
        if m["type"] == "deck/shuffle" and m["seat"] == 1:
            m["cards"][0] = OTHER_POINT
    with pytest.raises(CheatDetected) as info:
        audit_deck(t.spec, transcript)
    assert info.value.seat == 1


def test_an_open_message_with_malformed_keys_is_caught() -> None:
    error = caught(Cheater(2, "deck/open", with_keys(lambda k: [[[0], "x"], *k[1:]])), deal)
    assert "withholds" in str(error) or "keys for cards" in str(error)
