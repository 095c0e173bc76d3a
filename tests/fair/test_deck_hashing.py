"""Domain-separated hashing (atoll.fair.primitives.hashing): what the deck's commitments rest on."""

from __future__ import annotations

import pytest

from atoll.errors import MalformedInput
from atoll.fair.primitives.hashing import (
    GROUP_ORDER,
    PROTOCOL_VERSION,
    encode,
    hash_bytes,
    hash_hex,
    hash_to_int,
    hash_to_scalar,
    make_context,
)


def test_same_context_hashes_the_same() -> None:
    assert hash_hex("commit", {"a": 1, "b": [2]}) == hash_hex("commit", {"b": [2], "a": 1})


def test_purpose_separates_domains() -> None:
    assert hash_bytes("shuffle", {"x": 1}) != hash_bytes("lock", {"x": 1})


def test_purpose_cannot_spill_into_the_context() -> None:
    assert encode("ab", "c") != encode("a", "bc")
    assert hash_bytes("ab", "c") != hash_bytes("a", "bc")


def test_protocol_version_is_hashed() -> None:
    assert PROTOCOL_VERSION.encode() in encode("p", {})


def test_every_context_field_changes_the_hash() -> None:
    base = make_context(table="t", deck="d", step="shuffle", seat=1, inputs=["aa"], outputs=["bb"],
                        commitments=[])
    for field, other in [("table", "t2"), ("deck", "d2"), ("step", "lock"), ("seat", 2),
                         ("inputs", ["ab"]), ("outputs", ["bc"]), ("commitments", ["cc"])]:
        assert hash_hex("p", base) != hash_hex("p", {**base, field: other}), field


def test_context_refuses_a_key_given_twice() -> None:
    with pytest.raises(MalformedInput):
        make_context(table="t", step="s", **{"version": "x"})


def test_hash_to_scalar_is_a_nonzero_scalar() -> None:
    values = [hash_to_scalar("s", {"i": i}) for i in range(200)]
    assert all(0 < v < GROUP_ORDER for v in values)
    assert len(set(values)) == 200


def test_hash_to_int_stays_in_range_and_reaches_every_value() -> None:
    values = [hash_to_int("die", {"i": i}, 6) for i in range(600)]
    assert set(values) == set(range(6))


def test_hash_refuses_what_is_not_plain_json() -> None:
    with pytest.raises(MalformedInput):
        hash_bytes("p", {"x": 1.5j})


def test_hash_refuses_an_empty_purpose() -> None:
    with pytest.raises(MalformedInput):
        hash_bytes("", {})
