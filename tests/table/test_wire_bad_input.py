"""Each kind of bad input, sent over the wire during a game: a clear error to its sender, a line in the
host's log, nothing changed, and the table finishes with the honest peers' logs identical.

One real table on loopback (Kiribati, two seats and a spectator, random bots). At seat A's third
open (not sealed) decision, before A answers, side connections of A's and the other seat B's
identities (a modified client can open as many as it likes) send every kind of bad input;
:mod:`tests.table.test_fuzz` sends thousands of mutated messages the same way without sockets.
What the host refuses never reaches a peer; what it cannot judge (an illegal action in turn)
enters the log and every peer refuses it alike.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import zmq
from nacl.signing import SigningKey
from zmq.utils.monitor import parse_monitor_message

from atoll.engine.observation import Observation
from atoll.net.encoding import canonical_bytes
from atoll.net.envelope import MAX_MESSAGE, seal
from atoll.net.ratelimit import RateLimit
from atoll.table.frames import read_frame
from atoll.table.peer import Chooser
from atoll.table.table import Table
from atoll.types import Action
from atoll.wire import PROTOCOL, ErrorReason
from tests.table.wire import WirePeer, WireTable, loopback_table, play, wait_for

#: The n of every message the attacker signs, far above any honest peer's own counter.
FIRST_N = 100_000

#: Messages in the flood: three times the host's burst of 400, so even a slow sender outruns the refill.
FLOOD = 1200

#: A seat's own message, already logged, sent again.
REPEAT = "a replayed message"

#: Each input the host must refuse: what it is -> words its error must contain.
REFUSED = {
    "malformed bytes": "not JSON",
    "a bad signature": "bad signature",
    "an identity not this connection's": "not this connection's identity",
    REPEAT: "already in the log",
    "a move for an earlier step": "is for step",
    "a message for another table": "message for table",
    "a move out of turn": "out of turn",
    "a message of another protocol version": "this table speaks",
    "a protocol message from a seat with nothing owed": "no protocol step waits",
    "a message over the table's limit": f"{MAX_MESSAGE + 1} bytes is over the limit of {MAX_MESSAGE} bytes",
}


@dataclass
class Attack:
    """What the side connections sent and heard, and the table they sent it to."""

    wire: WireTable | None = None
    errors: dict[str, str] = field(default_factory=dict)
    reasons: dict[str, object] = field(default_factory=dict)
    flood_errors: list[str] = field(default_factory=list)
    illegal: bytes = b""
    refused: list[bytes] = field(default_factory=list)
    host_lines_before: int = 0
    stranger_event: int | None = None


def _sign(key: SigningKey, at: Table, n: int, body: dict[str, Any], **fields: Any) -> bytes:
    values: dict[str, Any] = {"v": PROTOCOL, "kind": "move", "table": at.id, "seen": at.log.seen()}
    values.update(fields)
    return seal(key, n=n, body=body, **values)


async def _error(link: Any, reasons: dict[str, object] | None = None, what: str = "") -> str:
    frm = read_frame(await link.recv())
    assert frm["t"] == "error", frm
    if reasons is not None:
        reasons[what] = frm.get("reason")
    return str(frm["text"])


async def _attack(wire: WireTable, mover: WirePeer, other: WirePeer, record: Attack) -> None:
    table = mover.table
    assert table.engine is not None
    record.host_lines_before = len(wire.host_lines)
    at = len(table.engine.match.events)
    as_mover, as_other = wire.connect(mover.key), wire.connect(other.key)
    n = iter(range(FIRST_N, FIRST_N + 1000))
    genuine = _sign(mover.key, table, next(n), {"at": at, "action": {"do": "done"}})
    flipped = bytearray(genuine)
    flipped[genuine.index(b'"sig":"') + 10] ^= 1
    stranger = SigningKey(os.urandom(32))
    # first, an illegal action in turn: the host cannot judge it; every peer refuses it alike
    record.illegal = _sign(mover.key, table, next(n), {"at": at, "action": {"do": "fly to the moon"}})
    await as_mover.send(record.illegal)
    await wait_for(lambda: all(_holds(p.table, record.illegal) for p in wire.peers))
    sends = {
        "malformed bytes": (as_mover, b"\x00garbage{"),
        "a bad signature": (as_mover, bytes(flipped)),
        "an identity not this connection's": (as_mover, _sign(stranger, table, next(n), {"at": at})),
        REPEAT: (as_mover, record.illegal),
        "a move for an earlier step": (
            as_mover,
            _sign(mover.key, table, next(n), {"at": at - 1, "action": {}}),
        ),
        "a message for another table": (
            as_mover,
            _sign(mover.key, table, next(n), {"at": at}, table="other"),
        ),
        "a move out of turn": (
            as_other,
            _sign(other.key, table, next(n), {"at": at, "action": {"do": "done"}}),
        ),
        "a message of another protocol version": (
            as_mover,
            _sign(mover.key, table, next(n), {"at": at}, v="atoll-table/0"),
        ),
        "a protocol message from a seat with nothing owed": (
            as_other,
            _sign(other.key, table, next(n), {"msg": {"seat": other.table.my_seat}}, kind="fair"),
        ),
    }
    for what, (link, data) in sends.items():
        await link.send(data)
        record.errors[what] = await _error(link, record.reasons, what)
        record.refused.append(data)
    # over the table's limit, but under ZeroMQ's (which would cost the sender its connection without
    # a word): sent by a modified client, since an atoll peer refuses to send it at all
    oversized = wire.connect(other.key)
    await oversized.send_frames([b"x" * (MAX_MESSAGE + 1)])
    record.errors["a message over the table's limit"] = await _error(oversized)
    # an identity that holds no seat, once the seats are taken, at a table that admits no late
    # spectators (atoll host --no-late-watchers): its connection is not admitted
    wire.host.late_watchers = False
    outsider = wire.connect(stranger)
    monitor = outsider.socket.get_monitor_socket(zmq.EVENT_HANDSHAKE_FAILED_AUTH)
    try:
        await outsider.send(_sign(stranger, table, 0, {"have": -1}, kind="sync"))
        record.stranger_event = parse_monitor_message(await monitor.recv_multipart())["event"]
    finally:
        outsider.socket.disable_monitor()
        monitor.close(linger=0)
    # last, since the host's flood limit counts per identity, whatever the connection: a flood on a
    # connection of its own is answered, and past the burst only "slow down", to its whole identity
    flood = wire.connect(other.key)
    for _ in range(FLOOD):
        await flood.send(b"junk")
    record.flood_errors = [await _error(flood) for _ in range(FLOOD)]
    # the flood is checked: the flooding seat's game goes on with a full allowance again (left to
    # refill, a random bot's quick game could meet the limit, and a slowed seat waits for heartbeats)
    wire.host.limit = RateLimit()


def _holds(table: Table, data: bytes) -> bool:
    return any(e.message.raw == data for e in table.log.entries)


@pytest.fixture(scope="module")
def attacked() -> Iterator[Attack]:
    record = Attack()

    async def run() -> None:
        async with loopback_table("kiribati", 2, "professional", watchers=1) as wire:
            record.wire = wire
            decisions = [0]

            def choosers(index: int, honest: Chooser) -> Chooser:
                if index != 0:
                    return honest

                async def choose(observation: Observation) -> Action:
                    engine = wire.peers[0].table.engine
                    assert engine is not None
                    if not engine.waiting().secret:
                        decisions[0] += 1
                    if decisions[0] == 3 and not record.errors:
                        await _attack(wire, wire.peers[0], wire.peers[1], record)
                    return await honest(observation)

                return choose

            await asyncio.wait_for(play(wire, choosers=choosers), 240)

    asyncio.run(run())
    yield record


@pytest.mark.parametrize("what", sorted(set(REFUSED) - {REPEAT}))
def test_a_refused_input_gets_a_clear_error_to_its_sender_and_a_line_in_the_hosts_log(
    attacked: Attack, what: str
) -> None:
    assert attacked.wire is not None
    error = attacked.errors[what]
    assert REFUSED[what] in error
    assert any(error in line for line in attacked.wire.host_lines[attacked.host_lines_before :])


def test_a_seat_sending_its_own_logged_message_again_is_answered_but_kept_as_no_refusal(
    attacked: Attack,
) -> None:
    # an honest peer does this after a hand-over, or when its entry is slow to come: a repeat of what
    # the log holds changes nothing, so the host says so to its sender but writes no refusal line
    assert attacked.wire is not None
    assert REFUSED[REPEAT] in attacked.errors[REPEAT]
    # the peer's program reads the reason, never the words; every other refusal has none
    assert attacked.reasons[REPEAT] == ErrorReason.ALREADY_LOGGED
    assert [r for what, r in attacked.reasons.items() if what != REPEAT and r is not None] == []
    lines = attacked.wire.host_lines[attacked.host_lines_before :]
    assert not any(attacked.errors[REPEAT] in line for line in lines)


def test_no_refused_input_reaches_an_honest_peer(attacked: Attack) -> None:
    assert attacked.wire is not None
    for peer in attacked.wire.peers:
        assert peer.errors == []
        received = {canonical_bytes(entry["msg"]) for entry in _entries(peer)}
        assert not received & (set(attacked.refused) - {attacked.illegal})
        # the replay of the one message that did go in (the illegal action) is held once
        assert sum(e.message.raw == attacked.illegal for e in peer.table.log.entries) == 1


def test_a_flood_is_answered_slow_down_past_the_burst_and_the_table_goes_on(attacked: Attack) -> None:
    assert attacked.wire is not None
    slowed = [e for e in attacked.flood_errors if "slow down" in e]
    assert slowed and attacked.flood_errors[0].startswith("refused")
    assert all(p.table.closed for p in attacked.wire.peers)


def test_an_identity_without_a_seat_is_not_admitted_once_the_seats_are_taken(attacked: Attack) -> None:
    assert attacked.stranger_event == zmq.EVENT_HANDSHAKE_FAILED_AUTH


def test_an_illegal_action_in_turn_is_logged_and_refused_alike_by_every_peer(attacked: Attack) -> None:
    assert attacked.wire is not None
    for table in [attacked.wire.host.table, *(p.table for p in attacked.wire.peers)]:
        seq = next(e.seq for e in table.log.entries if e.message.raw == attacked.illegal)
        refusal = next(event for event in table.events if event.seq == seq)
        assert refusal.refused and refusal.blame is None and "refused move of seat" in refusal.text


def test_the_table_finishes_with_every_log_identical_and_the_same_results(attacked: Attack) -> None:
    assert attacked.wire is not None
    peers = attacked.wire.peers
    assert len(attacked.wire.heads()) == 1
    assert all(p.table.closed and p.table.ended is None for p in peers)
    results = {str(p.table.results().results.to_json()) for p in peers}  # type: ignore[union-attr]
    assert len(results) == 1


def _entries(peer: WirePeer) -> list[dict[str, Any]]:
    """The entries the host sent ``peer``, alone or back to back in one frame."""
    return [e for f in peer.frames for e in ([f["entry"]] if f.get("t") == "entry" else f.get("entries", []))]


def test_a_message_naming_an_entry_the_host_never_had_is_refused() -> None:
    # a validly signed move, in turn, whose 'seen' names entry 999: the host refuses it (before, it
    # sequenced it and then failed on its own copy, which stopped the table)
    async def run() -> None:
        async with loopback_table("kiribati", 2, "professional") as wire:
            heard: list[str] = []

            def choosers(index: int, honest: Chooser) -> Chooser:
                async def choose(observation: Observation) -> Action:
                    if not heard:
                        peer = wire.peers[index]
                        link = wire.connect(peer.key)
                        seen = dict(peer.table.log.seen(), seq=999)
                        at = len(peer.table.engine.match.events)  # type: ignore[union-attr]
                        await link.send(
                            _sign(peer.key, peer.table, FIRST_N, {"at": at, "action": {}}, seen=seen)
                        )
                        heard.append(await _error(link))
                    return await honest(observation)

                return choose

            await asyncio.wait_for(play(wire, choosers=choosers), 120)
            assert "claims to have seen entry 999" in heard[0]
            assert len(wire.heads()) == 1 and all(p.table.closed for p in wire.peers)

    asyncio.run(run())
