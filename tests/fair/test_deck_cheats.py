"""Adversarial seats at a mental deck: every cheat is caught at once, blamed on its author, and leaves
the honest copies as they were before the bad message."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest
from atoll_tools.asked import AskedTable

from atoll.chance import Deal, Shuffle
from atoll.errors import CheatDetected
from atoll.fair.deck.machine import DeckSpec, MentalDeck, Message
from atoll.fair.primitives import group
from atoll.fair.steps.seat import Participant
from atoll.jsondata import canonical, clone
from atoll.table.reasons import EndReason
from tests.fair.helpers import Switch, audited, caught, cheating, messages, rewrite, table
from tests.fair.test_deck import exchange

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
    """Seat ``seat`` rewrites the first deck message of type ``kind`` it sends; remembers what it sent."""

    def __init__(self, seat: int, kind: str, change: Callable[[Message], Message]) -> None:
        self.seat, self.kind, self.change = seat, kind, change
        self.played: AskedTable | None = None
        self.sent: Message | None = None

    def __call__(self, me: Participant, message: Message) -> list[Message]:
        body = message["body"]
        if message["kind"] != "deck" or body["type"] != self.kind or self.sent is not None:
            return [message]
        self.sent = self.change(clone(body))
        return [dict(message, body=self.sent)]

    def assert_honest_copies_untouched(self) -> None:
        """No honest seat's copy of the pile took the bad message."""
        assert self.played is not None and self.sent is not None, "the cheat never happened"
        bad = canonical(self.sent)
        for seat in range(self.played.seats):
            if seat != self.seat:
                decks = self.played.record(seat).deck.decks.values()
                assert all(bad not in {canonical(m) for m in deck.log} for deck in decks), seat


def cheating_table(cheater: Cheater) -> AskedTable:
    played = table(3, cheat={cheater.seat: cheating(cheater)})
    cheater.played = played
    return played


def setup(t: AskedTable) -> None:
    t.resolve(Shuffle("deck", FACES))


def nothing(t: AskedTable) -> None:
    """No preparation: the cheat happens during the set-up itself."""


def caught_cheat(
    cheater: Cheater, action: Callable[[AskedTable], None], prepare: Callable[[AskedTable], None] = setup
) -> str:
    """Run ``action`` at a table where ``cheater`` cheats; the table's verdict, checked to name it."""
    t = cheating_table(cheater)
    prepare(t)
    with caught(t, cheater.seat):
        action(t)
    cheater.assert_honest_copies_untouched()
    ending = t.ending()
    assert ending is not None
    return ending.text


def deal(t: AskedTable) -> None:
    t.resolve(Deal(((0, ("deck.2",)), (1, ("deck.0",)), (2, ("deck.1",)))))


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
    error = caught_cheat(Cheater(1, "deck/shuffle", with_cards(lambda c: c[:-1])), setup, prepare=nothing)
    assert "drops" in error


def test_a_shuffle_that_duplicates_a_card_is_caught() -> None:
    doubled = Cheater(1, "deck/shuffle", with_cards(lambda c: [c[0], *c[:-1]]))
    error = caught_cheat(doubled, setup, prepare=nothing)
    assert "duplicates" in error


def test_a_shuffle_that_substitutes_a_card_is_caught() -> None:
    substituted = Cheater(1, "deck/shuffle", with_cards(replace_at(2, OTHER_POINT)))
    error = caught_cheat(substituted, setup, prepare=nothing)
    assert "not a re-keyed permutation" in error


def test_a_shuffle_that_only_permutes_is_caught() -> None:
    def permute_only(message: Message) -> Message:
        first = next(m["body"] for m in messages(t, "deck") if m["seat"] == 0)
        message["cards"] = list(reversed(first["cards"]))  # seat 0's output, re-ordered, not re-keyed
        return message

    cheater = Cheater(1, "deck/shuffle", permute_only)
    t = cheating_table(cheater)
    with caught(t, 1, "not re-encrypted"):
        setup(t)
    cheater.assert_honest_copies_untouched()


def test_a_shuffle_with_the_key_one_is_caught() -> None:
    def key_one(message: Message) -> Message:
        message["key"] = group.BASE.hex()
        return message

    error = caught_cheat(Cheater(1, "deck/shuffle", key_one), setup, prepare=nothing)
    assert "key is 1" in error


def test_a_shuffle_under_another_key_commitment_is_caught() -> None:
    def other_key(message: Message) -> Message:
        message["key"] = OTHER_POINT
        return message

    caught_cheat(Cheater(2, "deck/shuffle", other_key), setup, prepare=nothing)


