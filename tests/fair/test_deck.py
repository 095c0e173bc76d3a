"""The mental deck (atoll.fair.deck.machine): shuffle, lock, deal, reveal, peek, leave and the seed audit."""

from __future__ import annotations

from collections import Counter

import pytest
from atoll_tools.deck_audit import audit_deck
from atoll_tools.deck_table import DeckTable

from atoll.errors import ProtocolViolation
from atoll.fair.deck.machine import DeckSpec, MentalDeck, Phase

FACES = ("ant", "bee", "cat", "dog", "eel", "fox", "gnu", "hen")


def seeds(n: int, base: int = 1) -> list[bytes]:
    return [bytes([base + s]) * 32 for s in range(n)]


def table(seats: int = 3, faces: tuple[str, ...] = FACES, proofs: bool = True) -> DeckTable:
    t = DeckTable(DeckSpec("table-1", "deck", faces, seats, proofs), seeds(seats))
    t.setup()
    return t


def test_after_setup_every_copy_is_ready_and_knows_no_face() -> None:
    t = table()
    for deck in [*t.decks, t.spectator]:
        assert deck is not None and deck.phase is Phase.READY
        assert deck.hand() == {} and deck.public_faces() == {}


def test_shuffle_and_lock_take_each_seat_in_turn() -> None:
    t = DeckTable(DeckSpec("table-1", "deck", FACES, 3), seeds(3))
    t.setup()
    steps = [(m["type"], m["seat"]) for m in t.transcript]
    assert steps == [("deck/shuffle", 0), ("deck/shuffle", 1), ("deck/shuffle", 2),
                     ("deck/lock", 0), ("deck/lock", 1), ("deck/lock", 2)]


def test_waiting_for_names_the_seat_whose_turn_it_is() -> None:
    spec = DeckSpec("table-1", "deck", FACES, 3)
    decks = [MentalDeck(spec, s, seed) for s, seed in enumerate(seeds(3))]
    first = decks[0].start()
    assert decks[1].waiting_for() == [0]
    decks[2].receive(first[0])
    assert decks[2].waiting_for() == [1]


def test_a_dealt_card_is_seen_by_its_receiver_only() -> None:
    t = table()
    t.open({0: 1})
    assert set(t.decks[1].hand()) == {0}
    assert t.decks[1].peek(0) in FACES
    for deck in (t.decks[0], t.decks[2], t.spectator):
        assert deck is not None
        with pytest.raises(ProtocolViolation):
            deck.peek(0)


def test_dealing_the_whole_deck_gives_out_exactly_the_card_list() -> None:
    t = table()
    t.open({card: card % 3 for card in range(len(FACES))})
    dealt = [face for hand in t.hands() for face in hand.values()]
    assert Counter(dealt) == Counter(FACES)
    assert [sorted(hand) for hand in t.hands()] == [[0, 3, 6], [1, 4, 7], [2, 5]]


def test_cards_can_be_drawn_one_at_a_time() -> None:
    t = table()
    for card in range(4):
        t.open({card: 2})
    assert sorted(t.decks[2].hand()) == [0, 1, 2, 3]


def test_a_revealed_card_is_seen_alike_by_every_copy() -> None:
    t = table()
    t.open({5: None})
    faces = {deck.public_faces()[5] for deck in [*t.decks, t.spectator] if deck is not None}
    assert len(faces) == 1 and faces <= set(FACES)


def test_revealing_a_dealt_card_shows_the_face_its_holder_saw() -> None:
    t = table()
    t.open({3: 0})
    seen = t.decks[0].peek(3)
    t.open({3: None})
    assert all(deck.public_faces()[3] == seen for deck in t.decks)
    assert t.decks[0].hand() == {}


def test_revealing_a_dealt_card_waits_only_for_its_holder() -> None:
    t = table()
    t.open({3: 0})
    for deck in t.decks[1:]:
        assert deck.open({3: None}) == []
    assert t.decks[1].waiting_for() == [0]


def test_an_open_round_waits_for_every_seat_that_owes_a_key() -> None:
    t = table()
    outgoing = [(s, m) for s, deck in enumerate(t.decks) for m in deck.open({0: 1})]
    assert t.decks[1].waiting_for() == [0, 2]
    t.deliver(outgoing)
    assert all(deck.round_done() for deck in t.decks)


def test_keys_that_arrive_before_the_round_is_announced_are_kept_for_it() -> None:
    t = table()
    early = t.decks[0].open({4: 2})
    assert t.decks[2].receive(early[0]) == []
    t.decks[1].receive(early[0])
    t.deliver([(1, m) for m in t.decks[1].open({4: 2})])
    t.decks[2].open({4: 2})
    assert set(t.decks[2].hand()) == {4}


