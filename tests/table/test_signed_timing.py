"""The turn time is part of the signed table (docs/decisions/0020-the-host-cannot-frame-a-seat.md).

Without sockets: one clock for every table (:meth:`Net.tick`), so a test says what time each seat's
own clock shows. A seat witnesses a timeout only once its own clock has seen the late seat's turn open
for the whole turn time; otherwise it refuses, and a host whose timeout the seats refuse is named.
"""

from __future__ import annotations

import json
from pathlib import Path

from atoll.table.host import ANSWER_WAIT_S
from atoll.table.host import TIMEOUT_MARGIN_S as MARGIN
from atoll.table.reasons import EndReason
from atoll.table.table import Table
from atoll.wire import Kind
from tests.table.harness import REGISTRY, open_table
from tests.table.test_survive import play_until_a_seat_owes_a_move, start


def named_nobody(tables: list[Table]) -> None:
    for table in tables:
        assert all(event.blame is None for event in table.events)
        assert table.ending is None or table.ending.reason not in (EndReason.CHEAT, EndReason.FORFEIT)


def test_the_turn_time_is_in_the_signed_open_entry_and_every_copy_reads_it() -> None:
    net = open_table("kariba", 3, turn_time=12.5)
    start(net)
    assert net.host.table.log.entries[0].message.body["turn_time_ms"] == 12_500
    for table in [net.host.table, *(p.table for p in net.peers)]:
        assert table.lobby is not None and table.lobby.turn_time == 12.5
    assert net.host.turn_time == 12.5


def test_a_table_opened_without_a_turn_time_never_times_out_a_seat() -> None:
    net = open_table("kariba", 3)
    start(net)
    play_until_a_seat_owes_a_move(net)
    net.tick(0.0)
    net.tick(10_000.0)
    assert all(p.table.timeout is None and p.table.ended is None for p in net.peers)
    assert not [e for e in net.host.table.log.entries if e.message.kind == Kind.TIMEOUT]


def test_a_host_that_states_a_timeout_at_a_table_without_a_turn_time_is_named_and_no_seat_is() -> None:
    net = open_table("kariba", 3)
    start(net)
    late = play_until_a_seat_owes_a_move(net)
    net.deliver(net.host._sequence_own(Kind.TIMEOUT, {"seat": late}))
    tables = [net.host.table, *(p.table for p in net.peers)]
    for table in tables:
        assert table.ending is not None and table.ending.reason is EndReason.HOST_TIMED, table.ended
        assert table.ending.seat is None and "no turn time" in table.ending.text
    named_nobody(tables)
    assert not [e for e in net.host.table.log.entries if e.message.kind == Kind.WITNESS]


def test_a_timeout_stated_before_the_seats_clocks_saw_the_turn_time_is_refused_and_names_the_host() -> None:
    net = open_table("kariba", 3, turn_time=30.0)
    start(net)
    late = play_until_a_seat_owes_a_move(net)
    net.tick(0.0)
    net.now = 0.5  # half a second into a turn of thirty
    net.deliver(net.host._sequence_own(Kind.TIMEOUT, {"seat": late}))
    refusals = [e.message for e in net.host.table.log.entries if e.message.kind == Kind.REFUSE]
    assert len(refusals) == 2 and all(m.body["waited_ms"] == 500 for m in refusals)
    tables = [net.host.table, *(p.table for p in net.peers)]
    for table in tables:
        assert table.ending is not None and table.ending.reason is EndReason.HOST_TIMED, table.ended
        assert table.ending.seat is None and "refused" in table.ending.text
    named_nobody(tables)


def test_a_timeout_one_seat_refuses_is_void_and_the_late_seat_plays_on() -> None:
    net = open_table("kariba", 3, turn_time=30.0)
    start(net)
    late = play_until_a_seat_owes_a_move(net)
    ahead, behind = [i for i in range(3) if i != late]
    net.peers[ahead].table.clock = lambda: net.now + 100.0  # this seat's clock saw the whole turn time
    net.tick(0.0)
    net.now = 0.5
    net.deliver(net.host._sequence_own(Kind.TIMEOUT, {"seat": late}))
    tables = [net.host.table, *(p.table for p in net.peers)]
    assert all(t.timeout is None and t.ended is None for t in tables)
    assert any("is void" in e.text for e in net.peers[behind].table.events)
    engine = net.peers[late].table.engine
    assert engine is not None
    before = len(net.host.table.log.entries)
    net.send(late, net.peers[late].table.move(engine.match.legal_actions(late)[0]))
    moved = [e.message for e in net.host.table.log.entries[before:] if e.message.kind == Kind.MOVE]
    assert moved and moved[0].author == net.peers[late].table.me  # its move counts: it was never late
    named_nobody(tables)


