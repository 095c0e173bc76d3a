"""The mental deck (atoll.fair.deck.machine) at a table: shuffle, lock, deal, reveal, peek, the seeds
and the audit. Each seat's copy of a pile is the one its own table keeps; the host's copy holds no key."""

from __future__ import annotations

from collections import Counter

import pytest
from atoll_tools.asked import AskedTable

from atoll.chance import Deal, Reveal, Shuffle
from atoll.errors import ProtocolViolation
from atoll.fair.deck.machine import DeckSpec, MentalDeck, Message, Phase
from atoll.table.reasons import EndReason
from tests.fair.helpers import Switch, audited, caught, cheating, messages, table, withhold, withholding

FACES = ("ant", "bee", "cat", "dog", "eel", "fox", "gnu", "hen")


def seeds(n: int, base: int = 1) -> list[bytes]:
    return [bytes([base + s]) * 32 for s in range(n)]


def shuffled(
    seats: int = 3, faces: tuple[str, ...] = FACES, *, salt: int = 0, name: str | None = None
) -> AskedTable:
    """A table of ``seats`` seats with the pile ``deck`` of ``faces`` shuffled and locked."""
    played = table(seats, name, salt=salt)
    played.resolve(Shuffle("deck", faces))
    return played


def copies(played: AskedTable) -> list[MentalDeck]:
    """Every seat's copy of the pile, in seat order."""
    return [played.record(seat).deck.decks["deck"] for seat in range(played.seats)]


def spectator(played: AskedTable) -> MentalDeck:
    """The host's copy of the pile: it holds no key, as a spectator's."""
    return played.record().deck.decks["deck"]


def deal(played: AskedTable, targets: dict[int, int]) -> None:
    """Deal each card (by position) to its seat, in one round."""
    by_seat: dict[int, list[str]] = {}
    for card, seat in targets.items():
        by_seat.setdefault(seat, []).append(f"deck.{card}")
    played.resolve(Deal(tuple((seat, tuple(handles)) for seat, handles in sorted(by_seat.items()))))


def reveal(played: AskedTable, *cards: int) -> None:
    played.resolve(Reveal(tuple(f"deck.{card}" for card in cards)))


def deck_messages(played: AskedTable) -> list[Message]:
    """The deck's messages in the log, in order."""
    return [m["body"] for m in messages(played, "deck")]


def test_after_setup_every_copy_is_ready_and_knows_no_face() -> None:
    played = shuffled()
    for deck in [*copies(played), spectator(played)]:
        assert deck.phase is Phase.READY
        assert deck.hand() == {} and deck.public_faces() == {}


def test_shuffle_and_lock_take_each_seat_in_turn() -> None:
    steps = [(m["type"], m["seat"]) for m in deck_messages(shuffled())]
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
    played = shuffled()
    deal(played, {0: 1})
    assert set(copies(played)[1].hand()) == {0}
    assert copies(played)[1].peek(0) in FACES
    for deck in (copies(played)[0], copies(played)[2], spectator(played)):
        with pytest.raises(ProtocolViolation):
            deck.peek(0)


def test_dealing_the_whole_deck_gives_out_exactly_the_card_list() -> None:
    played = shuffled()
    deal(played, {card: card % 3 for card in range(len(FACES))})
    hands = [deck.hand() for deck in copies(played)]
    assert Counter(face for hand in hands for face in hand.values()) == Counter(FACES)
    assert [sorted(hand) for hand in hands] == [[0, 3, 6], [1, 4, 7], [2, 5]]


def test_cards_can_be_drawn_one_at_a_time() -> None:
    played = shuffled()
    for card in range(4):
        deal(played, {card: 2})
    assert sorted(copies(played)[2].hand()) == [0, 1, 2, 3]


def test_a_revealed_card_is_seen_alike_by_every_copy() -> None:
    played = shuffled()
    reveal(played, 5)
    faces = {deck.public_faces()[5] for deck in [*copies(played), spectator(played)]}
    assert len(faces) == 1 and faces <= set(FACES)


def test_revealing_a_dealt_card_shows_the_face_its_holder_saw() -> None:
    played = shuffled()
    deal(played, {3: 0})
    seen = copies(played)[0].peek(3)
    reveal(played, 3)
    assert all(deck.public_faces()[3] == seen for deck in copies(played))
    assert copies(played)[0].hand() == {}


def test_revealing_a_dealt_card_waits_only_for_its_holder() -> None:
    switch = Switch()
    played = table(3, cheat={0: cheating(switch)})
    played.resolve(Shuffle("deck", FACES))
    played.resolve(Deal(((0, ("deck.3",)),)))
    switch.tamper = withholding("deck", "deck/open")
    played.net.move(0, {"ask": Reveal(("deck.3",)).to_json()})
    assert all(copy.waits_on() == (0,) for copy in played.tables())
    with caught(played, 0, reason=EndReason.FORFEIT):
        played.settle()


def test_an_open_round_waits_for_every_seat_that_owes_a_key() -> None:
    played = table(3, cheat={**withhold(0, "deck", "deck/open"), **withhold(2, "deck", "deck/open")})
    played.resolve(Shuffle("deck", FACES))
    played.net.move(0, {"ask": Deal(((1, ("deck.0",)),)).to_json()})
    assert all(copy.waits_on() == (0, 2) for copy in played.tables())
    assert copies(played)[1].waiting_for() == [0, 2]


