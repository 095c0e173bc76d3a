"""`scripts/bench bots`: how a game counts for the search bot, and the interval around its share."""

from __future__ import annotations

import pytest
from atoll_tools.bench.bots import credit, share_interval

from atoll.sim import Outcome


def outcome(search_seat: int, winners: tuple[int, ...]) -> Outcome:
    seat_of = tuple((search_seat + p) % 3 for p in range(3))
    return Outcome(0, seat_of, (0, 0, 0), winners, 10)


def test_a_sole_win_counts_whole_a_shared_one_split_and_a_loss_nothing() -> None:
    assert credit(outcome(1, (1,))) == 1
    assert credit(outcome(2, (0, 2))) == 0.5
    assert credit(outcome(0, (1,))) == 0


def test_the_share_is_the_mean_credit_with_a_95_percent_interval_within_0_and_1() -> None:
    share, low, high = share_interval([1, 0, 0, 1, 0.5, 0])
    assert share == pytest.approx(2.5 / 6)
    assert 0 < low < share < high < 1
    assert share_interval([1, 1, 1]) == (1, 1, 1)
