"""The CURVE key that belongs to an Ed25519 identity, in raw bytes (no zmq: the protocol layer uses it)."""

from __future__ import annotations

import functools

from nacl.signing import VerifyKey


@functools.lru_cache(maxsize=1024)  # asked for every message the host receives; the same few keys
def curve_of(identity_public: bytes) -> bytes:
    """The raw 32-byte CURVE (X25519) public key of the Ed25519 public key ``identity_public`` (raw)."""
    return bytes(VerifyKey(identity_public).to_curve25519_public_key().encode())