def test_a_shuffle_that_only_re_encrypts_is_no_cheat() -> None:
    """A seat may leave the order as it is: its key still hides the cards, and the others permute."""
    spec = DeckSpec("table-1", "deck", FACES, 3)
    decks = [MentalDeck(spec, s, seed) for s, seed in enumerate(SEEDS)]
    lazy = decks[1]
    lazy._secrets = dataclasses.replace(lazy._secrets, permutation=tuple(range(len(FACES))))  # type: ignore[arg-type]
    exchange(decks, [(s, m) for s, deck in enumerate(decks) for m in deck.start()])
    every_card = {c: 0 for c in range(len(FACES))}
    exchange(decks, [(s, m) for s, deck in enumerate(decks) for m in deck.open(every_card)])
    assert sorted(decks[0].hand().values()) == sorted(FACES)


@pytest.mark.parametrize("bad", [*NOT_ELEMENTS.values(), "zz" * 32, "00"],
                         ids=[*NOT_ELEMENTS, "not-hex", "short"])
def test_a_shuffle_with_an_invalid_point_is_caught(bad: str) -> None:
    error = caught_cheat(Cheater(1, "deck/shuffle", with_cards(replace_at(0, bad))), setup, prepare=nothing)
    assert "card 0" in error


@pytest.mark.parametrize("bad", NOT_ELEMENTS.values(), ids=NOT_ELEMENTS)
def test_a_shuffle_proof_holding_a_string_that_is_no_element_is_caught(bad: str) -> None:
    def bad_proof(message: Message) -> Message:
        message["proof"]["B"][0] = bad
        return message

    caught_cheat(Cheater(0, "deck/shuffle", bad_proof), setup, prepare=nothing)


def earlier_shuffle() -> Message:
    """Seat 1's shuffle at an earlier table of the same seats."""
    earlier = table(3, "table-0")
    setup(earlier)
    return next(m["body"] for m in messages(earlier, "deck") if m["body"]["type"] == "deck/shuffle"
                and m["seat"] == 1)


def test_a_shuffle_replayed_from_an_earlier_table_is_caught() -> None:
    old = earlier_shuffle()
    error = caught_cheat(Cheater(1, "deck/shuffle", lambda m: clone(old)), setup, prepare=nothing)
    assert "table 'table-0'" in error


def test_a_shuffle_replayed_from_an_earlier_table_under_a_new_header_is_caught() -> None:
    old = earlier_shuffle()

    def new_header(message: Message) -> Message:
        return {**clone(old), "table": message["table"], "digest": message["digest"]}

    error = caught_cheat(Cheater(1, "deck/shuffle", new_header), setup, prepare=nothing)
    assert "shuffle" in error


def test_a_deck_built_from_a_different_card_list_is_caught() -> None:
    def other_cards(message: Message) -> Message:
        spec = DeckSpec(message["table"], "deck", (*FACES[:-1], "joker"), 3)
        return MentalDeck(spec, 0, SEEDS[0]).start()[0]

    error = caught_cheat(Cheater(0, "deck/shuffle", other_cards), setup, prepare=nothing)
    assert "different card list" in error


def test_a_second_shuffle_from_the_same_seat_is_caught_as_a_replay() -> None:
    t = table(3)
    setup(t)
    deck = t.record(0).deck.decks["deck"]
    before = len(deck.log)
    again = next(m["body"] for m in messages(t, "deck")
                 if m["body"]["type"] == "deck/shuffle" and m["seat"] == 1)
    with pytest.raises(CheatDetected) as info:
        deck.receive(again)
    assert info.value.seat == 1 and "replay" in str(info.value)
    assert len(deck.log) == before


# -- lock -----------------------------------------------------------------------------------------------


def test_a_lock_with_a_wrong_card_is_caught() -> None:
    caught_cheat(Cheater(2, "deck/lock", with_cards(replace_at(3, OTHER_POINT))), setup, prepare=nothing)


def test_a_lock_with_a_wrong_key_commitment_is_caught() -> None:
    def wrong_commitment(message: Message) -> Message:
        message["keys"][1] = OTHER_POINT
        return message

    caught_cheat(Cheater(1, "deck/lock", wrong_commitment), setup, prepare=nothing)


def test_a_lock_proof_with_a_zero_scalar_is_caught() -> None:
    def zero(message: Message) -> Message:
        message["proof"]["z"][0] = "00" * 32
        return message

    error = caught_cheat(Cheater(0, "deck/lock", zero), setup, prepare=nothing)
    assert "scalar" in error


def test_a_lock_key_commitment_that_is_the_identity_is_caught() -> None:
    def identity(message: Message) -> Message:
        message["keys"][0] = IDENTITY
        return message

    caught_cheat(Cheater(2, "deck/lock", identity), setup, prepare=nothing)


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

    error = caught_cheat(Cheater(0, "deck/open", with_keys(off_by_one)), deal)
    assert "wrong key" in error


