"""Fuzzing a real table over loopback ZeroMQ: thousands of random and mutated messages at the host and
at the peers during a game change nothing, and the game finishes with the honest peers' logs identical.

:mod:`tests.table.test_fuzz` does the same without sockets; here everything goes through real CURVE
sockets and ZeroMQ framing, which adds what only the wire has: multipart messages, empty frames,
frames over ZeroMQ's own size limit, and floods past the host's limit, which counts per identity.

One Kiribati game (two seats and a spectator, random bots). Two attack surfaces:

* **The host** hears anyone the ZAP handler admits. Side connections of the seats' and the
  spectator's identities (a modified client opens as many as it likes) send, as the game goes,
  mutations of what the honest peers send: bit flips, cuts, random bytes, wrong types, huge fields,
  replays, and messages validly signed by their author that say the wrong thing (another table,
  another version, a step gone by, a seat not its own, kinds nobody may send); now and then as a
  message of two frames. First come a frame over ZeroMQ's own limit (it costs its sender the
  connection, nothing else) and a flood on one connection (answered "slow down" past the burst).
* **A peer** hears only its host, over a CURVE link it authenticated, so what can reach it is what
  the host sends: entries of anyone's messages (those above never get in), chat relayed from any
  identity at the table, and frames of the host's own. The host's socket here is made hostile:
  after frames it sends a peer, it slips in spoiled ones (entries of a history that does not check,
  frames of the wrong type and shape, junk, multipart messages, and once a frame over the peer's
  size limit, which costs the peer its link until it reconnects).

A spoiled ``welcome`` with another protocol version is left out: a host saying it speaks another
version is believed and the peer stops, as it must. Bounded: a fixed number of messages, seeded.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from nacl.signing import SigningKey

from atoll.engine.observation import Observation
from atoll.net.encoding import canonical_bytes
from atoll.net.envelope import MAX_FRAME, MAX_MESSAGE, Envelope, seal
from atoll.net.ratelimit import RateLimit
from atoll.net.transport import HostSocket, PeerSocket
from atoll.table.frames import read_frame
from atoll.table.peer import MAX_BAD_ENTRIES, Chooser
from atoll.types import Action
from atoll.wire import PROTOCOL
from tests.table.wire import WireTable, loopback_table, play, wait_for

SEED = 20261123

#: Seconds the fuzzed game may take at most (it takes a few).
PLAY_TIMEOUT = 240.0

#: Messages the side connections send the host during the game (besides the flood).
AT_HOST = 2400

#: Spoiled frames the hostile host slips to the peers during the game.
AT_PEERS = 1500

#: Messages one side connection sends before the next takes over (a modified client opens as many
#: connections as it likes; the host's flood limit counts them all as one identity).
PER_CONNECTION = 300

#: Messages the host is sent before each decision a seat takes: the seats keep pace with the fuzzer,
#: so that it is heard during the game (a random bot's game is over in a second).
PER_DECISION = 60

#: Messages in the flood on a connection of its own: past the host's burst, even for a slow sender.
FLOOD = 1200

#: The n of every message the fuzzer signs, far above any honest peer's own counter.
FIRST_N = 1_000_000

#: Random JSON values of every type, for fields that expect another.
JUNK: list[Any] = [None, True, -1, 0, 2**70, "", "x" * 300, [], [1, [2, [3]]], {}, {"seat": 0}, "0" * 128]


#: JUNK without the counts of entries.
NOT_COUNTS = [value for value in JUNK if type(value) is not int]


@dataclass
class Fuzz:
    """What was sent, heard and kept while the table was fuzzed."""

    wire: WireTable | None = None
    genuine: set[bytes] = field(default_factory=set)
    """Every message an honest peer put on its socket."""
    pool: list[bytes] = field(default_factory=list)
    """The honest messages the fuzzer spoils: not the heartbeats and goodbyes (a replayed ``sync``
    is not refused, it is answered, and would make the fuzzer's connection one the host relays to)."""
    chats_sent: set[bytes] = field(default_factory=set)
    at_host: int = 0
    replies: list[dict[str, Any]] = field(default_factory=list)
    """The frames the host sent the side connections (decoded)."""
    flood_errors: list[str] = field(default_factory=list)
    at_peers: int = 0
    multipart_at_peers: int = 0
    oversize_sent: bool = False
    reconnected_after_oversize: bool = False
    chats_heard: list[Envelope] = field(default_factory=list)
    oversize_link_answered: bool = False
    drains: list[asyncio.Task[None]] = field(default_factory=list)
    """The side connections' readers (running to the end of the game, so that no answer is lost)."""
    flooded: bool = False
    decisions: int = 0


def _mutations(
    rng: random.Random, data: bytes, keys: dict[str, SigningKey], table_id: str, at: int, chats: set[bytes]
) -> list[bytes]:
    """Spoiled versions of the honest message ``data``: each must be refused by the host (but for
    the chat, which is relayed; it is added to ``chats``)."""
    fields = json.loads(data)
    author = keys[fields["author"]]
    n = FIRST_N + rng.randrange(10**9)
    flipped = bytearray(data)
    flipped[rng.randrange(len(flipped))] ^= 1 << rng.randrange(8)
    retyped = dict(fields, **{rng.choice(sorted(fields)): rng.choice(JUNK)})

    def signed(kind: str, body: dict[str, Any], **change: Any) -> bytes:
        values = {"v": PROTOCOL, "kind": kind, "table": table_id, "n": n, "seen": fields["seen"]}
        values.update(change)
        return seal(author, body=body, **values)

    past = rng.randrange(-3, max(at, 1))  # a step gone by: never the one the host waits for
    out = [
        bytes(flipped),
        data[: rng.randrange(len(data))],
        bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300))),
        canonical_bytes(retyped),
        data,  # a replay
        signed(fields["kind"], fields["body"], table=f"{table_id}-other"),
        signed(fields["kind"], fields["body"], v="atoll-table/0"),
        signed("move", {"at": past, "action": {"x": rng.choice(JUNK)}}),
        signed("move", {"at": rng.choice(JUNK[1:3] + JUNK[4:]), "action": rng.choice(JUNK)}),
        # a protocol message in the name of a seat that is not its author's (its own would be logged)
        signed("fair", {"msg": {"seat": rng.choice([7, -1, "0", None]), "junk": rng.choice(JUNK)}}),
        signed(rng.choice(["sit", "watch"]), {"name": rng.choice(JUNK)}),
        signed(rng.choice(["open", "end", "host", "entries", "timeout", "abort", "witness"]),
               {rng.choice(["game", "results", "entries", "seat", "timeout"]): rng.choice(JUNK)}),
        signed(rng.choice(["zz", "move!", "x" * 40]), {}),
        signed("sync", {"have": rng.choice([None, "3", [], {}, -2, True])}),
        chat := signed("chat", {"text": rng.choice(JUNK)}),
        signed(fields["kind"], fields["body"], seen=rng.choice([{}, {"seq": 10**6, "head": "00" * 32}])),
    ]
    chats.add(chat)
    if rng.random() < 0.02:  # a huge field, validly signed, for a step gone by (rarely: ~1 MB each)
        pad = MAX_MESSAGE - 2_000 - len(data)
        out.append(signed("move", {"at": past, "action": {"pad": "z" * pad}}))
    if rng.random() < 0.3:
        out.append(b"")
    return out


