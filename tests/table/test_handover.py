"""Handing a seat over at an in-memory table (no sockets): the leaving seat's secrets go, sealed, to the
stand-in that takes its seat; the game goes on and its log audits clean (decision 0022)."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import pytest
from nacl.signing import SigningKey

from atoll.net.encoding import fingerprint
from atoll.net.envelope import open_envelope
from atoll.net.sealed import NotForMe, seal_to
from atoll.table.audit import LogAudit, audit_log
from atoll.table.handover import open_seat
from atoll.table.table import Table
from atoll.wire import Kind, LeaveChoice, OnLeave
from tests.table.harness import REGISTRY, Net, Peer, open_table

SHORT = {"kiribati": "professional"}
GAMES = sorted(REGISTRY.games)


def play_until(net: Net, moves: int) -> None:
    """Start the table and let the bots play ``moves`` moves (or to the end)."""
    for i, peer in enumerate(net.peers):
        net.send(i, peer.session.hello())
    _play(net, moves)


def _play(net: Net, moves: int, gone: tuple[Peer, ...] = ()) -> None:
    """Let the bots play ``moves`` moves, or until every peer but the ``gone`` ones (they left the table
    and hear nothing more) is done."""
    made = 0
    playing = [p for p in net.peers if p not in gone]
    while made < moves and not all(p.table.over() or p.table.handed_away for p in playing):
        moved = False
        for i, peer in enumerate(net.peers):
            observation = peer.session.owes_move()
            if observation is not None:
                if peer.bot is None:
                    peer.bot = REGISTRY.bot("random", observation.game.info.name).make(
                        observation.game, observation.seat, 11 + i
                    )
                net.send(i, peer.table.move(peer.bot.choose(observation)))
                moved, made = True, made + 1
        assert moved, "the table is stuck: nobody owes a move and the game is not over"


def written(table: Table, path: Path) -> Path:
    """``table``'s copy of the log, as its peer keeps it on disk."""
    path.write_bytes(b"".join(e.to_bytes() + b"\n" for e in table.log.entries))
    return path


def audited(net: Net, folder: Path) -> LogAudit:
    """The audit of the host's copy of the log."""
    return audit_log(written(net.host.table, folder / "log.jsonl"), REGISTRY.game, fingerprint)


def handing_table(
    game: str, seats: int = 3, on_leave: OnLeave = OnLeave.HAND, turn_time: float | None = None
) -> tuple[Net, Peer]:
    net = open_table(game, seats, SHORT.get(game), watchers=1, on_leave=on_leave, turn_time=turn_time)
    stand_in = net.peers[-1]
    stand_in.session.stand_in = True
    return net, stand_in


@pytest.mark.parametrize("game", GAMES)
def test_a_seat_that_leaves_mid_game_goes_to_the_stand_in_and_the_game_finishes(
    game: str, tmp_path: Path
) -> None:
    net, stand_in = handing_table(game)
    play_until(net, 6)
    leaver = net.peers[1]
    assert leaver.table.stand_in() == stand_in.table.me
    net.send(1, leaver.table.leave())
    assert stand_in.table.my_seat == 1 and leaver.table.handed_away is not None
    _play(net, 100_000)
    playing = [p for p in net.peers if p is not leaver]
    assert all(p.table.closed and p.table.results() is not None for p in playing)
    logs = {b"".join(e.to_bytes() for e in p.table.log.entries) for p in [*playing]}
    assert len(logs) == 1
    report = audited(net, tmp_path)
    assert report.clean, report.cheat or report.ended


def test_only_the_stand_in_opens_the_leaving_seats_secrets() -> None:
    net, stand_in = handing_table("kariba")
    play_until(net, 4)
    net.send(1, net.peers[1].table.leave())
    leave = next(e for e in net.host.table.log.entries if e.message.kind == Kind.LEAVE).message
    table_id = net.host.table.id
    master, _ = open_seat(stand_in.key, leave.body["box"], table_id, 1)
    assert master == net.peers[1].table.master
    for other in [p for p in net.peers if p is not stand_in]:
        with pytest.raises(NotForMe):
            open_seat(other.key, leave.body["box"], table_id, 1)


