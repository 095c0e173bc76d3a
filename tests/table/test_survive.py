"""Tables that survive, without sockets: heartbeats and away, the turn time, leaving, catching up.

The host's clock is the caller's (``Sequencer.tick(now)``), so these tests say what time it is.
"""

from __future__ import annotations

import json
from itertools import pairwise
from pathlib import Path

import pytest

from atoll.table.frames import frame, read_frame
from atoll.table.host import TIMEOUT_MARGIN_S as MARGIN
from atoll.table.log import stored_entries
from atoll.table.reasons import EndReason
from atoll.table.table import Table
from atoll.wire import PROTOCOL
from tests.table.harness import REGISTRY, Net, open_table


def start(net: Net) -> None:
    for index, peer in enumerate(net.peers):
        net.send(index, peer.session.hello())


def play_until_a_seat_owes_a_move(net: Net, moves: int = 3) -> int:
    """Let the bots make ``moves`` moves, then return the seat the game waits on (nobody moves it)."""
    made = 0
    for _ in range(10_000):
        for index, peer in enumerate(net.peers):
            observation = peer.session.owes_move()
            if observation is None:
                continue
            if made >= moves:
                return observation.seat
            if peer.bot is None:
                kind = REGISTRY.bot("random", "kariba")
                peer.bot = kind.make(observation.game, observation.seat, 3 + index)
            net.send(index, peer.table.move(peer.bot.choose(observation)))
            made += 1
    raise AssertionError("no seat came to owe a move")


def tick(net: Net, now: float) -> None:
    net.tick(now)


def waiting_on_a_late_seat() -> tuple[Net, int]:
    """A Kariba table of three with a turn time of 30 s, the clock at 0 and a seat owing its move
    (nobody moves it); returns the table and that seat."""
    net = open_table("kariba", 3, turn_time=30.0)
    start(net)
    late = play_until_a_seat_owes_a_move(net)
    tick(net, 0.0)
    return net, late


def test_a_seat_that_lets_the_turn_time_pass_forfeits_when_two_other_seats_witness_it() -> None:
    net, late = waiting_on_a_late_seat()
    tick(net, 30.0)
    assert all(peer.table.timeout is None for peer in net.peers)  # not yet: every clock must see 30 s
    tick(net, 30.0 + MARGIN)
    for peer in net.peers:
        assert peer.table.ended is not None and peer.table.ended.startswith(f"seat {late + 1} forfeits")
        assert all(event.blame is None for event in peer.table.events)  # late is not a cheat
        assert peer.table.ending is not None and peer.table.ending.reason is EndReason.FORFEIT
        assert peer.table.ending.seat == late and "ran out of time" in peer.table.ended
    witnesses = [e for e in net.host.table.log.entries if e.message.kind == "witness"]
    assert len(witnesses) == 2


def test_after_a_forfeit_the_host_waits_for_the_goodbyes_of_the_others_but_not_of_the_seat_named() -> None:
    net = open_table("kariba", 3, turn_time=30.0)
    start(net)
    late = play_until_a_seat_owes_a_move(net)
    tick(net, 0.0)
    tick(net, 30.0 + MARGIN)
    lobby = net.host.table.lobby
    assert lobby is not None and net.host.table.ended is not None
    assert net.host.owed_goodbyes() == set(lobby.seated) - {lobby.seated[late]}


def test_at_a_table_of_two_a_timeout_aborts_the_game_blaming_nobody() -> None:
    net = open_table("kariba", 2, turn_time=10.0)
    start(net)
    play_until_a_seat_owes_a_move(net)
    tick(net, 0.0)
    tick(net, 10.0 + MARGIN)
    for peer in net.peers:
        assert peer.table.ended is not None and peer.table.ended.startswith("aborted, not attributable")
        assert all(event.blame is None for event in peer.table.events)


def test_a_timeout_whose_witnesses_do_not_all_come_is_aborted_after_another_turn_time() -> None:
    net = open_table("kariba", 3, turn_time=10.0)
    start(net)
    late = play_until_a_seat_owes_a_move(net)
    silent = next(i for i in range(3) if i != late)
    net.relay = lambda index, data: None if index == silent else data  # it hears nothing more
    tick(net, 0.0)
    tick(net, 10.0 + MARGIN)
    assert net.host.table.timeout is not None and net.host.table.ended is None
    tick(net, 20.0 + 2 * MARGIN)
    ended = net.host.table.ended
    assert ended is not None and ended.startswith("aborted, not attributable")
    assert all(event.blame is None for event in net.host.table.events)