def _spoiled_frames(rng: random.Random, data: bytes, table: Any, *, entries_too: bool) -> list[bytes]:
    """Spoiled frames a hostile host slips to a peer after the genuine frame ``data``; entries that do
    not check only if ``entries_too`` (a peer gives up on a host after many in a row, as it should)."""
    flipped = bytearray(data)
    flipped[rng.randrange(len(flipped))] ^= 1 << rng.randrange(8)
    out = [
        bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200))),
        data[: rng.randrange(len(data))],
        canonical_bytes({
            "t": rng.choice(["entry", "entries"] * entries_too + ["chat", "presence", "need", "error", "?"]),
            rng.choice(["entry", "entries", "msg", "away", "after", "text"]): rng.choice(JUNK),
        }),
        # a welcome naming a longer log than the host's would hold the peer back until the next one
        # (a heartbeat away): only lengths that are no number of entries
        canonical_bytes({"t": "welcome", "proto": PROTOCOL, "length": rng.choice(NOT_COUNTS),
                         "run": rng.choice(JUNK)}),
        canonical_bytes({"t": "error", "text": "e" * rng.randrange(100_000)}),
    ]
    entries = table.log.entries
    if entries_too:
        out.append(bytes(flipped))
    if entries_too and rng.random() < 0.3:  # the next entry, not as it checks (the peer asks again)
        entry = dict(rng.choice(entries).to_json(), seq=len(entries), prev=entries[-1].to_json()["prev"])
        spoil = rng.randrange(3)
        if spoil == 0:
            entry["msg"] = dict(entry["msg"], n=entry["msg"]["n"] + 1)  # its author's signature fails
        elif spoil == 1:
            entry["host"] = "ab" * 64
        else:
            entry["seq"] += rng.randrange(1, 5)  # a gap in the log
        out.append(canonical_bytes({"t": "entry", "entry": entry}))
    if rng.random() < 0.1:
        forged = dict(json.loads(entries[-1].message.raw), kind="chat")  # its signature no longer holds
        out.append(canonical_bytes({"t": "chat", "msg": forged}))
    return out


