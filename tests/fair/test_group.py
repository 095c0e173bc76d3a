"""The group: Ed25519's prime-order subgroup through libsodium, checked against RFC 8032 and a reference."""

from __future__ import annotations

import hashlib

import pytest

from atoll.fair import group
from atoll.fair.group import BASE, IDENTITY, ORDER, GroupError

# -- a slow reference implementation of edwards25519 (RFC 8032, section 5.1), for cross-checks --------

P = 2**255 - 19
D = -121665 * pow(121666, -1, P) % P
SQRT_M1 = pow(2, (P - 1) // 4, P)


def ref_decode(data: bytes) -> tuple[int, int] | None:
    """RFC 8032 5.1.3 decoding; None when the encoding is not a curve point."""
    y = int.from_bytes(data, "little") & ((1 << 255) - 1)
    sign = data[31] >> 7
    if y >= P:
        return None
    x2 = (y * y - 1) * pow(D * y * y + 1, -1, P) % P
    x = pow(x2, (P + 3) // 8, P)
    if (x * x - x2) % P:
        x = x * SQRT_M1 % P
    if (x * x - x2) % P:
        return None
    if x == 0 and sign:
        return None
    if x & 1 != sign:
        x = P - x
    return x, y


def ref_encode(point: tuple[int, int]) -> bytes:
    x, y = point
    return (y | ((x & 1) << 255)).to_bytes(32, "little")


def ref_add(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    (x1, y1), (x2, y2) = a, b
    t = D * x1 * x2 * y1 * y2 % P
    return ((x1 * y2 + x2 * y1) * pow(1 + t, -1, P) % P, (y1 * y2 + x1 * x2) * pow(1 - t, -1, P) % P)


def ref_mul(k: int, point: tuple[int, int]) -> tuple[int, int]:
    result, addend = (0, 1), point
    while k:
        if k & 1:
            result = ref_add(result, addend)
        addend, k = ref_add(addend, addend), k >> 1
    return result


def torsion_points() -> list[bytes]:
    """All 8 points of small order, as the reference computes them from a point of order 8."""
    # L * Q for a non-subgroup point Q lands in the torsion subgroup; take Q from a y with no structure
    y = 3
    while True:
        q = ref_decode(y.to_bytes(32, "little"))
        if q is not None:
            t = ref_mul(ORDER, q)
            if ref_mul(4, t) != (0, 1):  # of order exactly 8
                return [ref_encode(ref_mul(i, t)) for i in range(8)]
        y += 1


# -- tests ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("secret", "public"),
    [  # RFC 8032, section 7.1, TEST 1, TEST 2 and TEST 3: public key = clamp(SHA-512(secret)[:32]) * B
        ("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
         "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"),
        ("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
         "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c"),
        ("c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
         "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025"),
    ],
)
def test_base_multiplication_matches_the_rfc_8032_test_vectors(secret: str, public: str) -> None:
    h = bytearray(hashlib.sha512(bytes.fromhex(secret)).digest()[:32])
    h[0] &= 248
    h[31] &= 127
    h[31] |= 64
    scalar = int.from_bytes(h, "little") % ORDER
    assert group.base_mul(scalar).hex() == public


def test_base_point_is_the_rfc_8032_generator() -> None:
    base = ref_decode(BASE)
    assert base is not None
    assert base[1] == 4 * pow(5, -1, P) % P and base[0] % 2 == 0  # y = 4/5, x positive (RFC 8032 5.1)


def test_group_order_is_the_order_of_the_base_point() -> None:
    base = ref_decode(BASE)
    assert base is not None
    assert ref_mul(ORDER, base) == (0, 1)
    assert group.mul(ORDER - 1, BASE) == ref_encode(ref_mul(ORDER - 1, base))


def test_variable_base_multiplication_agrees_with_the_reference() -> None:
    point = group.hash_to_point("test", {"n": 1})
    reference = ref_decode(point)
    assert reference is not None
    for scalar in (1, 2, 7, ORDER - 1, 2**200 + 12345):
        assert group.mul(scalar, point) == ref_encode(ref_mul(scalar, reference))


def test_addition_and_subtraction_agree_with_the_reference() -> None:
    a, b = group.hash_to_point("test", {"n": 1}), group.hash_to_point("test", {"n": 2})
    ra, rb = ref_decode(a), ref_decode(b)
    assert ra is not None and rb is not None
    assert group.add(a, b) == ref_encode(ref_add(ra, rb))
    assert group.sub(group.add(a, b), b) == a


def test_every_small_order_point_is_refused() -> None:
    points = torsion_points()
    assert len(set(points)) == 8 and IDENTITY in points
    for point in points:
        assert ref_decode(point) is not None  # on the curve...
        assert not group.is_element(point)  # ...but not accepted
        with pytest.raises(GroupError):
            group.point_from_hex(point.hex())
        with pytest.raises(GroupError):
            group.mul(5, point)


def test_a_point_with_a_small_order_component_is_refused() -> None:
    good = ref_decode(group.hash_to_point("test", {"n": 3}))
    torsion = ref_decode(torsion_points()[1])
    assert good is not None and torsion is not None
    mixed = ref_encode(ref_add(good, torsion))
    assert ref_decode(mixed) is not None
    assert not group.is_element(mixed)


def test_a_point_not_on_the_curve_is_refused() -> None:
    y = 2
    while ref_decode(y.to_bytes(32, "little")) is not None:
        y += 1
    with pytest.raises(GroupError):
        group.point_from_hex(y.to_bytes(32, "little").hex())


def test_a_non_canonical_encoding_is_refused() -> None:
    base = ref_decode(BASE)
    assert base is not None
    small_y = next(y for y in range(2, 19) if ref_decode(y.to_bytes(32, "little")) is not None)
    non_canonical = (small_y + P).to_bytes(32, "little")  # the same y, written as y + p
    assert not group.is_element(non_canonical)


def test_identity_is_refused() -> None:
    assert not group.is_element(IDENTITY)
    with pytest.raises(GroupError):
        group.check_point(IDENTITY)


def test_malformed_point_text_is_refused() -> None:
    for text in ("zz" * 32, "00" * 31, 17, None):
        with pytest.raises(GroupError):
            group.point_from_hex(text)


def test_zero_scalar_is_refused() -> None:
    with pytest.raises(GroupError):
        group.scalar_from_hex("00" * 32)
    with pytest.raises(GroupError):
        group.mul(0, BASE)
    with pytest.raises(GroupError):
        group.inverse(0)


def test_unreduced_scalar_is_refused() -> None:
    with pytest.raises(GroupError):
        group.scalar_from_hex(ORDER.to_bytes(32, "little").hex())
    with pytest.raises(GroupError):
        group.scalar_from_hex((ORDER + 1).to_bytes(32, "little").hex())


def test_scalars_round_trip_through_hex() -> None:
    for value in (1, 2, ORDER - 1):
        assert group.scalar_from_hex(group.scalar_to_hex(value)) == value


def test_inverse_undoes_a_multiplication() -> None:
    point, k = group.hash_to_point("test", {"n": 4}), 123456789
    assert group.mul(group.inverse(k), group.mul(k, point)) == point


def test_hash_to_point_gives_distinct_valid_points() -> None:
    points = [group.hash_to_point("card", {"i": i}) for i in range(50)]
    assert len(set(points)) == 50
    assert all(group.is_element(p) for p in points)


def test_hash_to_point_is_domain_separated() -> None:
    assert group.hash_to_point("card", {"i": 1}) != group.hash_to_point("generator", {"i": 1})
    assert group.hash_to_point("card", {"i": 1}) == group.hash_to_point("card", {"i": 1})
