"""The quick way an envelope is opened accepts and refuses exactly what the one-check-at-a-time way does.

:func:`open_envelope` parses without a per-object hook and cuts the signed part out of the received
bytes; when anything is off it falls back to the strict path, which names the reason. Spoiled
messages of every kind must give the same envelope or the same refusal either way.
"""

from __future__ import annotations

import json
import random

from nacl.signing import SigningKey

from atoll.net import envelope
from atoll.net.encoding import canonical_bytes
from atoll.net.envelope import MAX_MESSAGE, Unauthenticated, open_envelope, seal

KEY = SigningKey(b"\x03" * 32)


def genuine(rng: random.Random) -> bytes:
    body = {"action": {"play": "zebra", "count": rng.randrange(5)}, "nested": {"sig": "ab" * 64}}
    seen = {"seq": rng.randrange(-1, 50), "head": "cd" * 32, "host": ""}
    return seal(KEY, v="atoll-table/1", kind="move", table="t-1", n=rng.randrange(100), seen=seen, body=body)


def spoiled(rng: random.Random, data: bytes) -> list[bytes]:
    fields = json.loads(data)
    flipped = bytearray(data)
    flipped[rng.randrange(len(flipped))] ^= 1 << rng.randrange(8)
    text = data.decode()
    return [
        data,
        bytes(flipped),
        data[: rng.randrange(len(data))],
        text.replace('"kind"', '"kind":"x","kind"', 1).encode(),  # a repeated key
        text.replace('"n":', '"n":1.5,"m":', 1).encode(),  # a float
        canonical_bytes(dict(fields, table={"sig": fields["sig"]})),  # sig again, inside another field
        canonical_bytes(dict(fields, v=7)),  # signed with v a string, sent as a number
        canonical_bytes({k: v for k, v in fields.items() if k != "v"}),
        json.dumps(fields).encode(),  # spaces: not canonical
        canonical_bytes(dict(fields, sig=fields["sig"].upper())),
        b"\xef\xbb\xbf" + data,  # a byte-order mark
        b"[" + data + b"]",
    ]


def outcome(open_: object, data: bytes) -> object:
    try:
        message = open_(data, limit=MAX_MESSAGE)  # type: ignore[operator]
    except Unauthenticated as exc:
        return ("refused", str(exc))
    return ("opened", message)


def test_the_quick_path_and_the_strict_path_open_and_refuse_alike() -> None:
    rng = random.Random(20261123)
    tried = 0
    for _ in range(150):
        for data in spoiled(rng, genuine(rng)):
            assert outcome(open_envelope, data) == outcome(envelope._open_strictly, data), data[:200]
            tried += 1
    assert tried == 150 * 12
