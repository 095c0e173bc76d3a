"""A zero-knowledge proof that a deck was permuted and re-encrypted with one secret key.

Statement: given input cards ``X_1..X_n``, output cards ``Y_1..Y_n`` and the key commitment
``A = a G``, the prover knows ``a`` and a permutation ``p`` with ``Y_i = a X_p(i)`` for every ``i``.

This is the proof of a shuffle of Terelius and Wikström ("Proofs of Restricted Shuffles",
AFRICACRYPT 2010), in the form Wikström specifies for the Verificatum mix-net, with its last
equation adapted from ElGamal re-encryption to SRA re-keying (every card multiplied by one secret
``a``). In additive notation, with independent generators ``H_0, H_1..H_n`` hashed from the deck:

1. commit to the permutation matrix: ``u_j = r_j G + H_{p^-1(j)}``;
2. challenge ``e_1..e_n`` (one hash over the whole context and ``u``); ``f_i = e_p(i)``;
3. chain ``B_i = b_i G + f_i B_{i-1}`` from ``B_0 = H_0``, so ``B_n`` commits to the product of the f;
4. a Schnorr-style proof of knowledge, with one challenge ``v`` (one hash over the whole context,
   ``u``, ``B`` and every commitment), that ``sum e_j u_j`` opens to ``(f, .)``, that
   ``sum u_j - sum H_i`` and ``B_n - (prod e_i) H_0`` are multiples of G (so the matrix has one
   1 per row and ``prod f_i = prod e_i``: a permutation matrix, except with probability about n/L),
   that ``sum f_i Y_i = a sum e_i X_i``, and that the same ``a`` is behind ``A``.

Soundness error is about ``n / L`` < 2^-245 for any deck size here, far below the 2^-40 asked; the
proof costs the prover about 5n and the verifier about 6n scalar multiplications (a cut-and-choose
proof with 40 rounds costs 40n each). The proof travels in compact form: the verifier recomputes
the commitments from the responses and checks that they hash to the challenge ``v``.
"""

from __future__ import annotations

import hmac
from collections.abc import Sequence
from dataclasses import dataclass

from atoll.fair.primitives import group
from atoll.fair.primitives.dleq import InvalidProof
from atoll.fair.primitives.group import BASE, ORDER, GroupError, Point
from atoll.fair.primitives.hashing import hash_hex, hash_to_scalar
from atoll.jsondata import JSON


@dataclass(frozen=True)
class Generators:
    """The independent generators of one deck: ``chain`` (H_0) and ``h`` (H_1..H_n)."""

    chain: Point
    h: tuple[Point, ...]

    @classmethod
    def derive(cls, context: JSON, size: int) -> Generators:
        """Hash ``context`` (table, deck id...) to ``size + 1`` generators nobody knows a relation between."""
        where = [{"context": context, "index": i} for i in range(size + 1)]
        points = [group.hash_to_point("shuffle/generator", w) for w in where]
        return cls(points[0], tuple(points[1:]))


