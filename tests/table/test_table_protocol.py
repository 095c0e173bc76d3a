"""The table protocol without sockets: whole games, and each kind of bad input, through an untrusted host."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from nacl.signing import SigningKey, VerifyKey

from atoll.net.encoding import canonical_bytes, fingerprint
from atoll.net.envelope import MAX_MESSAGE, MessageTooLarge, open_envelope, seal
from atoll.net.ratelimit import RateLimit
from atoll.table.audit import DamagedLog, audit_log
from atoll.table.frames import batched, entry_frame, frame, read_frame
from atoll.table.log import BadEntry, sequence
from atoll.table.peer import PeerSession, TableFailed
from atoll.table.reasons import EndReason
from atoll.table.table import Table
from atoll.wire import PROTOCOL
from tests.table.harness import REGISTRY, Net, open_table


def logs_identical(net: Net) -> bool:
    heads = {p.table.log.head for p in net.peers} | {net.host.table.log.head}
    return len(heads) == 1


@pytest.mark.parametrize(
    ("game", "seats", "variant"),
    [
        ("kariba", 2, "standard"),
        ("kariba", 3, "experienced"),
        ("kiribati", 3, "professional"),
    ],
)
def test_a_game_played_through_the_host_ends_with_identical_logs_on_every_peer(
    game: str, seats: int, variant: str
) -> None:
    net = open_table(game, seats, variant, watchers=1)
    net.run()
    assert logs_identical(net)
    results = {json.dumps(p.table.results().results.to_json()) for p in net.peers}  # type: ignore[union-attr]
    assert len(results) == 1
    assert all(p.table.closed for p in net.peers)
    assert net.host.refused == 0


def test_the_results_are_the_logs_last_entry_signed_by_the_host() -> None:
    net = open_table("kariba", 2)
    net.run()
    last = net.host.table.log.entries[-1].message
    assert last.kind == "end" and last.author == net.host.key.verify_key.encode().hex()


def test_a_move_out_of_turn_is_refused_with_an_error_to_its_sender_and_changes_nothing() -> None:
    net = open_table("kariba", 2)
    for i in range(2):
        net.send(i, net.peers[i].session.hello())
    waiting = net.peers[0].table.engine.waiting()  # type: ignore[union-attr]
    late = 1 - waiting.seat  # type: ignore[operator]
    before = len(net.host.table.log.entries)
    sent: list[bytes] = []
    net.relay = lambda index, data: (sent.append(data), data)[1]
    action = {"play": "x"}
    net.send(late, net.peers[late].table.compose("move", {"at": 0, "action": action}))
    assert len(net.host.table.log.entries) == before
    errors = [read_frame(d) for d in sent if read_frame(d)["t"] == "error"]
    assert errors and "out of turn" in errors[0]["text"]


def test_a_message_for_another_table_is_refused() -> None:
    net = open_table("kariba", 2)
    net.send(0, net.peers[0].session.hello())
    before = len(net.host.table.log.entries)
    data = seal(
        net.peers[1].key,
        v=PROTOCOL,
        kind="sit",
        table="another-table",
        n=0,
        seen=net.peers[1].table.log.seen(),
        body={"name": "x"},
    )
    net.send(1, net.peers[1].session.hello())
    net.send(1, data)
    assert net.host.refused >= 1
    assert all(e.message.table == net.host.table.id for e in net.host.table.log.entries[before:])


def test_a_replayed_message_is_refused_by_the_host() -> None:
    net = open_table("kariba", 2)
    net.run()
    sit = next(e for e in net.host.table.log.entries if e.message.kind == "sit")
    refused = net.host.refused
    net.send(0, sit.message.raw)
    assert net.host.refused == refused + 1


def test_an_entry_the_host_let_through_is_refused_alike_by_every_peer() -> None:
    # a dishonest host sequences a move out of turn: every peer refuses it, identically
    net = open_table("kariba", 2)
    for i in range(2):
        net.send(i, net.peers[i].session.hello())
    waiting = net.peers[0].table.engine.waiting()  # type: ignore[union-attr]
    late = net.peers[1 - waiting.seat]  # type: ignore[operator]
    bad = late.table.compose("move", {"at": 0, "action": {"play": "x"}})
    from atoll.net.envelope import open_envelope

    entry = sequence(
        net.host.key,
        net.host.table.id,
        len(net.host.table.log.entries),
        net.host.table.log.head,
        open_envelope(bad),
    )
    net.host.table.receive(entry.to_json())
    net.deliver([(p.connection, frame("entry", entry=entry.to_json())) for p in net.peers])
    for peer in net.peers:
        assert peer.table.events[-1].refused and "out of turn" in peer.table.events[-1].text
    net.run()
    assert logs_identical(net)


def test_a_host_that_relays_a_different_entry_to_one_peer_is_named_by_every_peer() -> None:
    net = open_table("kariba", 3)
    forked: dict[str, bool] = {}

    def fork(index: int, data: bytes) -> bytes | None:
        # to peer 2 the host shows, in place of the first move, a different (genuinely signed) history:
        # an extra sit by a stranger, sequenced and signed by the host at the same position
        frm = read_frame(data)
        if index != 2 or frm["t"] != "entry" or forked or frm["entry"]["msg"]["kind"] != "move":
            return data
        forked["done"] = True
        stranger = SigningKey(os.urandom(32))
        table = net.peers[2].table
        from atoll.net.envelope import open_envelope

        other = open_envelope(
            seal(
                stranger,
                v=PROTOCOL,
                kind="watch",
                table=table.id,
                n=0,
                seen=table.log.seen(),
                body={"name": "s"},
            )
        )
        entry = sequence(net.host.key, table.id, frm["entry"]["seq"], frm["entry"]["prev"], other)
        return frame("entry", entry=entry.to_json())

    net.relay = fork
    net.run()  # the peer shown the fork shows the others the host's two signatures, directly
    assert forked
    for peer in net.peers:
        ending = peer.table.ending
        assert ending is not None and ending.reason is EndReason.HOST_EQUIVOCATED, peer.table.ended
        assert ending.seat is None and all(event.blame is None for event in peer.table.events)


def test_a_flood_spread_over_many_connections_of_one_identity_shares_one_allowance() -> None:
    net = open_table("kariba", 2)
    net.host.limit = RateLimit(rate=0.0, burst=3.0, clock=lambda: 0.0)  # three messages, no refill
    flooder, other = net.peers
    texts = [
        read_frame(data)["text"]
        for n in range(4)
        for _, data in net.host.receive(f"side-{n}".encode(), flooder.curve, b"junk")
    ]
    assert ["slow down" in text for text in texts] == [False, False, False, True]
    # another identity keeps its own allowance
    ((_, data),) = net.host.receive(b"other", other.curve, b"junk")
    assert "slow down" not in read_frame(data)["text"]


def test_a_peer_of_another_protocol_version_is_told_so_in_one_line_and_goes() -> None:
    net = open_table("kariba", 2)
    # a host of the version before the deck's group changed (docs/decisions/0007)
    welcome = frame("welcome", host="", table="", proto="atoll-table/1", length=0, run="r")
    told = f"^this table speaks 'atoll-table/1', this atoll speaks '{PROTOCOL}': install the host's atoll"
    with pytest.raises(TableFailed, match=told):
        net.peers[0].session.on_frame(welcome)


def test_a_frame_that_is_not_json_is_ignored_with_a_note() -> None:
    net = open_table("kariba", 2)
    out = net.peers[0].session.on_frame(b"\x00garbage")
    assert out == [] and "unreadable" in net.peers[0].session.errors[-1]


def test_an_entry_with_a_broken_host_signature_is_refused_and_the_peer_asks_again() -> None:
    net = open_table("kariba", 2)
    entry = net.host.table.log.entries[0].to_json()
    entry["host"] = "00" * 64
    out = net.peers[0].session.on_frame(canonical_bytes({"t": "entry", "entry": entry}))
    assert len(out) == 1 and "refused an entry" in net.peers[0].session.errors[-1]
    assert net.peers[0].table.log.entries == []


def test_a_spectator_holds_no_seat_and_cannot_move() -> None:
    net = open_table("kariba", 2, watchers=1)
    net.run()
    watcher = net.peers[2]
    assert watcher.table.my_seat is None
    assert watcher.table.engine is not None and watcher.table.engine.resolver.me is None


def test_every_game_is_registered_for_tables() -> None:
    assert {"kariba", "kiribati"} <= set(REGISTRY.games)


def test_a_modified_peer_that_opens_a_wrong_chain_link_is_caught_and_named_by_everyone() -> None:
    net = open_table("kiribati", 3, "professional")
    cheat = net.peers[1].table
    honest_send = cheat._send_fair

    def send_wrong_link(message: dict[str, object]) -> None:
        body = message.get("body")
        if message.get("kind") == "chain/open" and isinstance(body, dict):
            engine = cheat.engine
            assert engine is not None and engine.resolver.me is not None
            body = dict(body, link="ab" * 32)  # a link that does not hash to its committed head
            message = dict(message, body=body)
        honest_send(message)

    cheat._send_fair = send_wrong_link  # type: ignore[method-assign]
    net.run()
    for peer in net.peers:
        assert peer.table.ended is not None and "seat 2 cheated" in peer.table.ended  # index 1
        assert any(event.blame == 1 for event in peer.table.events)


def _rewrite_fair(table: Table, change: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
    """Make ``table``'s peer pass each fair message it writes through ``change`` before it is sent."""
    honest_send = table._send_fair
    table._send_fair = lambda message: honest_send(change(message))  # type: ignore[method-assign]


