"""Games played on the fair protocols at a real table: every built-in game plays to its end, and its
log re-checks in full; chance answered through the protocols reaches the right seats only."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from atoll.bots.random_bot import RandomBot
from atoll.chance import Deal, Reveal, Roll, Shuffle
from atoll.errors import ProtocolViolation
from atoll.fair.steps.record import Record
from atoll.registry import load_registry
from tests.fair.helpers import audited, caught, cheating, played_through, table
from tests.games import highcard
from tests.games.highcard import FACES

REGISTRY = load_registry(extra=[("highcard", highcard)])


def play(game: str, seats: int, variant: str | None = None) -> Record:
    """Play a whole game at a table in memory with random bots; the record its log's audit re-checked."""
    return played_through(game, [RandomBot(seat) for seat in range(seats)], variant, registry=REGISTRY)[1]


@pytest.mark.parametrize("seats", [2, 4])
def test_high_card_plays_to_the_end_on_a_fair_table_and_its_log_audits_clean(seats: int) -> None:
    record = play("highcard", seats)
    assert record.finished and record.seats == seats
    assert (record.deck.card_count(), record.draws, len(record.sealed_values())) == (len(FACES), 1, seats)


def test_kariba_plays_to_the_end_on_a_fair_table_and_its_log_audits_clean() -> None:
    record = play("kariba", 4, "experienced")
    assert record.finished and record.deck.card_count() == 64


@pytest.mark.parametrize(("seats", "variant"), [(2, "children"), (3, "professional")])
def test_kiribati_plays_to_the_end_on_a_fair_table_and_its_log_audits_clean(seats: int, variant: str) -> None:
    record = play("kiribati", seats, variant)
    assert record.finished and record.draws > 0


def test_a_dealt_card_is_known_to_its_receiver_only() -> None:
    played = table(3)
    played.resolve(Shuffle("deck", FACES))
    private = played.resolve(Deal(((1, ("deck.0", "deck.1")),))).privately
    assert set(private) == {1} and set(private[1]) == {"deck.0", "deck.1"}
    assert played.participant(1).known == private[1]
    for other in (0, 2):
        assert played.participant(other).known == {}
        with pytest.raises(ProtocolViolation, match="has not been opened to this seat"):
            played.record(other).deck.decks["deck"].peek(0)


def test_a_revealed_card_is_the_same_face_for_every_seat() -> None:
    played = table(3)
    played.resolve(Shuffle("deck", FACES))
    faces = played.resolve(Reveal(("deck.3",))).outcome["faces"]
    assert faces["deck.3"] in FACES
    assert all(played.record(s).result == {"faces": faces} for s in (None, 0, 1, 2))


def test_a_seat_claiming_a_card_shows_another_face_is_named() -> None:
    played = table(2)
    played.resolve(Shuffle("deck", FACES))
    face = played.resolve(Deal(((0, ("deck.0",)),))).privately[0]["deck.0"]
    lie = next(f for f in FACES if f != face)
    with caught(played, 0, f"claims 'deck.0' shows {lie}"):
        played.prove(0, {"deck.0": lie})


def test_faces_are_opened_only_at_the_end() -> None:
    played = table(2)
    played.resolve(Shuffle("deck", (1, 2, 3)))
    record = played.record()
    assert record.deck.all_public() == {}
    played.finish()
    assert sorted(record.deck.all_faces(record.seeds).values()) == [1, 2, 3]


@settings(max_examples=8, deadline=None)
@given(seats=st.integers(2, 5), size=st.integers(1, 16), data=st.data())
def test_any_shuffle_deals_and_reveals_exactly_the_cards_it_was_given(
    seats: int, size: int, data: st.DataObject
) -> None:
    faces = tuple(data.draw(st.lists(st.integers(0, 9), min_size=size, max_size=size)))
    played = table(seats, salt=size)
    handles = played.resolve(Shuffle("pile", faces)).outcome["handles"]
    dealt = handles[:seats]
    private = played.resolve(Deal(tuple((s, (h,)) for s, h in enumerate(dealt)))).privately
    seen = [f for known in private.values() for f in known.values()]
    rest = handles[len(dealt):]
    if rest:
        seen += list(played.resolve(Reveal(tuple(rest))).outcome["faces"].values())
    assert sorted(seen) == sorted(faces)
    played.finish()
    _, record = audited(played)
    assert sorted(record.deck.all_faces(record.seeds).values()) == sorted(faces)


def test_the_referee_at_a_table_judges_with_the_games_own_rules() -> None:
    """A sealed choice the game never offered is named once it is open (the asked game offers one)."""
    played = table(2, cheat={1: cheating(sealing=lambda values: ["other"])})
    handles = played.seal(1, ["offered"])
    played.resolve(Reveal(tuple(handles)))
    with caught(played, 1, "not a legal choice"):
        played.resolve(Roll(1, 6))