def test_the_stand_in_holds_the_leaving_seats_cards_and_no_other_seats() -> None:
    net, stand_in = handing_table("kariba")
    play_until(net, 4)
    leaver = net.peers[1]
    assert leaver.table.engine is not None and leaver.table.engine.resolver.me is not None
    held = dict(leaver.table.engine.resolver.me.known)
    net.send(1, leaver.table.leave())
    engine = stand_in.table.engine
    assert engine is not None and engine.resolver.me is not None and engine.resolver.me.seat == 1
    assert engine.resolver.me.known == held
    others = set()
    for seat in (0, 2):
        other = net.peers[seat].table.engine
        assert other is not None and other.resolver.me is not None
        others |= set(other.resolver.me.known)
    assert held and not others & set(engine.resolver.me.known)


def test_at_a_table_that_ends_when_a_seat_leaves_nothing_is_handed_over() -> None:
    net, stand_in = handing_table("kariba", on_leave=OnLeave.END)
    play_until(net, 4)
    assert net.peers[1].table.stand_in() is None
    net.send(1, net.peers[1].table.leave())
    leave = next(e for e in net.host.table.log.entries if e.message.kind == Kind.LEAVE).message
    assert "box" not in leave.body and stand_in.table.my_seat is None
    assert all(p.table.ended is not None for p in net.peers)


def test_without_a_stand_in_the_game_ends_as_before() -> None:
    net = open_table("kariba", 3, on_leave=OnLeave.HAND)
    play_until(net, 4)
    assert net.peers[1].table.stand_in() is None
    net.send(1, net.peers[1].table.leave())
    assert all(p.table.left == 1 for p in net.peers)


def test_after_the_hand_over_the_leaving_identity_no_longer_speaks_for_the_seat() -> None:
    net, _ = handing_table("kariba")
    play_until(net, 4)
    leaver = net.peers[1]
    net.send(1, leaver.table.leave())
    stale = leaver.table.compose(Kind.LEAVE, {})
    refused = net.host.table.admissible(open_envelope(stale))
    assert refused == f"{Kind.LEAVE} from an identity that holds no seat"


def test_the_audit_says_who_holds_a_handed_seat_from_which_entry(tmp_path: Path) -> None:
    net, stand_in = handing_table("survival")
    play_until(net, 3)
    net.send(1, net.peers[1].table.leave())
    _play(net, 100_000)
    report = audited(net, tmp_path)
    leave = next(e for e in net.host.table.log.entries if e.message.kind == Kind.LEAVE)
    assert report.clean
    assert report.seats[1][1] == fingerprint(net.peers[1].key.verify_key.encode())  # as it sat down
    assert report.handed == [(1, "p3", fingerprint(stand_in.key.verify_key.encode()), leave.seq)]


@pytest.mark.parametrize("game", GAMES)
def test_of_the_built_in_games_only_survival_could_go_on_without_a_seats_hidden_things(game: str) -> None:
    built = REGISTRY.game(game)
    state = built.setup(built.configure(built.info.min_seats))
    assert built.goes_on_without(state, 0) is (game == "survival")


@pytest.mark.parametrize(("game", "words"), [("kariba", "what seat 2 (p1) held stays shut"),
                                             ("survival", "seat 2 (p1) held nothing hidden")])
def test_a_seat_gone_with_its_secrets_is_said_to_leave_behind_what_its_game_says(
    game: str, words: str
) -> None:
    net = open_table(game, 3, on_leave=OnLeave.HAND)  # no stand-in: the game ends
    play_until(net, 3)
    net.send(1, net.peers[1].table.leave())
    for peer in net.peers:
        said = [e.text for e in peer.table.events]
        assert any(words in text for text in said), said[-3:]


def test_a_stand_in_handed_secrets_the_seat_did_not_play_with_does_not_play_it() -> None:
    net, stand_in = handing_table("kariba")
    play_until(net, 4)
    leaver = net.peers[1].table
    leaver.seat_master = bytes(32)  # a box for a seat it never played: its first message would differ
    net.send(1, leaver.leave())
    assert stand_in.table.engine is not None and stand_in.table.engine.resolver.me is None
    assert stand_in.table.my_seat == 1  # the log says it holds the seat; it cannot play it, so sends nothing
    assert any("not the ones it played with" in e.text for e in stand_in.table.events)
    assert stand_in.table.outbox() == []