def prove(
    inputs: Sequence[Point],
    outputs: Sequence[Point],
    key: int,
    permutation: Sequence[int],
    generators: Generators,
    context: JSON,
    nonce_key: bytes,
) -> dict[str, JSON]:
    """Prove that ``outputs[i] == key * inputs[permutation[i]]`` for all ``i``.

    ``context`` binds the proof to its place (protocol, table, deck, step, seat); ``nonce_key`` is the
    prover's secret (32+ bytes) from which every blinding value is derived.
    """
    n = len(inputs)
    if len(outputs) != n or sorted(permutation) != list(range(n)) or len(generators.h) != n:
        raise ValueError("prove() needs n inputs, n outputs, a permutation of range(n) and n generators")
    key_point = group.base_mul(key)
    statement = _statement(context, inputs, outputs, key_point)
    statement_id = hash_hex("shuffle/statement", statement)

    def nonce(label: str, index: int = 0) -> int:
        where = {"key": nonce_key.hex(), "statement": statement_id, "label": label, "index": index}
        return hash_to_scalar("shuffle/nonce", where)

    where = [0] * n  # where[j] = p^-1(j): the output position holding input j
    for i, j in enumerate(permutation):
        where[j] = i
    r = [nonce("r", j) for j in range(n)]
    u = [group.add(group.base_mul(r[j]), generators.h[where[j]]) for j in range(n)]
    u_hex = [p.hex() for p in u]
    e = _challenge_vector(statement, u_hex, n)
    f = [e[permutation[i]] for i in range(n)]

    b = [nonce("b", i) for i in range(n)]
    chain: list[Point] = []
    previous, d = generators.chain, 0
    for i in range(n):
        previous = group.add(group.base_mul(b[i]), group.mul(f[i], previous))
        chain.append(previous)
        d = (b[i] + f[i] * d) % ORDER
    before = [generators.chain, *chain[:-1]]

    alpha, gamma, delta, phi = nonce("alpha"), nonce("gamma"), nonce("delta"), nonce("phi")
    beta = [nonce("beta", i) for i in range(n)]
    eps = [nonce("epsilon", i) for i in range(n)]
    # F = sum eps_i Y_i - phi sum e_j X_j; as Y_i = key X_p(i), that is one multiplication per input
    # card, sum (key eps_p^-1(j) - phi e_j) X_j, instead of two
    spread = [((key * eps[where[j]] - phi * e[j]) % ORDER, inputs[j]) for j in range(n)]
    terms = [(c, x) for c, x in spread if c]
    commitments = {
        "A": group.add(group.base_mul(alpha), group.combination(eps, generators.h)).hex(),
        "B": [group.add(group.base_mul(beta[i]), group.mul(eps[i], before[i])).hex() for i in range(n)],
        "C": group.base_mul(gamma).hex(),
        "D": group.base_mul(delta).hex(),
        "F": group.combination([c for c, _ in terms], [x for _, x in terms]).hex(),
        "K": group.base_mul(phi).hex(),
    }
    chain_hex = [p.hex() for p in chain]
    v = _challenge(statement, u_hex, chain_hex, commitments)
    r_dot_e = sum(rj * ej for rj, ej in zip(r, e, strict=True))
    return {
        "u": u_hex,
        "B": chain_hex,
        "v": group.scalar_to_hex(v),
        "kA": group.scalar_to_hex((v * r_dot_e + alpha) % ORDER),
        "kB": [group.scalar_to_hex((v * b[i] + beta[i]) % ORDER) for i in range(n)],
        "kC": group.scalar_to_hex((v * sum(r) + gamma) % ORDER),
        "kD": group.scalar_to_hex((v * d + delta) % ORDER),
        "kE": [group.scalar_to_hex((v * f[i] + eps[i]) % ORDER) for i in range(n)],
        "kF": group.scalar_to_hex((v * key + phi) % ORDER),
    }


def verify(
    inputs: Sequence[Point],
    outputs: Sequence[Point],
    key_point: Point,
    proof: JSON,
    generators: Generators,
    context: JSON,
) -> None:
    """Check a proof from :func:`prove`; raise :class:`InvalidProof` saying what does not check.

    ``inputs`` must be validated group elements already. ``outputs``, ``key_point`` and every point
    of the proof may arrive unchecked: each goes through libsodium's checked multiplication here, so a
    proof that verifies vouches that they are elements, and one that does not names a point that is not.
    """
    n = len(inputs)
    if len(outputs) != n or len(generators.h) != n:
        raise InvalidProof(f"the shuffle has {n} input and {len(outputs)} output cards")
    try:
        parsed = _Parsed.read(proof, n, checked=False)  # every point is multiplied below, which checks it
    except GroupError as exc:
        raise InvalidProof(f"shuffle proof is malformed: {exc}") from exc
    try:
        _verify(inputs, outputs, key_point, parsed, generators, context)
    except InvalidProof:
        try:
            _Parsed.read(proof, n)  # a point that is not an element is named as such, first
        except GroupError as exc:
            raise InvalidProof(f"shuffle proof is malformed: {exc}") from exc
        raise