def test_a_protocol_message_in_another_seats_name_is_refused_by_the_host_and_changes_nothing() -> None:
    net = open_table("kiribati", 3, "professional")
    impostor = net.peers[1].table
    sent: list[bytes] = []
    net.relay = lambda index, data: (sent.append(data), data)[1] if index == 1 else data

    def as_seat_two(message: dict[str, Any]) -> dict[str, Any]:
        if message.get("kind") != "chain/open":
            return message
        engine = impostor.engine
        assert engine is not None and engine.resolver.me is not None
        return dict(message, seat=2)

    _rewrite_fair(impostor, as_seat_two)
    with pytest.raises(AssertionError, match="stuck"):  # the table waits for seat 1's own opening
        net.run()
    assert logs_identical(net)
    errors = [read_frame(d)["text"] for d in sent if read_frame(d)["t"] == "error"]
    assert any("not its own" in text for text in errors)
    assert not any(event.blame is not None for p in net.peers for event in p.table.events)


def _latecomer(net: Net) -> PeerSession:
    """A peer that holds no entry yet and watches (it takes every entry as a spectator would)."""
    host = net.host.key.verify_key.encode()
    table = Table(net.host.table.id, host, SigningKey(os.urandom(32)), REGISTRY.game)
    return PeerSession(table, "watch", "late", REGISTRY.installed_pin)