def test_while_a_timeout_is_settled_the_late_seat_can_no_longer_move() -> None:
    net = open_table("kariba", 3, turn_time=5.0)
    start(net)
    late = play_until_a_seat_owes_a_move(net)
    observation = net.peers[late].session.owes_move()
    assert observation is None  # asked already; ask its bot directly
    engine = net.peers[late].table.engine
    assert engine is not None
    move = net.peers[late].table.move(engine.match.legal_actions(late)[0])
    net.relay = lambda index, data: None  # nobody answers: the timeout stays open
    tick(net, 0.0)
    tick(net, 5.0 + MARGIN)
    assert net.host.table.timeout is not None
    before = len(net.host.table.log.entries)
    net.send(late, move)
    assert len(net.host.table.log.entries) == before


def test_the_host_cannot_time_out_a_seat_the_game_does_not_wait_on() -> None:
    net = open_table("kariba", 3)
    start(net)
    late = play_until_a_seat_owes_a_move(net)
    other = (late + 1) % 3
    message = net.host.table.compose("timeout", {"seat": other})
    from atoll.net.envelope import open_envelope

    reason = net.host.table.admissible(open_envelope(message))
    assert reason is not None and "does not wait on seat" in reason


def test_only_the_host_states_a_timeout() -> None:
    net = open_table("kariba", 3)
    start(net)
    late = play_until_a_seat_owes_a_move(net)
    accuser = (late + 1) % 3
    before = len(net.host.table.log.entries)
    net.send(accuser, net.peers[accuser].table.compose("timeout", {"seat": late}))
    assert len(net.host.table.log.entries) == before
    assert net.host.refused >= 1


def test_a_seat_not_heard_from_is_shown_away_to_everyone_and_back_once_it_speaks() -> None:
    net = open_table("kariba", 3)
    start(net)
    tick(net, 0.0)
    tick(net, 1.0)
    assert all(peer.session.away == () for peer in net.peers)
    for index in (0, 2):
        net.send(index, net.peers[index].session.hello())  # heartbeats, at t=1 by the host's clock
    tick(net, 6.5)
    assert net.host.away == (1,)
    assert all(peer.session.away == (1,) for peer in net.peers)
    assert any("p1 is away" in event.text for event in net.peers[0].table.events)
    net.send(1, net.peers[1].session.hello())
    tick(net, 6.6)
    assert net.host.away in ((), (0, 2)) and 1 not in net.host.away
    assert any("p1 is back" in event.text for event in net.peers[0].table.events)


def test_a_seat_that_leaves_ends_the_game_with_a_clear_result_for_everyone() -> None:
    net = open_table("kariba", 3)
    start(net)
    play_until_a_seat_owes_a_move(net)
    net.send(2, net.peers[2].table.leave())
    for peer in net.peers:
        assert peer.table.over()
        assert peer.table.ended == "seat 3 (p2) left the table; the game ends here, with no result"
        assert all(event.blame is None for event in peer.table.events)


def test_a_message_the_log_does_not_take_in_is_sent_again_for_as_long_as_the_host_answers_ever_more_rarely(
    caplog: pytest.LogCaptureFixture,
) -> None:
    net = open_table("kariba", 2)
    start(net)
    session = net.peers[0].session
    lost = session.sending(net.peers[0].table.compose("chat", {"text": "hello"}))  # never logged
    welcome = frame("welcome", host="", table="", proto=PROTOCOL, length=0, run=net.host.run)
    sent = [lost in session.on_frame(welcome) for _ in range(64)]
    # counted in the host's answers to heartbeats (one every two seconds): the wait doubles up to 16
    sends = [answer + 1 for answer, again in enumerate(sent) if again]
    assert [later - earlier for earlier, later in pairwise([0, *sends])] == [2, 4, 8, 16, 16, 16]
    assert sum("is not in the log yet: sent again" in r.getMessage() for r in caplog.records) == 4


def test_after_the_host_restarts_everything_unlogged_is_sent_again_at_once() -> None:
    net = open_table("kariba", 2)
    start(net)
    session = net.peers[0].session
    lost = session.sending(net.peers[0].table.compose("chat", {"text": "hello"}))
    welcome = frame("welcome", host="", table="", proto=PROTOCOL, length=0, run="another run")
    assert lost in session.on_frame(welcome)


