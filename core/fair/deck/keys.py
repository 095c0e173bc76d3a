"""A seat's secrets for one mental deck, all derived from its one secret seed.

From the seed (32 random bytes the seat keeps, committed to when it first shuffles and opened at
the end of the game) a domain-separated hash KDF derives the seat's shuffle key ``a``, its shuffle
permutation, one key ``k_i`` per card position and the key for its proof nonces. So a seat's whole
secret state for every deck of a table is one seed, and an auditor given the seed re-derives every
step the seat took.
"""

from __future__ import annotations

from dataclasses import dataclass

from atoll.errors import MalformedInput
from atoll.fair.primitives.hashing import hash_bytes, hash_hex, hash_to_int, hash_to_scalar

#: Size of a seed in bytes.
SEED_BYTES = 32


def seed_commitment(table: str, seat: int, seed: bytes) -> str:
    """The public commitment to ``seat``'s seed at ``table`` (hex); the same for every deck of the table."""
    return hash_hex("deck/seed-commitment", {"table": table, "seat": seat, "seed": check_seed(seed).hex()})


def check_seed(seed: bytes) -> bytes:
    """Return ``seed`` if it is :data:`SEED_BYTES` bytes; raise :class:`MalformedInput` if not."""
    if not isinstance(seed, bytes) or len(seed) != SEED_BYTES:
        raise MalformedInput(f"a deck seed is {SEED_BYTES} random bytes (os.urandom({SEED_BYTES}))")
    return seed


@dataclass(frozen=True)
class DeckSecrets:
    """What one seat derives from its seed for one deck (identified by ``digest``)."""

    shuffle_key: int
    permutation: tuple[int, ...]
    card_keys: tuple[int, ...]
    nonce_key: bytes

    @classmethod
    def derive(cls, seed: bytes, table: str, digest: str, seat: int, size: int) -> DeckSecrets:
        """Derive the secrets of ``seat`` for the deck ``digest`` of ``size`` cards at ``table``."""
        where = {"seed": check_seed(seed).hex(), "table": table, "deck": digest, "seat": seat}
        shuffle_key = hash_to_scalar("deck/kdf/shuffle-key", where)
        card_keys = tuple(hash_to_scalar("deck/kdf/card-key", {**where, "card": i}) for i in range(size))
        order = list(range(size))
        for i in range(size - 1, 0, -1):  # Fisher–Yates, each swap index drawn without bias
            j = hash_to_int("deck/kdf/permutation", {**where, "step": i}, i + 1)
            order[i], order[j] = order[j], order[i]
        nonce_key = hash_bytes("deck/kdf/nonce-key", where, 32)
        return cls(shuffle_key, tuple(order), card_keys, nonce_key)