def test_entries_sent_back_to_back_in_one_frame_are_taken_in_order_as_if_sent_one_by_one() -> None:
    net = open_table("kiribati", 3, "professional")
    net.run()
    singles = [entry_frame(e.to_bytes()) for e in net.host.table.log.entries]
    frames = batched(singles, limit=8_000)
    assert len(frames) < len(singles) / 2 and all(len(f) <= 8_000 or f in singles for f in frames)
    late = _latecomer(net)
    for data in frames:
        late.on_frame(data)
    assert late.table.log.head == net.host.table.log.head and late.errors == []


def test_an_entry_too_big_to_share_a_frame_goes_alone_in_its_own_entry_frame() -> None:
    net = open_table("kariba", 2)
    net.run()
    singles = [entry_frame(e.to_bytes()) for e in net.host.table.log.entries[:6]]
    big = max(singles, key=len)
    frames = batched(singles, limit=len(big) - 1)
    assert big in frames
    assert sum(len(read_frame(f).get("entries", [None])) for f in frames) == 6


def test_an_entries_frame_stops_at_an_entry_that_does_not_check_and_the_peer_asks_again() -> None:
    net = open_table("kariba", 2)
    net.run()
    entries = [e.to_json() for e in net.host.table.log.entries[:6]]
    message = entries[3]["msg"]
    entries[3] = dict(entries[3], msg=dict(message, n=message["n"] + 1))  # its author's signature fails
    late = _latecomer(net)
    out = late.on_frame(canonical_bytes({"t": "entries", "entries": entries}))
    assert len(late.table.log.entries) == 3
    kinds = [json.loads(data)["kind"] for data in out]
    assert kinds[-1] == "sync" and kinds.count("sync") == 1  # it asks for what follows its log