def _verify(
    inputs: Sequence[Point],
    outputs: Sequence[Point],
    key_point: Point,
    parsed: _Parsed,
    generators: Generators,
    context: JSON,
) -> None:
    n = len(inputs)
    u, chain, v, k_b, k_e = parsed.u, parsed.chain, parsed.v, parsed.k_b, parsed.k_e
    statement = _statement(context, inputs, outputs, key_point)
    u_hex = [p.hex() for p in u]
    e = _challenge_vector(statement, u_hex, n)
    minus_v = ORDER - v
    e_product = 1
    for value in e:
        e_product = e_product * value % ORDER
    before = [generators.chain, *chain[:-1]]
    try:
        a_sum = group.combination(e, u)
        c_sum = group.sub(group.total(u), group.total(generators.h))
        d_rest = group.sub(chain[-1], group.mul(e_product, generators.chain))
        hs, e_inputs = generators.h, group.combination(e, inputs)
        commitments = {
            "A": _plus(group.add(group.base_mul(parsed.k_a), group.combination(k_e, hs)), minus_v, a_sum),
            "B": [
                _plus(group.add(group.base_mul(k_b[i]), group.mul(k_e[i], before[i])), minus_v, link).hex()
                for i, link in enumerate(chain)
            ],
            "C": _plus(group.base_mul(parsed.k_c), minus_v, c_sum),
            "D": _plus(group.base_mul(parsed.k_d), minus_v, d_rest),
            "F": group.sub(group.combination(k_e, outputs), group.mul(parsed.k_f, e_inputs)),
            "K": _plus(group.base_mul(parsed.k_f), minus_v, key_point),
        }
    except GroupError as exc:
        raise InvalidProof(f"shuffle proof does not check: {exc}") from exc
    as_hex: dict[str, JSON] = {k: (x.hex() if isinstance(x, bytes) else x) for k, x in commitments.items()}
    expected = _challenge(statement, u_hex, [p.hex() for p in chain], as_hex)
    if not hmac.compare_digest(expected.to_bytes(32, "little"), v.to_bytes(32, "little")):
        raise InvalidProof("shuffle proof does not check: output is not a re-keyed permutation of the input")


def _plus(point: Point, scalar: int, other: Point) -> Point:
    return group.add(point, group.mul(scalar, other))


def _statement(context: JSON, inputs: Sequence[Point], outputs: Sequence[Point], key_point: Point) -> JSON:
    return {
        "context": context,
        "inputs": [p.hex() for p in inputs],
        "outputs": [p.hex() for p in outputs],
        "key": key_point.hex(),
        "base": BASE.hex(),
    }


def _challenge_vector(statement: JSON, u_hex: list[str], n: int) -> list[int]:
    seed = hash_hex("shuffle/challenge-e", {"statement": statement, "u": u_hex})
    return [hash_to_scalar("shuffle/e", {"seed": seed, "index": i}) for i in range(n)]


def _challenge(statement: JSON, u_hex: list[str], chain_hex: list[str], commitments: dict[str, JSON]) -> int:
    whole = {"statement": statement, "u": u_hex, "B": chain_hex, "commitments": commitments}
    return hash_to_scalar("shuffle/challenge-v", whole)


@dataclass(frozen=True)
class _Parsed:
    u: list[Point]
    chain: list[Point]
    v: int
    k_a: int
    k_b: list[int]
    k_c: int
    k_d: int
    k_e: list[int]
    k_f: int

    @classmethod
    def read(cls, proof: JSON, n: int, *, checked: bool = True) -> _Parsed:
        if not isinstance(proof, dict):
            raise GroupError(f"a shuffle proof is a JSON object, not {str(proof)[:60]}")
        for name in ("u", "B", "kB", "kE"):
            if not isinstance(proof.get(name), list) or len(proof[name]) != n:
                raise GroupError(f"field {name!r} must list {n} values")
        scalar = group.scalar_from_hex
        point = group.point_from_hex if checked else group.encoding_from_hex
        return cls(
            u=[point(x) for x in proof["u"]],
            chain=[point(x) for x in proof["B"]],
            v=scalar(proof.get("v")),
            k_a=scalar(proof.get("kA")),
            k_b=[scalar(x) for x in proof["kB"]],
            k_c=scalar(proof.get("kC")),
            k_d=scalar(proof.get("kD")),
            k_e=[scalar(x) for x in proof["kE"]],
            k_f=scalar(proof.get("kF")),
        )