def test_a_catching_up_peer_sends_nothing_its_seat_owes_until_it_holds_the_hosts_log() -> None:
    net = open_table("kariba", 2)
    start(net)
    play_until_a_seat_owes_a_move(net)
    session = net.peers[1].session
    behind = frame("welcome", host="", table="", proto=PROTOCOL, length=10_000, run=net.host.run)
    session.on_frame(behind)
    assert not session.caught_up()
    assert session.owes_move() is None


def test_a_log_line_torn_by_a_kill_is_moved_aside_and_the_whole_entries_kept(tmp_path: Path) -> None:
    net = open_table("kariba", 2)
    start(net)
    log = tmp_path / "log.jsonl"
    whole = [json.dumps(e.to_json()) for e in net.host.table.log.entries]
    log.write_text("\n".join(whole) + "\n" + whole[-1][:40])
    entries = stored_entries(log)
    assert len(entries) == len(whole)
    assert log.read_text().endswith("\n")
    assert (tmp_path / "log.jsonl.torn").read_text() == whole[-1][:40] + "\n"


def test_a_peer_restored_from_its_log_reaches_the_same_state_and_sends_only_what_the_log_lacks(
    tmp_path: Path,
) -> None:
    net = open_table("kariba", 2)
    start(net)
    play_until_a_seat_owes_a_move(net, moves=4)
    peer = net.peers[0]
    log = tmp_path / "log.jsonl"
    log.write_text("".join(json.dumps(e.to_json()) + "\n" for e in peer.table.log.entries))
    copy = Table(
        peer.table.id,
        net.host.key.verify_key.encode(),
        peer.key,
        REGISTRY.game,
        log_path=log,
        master=peer.table.master,
    )
    assert copy.restore() == len(peer.table.log.entries)
    assert copy.engine is not None and peer.table.engine is not None
    assert copy.engine.match.state == peer.table.engine.match.state
    assert copy.outbox() == []  # everything this seat wrote is in the log already
    assert json.loads(log.read_text().splitlines()[0]) == peer.table.log.entries[0].to_json()


def test_presence_is_a_public_frame_naming_seats_only() -> None:
    data = frame("presence", away=[1])
    assert read_frame(data) == {"t": "presence", "away": [1]}


def test_resuming_a_table_whose_game_has_ended_says_so_instead_of_failing(tmp_path: Path) -> None:
    from atoll.app.store import TableOver, resumable, table_files, write_place, write_secrets

    files = table_files(tmp_path, "kariba-over")
    write_secrets(files, {"master": "ab" * 32, "table": "kariba-over", "role": "sit"})
    write_place(files, {"role": "sit"})
    files.log.write_text(json.dumps({"seq": 0, "msg": {"kind": "end"}}) + "\n")
    try:
        resumable(tmp_path, hosting=False)
    except TableOver as over:
        assert over.log == files.log and "is over" in str(over)
    else:
        raise AssertionError("a finished table is not resumable")


def test_a_seat_that_says_goodbye_before_the_end_is_shown_gone_to_everyone_and_never_as_thinking() -> None:
    from atoll.client.net_source import NetTable
    from atoll.types import Config
    from atoll.wire import Kind

    net = open_table("kariba", 3)
    start(net)
    late = play_until_a_seat_owes_a_move(net)
    watcher = (late + 1) % 3
    tick(net, 0.0)
    net.send(late, net.peers[late].table.compose(Kind.BYE, {}))  # Ctrl-C at its screen: it leaves
    tick(net, 0.5)
    assert net.host.left == (late,)
    session = net.peers[watcher].session
    assert session.left == (late,)
    name = f"p{late}"
    told = [event.text for event in net.peers[watcher].table.events]
    assert f"{name} has left the table; the table waits (atoll join --resume brings them back)" in told

    async def no_send(data: bytes) -> None:
        del data

    seen = NetTable(net.peers[watcher].table, role="sit", send=no_send, away=lambda: session.away,
                    left=lambda: session.left)
    lobby = net.host.table.lobby
    assert lobby is not None
    seen.game, seen.config = REGISTRY.game(lobby.game), Config(lobby.seats, lobby.variant, {})
    assert "thinking" not in seen.waiting().text
    assert seen.waiting().text.endswith(f"({name}) has left the table; the table waits")
    assert seen.seats()[late].presence == "left"
    net.send(late, net.peers[late].session.hello())  # atoll join --resume: it syncs again
    tick(net, 1.0)
    assert net.host.left == () and session.left == ()
    assert seen.seats()[late].presence == "back"
    assert f"{name} is back" in [event.text for event in net.peers[watcher].table.events]