def test_the_host_signature_on_the_last_entry_of_a_frame_vouches_for_the_entries_before_it(
    tmp_path: Path,
) -> None:
    # its head covers every entry before it through the hash chain (decision 0009)
    net = open_table("kariba", 2)
    net.run()
    entries = [e.to_json() for e in net.host.table.log.entries]
    entries[3] = dict(entries[3], host="ab" * 64)  # a signature the host made carelessly, or none
    late = _latecomer(net)
    for start in range(0, len(entries), 6):
        late.on_frame(canonical_bytes({"t": "entries", "entries": entries[start : start + 6]}))
    assert late.table.log.head == net.host.table.log.head and late.errors == []
    log = tmp_path / "log.jsonl"
    log.write_text("".join(canonical_bytes(e).decode() + "\n" for e in entries))
    report = audit_log(log, REGISTRY.game, fingerprint)
    assert report.clean and report.vouched == [3]  # the audit takes the log as the peer did, and says so


def test_a_peer_restores_its_log_where_a_later_host_signature_covers_a_bad_one(tmp_path: Path) -> None:
    net = open_table("kariba", 2)
    net.run()
    entries = [e.to_json() for e in net.host.table.log.entries]
    entries[3] = dict(entries[3], host="ab" * 64)  # as a peer took it, in one frame with entry 4
    log = tmp_path / "log.jsonl"
    log.write_text("".join(canonical_bytes(e).decode() + "\n" for e in entries))
    table = Table(net.host.table.id, net.host.key.verify_key.encode(), None, REGISTRY.game, log_path=log)
    assert table.restore() == len(entries) and table.log.head == net.host.table.log.head
    table.log.close()


def test_a_frame_whose_last_host_signature_does_not_verify_is_checked_entry_by_entry() -> None:
    net = open_table("kariba", 2)
    net.run()
    entries = [e.to_json() for e in net.host.table.log.entries[:6]]
    entries[5] = dict(entries[5], host="ab" * 64)
    late = _latecomer(net)
    out = late.on_frame(canonical_bytes({"t": "entries", "entries": entries}))
    assert len(late.table.log.entries) == 5 and json.loads(out[-1])["kind"] == "sync"


def test_a_vouch_covers_only_the_very_entries_of_its_frame() -> None:
    net = open_table("kariba", 2)
    net.run()
    entries = [e.to_json() for e in net.host.table.log.entries[:6]]
    late = _latecomer(net)
    assert late.table.log.vouch(entries) == 6
    # the first entry again, read anew from other bytes, with a host signature that does not verify
    other = json.loads(canonical_bytes(dict(entries[0], host="ab" * 64)))
    with pytest.raises(BadEntry, match="entry 0"):
        late.table.receive(other)