def test_a_seat_handed_over_twice_goes_to_the_next_stand_in_and_the_game_finishes(tmp_path: Path) -> None:
    net = open_table("kiribati", 2, "professional", watchers=2, on_leave=OnLeave.HAND)
    first, second = net.peers[2], net.peers[3]
    first.session.stand_in = second.session.stand_in = True
    play_until(net, 6)
    net.send(1, net.peers[1].table.leave())
    _play(net, 6)
    assert first.table.my_seat == 1 and first.table.stand_in() == second.table.me
    net.send(2, first.table.leave())  # the first stand-in hands on the seat and the secrets it was handed
    assert second.table.my_seat == 1 and first.table.handed_away is not None
    _play(net, 100_000)
    assert second.table.closed and second.table.results() is not None
    report = audited(net, tmp_path)
    assert report.clean and [seat for seat, *_ in report.handed] == [1, 1]


def test_a_seat_leaving_skips_a_stand_in_that_went_away_and_hands_its_seat_to_the_next_one(
    tmp_path: Path,
) -> None:
    net = open_table("kariba", 3, watchers=2, on_leave=OnLeave.HAND)
    gone, here = net.peers[3], net.peers[4]
    gone.session.stand_in = here.session.stand_in = True
    play_until(net, 6)
    leaver = net.peers[1]
    assert leaver.table.stand_in() == gone.table.me
    net.send(3, gone.table.compose(Kind.BYE, {}))  # the first stand-in's machine leaves the table
    net.tick(net.now + 0.5)
    assert leaver.table.stand_in() == here.table.me  # the host's presence frame said so
    net.send(1, leaver.table.leave())
    assert here.table.my_seat == 1 and gone.table.my_seat is None
    _play(net, 100_000, gone=(gone,))
    assert here.table.closed and here.table.results() is not None
    assert audited(net, tmp_path).clean


def test_a_seat_leaving_when_its_only_stand_in_went_away_ends_the_game_as_without_one() -> None:
    net, stand_in = handing_table("kariba")
    play_until(net, 6)
    net.tick(net.now + 10.0)  # the stand-in's link is silent past the host's grace: away
    leaver = net.peers[1]
    assert leaver.table.stand_in() is None
    net.send(1, leaver.table.leave())
    assert all(p.table.left == 1 for p in net.peers) and stand_in.table.my_seat is None


def test_a_stand_in_back_after_being_away_takes_a_leaving_seat_again() -> None:
    net, stand_in = handing_table("kariba")
    play_until(net, 6)
    net.tick(net.now + 10.0)
    assert net.peers[1].table.stand_in() is None
    net.send(len(net.peers) - 1, stand_in.session.hello())  # it comes back: the host hears it again
    net.tick(net.now + 0.5)
    assert net.peers[1].table.stand_in() == stand_in.table.me


def test_a_stand_in_that_restarts_opens_the_box_again_from_its_own_log(tmp_path: Path) -> None:
    net, stand_in = handing_table("kariba")
    play_until(net, 4)
    net.send(1, net.peers[1].table.leave())
    _play(net, 4)
    path = written(stand_in.table, tmp_path / "log.jsonl")
    host_key = net.host.key.verify_key.encode()
    again = Table(stand_in.table.id, host_key, stand_in.key, REGISTRY.game, master=stand_in.table.master,
                  log_path=path)
    again.restore()
    again.log.close()
    engine, before = again.engine, stand_in.table.engine
    assert engine is not None and engine.resolver.me is not None and again.my_seat == 1
    assert before is not None and before.resolver.me is not None
    assert engine.resolver.me.known == before.resolver.me.known
    assert again.outbox() == []  # everything the seat owed is in the log already


@pytest.mark.parametrize(
    ("body", "why"),
    [
        ({"to": "ab" * 32, "box": "00"}, "only to a stand-in"),
        ({"to": None, "box": "00"}, "only to a stand-in"),
        ({"box": "00"}, "only to a stand-in"),
        ({"to": "STAND-IN", "box": "zz"}, "sealed box as hex"),
        ({"to": "STAND-IN", "box": 5}, "sealed box as hex"),
        ({"to": "STAND-IN"}, "sealed box as hex"),
        ({"to": "STAND-IN", "box": "0" * (2 * 64 * 1024 + 2)}, "sealed box as hex"),
    ],
)
def test_a_hand_over_to_anyone_but_a_stand_in_or_without_a_readable_box_is_refused(
    body: dict[str, object], why: str
) -> None:
    net, stand_in = handing_table("survival")
    play_until(net, 2)
    if body.get("to") == "STAND-IN":
        body = {**body, "to": stand_in.table.me}
    message = open_envelope(net.peers[1].table.compose(Kind.LEAVE, body))
    refused = net.host.table.admissible(message)
    assert refused is not None and why in refused


