"""The match: chance routed to the resolver, private knowledge beside the state, actions checked."""

from __future__ import annotations

import pytest

from atoll.bots.random_bot import RandomBot
from atoll.chance import Deal, Shuffle
from atoll.engine import LocalResolver, Match, run
from atoll.engine.loop import StuckGame
from atoll.errors import (
    AmbiguousAction,
    CheatDetected,
    IllegalAction,
    MalformedInput,
    ProtocolViolation,
    UnknownAction,
)
from atoll.game import Game
from atoll.jsondata import digest
from atoll.types import Chance, Decision, End


def deal(match: Match) -> None:
    """Advance through the shuffle and the deal."""
    assert isinstance(match.advance(), Shuffle)
    assert isinstance(match.advance(), Deal)


def test_a_deal_tells_each_seat_only_its_own_cards(highcard_match: Match) -> None:
    deal(highcard_match)
    for seat, hand in enumerate(highcard_match.state["hands"]):
        assert set(highcard_match.known[seat]) == set(hand)


def test_the_public_state_holds_handles_not_faces(highcard_match: Match) -> None:
    deal(highcard_match)
    assert highcard_match.state["hands"][0] == ["deck.0", "deck.1"]
    assert "faces" not in highcard_match.events[0]["outcome"]


def test_a_sealed_choice_is_known_only_to_its_seat(highcard_match: Match) -> None:
    deal(highcard_match)
    highcard_match.act(0, {"secret": ["low"]})
    handle = highcard_match.state["bets"][0][0]
    assert highcard_match.known[0][handle] == "low"
    assert all(handle not in highcard_match.known[s] for s in (1, 2))
    assert highcard_match.events[-1] == {"seat": 0, "sealed": [handle]}


def test_a_sealed_choice_must_be_a_legal_one(highcard_match: Match) -> None:
    deal(highcard_match)
    with pytest.raises(IllegalAction):
        highcard_match.act(0, {"secret": ["medium"]})


def test_acting_out_of_turn_is_refused_and_changes_nothing(highcard_match: Match) -> None:
    deal(highcard_match)
    before = digest(highcard_match.state)
    with pytest.raises(ProtocolViolation, match="out of turn"):
        highcard_match.act(1, {"secret": ["low"]})
    assert digest(highcard_match.state) == before


def test_acting_while_chance_is_to_act_is_refused(highcard_match: Match) -> None:
    with pytest.raises(ProtocolViolation, match="no seat is to decide"):
        highcard_match.act(0, {"secret": ["low"]})


def play_to_cards(match: Match) -> None:
    deal(match)
    for seat in range(3):
        match.act(seat, {"secret": ["high"]})


def test_showing_a_card_not_in_hand_is_refused(highcard_match: Match) -> None:
    play_to_cards(highcard_match)
    stranger = highcard_match.state["hands"][1][0]
    before = digest(highcard_match.state)
    with pytest.raises(IllegalAction, match="not in its hand"):
        highcard_match.act(0, {"play": stranger, "reveal": {stranger: 1}})
    assert digest(highcard_match.state) == before


def test_claiming_a_false_face_is_a_cheat_named_after_its_seat(highcard_match: Match) -> None:
    play_to_cards(highcard_match)
    handle = highcard_match.state["hands"][0][0]
    true_face = highcard_match.known[0][handle]
    before = digest(highcard_match.state)
    with pytest.raises(CheatDetected) as caught:
        highcard_match.act(0, {"play": handle, "reveal": {handle: 9 - true_face}})
    assert caught.value.seat == 0
    assert digest(highcard_match.state) == before


def test_a_revealed_card_becomes_public_in_the_ledger(highcard_match: Match) -> None:
    play_to_cards(highcard_match)
    action = highcard_match.legal_actions(0)[0]
    highcard_match.act(0, action)
    assert highcard_match.ledger.public == action["reveal"]


def test_a_reveal_must_be_an_object(highcard_match: Match) -> None:
    play_to_cards(highcard_match)
    with pytest.raises(MalformedInput):
        highcard_match.act(0, {"play": "deck.0", "reveal": ["deck.0"]})


def test_a_text_parses_back_to_its_action(highcard_match: Match) -> None:
    deal(highcard_match)
    assert highcard_match.parse(0, "  BET   high ") == {"secret": ["high"]}


def test_a_unique_prefix_is_enough(highcard_match: Match) -> None:
    deal(highcard_match)
    assert highcard_match.parse(0, "bet l") == {"secret": ["low"]}


def test_an_ambiguous_prefix_lists_the_candidates(highcard_match: Match) -> None:
    deal(highcard_match)
    with pytest.raises(AmbiguousAction, match="bet high, bet low"):
        highcard_match.parse(0, "bet")


def test_an_unknown_text_lists_the_legal_ones(highcard_match: Match) -> None:
    deal(highcard_match)
    with pytest.raises(UnknownAction, match="legal: bet high, bet low"):
        highcard_match.parse(0, "fold")


def test_the_steps_follow_the_game(highcard_match: Match) -> None:
    assert isinstance(highcard_match.step(), Chance)
    deal(highcard_match)
    assert highcard_match.step() == Decision(0, secret=True)


def test_a_game_runs_to_its_end_with_bots(highcard_match: Match) -> None:
    end = run(highcard_match, [RandomBot(s) for s in range(3)])
    assert isinstance(end, End)
    assert len(end.results.scores) == 3
    assert highcard_match.results() == end


def test_the_same_seed_gives_the_same_game(highcard: Game) -> None:
    logs = []
    for _ in range(2):
        match = Match(highcard, highcard.configure(4), LocalResolver(99))
        run(match, [RandomBot(s) for s in range(4)])
        logs.append(match.events)
    assert logs[0] == logs[1]


def test_a_game_that_never_ends_is_reported_stuck(highcard_match: Match) -> None:
    with pytest.raises(StuckGame, match="no end after 3 steps"):
        run(highcard_match, [RandomBot(s) for s in range(3)], max_steps=3)
