"""Seats reach each other directly (docs/decisions/0020-the-host-cannot-frame-a-seat.md), without sockets.

A seat asked to witness a timeout asks the late seat first; a late seat whose message the host did not
sequence gives it, and the seat that asked refuses the timeout bringing it: the table takes it in from
the refusal, and the late seat is never named.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path

import pytest

from atoll.net.curve import curve_of
from atoll.net.encoding import fingerprint
from atoll.net.envelope import decode
from atoll.table.audit import audit_log
from atoll.table.frames import frame
from atoll.table.host import TIMEOUT_MARGIN_S as MARGIN
from atoll.table.reasons import EndReason
from atoll.wire import Frame, Kind
from tests.table.harness import REGISTRY, Net, open_table
from tests.table.test_fork import forked
from tests.table.test_survive import play_until_a_seat_owes_a_move, start

VICTIM = 1


def drop_at_host(net: Net, wanted: Callable[[dict[str, object]], bool]) -> list[bytes]:
    """Make the host drop the first message of seat 1 that ``wanted`` picks; returns what it dropped."""
    dropped: list[bytes] = []
    receive = net.host.receive
    victim = net.peers[VICTIM].table.me

    def dropping(connection: bytes, curve: bytes, data: bytes) -> list[tuple[bytes, bytes]]:
        message = decode(data)
        if not dropped and message.get("author") == victim and wanted(message):
            dropped.append(data)
            return []
        return receive(connection, curve, data)

    net.host.receive = dropping  # type: ignore[method-assign]
    return dropped


def a_die_opening(message: dict[str, object]) -> bool:
    body = message.get("body")
    inner = body.get("msg") if isinstance(body, dict) else None
    return message.get("kind") == Kind.FAIR and isinstance(inner, dict) and inner.get("kind") == "chain/open"


def play_through_stalls(net: Net) -> None:
    """Play; each time the table stalls, let the turn time pass on every clock."""
    for _ in range(5):
        try:
            net.run()
            return
        except AssertionError as exc:
            if "stuck" not in str(exc):
                raise
            net.tick(net.now)
            net.tick(net.now + 30.0 + MARGIN)
    raise AssertionError("the table kept stalling")


def test_a_die_opening_the_host_drops_is_brought_by_the_seats_asked_to_witness(tmp_path: Path) -> None:
    net = open_table("animals_on_board", 3, turn_time=30.0, direct=True)
    dropped = drop_at_host(net, a_die_opening)
    play_through_stalls(net)
    assert dropped
    entries = net.host.table.log.entries
    timeouts = [e for e in entries if e.message.kind == Kind.TIMEOUT]
    refusals = [e.message for e in entries if e.message.kind == Kind.REFUSE]
    assert timeouts and timeouts[0].message.body["seat"] == VICTIM
    assert refusals and refusals[0].body["owed"][0]["sig"] == decode(dropped[0])["sig"]
    assert not [e for e in entries if e.message.kind == Kind.WITNESS]
    for peer in net.peers:  # the game went on to its end: a drop cost the dropped seat nothing
        assert peer.table.ending is None and peer.table.results() is not None
    path = tmp_path / "log.jsonl"
    path.write_text("".join(e.to_bytes().decode() + "\n" for e in entries))
    assert audit_log(path, REGISTRY.game, fingerprint).clean


def test_a_seat_that_sent_nothing_is_asked_first_then_witnessed_and_forfeits() -> None:
    net = open_table("kariba", 3, turn_time=30.0, direct=True)
    start(net)
    late = play_until_a_seat_owes_a_move(net)
    net.tick(0.0)
    net.tick(30.0 + MARGIN)
    assert all(p.session.asked >= 0 for i, p in enumerate(net.peers) if i != late)  # each asked first
    for peer in net.peers:
        assert peer.table.ending is not None and peer.table.ending.reason is EndReason.FORFEIT
        assert peer.table.ending.seat == late


def test_a_seat_answers_an_ask_of_a_seat_at_its_table_with_what_the_log_does_not_hold() -> None:
    net = open_table("kariba", 3, turn_time=30.0, direct=True)
    start(net)
    late = play_until_a_seat_owes_a_move(net)
    victim, asker = net.peers[late], net.peers[(late + 1) % 3]
    engine = victim.table.engine
    assert engine is not None
    unsent = victim.session.sending(victim.table.move(engine.match.legal_actions(late)[0]))
    reply = victim.session.on_direct(asker.table.compose(Kind.ASK, {"timeout": 5}))
    assert reply is not None and decode(reply)["t"] == Frame.OWED
    assert decode(reply)["msgs"] == [decode(unsent)]
    stranger = open_table("kariba", 3).peers[0].table.compose(Kind.ASK, {"timeout": 5})
    assert victim.session.on_direct(stranger) is None  # not a seat of this table: no answer at all


def test_a_seat_gives_the_others_a_move_the_host_has_not_sequenced_for_a_host_timeout() -> None:
    net = open_table("kariba", 3)
    start(net)
    late = play_until_a_seat_owes_a_move(net)
    seat, other = net.peers[late], net.peers[(late + 1) % 3]
    engine = seat.table.engine
    assert engine is not None and seat.table.lobby is not None
    swallowed = seat.session.sending(seat.table.move(engine.match.legal_actions(late)[0]))  # never arrives
    assert seat.session.push() is None  # the host has had it for no time yet
    net.now += seat.table.lobby.host_timeout
    assert seat.session.push() is None  # the host has been silent since: gone, perhaps, not withholding
    net.send(late, seat.session.hello())  # it answers the heartbeat, a host timeout later
    pushed = seat.session.push()
    assert pushed is not None and pushed[1] == [swallowed]  # to the others directly, and the host again
    assert seat.session.push() is None  # once
    other.session.linked_to = curve_of(net.host.key.verify_key.encode())
    assert decode(other.session.on_direct(pushed[0]) or b"{}")["t"] == Frame.OWED
    assert not other.session.withholding()  # the host gets a host timeout of its own
    net.now += seat.table.lobby.host_timeout
    assert other.session.withholding()
    net.send(late, swallowed)  # the host sequences it after all: nothing is withheld any more
    assert not other.session.withholding() and not other.session.withheld


def test_a_move_the_table_would_refuse_is_no_withholding_and_is_not_given_to_the_others() -> None:
    net = open_table("kariba", 3)
    start(net)
    late = play_until_a_seat_owes_a_move(net)
    waiting = net.peers[(late + 1) % 3]  # not its turn: the host refuses its move, and rightly
    engine = net.peers[late].table.engine
    assert engine is not None and waiting.table.lobby is not None
    move = {"at": len(engine.match.events), "action": engine.match.legal_actions(late)[0]}
    waiting.session.sending(waiting.table.compose(Kind.MOVE, move))
    net.now += 2 * waiting.table.lobby.host_timeout
    assert waiting.session.push() is None


def test_a_seat_the_host_showed_another_history_is_asked_shows_it_and_the_host_is_named_not_it() -> None:
    net = open_table("kariba", 3, turn_time=30.0, direct=True)
    start(net)
    late = play_until_a_seat_owes_a_move(net)
    net.tick(0.0)
    at = forked(net, late)  # the late seat holds an entry here that no other copy holds
    net.relay = lambda index, data: None if index == late else data  # and hears nothing more from the host
    net.deliver(net.host.local(net.host.table.compose(Kind.WATCH, {"name": "the others' history"})))
    net.tick(30.0 + MARGIN)  # the host times the seat it stalled; each other seat asks it first
    assert net.peers[late].table.log.entries[at].head != net.host.table.log.entries[at].head
    for index, peer in enumerate(net.peers):
        if index != late:
            ending = peer.table.ending
            assert ending is not None and ending.reason is EndReason.HOST_EQUIVOCATED, peer.table.ended
            assert ending.seat is None and all(event.blame is None for event in peer.table.events)
    assert not [e for e in net.host.table.log.entries if e.message.kind == Kind.WITNESS]  # nobody witnessed


def starved_of_entries() -> Net:
    """A timed Kariba table whose host sends seat 1 nothing once the game begins, until the game waits
    on seat 1, which never learns it; then the host times seat 1 out and each other seat asks it."""
    net = open_table("kariba", 3, turn_time=30.0, direct=True)
    net.start()
    net.relay = lambda index, data: None if index == VICTIM else data
    with pytest.raises(AssertionError, match="stuck"):
        net.run()
    net.tick(net.now)
    net.tick(net.now + 30.0 + MARGIN)
    return net


def test_a_seat_the_host_gives_no_entries_is_given_them_by_the_seats_asked_and_is_not_named() -> None:
    net = starved_of_entries()
    refusals = [e.message.body for e in net.host.table.log.entries if e.message.kind == Kind.REFUSE]
    assert type(refusals[0].get("behind")) is int
    for _ in range(300):  # the host never sends it an entry: each of its turns costs a turn time
        if all(peer.table.over() for index, peer in enumerate(net.peers) if index != VICTIM):
            break
        with contextlib.suppress(AssertionError):
            net.run()
        net.tick(net.now)
        net.tick(net.now + 30.0 + MARGIN)
    for index, peer in enumerate(net.peers):
        if index != VICTIM:  # the game went on to its end, and nobody was named
            assert peer.table.ending is None and peer.table.results() is not None, peer.table.ended


def test_a_seat_that_says_it_is_behind_for_ever_is_excused_once_by_each_seat_then_witnessed() -> None:
    net = open_table("kariba", 3, turn_time=30.0, direct=True)
    net.start()
    late = net.peers[VICTIM]
    stale = late.table.log.seen()  # the view it will claim for ever, whatever it is given
    late.session.on_direct = lambda data: frame(Frame.OWED, msgs=[], seen=stale)  # type: ignore[method-assign]
    net.relay = lambda index, data: None if index == VICTIM else data  # nor does it read the host
    with pytest.raises(AssertionError, match="stuck"):
        net.run()  # it plays nothing: the game waits on it
    for _ in range(2):  # excused once by each seat at this step, then witnessed
        net.tick(net.now)
        net.tick(net.now + 30.0 + MARGIN)
    for index, peer in enumerate(net.peers):
        if index != VICTIM:
            ending = peer.table.ending
            assert ending is not None and ending.reason is EndReason.FORFEIT and ending.seat == VICTIM



def test_a_late_seat_shown_proof_of_a_fork_answers_an_ask_with_it_and_the_host_is_named_not_it() -> None:
    # the seat the host forked showed its proof to the late seat alone (its link to the third failed);
    # the late seat's own copy is the others' history, so only the proof in its answer tells the third
    net = open_table("kariba", 3, turn_time=30.0, direct=True, watchers=1)
    for index in range(3):
        net.send(index, net.peers[index].session.hello())
    late = play_until_a_seat_owes_a_move(net)
    net.tick(0.0)
    victim, asker = (index for index in range(3) if index != late)
    at = forked(net, victim)
    net.shown.add(victim)  # it shows nobody by itself: the test carries its proof to the late seat
    net.relay = lambda index, data: None if index == late else data  # the host stalls the late seat
    net.deliver(net.host.local(net.host.table.compose(Kind.WATCH, {"name": "the others' history"})))
    net.send(3, net.peers[3].session.hello())  # a spectator comes: the entry after the fork
    shown = net.peers[victim].session.evidence_message()
    assert shown is not None  # the forked seat caught the host
    net.peers[late].session.on_direct(shown)
    assert net.peers[late].table.log.entries[at - 1].head == net.peers[asker].table.log.entries[at - 1].head
    assert net.peers[asker].table.fork is None  # the third seat knows nothing of it yet
    net.tick(30.0 + MARGIN)  # the host times the late seat out; the third seat asks it first
    ending = net.peers[asker].table.ending
    assert ending is not None and ending.reason is EndReason.HOST_EQUIVOCATED, net.peers[asker].table.ended
    assert ending.seat is None and all(event.blame is None for event in net.peers[asker].table.events)
    assert not [e for e in net.host.table.log.entries if e.message.kind == Kind.WITNESS]
