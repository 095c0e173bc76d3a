"""A spectator and a reconnecting peer, over the wire, receive nothing they may not see.

A real table on loopback (two seats and a spectator, random bots). Every frame the spectator's
socket delivers is kept with what was true when it arrived, and checked three ways:

* it is a public frame, and each entry in it is byte for byte the entry every seat holds (the
  host has no private channel to anyone);
* the game's own view functions are the oracle: after each entry, the spectator's copy of the game
  shows exactly the spectator view (``view(None)``) the seats compute at the same point of the log,
  and knows nothing besides (its knowledge is empty);
* no secret a seat holds privately is in any byte of it: the seat's master secret, its identity
  and table keys, its protocol seed (until the game is over and the seeds are opened for the
  audit), its shuffle and nonce keys, and its key for every card dealt to it privately, which is
  what opens a hidden face.

Mid-game, a seat and the spectator reconnect (a new connection asking for the entries after the
fifth): they are sent the public entries they lack and nothing else, with no other seat's secret.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from atoll.engine.observation import Observation
from atoll.fair.deck.keys import DeckSecrets
from atoll.fair.primitives import group
from atoll.fair.primitives.commitments import salt_for
from atoll.fair.steps.seat import derive_seed
from atoll.jsondata import canonical
from atoll.net.encoding import canonical_bytes
from atoll.net.envelope import seal
from atoll.table.frames import read_frame
from atoll.table.peer import Chooser
from atoll.types import Action
from atoll.wire import PROTOCOL
from tests.table.wire import WirePeer, WireTable, loopback_table, play

#: The games watched: one with a mental deck (hands dealt privately), one with sealed decisions.
GAMES = [("kariba", "standard"), ("kiribati", "professional")]

#: The entry a reconnecting peer says it holds (it asks for those after it).
HELD = 5

#: The frames the host may send a spectator (no error: it sends nothing wrong).
PUBLIC = {"welcome", "entry", "presence", "chat"}


@dataclass
class Received:
    """One frame as it reached the spectator."""

    data: bytes
    position: int
    """Where in the log it stands: its entry's number, or the last entry held when it arrived."""


@dataclass
class Watched:
    """What the spectator and the reconnecting peers received, and the table they watched."""

    wire: WireTable | None = None
    received: list[Received] = field(default_factory=list)
    views: dict[int, dict[int, str]] = field(default_factory=dict)
    """Peer index -> log length -> the spectator view that peer's copy of the game showed then."""
    knew: list[bool] = field(default_factory=list)
    """For each entry the spectator took in: whether its copy knew any hidden face then."""
    reconnects: dict[str, list[bytes]] = field(default_factory=dict)
    """Who reconnected (seat 1, the spectator) -> the frames sent to the new connection."""
    reconnected_at: int = 0
    """The last entry of the log when they reconnected."""


def _spectator_view(peer: WirePeer) -> str | None:
    engine = peer.table.engine
    return None if engine is None else canonical(engine.match.view(None))


def _position(data: bytes, held: int) -> int:
    """The place in the log of a frame that arrived when ``held`` entries were held."""
    try:
        frame = read_frame(data)
    except ValueError:
        return held - 1
    entry = frame.get("entry") if frame["t"] == "entry" else None
    seq = entry.get("seq") if isinstance(entry, dict) else None
    return seq if type(seq) is int else held - 1


def _one_by_one(data: bytes) -> list[bytes]:
    """A frame as the frames it stands for: an ``entries`` frame (entries the host sent back to back)
    as one ``entry`` frame per entry, after checking that it holds exactly those entries' bytes."""
    try:
        frame = read_frame(data)
    except ValueError:
        return [data]
    if frame["t"] != "entries":
        return [data]
    entries = [canonical_bytes(e) for e in frame["entries"]]
    assert data == b'{"entries":[' + b",".join(entries) + b'],"t":"entries"}'
    return [b'{"entry":' + e + b',"t":"entry"}' for e in entries]


