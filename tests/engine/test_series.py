"""A match of several games with the scores added (Kariba: "play three games and add the scores")."""

from __future__ import annotations

import pytest

from atoll.engine.series import Series
from atoll.types import Results

NAMES = ["Ann", "Bea", "Cy"]


def test_a_match_adds_each_seats_scores_game_by_game() -> None:
    series = Series(3).add(Results((5, 2, 0), (0,))).add(Results((1, 7, 3), (1,)))
    assert series.totals() == (6, 9, 3)
    assert not series.over and series.leaders() == (1,)


def test_the_highest_total_wins_the_match_and_equal_totals_share_it() -> None:
    series = Series(2).add(Results((4, 1, 0), (0,))).add(Results((0, 3, 4), (2,)))
    assert series.over and series.totals() == (4, 4, 4) and series.leaders() == (0, 1, 2)
    assert series.summary(NAMES)[0] == ("match over after 2 games: Ann, Bea, Cy share the win "
                                        "(totals: Ann 4, Bea 4, Cy 4)")


def test_the_summary_says_where_the_match_stands_and_each_games_scores() -> None:
    series = Series(3).add(Results((5, 2, 0), (0,)))
    assert series.summary(NAMES) == ["match: game 1 of 3 played, Ann leads (totals: Ann 5, Bea 2, Cy 0)",
                                     "  game 1: Ann 5, Bea 2, Cy 0"]


def test_a_match_over_takes_no_more_games() -> None:
    series = Series(1).add(Results((1, 0), (0,)))
    with pytest.raises(ValueError, match="is over"):
        series.add(Results((0, 1), (1,)))


def test_a_match_is_at_least_one_game() -> None:
    with pytest.raises(ValueError, match="at least one game"):
        Series(0)
