"""Kariba K11-K15: drawing back to five, a short pile, the end of the game, the score and a match."""

from __future__ import annotations

import pytest

from atoll import End, IllegalAction, Results
from atoll.bots.random_bot import RandomBot
from atoll.engine import LocalResolver, Match, run
from atoll.engine.series import Series
from tests.kariba.scenario import GAME, hand, play, seat_to_move, set_hole, snapshot, start


def test_a_player_draws_back_up_to_five_cards_from_the_top_of_the_pile() -> None:
    """K11: after playing 2 rhinos, seat 0 draws the top two pile cards and holds five again."""
    match = start([[7, 7, 1, 3, 6], [8, 8, 8, 2, 2]], pile=[8, 6])
    play(match, "play 2 rhino")
    assert hand(match, 0) == [1, 3, 6, 6, 8]
    assert match.view(0)["pile"] == 64 - 10 - 2


def test_drawing_is_part_of_the_turn_and_needs_no_decision() -> None:
    """K11: in the standard game the draw happens by itself; the next decision is the next seat's play."""
    match = start([[7, 7, 1, 3, 6], [8, 8, 8, 2, 2]])
    play(match, "play 2 rhino")
    assert seat_to_move(match) == 1
    assert match.view(1)["hand_sizes"] == [5, 5]


def test_a_short_pile_gives_what_it_has() -> None:
    """K12: with one card left, a player who played two draws one and plays on with four."""
    match = start([[7, 7, 1, 3, 6], [8, 8, 8, 2, 2]])
    match.state = {**match.state, "top": 63}
    play(match, "play 2 rhino")
    assert match.view(0)["hand_sizes"] == [4, 5]
    assert match.view(0)["pile"] == 0


def test_with_the_pile_empty_play_goes_on_without_drawing() -> None:
    """K12: once the pile is empty, hands shrink with every play."""
    match = start([[7, 7, 1, 3, 6], [8, 8, 8, 2, 2]])
    match.state = {**match.state, "top": 64}
    play(match, "play 2 rhino")
    play(match, "play 3 elephant")
    assert match.view(0)["hand_sizes"] == [3, 2]
    assert seat_to_move(match) == 0


def test_the_game_ends_when_a_player_has_played_the_last_card_of_the_hand() -> None:
    """K13: pile empty, seat 0 plays its last five cards; its chase still scores and the game is over."""
    match = start([[7, 7, 7, 7, 7], [8, 8, 8, 2, 2]])
    match.state = {**match.state, "top": 64}
    set_hole(match, {4: 2})
    play(match, "play 5 rhino")
    end = match.results()
    assert end == End(Results((2, 0), (0,)))
    assert match.legal_actions(1) == []


def test_nobody_may_act_after_the_end() -> None:
    """K13: once the game is over, every action is illegal and the state stays as it is."""
    match = start([[7, 7, 7, 7, 7], [8, 8, 8, 2, 2]])
    match.state = {**match.state, "top": 64}
    play(match, "play 5 rhino")
    before = snapshot(match)
    with pytest.raises(IllegalAction, match="no seat may act"):
        GAME.apply(match.state, {"play": ["deck.5"], "reveal": {"deck.5": 8}})
    assert snapshot(match) == before


def test_an_empty_hand_is_refilled_while_the_pile_lasts() -> None:
    """K13: playing a whole hand does not end the game while there are cards to draw."""
    match = start([[7, 7, 7, 7, 7], [8, 8, 8, 2, 2]])
    play(match, "play 5 rhino")
    assert match.results() is None
    assert match.view(0)["hand_sizes"] == [5, 5]
    assert seat_to_move(match) == 1


def test_the_player_with_the_most_cards_won_wins() -> None:
    """K14: scores are the cards won; the most cards wins."""
    match = start([[7, 7, 7, 7, 7], [8, 8, 8, 2, 2]])
    match.state = {**match.state, "top": 64, "won": [3, 4]}
    set_hole(match, {6: 2})
    play(match, "play 5 rhino")
    assert match.results() == End(Results((5, 4), (0,)))


def test_tied_players_share_the_win() -> None:
    """K14: every seat tied for the most cards is a winner."""
    match = start([[7, 7, 7, 7, 7], [8, 8, 8, 2, 2], [1, 1, 1, 1, 1]])
    match.state = {**match.state, "top": 64, "won": [0, 2, 1]}
    set_hole(match, {6: 2})
    play(match, "play 5 rhino")
    assert match.results() == End(Results((2, 2, 1), (0, 1)))


def test_k15_a_match_of_three_games_adds_each_players_cards_won() -> None:
    """K15: "play three games and add the scores": three games with the same players, each player's
    scores added up; the highest total wins the match."""
    series = Series(3)
    for seed in range(3):
        match = Match(GAME, GAME.configure(3), LocalResolver(seed))
        series = series.add(run(match, [RandomBot(seed * 10 + s) for s in range(3)]).results)
    assert series.over
    assert series.totals() == tuple(sum(r.scores[s] for r in series.played) for s in range(3))
    assert max(series.totals()) == series.totals()[series.leaders()[0]]