def test_a_zero_key_is_caught() -> None:
    def zero(keys: list[list[Any]]) -> list[list[Any]]:
        keys[0][1] = "00" * 32
        return keys

    error = caught_cheat(Cheater(2, "deck/open", with_keys(zero)), deal)
    assert "scalar" in error


def test_a_key_withheld_from_an_open_message_is_caught() -> None:
    error = caught_cheat(Cheater(1, "deck/open", with_keys(lambda k: k[1:])), deal)
    assert "withholds" in error


def test_an_open_message_for_other_cards_is_caught() -> None:
    def other_targets(message: Message) -> Message:
        message["targets"] = [[0, 1], [1, 2], [3, 0]]
        return message

    caught_cheat(Cheater(1, "deck/open", other_targets), deal)


def test_an_opening_withheld_altogether_names_the_seat_waited_for() -> None:
    switch = Switch()
    t = table(3, cheat={2: cheating(switch)})
    setup(t)
    switch.tamper = lambda me, m: [] if m["kind"] == "deck" and m["body"]["type"] == "deck/open" else [m]
    t.net.move(0, {"ask": Deal(((1, ("deck.0",)),)).to_json()})
    assert t.record(1).deck.decks["deck"].waiting_for() == [2]
    assert t.record(1).deck.hand() == {}
    with caught(t, 2, reason=EndReason.FORFEIT):
        t.settle()


def test_keys_replayed_from_an_earlier_round_are_caught() -> None:
    t = table(3)
    setup(t)
    t.resolve(Deal(((1, ("deck.0",)),)))
    old = next(m["body"] for m in messages(t, "deck") if m["body"]["type"] == "deck/open" and m["seat"] == 0)
    deck = t.record(1).deck.decks["deck"]
    deck.open({1: 1})
    before = len(deck.log)
    with pytest.raises(CheatDetected) as info:
        deck.receive(old)
    assert info.value.seat == 0 and "replayed" in str(info.value)
    assert len(deck.log) == before


def test_a_message_replayed_from_another_deck_of_the_table_is_caught() -> None:
    t = table(3)
    t.resolve(Shuffle("tiles", FACES))
    setup(t)
    t.resolve(Deal(((1, ("tiles.0",)),)))
    old = next(m["body"] for m in messages(t, "deck") if m["body"]["type"] == "deck/open" and m["seat"] == 0)
    deck = t.record(1).deck.decks["deck"]
    deck.open({0: 1})
    with pytest.raises(CheatDetected) as info:
        deck.receive(old)
    assert info.value.seat == 0 and "deck 'tiles'" in str(info.value)





# -- seeds and the audit -----------------------------------------------------------------------------


def test_a_seed_that_does_not_match_its_commitment_is_caught() -> None:
    t = table(3, cheat=rewrite(1, "seed", lambda body: body.update(seed="ee" * 32)))
    setup(t)
    with caught(t, 1):
        t.finish()


class OtherDeckKeys(Participant):
    """A seat that shuffles and locks with keys of another seed than the one it committed to."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.record.deck._seed = b"\x77" * 32


def test_a_seat_whose_steps_do_not_come_from_its_seed_is_caught_when_it_opens_it() -> None:
    """Its proofs check (it knows the keys it used), but the seed it committed to gives other keys."""
    t = table(3, cheat={1: OtherDeckKeys})
    setup(t)
    t.resolve(Deal(((1, ("deck.0",)),)))
    with caught(t, 1, "seed"):
        t.finish()


def test_the_audit_names_the_seat_whose_step_was_changed() -> None:
    t = table(3, cheat={2: cheating(Cheater(2, "deck/lock", with_cards(replace_at(0, OTHER_POINT))))})
    with caught(t, 2):
        setup(t)
    report, _ = audited(t)
    assert report.blame == 2 and report.cheat is not None


def test_the_audit_names_the_first_of_two_cheating_seats() -> None:
    withheld = Cheater(2, "deck/open", with_keys(lambda k: k[:-1]))
    changed = Cheater(1, "deck/shuffle", with_cards(replace_at(0, OTHER_POINT)))
    t = table(3, cheat={1: cheating(changed), 2: cheating(withheld)})
    with caught(t, 1):
        setup(t)
        deal(t)
    report, _ = audited(t)
    assert report.blame == 1


def test_an_open_message_with_malformed_keys_is_caught() -> None:
    error = caught_cheat(Cheater(2, "deck/open", with_keys(lambda k: [[[0], "x"], *k[1:]])), deal)
    assert "withholds" in error or "keys for cards" in str(error)