async def _drain(link: PeerSocket, into: list[dict[str, Any]]) -> None:
    while True:
        data = await link.recv()
        try:
            into.append(read_frame(data))
        except ValueError:
            into.append({"t": "unreadable"})


async def _oversize_and_flood(wire: WireTable, fuzz: Fuzz) -> None:
    """A frame over ZeroMQ's own limit costs its sender the connection, without a word (the identity
    connects again and is heard); a flood on one connection is answered "slow down" past the burst."""
    watcher = wire.peers[-1].key
    table = wire.host.table
    cut = wire.connect(watcher)
    await cut.send_frames([b"x" * (MAX_FRAME + 1)])
    again = wire.connect(watcher)
    await again.send(seal(watcher, v=PROTOCOL, kind="sync", table=table.id, n=FIRST_N, seen={},
                          body={"have": len(table.log.entries) - 1}))
    fuzz.oversize_link_answered = read_frame(await again.recv())["t"] == "welcome"
    # goodbye, so that the host relays nothing more to this connection
    await again.send(seal(watcher, v=PROTOCOL, kind="bye", table=table.id, n=FIRST_N + 1, seen={}, body={}))
    flood = wire.connect(watcher)
    heard: list[dict[str, Any]] = []
    reading = asyncio.create_task(_drain(flood, heard))  # read as it comes: a full queue drops frames
    try:
        for _ in range(FLOOD):
            await flood.send(b"junk")
        await wait_for(lambda: any("slow down" in str(f.get("text")) for f in heard))
    finally:
        reading.cancel()
        await asyncio.gather(reading, return_exceptions=True)
    fuzz.flood_errors = [str(f.get("text")) for f in heard]


async def _fuzz_host(wire: WireTable, fuzz: Fuzz, rng: random.Random) -> None:
    """Send :data:`AT_HOST` spoiled messages as the game goes, a batch at a time (the seats wait
    for them: :data:`PER_DECISION`); first the oversize frame and the flood."""
    keys = {p.key.verify_key.encode().hex(): p.key for p in wire.peers}
    drains = fuzz.drains
    links: dict[str, PeerSocket] = {}
    sent_on: dict[str, int] = {}

    def link_of(author: str) -> PeerSocket:
        if author not in links or sent_on[author] >= PER_CONNECTION:
            links[author] = wire.connect(keys[author])
            sent_on[author] = 0
            drains.append(asyncio.create_task(_drain(links[author], fuzz.replies)))
        sent_on[author] += 1
        return links[author]

    table = wire.host.table
    await wait_for(lambda: table.engine is not None and len(fuzz.pool) > 5)
    await _oversize_and_flood(wire, fuzz)
    fuzz.flooded = True
    # The spoiled messages come on the seats' and the spectator's own identities, thousands a second,
    # and the host's flood limit counts per identity: past it they would be answered "slow down"
    # unread, the honest seats' own messages with them. The flood above has checked that answer; from
    # here on each spoiled message is to be read in full, so the limit is lifted.
    wire.host.limit = RateLimit(rate=1e9, burst=1e9)
    while fuzz.at_host < AT_HOST and not table.over():
        await asyncio.sleep(0.001)  # the game goes on between batches (its seats wait for them)
        engine = table.engine
        at = len(engine.match.events) if engine is not None else 0
        data = rng.choice(fuzz.pool)
        author = json.loads(data)["author"]
        for bad in _mutations(rng, data, keys, table.id, at, fuzz.chats_sent):
            # now and then on a connection of another identity (the host checks who signed)
            who = rng.choice(sorted(keys)) if rng.random() < 0.1 else author
            link = link_of(who)
            if rng.random() < 0.05:  # two frames in one message: not a DEALER's, refused unread
                await link.send_frames([bad, b"{}"])
            else:
                await link.send_frames([bad])  # as they are: PeerSocket.send checks the size
            fuzz.at_host += 1


