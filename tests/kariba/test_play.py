"""Kariba K4-K5: what a player may play, where it goes, and how illegal plays are refused."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from atoll import CheatDetected, IllegalAction, MalformedInput, ProtocolViolation
from tests.kariba.scenario import GAME, hand, play, snapshot, start, texts


def test_a_play_is_one_or_more_cards_of_one_animal() -> None:
    """K4: each legal action plays 1..n cards of one animal held; there is no pass."""
    match = start([[3, 7, 3, 4, 7], [1, 1, 1, 1, 1]])
    assert texts(match) == [
        "play 1 zebra", "play 2 zebra", "play 1 giraffe", "play 1 rhino", "play 2 rhino",
    ]


def test_played_cards_go_to_their_animals_place() -> None:
    """K5: the cards played stand at their animal's place, for everyone to count."""
    match = start([[3, 7, 3, 4, 7], [1, 1, 1, 1, 1]])
    play(match, "play 2 rhino")
    assert match.view(1)["hole"] == [0, 0, 0, 0, 0, 0, 2, 0]
    assert match.view(None)["hole"][7 - 1] == 2


def test_playing_two_animals_at_once_is_illegal_and_changes_nothing() -> None:
    """K4: one animal per play; a mixed play raises IllegalAction and leaves the state as it was."""
    match = start([[3, 7, 3, 4, 7], [1, 1, 1, 1, 1]])
    before = snapshot(match)
    mixed = {"play": ["deck.0", "deck.1"], "reveal": {"deck.0": 3, "deck.1": 7}}
    with pytest.raises(IllegalAction, match="one animal"):
        match.act(0, mixed)
    with pytest.raises(IllegalAction, match="one animal"):
        GAME.apply(match.state, mixed)
    assert snapshot(match) == before


def test_playing_no_card_is_illegal() -> None:
    """K4: a player may not pass; a play of no card is refused."""
    match = start([[3, 7, 3, 4, 7], [1, 1, 1, 1, 1]])
    before = snapshot(match)
    with pytest.raises(IllegalAction, match="at least one card"):
        GAME.apply(match.state, {"play": [], "reveal": {}})
    assert snapshot(match) == before


def test_a_play_must_show_the_cards_it_plays() -> None:
    """K5: played cards go face up; a play that does not show a card's face is refused."""
    match = start([[3, 7, 3, 4, 7], [1, 1, 1, 1, 1]])
    before = snapshot(match)
    with pytest.raises(IllegalAction, match="must show exactly"):
        GAME.apply(match.state, {"play": ["deck.0", "deck.2"], "reveal": {"deck.0": 3}})
    assert snapshot(match) == before


def test_the_cards_of_a_play_are_named_in_hand_order() -> None:
    """K4: a play lists its cards in the order the hand holds them, so each play has one form."""
    match = start([[3, 7, 3, 4, 7], [1, 1, 1, 1, 1]])
    zebras = {"play": ["deck.0", "deck.2"], "reveal": {"deck.0": 3, "deck.2": 3}}
    assert match.parse(0, "play 2 zebra") == zebras
    before = snapshot(match)
    with pytest.raises(IllegalAction, match="hand order"):
        GAME.apply(match.state, {"play": ["deck.2", "deck.0"], "reveal": {"deck.0": 3, "deck.2": 3}})
    assert snapshot(match) == before


def test_the_rules_refuse_a_card_that_is_not_in_the_players_hand() -> None:
    """K4: cards come from your own hand; the rules refuse a pile card even if its face is shown."""
    match = start([[3, 7, 3, 4, 7], [1, 1, 1, 1, 1]])
    before = snapshot(match)
    with pytest.raises(IllegalAction, match="not all are distinct cards in its hand"):
        GAME.apply(match.state, {"play": ["deck.60"], "reveal": {"deck.60": 8}})
    with pytest.raises(IllegalAction, match="not all are distinct cards in its hand"):
        GAME.apply(match.state, {"play": ["deck.0", "deck.0"], "reveal": {"deck.0": 3}})
    assert snapshot(match) == before


def test_the_engine_refuses_to_play_a_card_the_player_does_not_hold() -> None:
    """K4: seat 0 cannot show seat 1's card; the engine refuses before the rules see it."""
    match = start([[3, 7, 3, 4, 7], [1, 1, 1, 1, 1]])
    before = snapshot(match)
    with pytest.raises(IllegalAction, match="not in its hand"):
        match.act(0, {"play": ["deck.5"], "reveal": {"deck.5": 1}})
    assert snapshot(match) == before
    assert hand(match, 0) == [3, 3, 4, 7, 7]


def test_claiming_a_false_face_is_caught_as_cheating() -> None:
    """K5: the faces shown are proven; showing a zebra as an elephant is caught and blamed on its seat."""
    match = start([[3, 7, 3, 4, 7], [1, 1, 1, 1, 1]])
    before = snapshot(match)
    with pytest.raises(CheatDetected, match="seat 1: claims card"):  # seat index 0
        match.act(0, {"play": ["deck.0"], "reveal": {"deck.0": 8}})
    assert snapshot(match) == before


def test_only_the_seat_whose_turn_it_is_may_play() -> None:
    """K3, K4: seat 1 may not play during seat 0's turn."""
    match = start([[3, 7, 3, 4, 7], [1, 1, 1, 1, 1]])
    assert match.legal_actions(1) == []
    with pytest.raises(ProtocolViolation, match="out of turn"):
        match.act(1, {"play": ["deck.5"], "reveal": {"deck.5": 1}})


_HANDLES = st.sampled_from(["deck.0", "deck.2", "deck.5", "pile"])
_SCALARS = st.none() | st.booleans() | st.integers(-3, 70) | _HANDLES
_JSON = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["play", "reveal", "draw", "take", "deck.0", "deck.2"]), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None)
@given(action=_JSON, experienced=st.booleans())
def test_whatever_a_player_sends_is_a_legal_play_or_is_refused(action: object, experienced: bool) -> None:
    """K4, K16: an action is accepted only if it does what a legal action does; else it changes nothing."""
    match = start([[3, 7, 3, 4, 7], [1, 1, 1, 1, 1]], pile=[3, 5, 8],
                  variant="experienced" if experienced else "standard")
    if experienced:
        play(match, "play 2 rhino")
    before, legal = snapshot(match), match.texts(0)
    try:
        described = GAME.describe(match.state, action)  # type: ignore[arg-type]
        match.act(0, action)  # type: ignore[arg-type]
    except (IllegalAction, MalformedInput, CheatDetected):
        assert snapshot(match) == before
    else:
        assert described in legal
