"""Hostile bytes during a game: random and mutated messages at the host and at a peer change nothing.

Bounded in count (a few thousand messages, seeded); no sockets, so it needs no time limit of its own.
"""

from __future__ import annotations

import json
import random

from atoll.net.encoding import canonical_bytes
from atoll.table.frames import frame
from tests.table.harness import Net, open_table


def mutations(rng: random.Random, genuine: bytes, net: Net, index: int) -> list[bytes]:
    """Ways to spoil a genuine message: bit flips, cuts, wrong types, huge fields, and messages that
    are validly signed by a real seat but say the wrong thing."""
    data = bytearray(genuine)
    flipped = bytearray(data)
    flipped[rng.randrange(len(flipped))] ^= 1 << rng.randrange(8)
    fields = json.loads(genuine)
    wrong_type = dict(fields, n=str(fields["n"]))
    huge = dict(fields, body={"action": {"x": "z" * 2_000_000}})
    peer = net.peers[index]
    signed_wrong = [
        peer.table.compose("move", {"at": rng.randrange(-3, 10_000), "action": {"nothing": 1}}),
        peer.table.compose("fair", {"msg": {"seat": index, "junk": True}}),
        peer.table.compose("sit", {"name": "\x00" * 3}),
        peer.table.compose("open", {"game": "kariba"}),
        peer.table.compose("end", {"results": {"scores": [99], "winners": [0]}}),
    ]
    return [
        bytes(flipped),
        genuine[: rng.randrange(len(genuine))],
        canonical_bytes(wrong_type),
        canonical_bytes(huge),
        bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200))),
        b"[]",
        b"{}",
        *signed_wrong,
        genuine,
    ]  # the genuine one again: a replay


def test_thousands_of_bad_messages_during_a_game_change_nothing_and_the_game_finishes() -> None:
    rng = random.Random(20261123)
    net = open_table("kariba", 3)
    sent = 0
    original_send = net.send

    def send(index: int, data: bytes) -> None:
        nonlocal sent
        original_send(index, data)
        # 0.4 of the genuine messages: the table delivers in order, so none is sent twice any more
        if sent < 3000 and rng.random() < 0.4:
            for bad in mutations(rng, data, net, index):
                sent += 1
                original_send(rng.randrange(len(net.peers)), bad)
            # and a spoiled frame at a peer, as if the host (or the wire) sent it
            entries = net.host.table.log.entries
            if entries:
                entry = entries[-1].to_json()
                entry["msg"]["n"] += 1
                for spoiled in (frame("entry", entry=entry), b"\xff" * 10, frame("error", text="x" * 10_000)):
                    net.peers[rng.randrange(len(net.peers))].session.on_frame(spoiled)

    net.send = send  # type: ignore[method-assign]
    net.run()
    assert sent > 1000
    heads = {p.table.log.head for p in net.peers} | {net.host.table.log.head}
    assert len(heads) == 1
    assert all(p.table.results() is not None and p.table.ended is None for p in net.peers)