def test_a_hand_over_at_a_table_opened_to_end_the_game_is_refused() -> None:
    net, stand_in = handing_table("survival", on_leave=OnLeave.END)
    play_until(net, 2)
    body = {"to": stand_in.table.me, "box": "00"}
    refused = net.host.table.admissible(open_envelope(net.peers[1].table.compose(Kind.LEAVE, body)))
    assert refused == "the host opened this table to end the game when a seat leaves"


def test_a_spectator_offering_to_stand_in_says_so_with_true_or_false_only() -> None:
    net = open_table("survival", 2, on_leave=OnLeave.HAND)
    for i, peer in enumerate(net.peers):
        net.send(i, peer.session.hello())
    watcher = SigningKey(os.urandom(32))
    table = Table(net.host.table.id, net.host.key.verify_key.encode(), watcher, REGISTRY.game)
    for entry in net.host.table.log.entries:
        table.receive(entry.to_json())
    offer = table.compose(Kind.WATCH, {"name": "w", "stand_in": 1})
    refused = net.host.table.admissible(open_envelope(offer))
    assert refused == "stand_in is true or false"


@pytest.mark.parametrize(
    "plain",
    [b"not json", b"[" * 100_000, b'{"table": "T", "seat": 1, "master": "00", "sealed": []}',
     b'{"table": "T", "seat": 1, "master": "' + b"00" * 32 + b'", "sealed": 5}',
     b'{"table": "T", "seat": 1, "master": "' + b"00" * 32 + b'", "sealed": [[1.5, []]]}',
     b'{"table": "other", "seat": 1, "master": "' + b"00" * 32 + b'", "sealed": []}'],
)
def test_a_box_that_does_not_hold_a_seats_secrets_is_refused_as_such(plain: bytes) -> None:
    key = SigningKey(os.urandom(32))
    box = seal_to(key.verify_key.encode(), plain.replace(b'"T"', b'"t-1"')).hex()
    with pytest.raises(ValueError):
        open_seat(key, box, "t-1", 1)


def vanish_and_time_out(net: Net, gone: int) -> None:
    """Seat ``gone`` hears nothing more (its machine vanished); once the table waits on it, the signed
    turn time passes on every clock and the others witness it."""
    net.relay = lambda index, data: None if index == gone else data
    with contextlib.suppress(AssertionError):
        _play(net, 100_000)  # until stuck: the table waits on the vanished seat
    assert net.host.table.waits_on() == (gone,)
    assert net.host.turn_time is not None
    net.tick(100.0)  # every clock: the turn time has passed


def test_a_seat_that_vanishes_in_survival_goes_without_its_secrets_to_a_stand_in_and_the_game_finishes(
    tmp_path: Path,
) -> None:
    net, stand_in = handing_table("survival", turn_time=5.0)
    play_until(net, 5)
    vanish_and_time_out(net, 1)
    assert stand_in.table.my_seat == 1 and stand_in.table.ending is None
    assert any("takes seat 2 over without its secrets" in e.text for e in stand_in.table.events)
    net.peers[1].table.handed_away = net.host.table.lobby.handed[-1]  # type: ignore[union-attr]  # gone
    _play(net, 100_000)
    assert stand_in.table.closed and stand_in.table.results() is not None
    report = audited(net, tmp_path)
    assert report.clean, report.cheat or report.ended
    assert [seat for seat, *_ in report.handed] == [1]


def test_a_seat_that_vanishes_holding_cards_is_forfeited_and_what_it_held_stays_shut() -> None:
    net, stand_in = handing_table("kariba", turn_time=5.0)
    play_until(net, 5)
    vanish_and_time_out(net, 1)
    assert stand_in.table.my_seat is None
    for peer in (net.peers[0], net.peers[2], stand_in):
        assert peer.table.ended is not None and "seat 2 forfeits" in peer.table.ended
        assert any("what seat 2 (p1) held stays shut" in e.text for e in peer.table.events)


