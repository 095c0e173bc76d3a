"""A peer does not check its own signature again on a message it sealed, and nothing else gets past."""

from __future__ import annotations

import json

import pytest
from nacl.signing import SigningKey

from atoll.net.envelope import Unauthenticated, open_fields, own_envelope, seal

KEY = SigningKey(b"\x05" * 32)


def _sealed() -> bytes:
    return seal(KEY, v="atoll-table/1", kind="move", table="t", n=3, seen={}, body={"at": 1})


def test_a_message_this_peer_sealed_comes_back_as_the_envelope_it_noted() -> None:
    data = _sealed()
    own = {data: own_envelope(data)}
    assert open_fields(json.loads(data), own=own) is own[data]


def test_a_message_in_this_peers_name_changed_after_it_sealed_it_is_refused() -> None:
    data = _sealed()
    own = {data: own_envelope(data)}
    changed = dict(json.loads(data), body={"at": 2})  # the peer's signature, over other content
    with pytest.raises(Unauthenticated, match="signature"):
        open_fields(changed, own=own)


def test_a_message_in_this_peers_name_signed_by_another_key_is_refused() -> None:
    data = _sealed()
    own = {data: own_envelope(data)}
    other = json.loads(
        seal(
            SigningKey(b"\x06" * 32), v="atoll-table/1", kind="move", table="t", n=3, seen={}, body={"at": 1}
        )
    )
    forged = dict(other, author=KEY.verify_key.encode().hex())
    with pytest.raises(Unauthenticated, match="signature"):
        open_fields(forged, own=own)
