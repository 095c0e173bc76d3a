"""The fair step machines: every built-in game plays to its end on the protocols; its record re-checks."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from atoll.bots.random_bot import RandomBot
from atoll.chance import Deal, Reveal, Roll, Shuffle
from atoll.engine import Match, run
from atoll.engine.resolver import Resolver
from atoll.errors import CheatDetected, ProtocolViolation
from atoll.fair.steps.record import Record
from atoll.game import Game
from atoll.registry import load_registry
from tests.fair.helpers import finished, table
from tests.games.highcard import FACES, HighCard


def play(game: Game, seats: int, variant: str | None = None, bots: int = 0) -> Record:
    """Play a whole game on the step machines with random bots; the record, re-checked in full."""
    match = Match(game, game.configure(seats, variant), table(seats, f"{game.info.name}-{seats}"))
    run(match, [RandomBot(bots + s) for s in range(seats)])
    return finished(match)


@pytest.mark.parametrize("seats", [2, 4])
def test_high_card_plays_to_the_end_on_a_fair_table_and_its_record_checks(seats: int) -> None:
    record = play(HighCard(), seats)
    assert record.finished and record.seats == seats
    assert (record.deck.card_count(), record.draws, len(record.sealed_values())) == (len(FACES), 1, seats)


@pytest.mark.parametrize(("seats", "variant"), [(4, "experienced")])
def test_kariba_plays_to_the_end_on_a_fair_table_and_its_record_checks(seats: int, variant: str) -> None:
    record = play(load_registry().game("kariba"), seats, variant)
    assert record.finished and record.deck.card_count() == 64


@pytest.mark.parametrize(("seats", "variant"), [(2, "children"), (3, "professional")])
def test_kiribati_plays_to_the_end_on_a_fair_table_and_its_record_checks(seats: int, variant: str) -> None:
    record = play(load_registry().game("kiribati"), seats, variant)
    assert record.finished and record.draws > 0


def test_the_fair_resolver_is_an_engine_resolver() -> None:
    resolver: Resolver = table(2)
    assert resolver.resolve(Roll(1, 6)).outcome["values"][0] in range(1, 7)


def test_a_dealt_card_is_known_to_its_receiver_only() -> None:
    resolver = table(3)
    resolver.resolve(Shuffle("deck", FACES))
    private = resolver.resolve(Deal(((1, ("deck.0", "deck.1")),))).privately
    assert set(private) == {1} and set(private[1]) == {"deck.0", "deck.1"}
    assert resolver.participants[1].known == private[1]
    for other in (0, 2):
        assert resolver.participants[other].known == {}
        with pytest.raises(ProtocolViolation, match="has not been opened to this seat"):
            resolver.participants[other].record.deck.decks["deck"].peek(0)


def test_a_revealed_card_is_the_same_face_for_every_seat() -> None:
    resolver = table(3)
    resolver.resolve(Shuffle("deck", FACES))
    faces = resolver.resolve(Reveal(("deck.3",))).outcome["faces"]
    assert faces["deck.3"] in FACES
    assert all(p.record.result == {"faces": faces} for p in resolver.participants)


def test_a_seat_claiming_a_card_shows_another_face_is_named() -> None:
    game = HighCard()
    match = Match(game, game.configure(2), table(2))
    while not (match.legal_actions(0) and "play" in match.legal_actions(0)[0]):
        step = match.step()
        if hasattr(step, "request"):
            match.advance()
        else:
            match.act(step.seat, match.legal_actions(step.seat)[0])  # type: ignore[union-attr]
    action = match.legal_actions(0)[0]
    handle = action["play"]
    lie = next(f for f in FACES if f != action["reveal"][handle])
    with pytest.raises(CheatDetected, match=f"claims {handle!r} shows {lie}") as caught:
        match.act(0, {"play": handle, "reveal": {handle: lie}})
    assert caught.value.seat == 0


def test_faces_are_opened_only_at_the_end() -> None:
    resolver = table(2)
    resolver.resolve(Shuffle("deck", (1, 2, 3)))
    with pytest.raises(ProtocolViolation, match="call finish"):
        resolver.faces()
    resolver.finish()
    assert sorted(resolver.faces().values()) == [1, 2, 3]


@settings(max_examples=8, deadline=None)
@given(seats=st.integers(2, 5), size=st.integers(1, 16), data=st.data())
def test_any_shuffle_deals_and_reveals_exactly_the_cards_it_was_given(
    seats: int, size: int, data: st.DataObject
) -> None:
    faces = tuple(data.draw(st.lists(st.integers(0, 9), min_size=size, max_size=size)))
    resolver = table(seats, salt=size)
    handles = resolver.resolve(Shuffle("pile", faces)).outcome["handles"]
    dealt = handles[:seats]
    private = resolver.resolve(Deal(tuple((s, (h,)) for s, h in enumerate(dealt)))).privately
    seen = [f for known in private.values() for f in known.values()]
    rest = handles[len(dealt):]
    if rest:
        seen += list(resolver.resolve(Reveal(tuple(rest))).outcome["faces"].values())
    assert sorted(seen) == sorted(faces)
    resolver.finish()
    assert sorted(resolver.faces().values()) == sorted(faces)
