"""Chaum–Pedersen proofs (atoll.fair.primitives.dleq): a lock step's card keys are proven right, or caught."""

from __future__ import annotations

import pytest

from atoll.fair.primitives import dleq, group
from atoll.fair.primitives.dleq import InvalidProof, Statement

KEY = b"n" * 32
CONTEXT = {"table": "t", "deck": "d", "step": "lock", "seat": 1}


def statements(secrets: list[int], key_scalar: int = 77) -> list[Statement]:
    """Lock-shaped statements: W_i -> x_i W_i, and A = a G -> K_i = x_i A."""
    key_point = group.base_mul(key_scalar)
    out = []
    for i, x in enumerate(secrets):
        w = group.hash_to_point("test/card", {"i": i})
        out.append(Statement(w, group.mul(x, w), key_point, group.mul(x, key_point)))
    return out


SECRETS = [11, 2**100 + 3, group.ORDER - 5]


def test_an_honest_proof_checks() -> None:
    claims = statements(SECRETS)
    dleq.verify(claims, dleq.prove(claims, SECRETS, CONTEXT, KEY), CONTEXT)


def test_one_wrong_log_among_many_is_caught() -> None:
    claims = statements(SECRETS)
    bad = list(claims)
    bad[1] = Statement(claims[1].base, claims[1].value, claims[1].base2, group.mul(999, claims[1].base2))
    with pytest.raises(InvalidProof):
        dleq.verify(bad, dleq.prove(bad, SECRETS, CONTEXT, KEY), CONTEXT)


def test_a_proof_does_not_check_in_another_context() -> None:
    claims = statements(SECRETS)
    proof = dleq.prove(claims, SECRETS, CONTEXT, KEY)
    for other in ({**CONTEXT, "table": "t2"}, {**CONTEXT, "seat": 2}, {**CONTEXT, "step": "shuffle"}):
        with pytest.raises(InvalidProof):
            dleq.verify(claims, proof, other)


def test_a_proof_does_not_check_for_other_statements() -> None:
    claims = statements(SECRETS)
    proof = dleq.prove(claims, SECRETS, CONTEXT, KEY)
    with pytest.raises(InvalidProof):
        dleq.verify(statements(SECRETS, key_scalar=78), proof, CONTEXT)


def test_a_changed_response_is_caught() -> None:
    claims = statements(SECRETS)
    proof = dleq.prove(claims, SECRETS, CONTEXT, KEY)
    z = list(proof["z"])
    z[0] = group.scalar_to_hex(group.scalar_from_hex(z[0]) % (group.ORDER - 1) + 1)
    with pytest.raises(InvalidProof):
        dleq.verify(claims, {**proof, "z": z}, CONTEXT)


def test_a_zero_scalar_in_a_proof_is_refused() -> None:
    claims = statements(SECRETS)
    proof = dleq.prove(claims, SECRETS, CONTEXT, KEY)
    with pytest.raises(InvalidProof, match="scalar"):
        dleq.verify(claims, {**proof, "c": "00" * 32}, CONTEXT)


def test_a_proof_with_a_response_missing_is_refused() -> None:
    claims = statements(SECRETS)
    proof = dleq.prove(claims, SECRETS, CONTEXT, KEY)
    with pytest.raises(InvalidProof):
        dleq.verify(claims, {**proof, "z": proof["z"][:-1]}, CONTEXT)


def test_a_malformed_proof_is_refused() -> None:
    for proof in (None, [], {"c": "00"}, {"z": "x"}):
        with pytest.raises(InvalidProof):
            dleq.verify(statements(SECRETS), proof, CONTEXT)


def test_proving_is_deterministic_for_one_statement_and_key() -> None:
    claims = statements(SECRETS)
    assert dleq.prove(claims, SECRETS, CONTEXT, KEY) == dleq.prove(claims, SECRETS, CONTEXT, KEY)


def test_a_prover_that_knows_the_second_bases_log_makes_the_same_proof() -> None:
    # a lock's prover knows its shuffle key a, the log of A = a G: its commitments w A become (w a) G
    claims = statements(SECRETS, key_scalar=77)
    proof = dleq.prove(claims, SECRETS, CONTEXT, KEY, base2_log=77)
    assert proof == dleq.prove(claims, SECRETS, CONTEXT, KEY)
    dleq.verify(claims, proof, CONTEXT)


def test_a_wrong_log_of_the_second_base_is_refused_before_proving() -> None:
    with pytest.raises(ValueError, match="not the log"):
        dleq.prove(statements(SECRETS, key_scalar=77), SECRETS, CONTEXT, KEY, base2_log=78)
