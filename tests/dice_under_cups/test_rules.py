"""Dice Under Cups (Liar's Dice), rule by rule: each test cites the rule of the game's docstring it checks.

Dice are rigged: the rolls queue fills the cups in the order they are rolled (seat 0's first).
"""

from __future__ import annotations

import pytest

from atoll.authoring.examples.dice_under_cups import DiceUnderCups
from atoll.engine import Match
from atoll.errors import IllegalAction
from atoll.testing import RiggedResolver
from atoll.types import Chance, Decision, End

GAME = DiceUnderCups()


def match(seats: int = 2, variant: str = "standard", rolls: tuple[int, ...] = ()) -> Match:
    """A match whose first round's cups are rolled from ``rolls`` (the rest from the seed)."""
    m = Match(GAME, GAME.configure(seats, variant), RiggedResolver(rolls=rolls))
    settle(m)
    return m


def settle(m: Match) -> None:
    while isinstance(m.step(), Chance):
        m.advance()


def say(m: Match, seat: int, text: str) -> None:
    m.act(seat, m.parse(seat, text))
    settle(m)


def test_rule_1_every_seat_starts_with_five_dice_or_two_in_the_short_game() -> None:
    assert match(3).state["dice"] == [5, 5, 5]
    assert match(3, "short").state["dice"] == [2, 2, 2]


def test_rule_2_each_seat_sees_only_the_dice_under_its_own_cup() -> None:
    m = match(2, rolls=(1, 2, 3, 4, 5, 6, 6, 6, 6, 6))
    assert m.view(0)["mine"] == [1, 2, 3, 4, 5]
    assert m.view(1)["mine"] == [6, 6, 6, 6, 6]
    assert m.view(None)["mine"] == []
    assert "6" not in str({k: v for k, v in m.view(0).items() if k != "mine"}.get("last"))


def test_rule_3_the_starter_opens_with_any_bid_but_cannot_call_yet() -> None:
    m = match(2)
    assert m.step() == Decision(0)
    texts = m.texts(0)
    assert "liar" not in texts
    assert len(texts) == 10 * 6 and "bid 1x1" in texts and "bid 10x6" in texts


def test_rule_4_a_raise_bids_more_dice_or_as_many_of_a_higher_face() -> None:
    m = match(2)
    say(m, 0, "bid 3x4")
    texts = m.texts(1)
    assert {"bid 3x5", "bid 3x6", "bid 4x1", "liar"} <= set(texts)
    assert "bid 3x4" not in texts and "bid 3x3" not in texts and "bid 2x6" not in texts
    with pytest.raises(IllegalAction, match="rule 4"):
        m.act(1, {"bid": [2, 6]})


def test_rule_5_a_bid_that_holds_costs_the_caller_a_die() -> None:
    m = match(2, rolls=(4, 4, 1, 2, 3, 4, 5, 6, 6, 6))
    say(m, 0, "bid 3x4")  # 4, 4 and one more 4: three fours, the bid holds
    say(m, 1, "liar")
    assert m.state["dice"] == [5, 4]
    assert m.state["last"]["shown"] == 3 and m.state["last"]["loser"] == 1


def test_rule_5_a_bid_that_fails_costs_the_bidder_a_die() -> None:
    m = match(2, rolls=(4, 4, 1, 2, 3, 5, 5, 6, 6, 6))
    say(m, 0, "bid 3x4")  # only two fours
    say(m, 1, "liar")
    assert m.state["dice"] == [4, 5]
    assert m.state["last"]["cups"] == [[4, 4, 1, 2, 3], [5, 5, 6, 6, 6]]


def test_rule_5_lifting_the_cups_shows_every_die_to_everybody() -> None:
    m = match(2, rolls=(4, 4, 1, 2, 3, 5, 5, 6, 6, 6))
    cups = [list(c) for c in m.state["cups"]]
    say(m, 0, "bid 3x4")
    say(m, 1, "liar")
    assert all(m.ledger.public[h] for cup in cups for h in cup)
    assert m.view(None)["last"]["cups"] == [[4, 4, 1, 2, 3], [5, 5, 6, 6, 6]]


def test_rule_6_the_loser_starts_the_next_round() -> None:
    m = match(2, rolls=(4, 4, 1, 2, 3, 5, 5, 6, 6, 6))
    say(m, 0, "bid 3x4")
    say(m, 1, "liar")
    assert m.state["round"] == 2 and m.step() == Decision(0)


def test_rule_6_and_7_a_seat_without_dice_is_out_and_the_last_seat_with_dice_wins() -> None:
    m = match(3, "short", rolls=(
        1, 1, 2, 2, 3, 3,  # round 1: seats 0, 1, 2
        5, 1, 1, 2, 2,  # round 2: seat 0 has one die left
        1, 1, 2, 2,  # round 3: seat 0 is out and rolls nothing
        1, 2, 2,  # round 4
    ))
    say(m, 0, "bid 1x6")
    say(m, 1, "liar")  # no six: seat 0 loses a die and starts round 2
    assert m.state["dice"] == [1, 2, 2] and m.step() == Decision(0)
    say(m, 0, "bid 1x6")
    say(m, 1, "liar")  # no six again: seat 0 has no dice left and is out
    assert m.state["dice"] == [0, 2, 2] and m.state["cups"][0] == []
    assert m.step() == Decision(1)  # the next seat still in starts
    say(m, 1, "bid 3x1")
    say(m, 2, "liar")  # two ones: seat 1 loses
    say(m, 1, "bid 2x1")
    say(m, 2, "liar")  # one one: seat 1 is out, seat 2 is the last with dice
    end = m.step()
    assert isinstance(end, End)
    assert end.results.winners == (2,) and end.results.scores == (0, 0, 2)


def test_a_bid_must_be_two_integers_never_a_boolean() -> None:
    m = match(2)
    for bad in ({"bid": [True, 3]}, {"bid": [2, "3"]}, {"bid": [2]}, {"bid": [2, 3], "dice": [1]}):
        with pytest.raises(IllegalAction, match="two integers"):
            m.act(0, bad)


def test_stable_action_ids_number_each_bid_the_same_in_every_state() -> None:
    m = match(2)
    config = m.config
    ids = {GAME.action_id(m.state, a) for a in m.legal_actions(0)}
    assert len(ids) == 60 and max(ids) < GAME.action_id_count(config)
    assert GAME.action_id(m.state, {"bid": [3, 4]}) == 2 * 6 + 3
    say(m, 0, "bid 3x4")
    assert GAME.action_id(m.state, {"bid": [3, 5]}) == 2 * 6 + 4
    assert GAME.action_id(m.state, {"call": "liar"}) == GAME.action_id_count(config) - 1


def test_the_log_tells_the_owner_its_dice_and_the_others_only_that_a_cup_was_rolled() -> None:
    m = Match(GAME, GAME.configure(2), RiggedResolver(rolls=(1, 2, 3, 4, 5)))
    before, step = m.state, m.step()
    assert isinstance(step, Chance)
    m.advance()
    outcome = m.events[-1]["outcome"]
    assert GAME.describe_chance(before, step.request, outcome) == "red rolls 5 dice under the cup"
    assert GAME.describe_chance_to(before, step.request, outcome, 0, m.knowledge(0)) == (
        "you roll 1 2 3 4 5 under your cup")
    assert GAME.describe_chance_to(before, step.request, outcome, 1, m.knowledge(1)) is None