def test_auditing_a_log_of_careless_host_signatures_checks_each_entry_a_bounded_number_of_times(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a hostile file must not make the audit search again from every bad signature it meets
    net = open_table("kariba", 2)
    net.run()
    entries = [e.to_json() for e in net.host.table.log.entries]
    bad = {i for i in range(1, len(entries) - 1) if i % 40 != 39}  # only every 40th signature holds
    entries = [dict(e, host="ab" * 64) if i in bad else e for i, e in enumerate(entries)]
    log = tmp_path / "log.jsonl"
    log.write_text("".join(canonical_bytes(e).decode() + "\n" for e in entries))
    checks = [0]
    verify = VerifyKey.verify

    def counted(key: VerifyKey, *args: Any, **kwargs: Any) -> Any:
        checks[0] += 1
        return verify(key, *args, **kwargs)

    monkeypatch.setattr(VerifyKey, "verify", counted)
    report = audit_log(log, REGISTRY.game, fingerprint)
    assert report.clean and report.vouched == sorted(i for i in bad if i - 1 not in bad)
    assert checks[0] <= 4 * len(entries)


def test_the_audit_finds_a_log_damaged_where_no_later_host_signature_covers_a_bad_one(tmp_path: Path) -> None:
    net = open_table("kariba", 2)
    net.run()
    entries = [e.to_json() for e in net.host.table.log.entries]
    entries[-1] = dict(entries[-1], host="ab" * 64)
    log = tmp_path / "log.jsonl"
    log.write_text("".join(canonical_bytes(e).decode() + "\n" for e in entries))
    with pytest.raises(DamagedLog, match=f"line {len(entries)}"):
        audit_log(log, REGISTRY.game, fingerprint)


def test_a_spectator_receives_only_the_log_every_seat_receives_and_sees_the_spectator_view() -> None:
    net = open_table("kariba", 2, watchers=1)
    received: dict[int, list[dict[str, object]]] = {0: [], 1: [], 2: []}

    def record(index: int, data: bytes) -> bytes:
        received[index].append(read_frame(data))
        return data

    net.relay = record
    net.run()
    assert {f["t"] for f in received[2]} <= {"welcome", "entry", "presence"}  # presence is public
    spectator_entries = [f["entry"] for f in received[2] if f["t"] == "entry"]
    seat_entries = [e.to_json() for e in net.host.table.log.entries]
    # every entry it got is one of the log that every seat holds (the host has no private channel)
    assert spectator_entries and all(entry == seat_entries[entry["seq"]] for entry in spectator_entries)
    watcher, seated = net.peers[2].table.engine, net.peers[0].table.engine
    assert watcher is not None and seated is not None
    assert all(known == {} for known in watcher.match.known)
    assert watcher.match.view(None) == seated.match.view(None)


def test_a_reconnecting_peer_is_sent_only_the_entries_after_the_ones_it_holds() -> None:
    net = open_table("kariba", 2)
    net.run()
    peer = net.peers[1]
    held = 10
    frames = net.host.receive(peer.connection, peer.curve, peer.table.compose("sync", {"have": held}))
    entries = [read_frame(data)["entry"] for _, data in frames if read_frame(data)["t"] == "entry"]
    assert [e["seq"] for e in entries] == list(range(held + 1, len(net.host.table.log.entries)))


def test_a_seat_cannot_compose_a_message_over_the_tables_limit_and_nothing_is_counted() -> None:
    host_key = SigningKey(os.urandom(32))
    table = Table("t-limit", host_key.verify_key.encode(), SigningKey(os.urandom(32)), REGISTRY.game)
    with pytest.raises(
        MessageTooLarge,
        match=rf"a 'chat' message of \d+ bytes is over the table's limit of "
        rf"{MAX_MESSAGE} bytes; it was not sent",
    ):
        table.compose("chat", {"text": "x" * MAX_MESSAGE})
    assert open_envelope(table.compose("chat", {"text": "hello"})).n == 0


def test_a_message_at_the_tables_limit_reaches_every_peer_inside_its_entry_frame() -> None:
    # the host's entry frame around it is longer than the limit; the peers read it all the same
    net = open_table("kariba", 2)
    for i in range(2):
        net.send(i, net.peers[i].session.hello())
    mover = net.peers[0].table.engine.waiting().seat  # type: ignore[union-attr]
    assert mover is not None
    table = net.peers[mover].table
    at = len(table.engine.match.events)  # type: ignore[union-attr]
    small = len(table.compose("move", {"at": at, "action": {"pad": ""}}))
    data = table.compose("move", {"at": at, "action": {"pad": "x" * (MAX_MESSAGE - small - 8)}})
    assert MAX_MESSAGE - 16 < len(data) <= MAX_MESSAGE
    net.send(mover, data)
    for peer in net.peers:
        assert peer.table.log.entries[-1].message.raw == data  # logged whole, refused alike as illegal
        assert peer.table.events[-1].refused
