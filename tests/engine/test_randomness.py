"""Draws from a seeded stream: reproducible, in range, and without modulo bias."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from atoll.randomness import Stream


def test_the_same_seed_gives_the_same_draws() -> None:
    a, b = Stream.from_int(5), Stream.from_int(5)
    assert [a.die(6) for _ in range(50)] == [b.die(6) for _ in range(50)]


def test_a_domain_separates_streams_of_one_seed() -> None:
    a, b = Stream.from_int(5, "dice"), Stream.from_int(5, "cards")
    assert [a.below(1000) for _ in range(5)] != [b.below(1000) for _ in range(5)]


@given(st.integers(min_value=1, max_value=10**12), st.integers(min_value=0, max_value=2**32))
def test_below_stays_in_range(n: int, seed: int) -> None:
    assert 0 <= Stream.from_int(seed).below(n) < n


def test_below_zero_is_refused() -> None:
    with pytest.raises(ValueError):
        Stream.from_int(1).below(0)


def test_a_die_is_roughly_uniform() -> None:
    stream = Stream.from_int(1)
    counts = Counter(stream.die(6) for _ in range(60_000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    # 60,000 rolls: each face 10,000 expected, sd ~91; 6 sd is a failure a test run never sees by chance
    assert all(abs(c - 10_000) < 550 for c in counts.values())


def test_a_range_just_above_a_power_of_two_is_not_biased() -> None:
    # 129 values need 8 bits; modulo reduction would favour 0..126 twice as much
    stream = Stream.from_int(2)
    counts = Counter(stream.below(129) for _ in range(129 * 400))
    assert max(counts.values()) < 2 * min(counts.values())


@given(st.lists(st.integers(), min_size=0, max_size=30), st.integers(min_value=0, max_value=999))
def test_a_shuffle_is_a_permutation(items: list[int], seed: int) -> None:
    assert sorted(Stream.from_int(seed).shuffle(items)) == sorted(items)


def test_a_sample_never_repeats_a_position() -> None:
    picked = Stream.from_int(3).sample(["a", "b", "c", "d"], 4)
    assert sorted(picked) == ["a", "b", "c", "d"]