def _watch(wire: WireTable, watched: Watched) -> None:
    """Record, for every peer, its spectator view after each frame; for the spectator, every frame."""
    for peer in wire.peers:
        views = watched.views.setdefault(peer.index, {})
        on_frame = peer.session.on_frame

        def taken(data: bytes, peer: WirePeer = peer, views: dict[int, str] = views, on_frame: Any = on_frame
                  ) -> list[bytes]:
            spectator = peer.session.role == "watch"
            if spectator:
                for one in _one_by_one(data):
                    watched.received.append(Received(one, _position(one, len(peer.table.log.entries))))
            out: list[bytes] = on_frame(data)
            view = _spectator_view(peer)
            if view is not None:
                views[len(peer.table.log.entries)] = view
                if spectator:
                    assert peer.table.engine is not None
                    watched.knew.append(any(peer.table.engine.match.known))
            return out

        peer.session.on_frame = taken  # type: ignore[method-assign]


async def _reconnect(wire: WireTable, peer: WirePeer) -> list[bytes]:
    """A new connection of ``peer``'s identity that holds the first entries: the frames it is sent
    (up to the presence frame that closes the host's answer)."""
    link = wire.connect(peer.key)
    await link.send(seal(peer.key, v=PROTOCOL, kind="sync", table=peer.table.id, n=10**6, seen={},
                         body={"have": HELD}))
    frames = [await link.recv()]
    while read_frame(frames[-1])["t"] != "presence":
        frames.append(await link.recv())
    await link.send(seal(peer.key, v=PROTOCOL, kind="bye", table=peer.table.id, n=10**6 + 1, seen={},
                         body={}))  # so that the host relays nothing more to this connection
    return frames


@dataclass(frozen=True)
class Secret:
    """Something a seat holds privately, until entry ``until`` of the log opens it (if ever)."""

    seat: int
    what: str
    value: bytes
    until: float


def secrets(wire: WireTable) -> list[Secret]:
    """What each seat holds privately: its master secret, identity and table keys and seed, its
    shuffle and nonce keys, its key for each card dealt to it (what opens the face), and the salt of
    each value it sealed; each with the entry that opens it to everyone, read from the log (a card
    shown to all, a sealed value revealed, the seeds opened for the audit once the game is decided)."""
    shown: dict[tuple[str, int], int] = {}
    seeds: dict[int, int] = {}
    opened: dict[str, int] = {}
    sealed: dict[int, list[str]] = {}
    for entry in wire.host.table.log.entries:
        if entry.message.kind != "fair":
            continue
        msg = entry.message.body["msg"]
        kind, body = msg.get("kind"), msg.get("body", {})
        if kind == "deck" and body.get("type") == "deck/open":
            for card, target in body["targets"]:
                if target is None:
                    shown.setdefault((body["deck"], card), entry.seq)
        elif kind == "seed":
            seeds.setdefault(msg["seat"], entry.seq)
        elif kind == "seal/commit":
            sealed.setdefault(msg["seat"], []).extend(body["commitments"])
        elif kind in ("reveal", "prove", "leave"):
            for handle in body.get("sealed", {}):
                opened.setdefault(handle, entry.seq)
    out: list[Secret] = []
    never = float("inf")
    for peer in wire.peers:
        table, seat = peer.table, peer.table.my_seat
        if seat is None:
            continue
        assert table.engine is not None and table.engine.resolver.me is not None
        seed = derive_seed(table.master, table.id, seat)
        held = {
            "master secret": (table.master.hex(), never),
            "identity key": (peer.key.encode().hex(), never),
            "seed": (seed.hex(), seeds.get(seat, never)),
        }
        record = table.engine.resolver.me.record
        for pile, deck in record.deck.decks.items():
            keys = DeckSecrets.derive(seed, table.id, deck.digest, seat, deck.spec.size)
            held[f"shuffle key of {pile}"] = (group.scalar_to_hex(keys.shuffle_key), seeds.get(seat, never))
            held[f"nonce key of {pile}"] = (keys.nonce_key.hex(), seeds.get(seat, never))
            for card, holder in deck.holders().items():
                if holder == seat:
                    until = shown.get((pile, card), seeds.get(seat, never))
                    held[f"key of card {pile}.{card}"] = (group.scalar_to_hex(keys.card_keys[card]), until)
        for handle in sealed.get(seat, []):
            salt = salt_for(seed, table.id, seat, handle).hex()
            held[f"salt of sealed {handle}"] = (salt, opened.get(handle, seeds.get(seat, never)))
        out += [Secret(seat, what, value.encode(), until) for what, (value, until) in held.items()]
    return out