def test_a_game_that_would_go_on_is_still_ended_where_the_vanished_seat_holds_a_key_to_its_cards(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from atoll.plugins.kariba.game import Kariba

    monkeypatch.setattr(Kariba, "goes_on_without", lambda self, state, seat: True)
    net, stand_in = handing_table("kariba", turn_time=5.0)
    play_until(net, 5)
    vanish_and_time_out(net, 1)
    assert stand_in.table.my_seat is None  # the fair record refuses to drop a seat holding a pile's key
    assert all(peer.table.ended is not None for peer in (net.peers[0], net.peers[2], stand_in))


def asking_table() -> tuple[Net, Peer]:
    """A table of three whose host's person is asked when a seat leaves, with a stand-in watching."""
    return handing_table("kariba", on_leave=OnLeave.ASK)


def left_and_asked(net: Net) -> Peer:
    play_until(net, 6)
    leaver = net.peers[1]
    net.send(1, leaver.table.leave())
    assert leaver.table.awaits_choice()
    return leaver


def test_at_a_table_that_asks_a_seat_that_leaves_waits_for_the_hosts_choice_with_all_three_offered() -> None:
    net, stand_in = asking_table()
    left_and_asked(net)
    assert net.host.table.choices() == (LeaveChoice.WAIT, LeaveChoice.END, LeaveChoice.HAND)
    assert stand_in.table.my_seat is None and not net.host.table.over()
    said = [e.text for e in net.host.table.events]
    assert any("leaves; the host chooses: wait for them to come back, end the game, or hand the seat to"
               in text for text in said)


def test_the_host_choosing_hand_gives_the_seat_to_the_stand_in_and_the_game_finishes(tmp_path: Path) -> None:
    net, stand_in = asking_table()
    leaver = left_and_asked(net)
    net.deliver(net.host.local(net.host.table.decide(LeaveChoice.HAND)))
    assert stand_in.table.my_seat == 1 and leaver.table.handed_away is not None
    _play(net, 100_000, gone=(leaver,))
    assert stand_in.table.closed and stand_in.table.results() is not None
    report = audited(net, tmp_path)
    assert report.clean and [seat for seat, *_ in report.handed] == [1]
    decided = next(e for e in net.host.table.log.entries if e.message.kind == Kind.DECIDE)
    assert decided.message.body == {"leave": decided.seq - 1, "choice": "hand"}  # in the signed log


def test_the_host_choosing_end_ends_the_game_for_everyone_as_a_seat_that_left() -> None:
    net, stand_in = asking_table()
    left_and_asked(net)
    net.deliver(net.host.local(net.host.table.decide(LeaveChoice.END)))
    assert all(p.table.left == 1 for p in net.peers) and stand_in.table.my_seat is None


def test_the_host_choosing_wait_keeps_the_seat_for_its_player_who_plays_on() -> None:
    net, stand_in = asking_table()
    leaver = left_and_asked(net)
    net.deliver(net.host.local(net.host.table.decide(LeaveChoice.WAIT)))
    assert not leaver.table.awaits_choice() and leaver.table.my_seat == 1 and stand_in.table.my_seat is None
    _play(net, 100_000)  # the player came back (here: its peer never stopped) and the game goes on
    assert all(p.table.closed and p.table.results() is not None for p in net.peers)


def test_without_a_stand_in_here_the_host_is_offered_only_to_wait_or_end() -> None:
    net = open_table("kariba", 3, on_leave=OnLeave.ASK)
    left_and_asked(net)
    assert net.host.table.choices() == (LeaveChoice.WAIT, LeaveChoice.END)


def test_only_the_host_chooses_what_happens_to_a_seat_that_left() -> None:
    net, _ = asking_table()
    left_and_asked(net)
    seat = net.peers[0]
    before = len(net.host.table.log.entries)
    net.send(0, seat.table.compose(Kind.DECIDE, {"leave": seat.table.pending_leave.seq, "choice": "end"}))
    assert len(net.host.table.log.entries) == before and net.host.table.pending_leave is not None
