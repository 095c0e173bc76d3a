"""Signed envelopes: authenticated before anything reads them; one encoding, every field signed."""

from __future__ import annotations

import json

import pytest
from nacl.signing import SigningKey

from atoll.net.encoding import canonical_bytes
from atoll.net.envelope import MAX_MESSAGE, Unauthenticated, open_envelope, seal

KEY = SigningKey(b"\x01" * 32)
OTHER = SigningKey(b"\x02" * 32)


def genuine(**body: object) -> bytes:
    return seal(
        KEY, v="atoll-table/1", kind="move", table="t1", n=3, seen={"seq": -1}, body=dict(body) or {"a": 1}
    )


def test_a_genuine_message_opens_with_its_author_and_fields() -> None:
    message = open_envelope(genuine(x=2))
    assert message.author == KEY.verify_key.encode().hex()
    assert (message.kind, message.table, message.n, message.body) == ("move", "t1", 3, {"x": 2})


def test_a_message_forged_with_an_all_zero_signature_is_refused_and_names_nobody() -> None:
    fields = json.loads(genuine())
    fields["author"] = OTHER.verify_key.encode().hex()
    fields["sig"] = "00" * 64
    with pytest.raises(Unauthenticated, match="bad signature"):
        open_envelope(canonical_bytes(fields))


def test_a_signature_re_encoded_in_upper_case_hex_is_refused() -> None:
    fields = json.loads(genuine())
    fields["sig"] = fields["sig"].upper()
    with pytest.raises(Unauthenticated):
        open_envelope(canonical_bytes(fields))


def test_an_extra_field_added_by_a_relay_is_refused() -> None:
    fields = json.loads(genuine())
    fields["note"] = "relayed"
    with pytest.raises(Unauthenticated, match="unknown"):
        open_envelope(canonical_bytes(fields))


def test_spaces_or_another_key_order_are_not_the_canonical_encoding() -> None:
    fields = json.loads(genuine())
    spaced = json.dumps(fields, sort_keys=True).encode()
    with pytest.raises(Unauthenticated, match="canonical"):
        open_envelope(spaced)


def test_every_field_is_signed_so_changing_the_body_breaks_the_signature() -> None:
    fields = json.loads(genuine(x=1))
    fields["body"] = {"x": 2}
    with pytest.raises(Unauthenticated, match="bad signature"):
        open_envelope(canonical_bytes(fields))


def test_floats_and_repeated_keys_are_refused() -> None:
    with pytest.raises(Unauthenticated, match="integers"):
        open_envelope(b'{"a":1.5}')
    with pytest.raises(Unauthenticated, match="repeats"):
        open_envelope(b'{"a":1,"a":2}')


def test_an_oversized_message_is_refused_before_it_is_parsed() -> None:
    with pytest.raises(Unauthenticated, match="over the limit"):
        open_envelope(b" " * (MAX_MESSAGE + 1))


@pytest.mark.parametrize("data", [b"", b"\xff\xfe", b"[1,2]", b"null", b"{" * 5000, b'"text"'])
def test_malformed_bytes_are_refused_with_a_clear_error(data: bytes) -> None:
    with pytest.raises(Unauthenticated):
        open_envelope(data)
