"""Determinization: worlds agree with everything a seat has seen and guess only the rest."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from atoll.bots.determinize import InconsistentLedger, Sampler
from atoll.engine import LocalResolver, Match, Observation, observe
from atoll.jsondata import digest
from atoll.types import Decision
from tests.games.highcard import FACES, HighCard


def at_decision(match: Match, *, bets: int = 0) -> Decision:
    """Advance ``match`` to a decision after ``bets`` seats have sealed a "high" bet."""
    while True:
        step = match.step()
        if isinstance(step, Decision):
            if bets == 0:
                return step
            match.act(step.seat, {"secret": ["high"]})
            bets -= 1
        else:
            match.advance()


def high_card(seats: int = 2, seed: int = 3) -> Match:
    game = HighCard()
    return Match(game, game.configure(seats), LocalResolver(seed))


def test_a_world_keeps_the_seats_own_cards_and_deals_the_rest_of_the_deck() -> None:
    """High card deals two cards a seat from a deck of 1-8, two of each."""
    match = high_card()
    at_decision(match)
    observation = observe(match, 0)
    sampler = Sampler(observation)
    rng = random.Random(1)
    for _ in range(20):
        world = sampler.world(rng)
        deck = [world.faces[f"deck.{i}"] for i in range(len(FACES))]
        assert Counter(deck) == Counter(FACES)
        assert world.known[0] == dict(observation.known)
        assert set(world.known[1]) == set(match.known[1])


def test_the_other_seats_hidden_cards_vary_between_worlds() -> None:
    match = high_card()
    at_decision(match)
    sampler = Sampler(observe(match, 0))
    rng = random.Random(2)
    hands = {tuple(sorted(sampler.world(rng).known[1].values())) for _ in range(30)}
    assert len(hands) > 5


def test_another_seats_sealed_bet_is_guessed_among_its_legal_bets() -> None:
    """Seat 0 sealed "high"; seat 1 cannot know it, so its worlds hold both bets."""
    match = high_card()
    at_decision(match, bets=1)
    sampler = Sampler(observe(match, 1))
    rng = random.Random(3)
    sealed = match.ledger.seals[0].handles[0]
    bets = Counter(sampler.world(rng).faces[sealed] for _ in range(40))
    assert set(bets) == {"high", "low"}


def test_a_seats_own_sealed_bet_is_kept_as_it_was() -> None:
    match = high_card()
    at_decision(match, bets=2)
    sampler = Sampler(observe(match, 0))
    rng = random.Random(4)
    sealed = match.ledger.seals[0].handles[0]
    assert {sampler.world(rng).faces[sealed] for _ in range(10)} == {"high"}


def test_playing_worlds_out_leaves_the_observation_untouched() -> None:
    match = high_card(seats=3)
    at_decision(match, bets=1)
    observation = observe(match, 1)
    before = digest(observation.state), dict(observation.known), len(observation.ledger.seals)
    sampler = Sampler(observation)
    rng = random.Random(5)
    for _ in range(10):
        assert sampler.world(rng).playout() is not None
    assert (digest(observation.state), dict(observation.known), len(observation.ledger.seals)) == before


def test_a_ledger_showing_more_cards_of_a_face_than_the_pile_holds_is_refused() -> None:
    match = high_card()
    at_decision(match)
    observation = observe(match, 0)
    ledger = observation.ledger.copy()
    ledger.public.update({"deck.10": 8, "deck.11": 8, "deck.12": 8})
    bad = Observation(observation.game, observation.config, 0, observation.state, {}, ledger, [])
    with pytest.raises(InconsistentLedger, match="more 8 cards than it holds"):
        Sampler(bad)