def test_an_honest_host_states_the_timeout_only_after_the_turn_time_and_its_margin() -> None:
    net = open_table("kariba", 3, turn_time=30.0)
    start(net)
    late = play_until_a_seat_owes_a_move(net)
    net.tick(0.0)
    net.tick(30.0 + MARGIN / 2)
    assert net.host.table.timeout is None and net.host.table.ended is None
    net.tick(30.0 + MARGIN)
    for peer in net.peers:
        assert peer.table.ending is not None and peer.table.ending.reason is EndReason.FORFEIT
        assert peer.table.ending.seat == late


def test_a_host_that_is_also_a_seat_cannot_witness_its_own_early_timeout_into_a_forfeit() -> None:
    net = open_table("kariba", 4, turn_time=30.0)
    net.peers.pop()  # the host takes the fourth seat itself, first: it holds seat 0
    host = net.host.table
    net.deliver(net.host.local(host.compose(Kind.SIT, {"name": "host"})))
    start(net)
    while host.waits_on() == (0,):  # the host's own seat moves when it is to
        engine = host.engine
        assert engine is not None
        net.deliver(net.host.local(host.move(engine.match.legal_actions(0)[0])))
    late = host.waits_on()[0]
    host.clock = lambda: net.now + 100.0  # its own seat "saw" the whole turn time, and witnesses
    net.now = 0.5
    net.deliver(net.host._sequence_own(Kind.TIMEOUT, {"seat": late}))
    assert [e.message.author for e in host.log.entries if e.message.kind == Kind.WITNESS] == [host.me]
    for table in [host, *(p.table for p in net.peers)]:
        assert table.ending is not None and table.ending.reason is EndReason.HOST_TIMED, table.ended
    named_nobody([p.table for p in net.peers])


def test_a_seat_restored_from_its_log_during_a_turn_refuses_its_timeout_as_late_not_as_early(
    tmp_path: Path,
) -> None:
    # its clock restarted at the restore, inside a turn that opened before: that it saw little of the
    # turn says nothing about the host, so its refusal voids the timeout and cannot name the host
    net = open_table("kariba", 3, turn_time=30.0)
    start(net)
    late = play_until_a_seat_owes_a_move(net)
    net.tick(0.0)
    other = next(seat for seat in range(3) if seat != late)
    peer = net.peers[other]
    log = tmp_path / "log.jsonl"
    log.write_text("".join(json.dumps(e.to_json()) + "\n" for e in peer.table.log.entries))
    net.now = 29.0  # the seat's process restarts a second before the turn time is up
    copy = Table(peer.table.id, net.host.key.verify_key.encode(), peer.key, REGISTRY.game,
                 log_path=log, master=peer.table.master, clock=net.clock)
    copy.restore()
    copy.outbox()
    net.tick(30.0 + MARGIN)
    timeout = net.host.table.log.entries[len(copy.log.entries)]
    assert timeout.message.kind == Kind.TIMEOUT
    copy.receive(timeout.to_json())
    answers = [json.loads(data) for data in copy.outbox()]
    assert [(a["kind"], a["body"].get("late")) for a in answers] == [("refuse", True)]


def test_at_a_short_turn_time_the_host_waits_for_seats_still_asking_the_late_seat_before_it_aborts() -> None:
    # each seat asks the late seat directly before it answers (up to ASK_WAIT_S): the host once aborted
    # the timeout of a seat really late, one turn time after stating it, while the others still asked
    net = open_table("kariba", 3, turn_time=1.0)
    start(net)
    play_until_a_seat_owes_a_move(net)
    net.tick(0.0)
    net.upstream = lambda index, data: None if b'"kind":"witness"' in data else data  # still asking
    net.tick(1.0 + MARGIN)
    assert net.host.table.timeout is not None
    net.tick(1.0 + MARGIN + 1.0 + MARGIN)  # one turn time and its margin on: no answer yet
    assert net.host.table.ending is None and net.host.table.timeout is not None
    net.tick(1.0 + MARGIN + ANSWER_WAIT_S)
    ending = net.host.table.ending
    assert ending is not None and ending.reason is EndReason.ABORTED
