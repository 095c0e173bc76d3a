"""Bytes only one identity can read: a sealed box (X25519, XSalsa20-Poly1305) to the X25519 form of an
Ed25519 identity key, as libsodium's ``crypto_box_seal`` makes it (through PyNaCl).

A seat handed over at a table carries its secrets to the new holder this way: anyone may carry or log
the box, only the holder's identity key opens it (:mod:`atoll.table.handover`)."""

from __future__ import annotations

from nacl.exceptions import CryptoError
from nacl.public import PublicKey, SealedBox
from nacl.signing import SigningKey

from atoll.net.curve import curve_of


class NotForMe(ValueError):
    """A sealed box this identity cannot open (made for another, or damaged)."""


def seal_to(identity_public: bytes, plaintext: bytes) -> bytes:
    """``plaintext`` sealed so that only the holder of the Ed25519 identity ``identity_public`` (raw,
    32 bytes) reads it; anonymous (the box does not say who sealed it: the signed message around it does)."""
    return bytes(SealedBox(PublicKey(curve_of(identity_public))).encrypt(plaintext))


def open_sealed(key: SigningKey, box: bytes) -> bytes:
    """The plaintext of ``box`` sealed to ``key``'s identity; raises :class:`NotForMe` otherwise."""
    try:
        return bytes(SealedBox(key.to_curve25519_private_key()).decrypt(box))
    except CryptoError as exc:
        raise NotForMe(f"a sealed box this identity cannot open ({exc})") from exc
