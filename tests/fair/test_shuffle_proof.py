"""The shuffle proof (atoll.fair.primitives.shuffle_proof): a permutation re-keyed by one secret checks."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from atoll.fair.primitives import group
from atoll.fair.primitives import shuffle_proof as sp
from atoll.fair.primitives.dleq import InvalidProof
from atoll.fair.primitives.group import Point

KEY = b"k" * 32
CONTEXT = {"table": "t", "deck": "d", "step": "shuffle", "seat": 0}
A = 2**200 + 987654321


def cards(n: int, tag: str = "in") -> list[Point]:
    """``n`` independent points."""
    return [group.hash_to_point("test/card", {"tag": tag, "i": i}) for i in range(n)]


def shuffled(inputs: list[Point], key: int = A, seed: int = 1) -> tuple[list[Point], list[int]]:
    """An honest shuffle: outputs[i] = key * inputs[perm[i]]."""
    perm = list(range(len(inputs)))
    random.Random(seed).shuffle(perm)
    return [group.mul(key, inputs[j]) for j in perm], perm


def check(inputs: list[Point], outputs: list[Point], proof: object, key: int = A,
          generators: sp.Generators | None = None, context: object = CONTEXT) -> None:
    gens = generators or sp.Generators.derive({"deck": "d"}, len(inputs))
    sp.verify(inputs, outputs, group.base_mul(key), proof, gens, context)


def prove(inputs: list[Point], outputs: list[Point], perm: list[int], key: int = A) -> dict[str, object]:
    generators = sp.Generators.derive({"deck": "d"}, len(inputs))
    return sp.prove(inputs, outputs, key, perm, generators, CONTEXT, KEY)


def test_an_honest_shuffle_checks() -> None:
    inputs = cards(10)
    outputs, perm = shuffled(inputs)
    check(inputs, outputs, prove(inputs, outputs, perm))


def test_a_one_card_shuffle_checks() -> None:
    inputs = cards(1)
    outputs, perm = shuffled(inputs)
    check(inputs, outputs, prove(inputs, outputs, perm))


def test_re_keying_without_permuting_still_checks() -> None:
    """Not a cheat by itself: the order is hidden by the key, and other seats permute too."""
    inputs = cards(6)
    outputs = [group.mul(A, p) for p in inputs]
    check(inputs, outputs, prove(inputs, outputs, list(range(6))))


def test_a_shuffle_that_substitutes_a_card_is_caught() -> None:
    inputs = cards(8)
    outputs, perm = shuffled(inputs)
    outputs[3] = group.mul(A, cards(1, "other")[0])
    with pytest.raises(InvalidProof):
        check(inputs, outputs, prove_anyway(inputs, outputs, perm))


def test_a_shuffle_that_duplicates_a_card_is_caught() -> None:
    inputs = cards(8)
    outputs, perm = shuffled(inputs)
    outputs[2] = outputs[5]
    with pytest.raises(InvalidProof):
        check(inputs, outputs, prove_anyway(inputs, outputs, perm))


def test_a_shuffle_that_drops_a_card_is_caught() -> None:
    inputs = cards(8)
    outputs, perm = shuffled(inputs)
    with pytest.raises(InvalidProof):
        check(inputs, outputs[:-1], prove(inputs, outputs, perm))


def test_a_shuffle_that_only_permutes_is_caught_against_its_claimed_key() -> None:
    inputs = cards(8)
    outputs, perm = shuffled(inputs, key=1)
    with pytest.raises(InvalidProof):
        check(inputs, outputs, prove_anyway(inputs, outputs, perm))


def test_a_card_re_keyed_with_another_key_is_caught() -> None:
    inputs = cards(8)
    outputs, perm = shuffled(inputs)
    outputs[0] = group.mul(A + 1, inputs[perm[0]])
    with pytest.raises(InvalidProof):
        check(inputs, outputs, prove_anyway(inputs, outputs, perm))


def test_a_proof_does_not_check_under_another_key_commitment() -> None:
    inputs = cards(8)
    outputs, perm = shuffled(inputs)
    with pytest.raises(InvalidProof):
        check(inputs, outputs, prove(inputs, outputs, perm), key=A + 1)


def test_a_proof_replayed_in_another_context_is_caught() -> None:
    inputs = cards(8)
    outputs, perm = shuffled(inputs)
    proof = prove(inputs, outputs, perm)
    for other in ({**CONTEXT, "table": "t2"}, {**CONTEXT, "seat": 1}, {**CONTEXT, "deck": "d2"}):
        with pytest.raises(InvalidProof):
            check(inputs, outputs, proof, context=other)


def test_a_proof_for_other_inputs_is_caught() -> None:
    inputs = cards(8)
    outputs, perm = shuffled(inputs)
    proof = prove(inputs, outputs, perm)
    with pytest.raises(InvalidProof):
        check(cards(8, "other"), outputs, proof)


@pytest.mark.parametrize("field", ["u", "B", "kB", "kE"])
def test_a_changed_proof_vector_is_caught(field: str) -> None:
    inputs = cards(6)
    outputs, perm = shuffled(inputs)
    proof = prove(inputs, outputs, perm)
    values = list(proof[field])  # type: ignore[call-overload]
    values[0], values[1] = values[1], values[0]
    with pytest.raises(InvalidProof):
        check(inputs, outputs, {**proof, field: values})


@pytest.mark.parametrize("field", ["v", "kA", "kC", "kD", "kF"])
def test_a_changed_proof_scalar_is_caught(field: str) -> None:
    inputs = cards(6)
    outputs, perm = shuffled(inputs)
    proof = prove(inputs, outputs, perm)
    value = group.scalar_from_hex(proof[field]) % (group.ORDER - 2) + 1
    with pytest.raises(InvalidProof):
        check(inputs, outputs, {**proof, field: group.scalar_to_hex(value)})


@pytest.mark.parametrize("bad", [
    "01" + "00" * 31,  # a negative field element (RFC 9496, appendix A.2)
    "ed" + "ff" * 30 + "7f",  # a non-canonical one: the field element 0 written as p
    "26948d35ca62e643e26a83177332e6b6afeb9d08e4268b650f1f5bbd8d81d371",  # x^2 not a square: no point
    "00" * 32,  # the identity
], ids=["negative", "non-canonical", "no-point", "identity"])
def test_a_proof_holding_a_string_that_is_no_element_is_refused(bad: str) -> None:
    inputs = cards(4)
    outputs, perm = shuffled(inputs)
    proof = prove(inputs, outputs, perm)
    with pytest.raises(InvalidProof, match="not a valid group element"):
        check(inputs, outputs, {**proof, "u": [bad, *proof["u"][1:]]})  # type: ignore[index]


def test_a_proof_holding_a_zero_scalar_is_refused() -> None:
    inputs = cards(4)
    outputs, perm = shuffled(inputs)
    proof = prove(inputs, outputs, perm)
    with pytest.raises(InvalidProof, match="nonzero scalar"):
        check(inputs, outputs, {**proof, "kF": "00" * 32})


@settings(max_examples=6, deadline=None)
@given(size=st.integers(min_value=1, max_value=100), seed=st.integers(min_value=0, max_value=2**32))
def test_every_honest_shuffle_checks_and_a_swapped_card_does_not(size: int, seed: int) -> None:
    inputs = cards(size)
    outputs, perm = shuffled(inputs, seed=seed)
    check(inputs, outputs, prove(inputs, outputs, perm))
    outputs[seed % size] = group.mul(A, cards(1, "other")[0])
    with pytest.raises(InvalidProof):
        check(inputs, outputs, prove_anyway(inputs, outputs, perm))


def prove_anyway(inputs: list[Point], outputs: list[Point], perm: list[int]) -> dict[str, object]:
    """The best a cheater can do: run the honest prover on a false statement."""
    return prove(inputs, outputs, perm)
