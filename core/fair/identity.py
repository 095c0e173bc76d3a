"""Who signs for a seat: a per-table signing key bound to the seat's long-term Ed25519 identity.

Every fair message is signed with the seat's *table key*, derived from its master secret for this
table alone. That key means nothing by itself: in its ``hello`` the seat also carries a signature by
its long-term *identity* key (the table layer's Ed25519 identity, the one people compare on screen)
over :func:`binding_statement` ``(table, seat, table key)``. Every peer, and the audit, is given the
identity public key of each seat and refuses a ``hello`` whose binding does not verify, so a message
counts only if it chains up to an identity the table agreed on.

The short form of an identity key shown to people is :func:`atoll.net.encoding.fingerprint`.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from nacl.exceptions import BadSignatureError
from nacl.signing import SigningKey, VerifyKey

from atoll.fair.hashing import PROTOCOL_VERSION
from atoll.jsondata import canonical_bytes

#: Bytes of an Ed25519 public key (an identity key or a table key).
KEY_SIZE = 32
#: Bytes of an Ed25519 signature.
SIGNATURE_SIZE = 64

#: Signs a binding statement with a seat's identity key; returns the 64-byte signature.
BindingSigner = Callable[[bytes], bytes]


def binding_statement(table: str, seat: int, table_key: bytes) -> bytes:
    """The bytes a seat's identity signs to vouch for its table key at ``table``."""
    return canonical_bytes({"purpose": "atoll-fair/seat-key", "v": PROTOCOL_VERSION, "table": table,
                            "seat": seat, "key": table_key.hex()})


def binding_holds(identity_key: bytes, table: str, seat: int, table_key: bytes, signature: bytes) -> bool:
    """Whether ``signature`` is ``identity_key``'s signature over the binding of ``table_key``."""
    try:
        VerifyKey(identity_key).verify(binding_statement(table, seat, table_key), signature)
    except (BadSignatureError, ValueError, TypeError):
        return False
    return True


def identity_signer(identity: SigningKey) -> BindingSigner:
    """A :data:`BindingSigner` for an identity key held in this process (tests, local tables)."""
    return lambda statement: identity.sign(statement).signature


def new_table_id(label: str) -> str:
    """A table id never used before: ``label`` and 16 fresh random bytes.

    Everything a seat derives (chains, salts, deck keys, its table key) is bound to the table id,
    and its seed is opened at the end; a reused id with a reused master secret would replay an
    opened seed. A fresh id (and a fresh master, ``os.urandom(32)``) per table rules that out.
    """
    return f"{label}-{os.urandom(16).hex()}"