def test_a_card_dealt_to_one_seat_cannot_be_dealt_to_another() -> None:
    t = table()
    t.open({0: 1})
    with pytest.raises(ProtocolViolation):
        t.decks[0].open({0: 2})


def test_a_new_round_cannot_start_while_one_waits_for_keys() -> None:
    t = table()
    t.decks[0].open({0: 1})
    with pytest.raises(ProtocolViolation):
        t.decks[0].open({1: 1})


def test_cards_cannot_open_before_the_deck_is_locked() -> None:
    deck = MentalDeck(DeckSpec("table-1", "deck", FACES, 2), 0, seeds(1)[0])
    with pytest.raises(ProtocolViolation):
        deck.open({0: 1})


def test_a_seat_that_leaves_hands_over_every_key_but_its_hand() -> None:
    t = table()
    t.open({0: 1, 1: 1, 2: 0})
    t.leave(1)
    leave = t.transcript[-1]
    # cards 0 and 1 are its hand; its key for card 2 went to seat 0 in the deal already
    assert leave["type"] == "deck/leave" and [c for c, _ in leave["keys"]] == [3, 4, 5, 6, 7]
    t.open({5: 0, 6: None})
    assert set(t.decks[0].hand()) == {2, 5}
    assert 6 in t.decks[2].public_faces()


def test_a_card_in_the_hand_of_a_seat_that_left_stays_shut() -> None:
    t = table()
    t.open({0: 1})
    t.leave(1)
    with pytest.raises(ProtocolViolation, match="left"):
        t.decks[0].open({0: None})


def test_opened_seeds_check_and_give_every_face() -> None:
    t = table()
    t.open({c: c % 3 for c in range(6)})
    t.open({6: None})
    t.open_seeds()
    assert t.spectator is not None
    everything = t.spectator.all_faces()
    for deck in t.decks:
        for card, face in {**deck.hand(), **deck.public_faces()}.items():
            assert everything[card] == face


def test_the_transcript_audits_clean() -> None:
    t = table()
    t.open({0: 0, 1: 1, 2: 2})
    t.open({1: None, 7: None})
    t.open_seeds()
    report = audit_deck(t.spec, t.transcript, rounds=[{0: 0, 1: 1, 2: 2}, {1: None, 7: None}])
    assert report.seeds_opened == (0, 1, 2) and report.seeds_kept == () and report.waiting == ()
    assert Counter(report.faces.values()) == Counter(FACES)


def test_an_audit_without_seeds_checks_the_proofs_and_says_whose_seeds_are_missing() -> None:
    t = table()
    t.open({0: None})
    report = audit_deck(t.spec, t.transcript)
    assert report.seeds_kept == (0, 1, 2)
    assert report.faces == t.decks[0].public_faces()


def test_the_same_seeds_give_the_same_transcript() -> None:
    assert table().transcript == table().transcript


def test_different_seeds_give_a_different_order() -> None:
    a, b = table(), DeckTable(DeckSpec("table-1", "deck", FACES, 3), seeds(3, base=50))
    b.setup()
    a.open({c: 0 for c in range(8)})
    b.open({c: 0 for c in range(8)})
    assert a.decks[0].hand() != b.decks[0].hand()


def test_a_deck_of_another_table_or_name_has_other_card_points() -> None:
    here = DeckSpec("table-1", "deck", FACES, 3).card_points()
    assert not set(here) & set(DeckSpec("table-2", "deck", FACES, 3).card_points())
    assert not set(here) & set(DeckSpec("table-1", "tiles", FACES, 3).card_points())


def test_the_deck_identity_commits_to_the_card_list_and_seat_count() -> None:
    digest = DeckSpec("t", "deck", FACES, 3).digest()
    assert digest != DeckSpec("t", "deck", (*FACES[:-1], "yak"), 3).digest()
    assert digest != DeckSpec("t", "deck", FACES, 4).digest()


def test_duplicate_faces_are_distinct_cards() -> None:
    t = table(faces=("one", "one", "two", "two"))
    t.open({c: 0 for c in range(4)})
    assert Counter(t.decks[0].hand().values()) == Counter({"one": 2, "two": 2})


def test_a_one_card_deck_for_one_seat_works() -> None:
    t = table(seats=1, faces=("solo",))
    t.open({0: None})
    assert t.decks[0].public_faces() == {0: "solo"}


def test_a_deck_without_proofs_still_deals_and_audits() -> None:
    t = table(proofs=False)
    assert all(m.get("proof") is None for m in t.transcript)
    t.open({0: 1})
    t.open_seeds()
    assert audit_deck(t.spec, t.transcript).seeds_kept == ()
