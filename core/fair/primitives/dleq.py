"""Chaum–Pedersen proofs of equal discrete logs, many at once under one Fiat–Shamir challenge.

A statement ``(g, h, g2, h2)`` claims ``log_g h == log_g2 h2`` (Chaum and Pedersen, "Wallet Databases
with Observers", CRYPTO 1992). ``n`` statements are proven together as an AND-composition: one
challenge ``c`` (a single hash over the caller's context, every statement and every commitment) and a
response ``z_i = w_i + c * x_i`` per statement. The proof travels in compact form ``(c, z_1..z_n)``; the
verifier recomputes the commitments ``T_i = z_i g - c h``, ``T2_i = z_i g2 - c h2`` and the hash.
Nonces are derived from a secret key and the whole statement (as in EdDSA), so proving needs no
random source and the same statement never gets two proofs with one nonce.
"""

from __future__ import annotations

import hmac
from collections.abc import Sequence
from dataclasses import dataclass

from atoll.errors import AtollError
from atoll.fair.primitives import group
from atoll.fair.primitives.group import GroupError, Point
from atoll.fair.primitives.hashing import hash_hex, hash_to_scalar
from atoll.jsondata import JSON


class InvalidProof(AtollError):
    """A zero-knowledge proof that does not check; the caller names the seat that sent it."""


@dataclass(frozen=True)
class Statement:
    """The claim ``log_base(value) == log_base2(value2)``."""

    base: Point
    value: Point
    base2: Point
    value2: Point

    def to_json(self) -> list[str]:
        """The four points as hex, in order."""
        return [self.base.hex(), self.value.hex(), self.base2.hex(), self.value2.hex()]


def prove(
    statements: Sequence[Statement],
    secrets: Sequence[int],
    context: JSON,
    key: bytes,
    *,
    base2_log: int | None = None,
) -> dict[str, JSON]:
    """Prove every statement, ``secrets[i]`` being the common log of statement ``i``.

    ``context`` binds the proof to where it is used (table, deck, step, seat...); ``key`` is secret
    randomness of the prover (at least 32 bytes) from which the nonces are derived. ``base2_log``:
    the log to G of every statement's ``base2``, when the prover knows it (a lock's shuffle key), so
    that each commitment on it is a multiple of G, about ten times cheaper; the proof is the same.
    """
    if len(statements) != len(secrets):
        raise ValueError("one secret per statement")
    if len(key) < 32:
        raise ValueError("the nonce key must be at least 32 bytes")
    claims = [s.to_json() for s in statements]
    statement_id = hash_hex("dleq/statement", {"context": context, "statements": claims})
    nonces = [
        hash_to_scalar("dleq/nonce", {"key": key.hex(), "statement": statement_id, "index": i})
        for i in range(len(statements))
    ]
    pairs = zip(nonces, statements, strict=True)
    if base2_log is not None:
        known = group.base_mul(base2_log)
        if any(s.base2 != known for s in statements):
            raise ValueError("base2_log is not the log of every statement's base2")

    def on_base2(w: int, statement: Statement) -> Point:
        if base2_log is None:
            return group.mul(w, statement.base2)
        return group.base_mul(w * base2_log % group.ORDER)

    commitments = [[group.mul(w, s.base).hex(), on_base2(w, s).hex()] for w, s in pairs]
    c = _challenge(context, claims, commitments)
    responses = [(w + c * x) % group.ORDER for w, x in zip(nonces, secrets, strict=True)]
    return {"c": group.scalar_to_hex(c), "z": [group.scalar_to_hex(z) for z in responses]}


def verify(statements: Sequence[Statement], proof: JSON, context: JSON) -> None:
    """Check a proof made by :func:`prove` for the same statements and context; raise :class:`InvalidProof`.

    Every point of the statements must already be a validated group element; the points the
    verifier derives pass through libsodium's checked multiplication.
    """
    if not isinstance(proof, dict) or not isinstance(proof.get("z"), list):
        raise InvalidProof(f"a Chaum–Pedersen proof is {{'c', 'z': [...]}}, not {str(proof)[:80]}")
    if len(proof["z"]) != len(statements):
        raise InvalidProof(f"proof has {len(proof['z'])} responses for {len(statements)} statements")
    try:
        c = group.scalar_from_hex(proof.get("c"))
        minus_c = group.ORDER - c
        commitments = []
        for s, z_hex in zip(statements, proof["z"], strict=True):
            z = group.scalar_from_hex(z_hex)
            t1 = group.add(group.mul(z, s.base), group.mul(minus_c, s.value))
            t2 = group.add(group.mul(z, s.base2), group.mul(minus_c, s.value2))
            commitments.append([t1.hex(), t2.hex()])
    except GroupError as exc:
        raise InvalidProof(f"Chaum–Pedersen proof is malformed: {exc}") from exc
    expected = _challenge(context, [s.to_json() for s in statements], commitments)
    if not hmac.compare_digest(group.scalar_to_hex(expected), str(proof["c"])):
        raise InvalidProof("Chaum–Pedersen proof does not check: some pair of logs differs")


def _challenge(context: JSON, claims: list[list[str]], commitments: list[list[str]]) -> int:
    whole = {"context": context, "statements": claims, "commitments": commitments}
    return hash_to_scalar("dleq/challenge", whole)