def _raw_send(socket: HostSocket, frames: list[bytes]) -> None:
    """Send ``frames`` on the host's ROUTER as they are; a connection gone meanwhile is let be."""
    socket.send_frames(frames)


def _hostile_host(wire: WireTable, fuzz: Fuzz, rng: random.Random) -> None:
    """Make the host's socket slip spoiled frames to the peers after genuine ones."""
    socket = wire.socket
    send = socket.send
    peers = {p.key.verify_key.encode().hex(): p for p in wire.peers}
    oversize_at = AT_PEERS // 2

    def hostile(connection: bytes, data: bytes) -> bool:
        sent = send(connection, data)
        peer = peers.get(wire.host.connections.get(connection, ""))
        # after entries only: a spoiled entry makes the peer sync again, and spoiling the answers
        # too would feed on itself
        if peer is None or fuzz.at_peers >= AT_PEERS or not data.startswith((b'{"entry":', b'{"entries":')):
            return sent
        # a peer gives up on a host after MAX_BAD_ENTRIES entries in a row that do not check; this
        # host stays well under that
        entries_too = peer.session.bad_entries < MAX_BAD_ENTRIES // 2
        # as many rounds as the frame holds entries (the host sends entries back to back in one frame)
        rounds = len(json.loads(data).get("entries", [None]))
        for bad in (b for _ in range(rounds) for b in _spoiled_frames(rng, data, wire.host.table,
                                                                       entries_too=entries_too)):
            if rng.random() < 0.05:
                _raw_send(socket, [connection, bad, b"{}"])
                fuzz.multipart_at_peers += 1
            else:
                _raw_send(socket, [connection, bad])
            fuzz.at_peers += 1
        if fuzz.at_peers >= oversize_at and not fuzz.oversize_sent and peer.session.role == "sit":
            fuzz.oversize_sent = True  # the peer's link drops; ZeroMQ reconnects, and it syncs again
            _raw_send(socket, [connection, b"x" * (MAX_FRAME + 1)])
        return sent

    socket.send = hostile  # type: ignore[method-assign]


@pytest.fixture(scope="module")
def fuzzed() -> Iterator[Fuzz]:
    fuzz = Fuzz()
    rng = random.Random(SEED)

    async def run() -> None:
        async with loopback_table("kiribati", 2, "professional", watchers=1) as wire:
            fuzz.wire = wire
            for peer in wire.peers:
                send = peer.socket.send

                async def record(data: bytes, send: Any = send) -> None:
                    fuzz.genuine.add(data)
                    if json.loads(data)["kind"] not in ("sync", "bye"):
                        fuzz.pool.append(data)
                    await send(data)

                peer.socket.send = record  # type: ignore[method-assign]
            for peer in wire.peers:  # (one of them is cut off a while by the over-size frame)
                peer.session.on_chat = fuzz.chats_heard.append
            _hostile_host(wire, fuzz, rng)
            attack = asyncio.create_task(_fuzz_host(wire, fuzz, rng))

            def paced(_index: int, honest: Chooser) -> Chooser:
                async def choose(observation: Observation) -> Action:
                    fuzz.decisions += 1
                    wanted = min(AT_HOST, PER_DECISION * fuzz.decisions)
                    await wait_for(lambda: attack.done() or (fuzz.flooded and fuzz.at_host >= wanted))
                    return await honest(observation)

                return choose

            try:
                await asyncio.wait_for(play(wire, choosers=paced), PLAY_TIMEOUT)
                await asyncio.wait_for(attack, 60)
            finally:
                for task in [attack, *fuzz.drains]:
                    task.cancel()
                await asyncio.gather(attack, *fuzz.drains, return_exceptions=True)

    asyncio.run(run())
    yield fuzz