def _leaks(data: bytes, position: int, hidden: list[Secret], seats: set[int]) -> list[str]:
    """The secrets of ``seats`` still hidden at ``position`` that ``data`` holds."""
    return [f"seat {s.seat}'s {s.what}" for s in hidden
            if s.seat in seats and position < s.until and s.value in data]


@pytest.fixture(scope="module", params=GAMES, ids=[game for game, _ in GAMES])
def watched(request: pytest.FixtureRequest) -> Iterator[Watched]:
    game, variant = request.param
    record = Watched()

    async def run() -> None:
        async with loopback_table(game, 2, variant, watchers=1) as wire:
            record.wire = wire
            _watch(wire, record)
            seat, spectator = wire.peers[1], wire.peers[2]

            def choosers(index: int, honest: Chooser) -> Chooser:
                async def choose(observation: Observation) -> Action:
                    if not record.reconnects and len(wire.host.table.log.entries) > 3 * HELD:
                        record.reconnected_at = len(wire.host.table.log.entries) - 1
                        record.reconnects["seat 1"] = await _reconnect(wire, seat)
                        record.reconnects["spectator"] = await _reconnect(wire, spectator)
                    return await honest(observation)

                return choose

            await asyncio.wait_for(play(wire, choosers=choosers), 240)

    asyncio.run(run())
    yield record


def test_the_spectator_receives_only_public_frames_with_the_entries_every_seat_holds(
    watched: Watched,
) -> None:
    assert watched.wire is not None
    log = [e.to_bytes() for e in watched.wire.host.table.log.entries]
    for got in watched.received:
        frame = read_frame(got.data)
        assert frame["t"] in PUBLIC, frame
        if frame["t"] == "entry":
            assert got.data == b'{"entry":' + log[frame["entry"]["seq"]] + b',"t":"entry"}'
    # every entry reached it (some twice: a heartbeat's catch-up may overlap what arrives live)
    frames = [read_frame(got.data) for got in watched.received]
    seqs = {frame["entry"]["seq"] for frame in frames if frame["t"] == "entry"}
    assert seqs == set(range(len(log)))


def test_after_every_entry_the_spectator_sees_exactly_the_spectator_view_of_the_seats(
    watched: Watched,
) -> None:
    assert watched.wire is not None
    spectator, seats = watched.views[2], [watched.views[0], watched.views[1]]
    assert len(spectator) > 100
    for length, view in spectator.items():
        for seat in seats:
            if length in seat:
                assert view == seat[length], f"after entry {length - 1}"
    assert not any(watched.knew)  # and its copy knew no hidden face at any point


def test_no_byte_the_spectator_received_holds_a_secret_still_hidden_then(watched: Watched) -> None:
    assert watched.wire is not None
    hidden = secrets(watched.wire)
    lobby = watched.wire.host.table.lobby
    assert lobby is not None
    if lobby.game == "kariba":  # hands were dealt privately: their cards' keys are among the checked
        assert any(s.what.startswith("key of card") and s.until > 0 for s in hidden)
    else:  # secret decisions were sealed: their salts are
        assert any(s.what.startswith("salt of sealed") for s in hidden)
    for got in watched.received:
        assert _leaks(got.data, got.position, hidden, {0, 1}) == []


def test_a_reconnecting_seat_and_spectator_are_sent_only_the_public_entries_they_lack(
    watched: Watched,
) -> None:
    assert watched.wire is not None
    log = [e.to_bytes() for e in watched.wire.host.table.log.entries]
    assert set(watched.reconnects) == {"seat 1", "spectator"}
    for frames in watched.reconnects.values():
        kinds = [read_frame(data)["t"] for data in frames]
        assert kinds[0] == "welcome" and kinds[-1] == "presence"
        entries = frames[1:-1]
        assert len(entries) > HELD
        for seq, data in enumerate(entries, start=HELD + 1):
            assert data == b'{"entry":' + log[seq] + b',"t":"entry"}'


def test_a_reconnecting_peer_receives_no_other_seats_secret(watched: Watched) -> None:
    assert watched.wire is not None
    hidden = secrets(watched.wire)
    at = watched.reconnected_at
    for data in watched.reconnects["seat 1"]:
        assert _leaks(data, _position(data, at + 1), hidden, {0}) == []
    for data in watched.reconnects["spectator"]:
        assert _leaks(data, _position(data, at + 1), hidden, {0, 1}) == []