def test_keys_that_arrive_before_the_round_is_announced_are_kept_for_it() -> None:
    spec = DeckSpec("table-1", "deck", FACES, 3)
    decks = [MentalDeck(spec, s, seed) for s, seed in enumerate(seeds(3))]
    exchange(decks, [(s, m) for s, deck in enumerate(decks) for m in deck.start()])
    early = decks[0].open({4: 2})
    assert decks[2].receive(early[0]) == []
    decks[1].receive(early[0])
    exchange(decks, [(1, m) for m in decks[1].open({4: 2})])
    decks[2].open({4: 2})
    assert set(decks[2].hand()) == {4}


def test_a_card_dealt_to_one_seat_cannot_be_dealt_to_another() -> None:
    played = shuffled()
    deal(played, {0: 1})
    with pytest.raises(ProtocolViolation):
        deal(played, {0: 2})
    assert played.ending() is None


def test_a_new_round_cannot_start_while_one_waits_for_keys() -> None:
    deck = copies(shuffled())[0]
    deck.open({0: 1})
    with pytest.raises(ProtocolViolation):
        deck.open({1: 1})


def test_cards_cannot_open_before_the_deck_is_locked() -> None:
    deck = MentalDeck(DeckSpec("table-1", "deck", FACES, 2), 0, seeds(1)[0])
    with pytest.raises(ProtocolViolation):
        deck.open({0: 1})


def test_opened_seeds_check_and_give_every_face() -> None:
    played = shuffled()
    deal(played, {c: c % 3 for c in range(6)})
    reveal(played, 6)
    played.finish()
    record = played.record()
    everything = record.deck.all_faces(record.seeds)
    for seat, deck in enumerate(copies(played)):
        for card, face in {**deck.hand(), **deck.public_faces()}.items():
            assert everything[f"deck.{card}"] == face, seat


def test_the_log_audits_clean() -> None:
    played = shuffled()
    deal(played, {0: 0, 1: 1, 2: 2})
    reveal(played, 1, 7)
    played.finish()
    report, record = audited(played)
    assert report.clean and sorted(record.seeds) == [0, 1, 2]
    assert Counter(record.deck.all_faces(record.seeds).values()) == Counter(FACES)


def test_an_audit_without_seeds_checks_the_proofs_and_shows_only_what_was_revealed() -> None:
    played = shuffled()
    reveal(played, 0)
    report, record = audited(played)
    assert report.cheat is None and report.results is None and record.seeds == {}
    assert record.deck.decks["deck"].public_faces() == copies(played)[0].public_faces()


def test_the_same_seeds_give_the_same_messages() -> None:
    assert deck_messages(shuffled(name="same")) == deck_messages(shuffled(name="same"))


def test_different_seeds_give_a_different_order() -> None:
    a, b = shuffled(name="same"), shuffled(name="same", salt=50)
    deal(a, {c: 0 for c in range(8)})
    deal(b, {c: 0 for c in range(8)})
    assert copies(a)[0].hand() != copies(b)[0].hand()


def test_a_deck_of_another_table_or_name_has_other_card_points() -> None:
    here = DeckSpec("table-1", "deck", FACES, 3).card_points()
    assert not set(here) & set(DeckSpec("table-2", "deck", FACES, 3).card_points())
    assert not set(here) & set(DeckSpec("table-1", "tiles", FACES, 3).card_points())


def test_the_deck_identity_commits_to_the_card_list_and_seat_count() -> None:
    digest = DeckSpec("t", "deck", FACES, 3).digest()
    assert digest != DeckSpec("t", "deck", (*FACES[:-1], "yak"), 3).digest()
    assert digest != DeckSpec("t", "deck", FACES, 4).digest()


def test_duplicate_faces_are_distinct_cards() -> None:
    played = shuffled(faces=("one", "one", "two", "two"))
    deal(played, {c: 0 for c in range(4)})
    assert Counter(copies(played)[0].hand().values()) == Counter({"one": 2, "two": 2})


def test_a_one_card_deck_for_one_seat_works() -> None:
    played = shuffled(seats=1, faces=("solo",))
    reveal(played, 0)
    assert copies(played)[0].public_faces() == {0: "solo"}


def test_a_deck_without_proofs_still_deals_and_checks_its_seeds() -> None:
    """Proofs off (a spec no table uses; its steps are still re-derived from the seeds at the end)."""
    spec = DeckSpec("table-1", "deck", FACES, 3, proofs=False)
    decks = [MentalDeck(spec, s, seed) for s, seed in enumerate(seeds(3))]
    sent = [(s, m) for s, deck in enumerate(decks) for m in deck.start()]
    sent += exchange(decks, sent)
    assert all(m.get("proof") is None for _, m in sent)
    opened = [(s, m) for s, deck in enumerate(decks) for m in deck.open({0: 1})]
    exchange(decks, opened)
    assert set(decks[1].hand()) == {0}
    for seat, seed in enumerate(seeds(3)):  # opened at the end: every step re-derived and re-checked
        for deck in decks:
            deck.check_seed_steps(seat, seed)


def exchange(decks: list[MentalDeck], outgoing: list[tuple[int, Message]]) -> list[tuple[int, Message]]:
    """Hand each message to every other copy, in order, with the replies it causes; what was sent."""
    queue, sent = list(outgoing), []
    while queue:
        sender, message = queue.pop(0)
        for seat, deck in enumerate(decks):
            if seat != sender:
                replies = [(seat, reply) for reply in deck.receive(message)]
                queue += replies
                sent += replies
    return sent