def test_thousands_of_spoiled_messages_reached_the_host_and_the_peers_during_the_game(fuzzed: Fuzz) -> None:
    assert fuzzed.at_host >= AT_HOST and fuzzed.at_peers >= AT_PEERS
    assert fuzzed.oversize_sent and fuzzed.multipart_at_peers > 0


def test_the_game_finishes_with_every_log_identical_and_the_same_results(fuzzed: Fuzz) -> None:
    assert fuzzed.wire is not None
    peers = fuzzed.wire.peers
    assert len(fuzzed.wire.heads()) == 1
    assert all(p.table.closed and p.table.ended is None for p in peers)
    assert len({str(p.table.results().results.to_json()) for p in peers}) == 1  # type: ignore[union-attr]


def test_nothing_the_fuzzer_sent_entered_the_log(fuzzed: Fuzz) -> None:
    assert fuzzed.wire is not None
    host = fuzzed.wire.host_key.verify_key.encode().hex()
    for entry in fuzzed.wire.host.table.log.entries:
        assert entry.message.author == host or entry.message.raw in fuzzed.genuine
    # and no honest peer refused anything: every entry was a legal step of the game
    assert not any(event.refused or event.blame is not None for event in fuzzed.wire.host.table.events)


def test_the_host_answers_spoiled_messages_with_errors_and_a_flood_with_slow_down(fuzzed: Fuzz) -> None:
    assert fuzzed.wire is not None
    errors = [f for f in fuzzed.replies if f.get("t") == "error"]
    assert len(errors) > AT_HOST // 2
    assert not any("slow down" in str(f.get("text")) for f in errors)  # each was read in full
    assert fuzzed.wire.host.refused >= len(errors)
    assert any("slow down" in e for e in fuzzed.flood_errors)


def test_a_message_of_several_frames_is_answered_that_a_message_is_one_frame(fuzzed: Fuzz) -> None:
    assert fuzzed.wire is not None
    texts = [str(f.get("text")) for f in fuzzed.replies if f.get("t") == "error"]
    assert "refused: a message is one frame, not 2" in texts
    assert any("a message is one frame, not 2" in line for line in fuzzed.wire.host_lines)


def test_a_frame_over_zeromqs_limit_costs_only_its_connection(fuzzed: Fuzz) -> None:
    assert fuzzed.oversize_link_answered


def test_the_peers_read_every_spoiled_frame_and_noted_it(fuzzed: Fuzz) -> None:
    assert fuzzed.wire is not None
    for peer in fuzzed.wire.peers:
        notes = peer.session.errors
        assert any("unreadable frame" in note for note in notes)
        assert peer.session.bad_entries <= MAX_BAD_ENTRIES
    assert any("refused an entry" in note for p in fuzzed.wire.peers for note in p.session.errors)


def test_a_peer_hands_on_only_chat_its_author_signed_for_this_table(fuzzed: Fuzz) -> None:
    assert fuzzed.wire is not None
    table = fuzzed.wire.host.table
    assert table.lobby is not None
    at_table = set(table.lobby.seated) | set(table.lobby.spectators)
    assert fuzzed.chats_heard  # the fuzzer's chats with valid text went round
    for chat in fuzzed.chats_heard:  # never one the hostile host spoiled, nor one for another table
        assert chat.raw in fuzzed.chats_sent
        assert chat.kind == "chat" and chat.table == table.id and chat.author in at_table
