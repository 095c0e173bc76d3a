"""Seats at a table (docs/decisions/0023-seats-at-a-table.md), as every peer decides them from the log:
a person sits at the seat (or colour) they chose whatever order people came in, a seat taken is refused
in one line naming who holds it and what is free, a rematch keeps each person's seat, and a seat kept
for someone goes to another only when no other seat is free. Seats are counted from 1 in what people
read, from 0 on the wire."""

from __future__ import annotations

import os

import pytest
from nacl.signing import SigningKey

from atoll.table.host import Sequencer
from atoll.table.peer import TableFailed
from atoll.table.table import Table
from atoll.wire import KeptSeat, Kind
from tests.table.harness import REGISTRY, Net, open_table


def hex_of(net: Net, index: int) -> str:
    return net.peers[index].key.verify_key.encode().hex()


def arrive(net: Net, *order: int) -> None:
    """The peers ``order`` come to the table one after another (each sits once caught up)."""
    for index in order:
        net.send(index, net.peers[index].session.hello())


def chairs(net: Net) -> list[dict[str, int]]:
    """Who holds which seat, on the host and on every peer (each decides it from its own log)."""
    copies = [net.host.table, *(peer.table for peer in net.peers)]
    return [dict(table.lobby.chairs) for table in copies if table.lobby is not None]


def test_a_person_sits_at_the_seat_or_colour_they_chose_whatever_order_they_came_in() -> None:
    net = open_table("kiribati", 3, "family")  # seats red, blue, green
    net.peers[0].session.seat = 2
    net.peers[1].session.colour = "Red"
    arrive(net, 0, 1, 2)
    expected = {hex_of(net, 0): 2, hex_of(net, 1): 0, hex_of(net, 2): 1}
    assert all(seen == expected for seen in chairs(net))
    assert net.peers[0].table.my_seat == 2 and net.peers[1].table.my_seat == 0
    lobby = net.host.table.lobby
    assert lobby is not None and lobby.seated == [hex_of(net, 1), hex_of(net, 2), hex_of(net, 0)]
    said = [event.text for event in net.peers[2].table.events]
    assert "p0 takes seat 3" in said and "p1 takes seat 1" in said  # numbered as the seat bar numbers them
    engine = net.peers[0].table.engine
    assert engine is not None and engine.seat == 2  # the game started with the seats as chosen


def test_a_game_whose_seats_were_chosen_plays_to_its_end_alike_on_every_peer() -> None:
    net = open_table("kariba", 2)
    net.peers[0].session.seat = 1
    arrive(net, 0, 1)
    net.run()
    assert net.peers[0].table.my_seat == 1 and net.peers[1].table.my_seat == 0
    assert len({peer.table.log.head for peer in net.peers}) == 1
    assert all(peer.table.results() is not None for peer in net.peers)


def test_nobody_asking_sits_people_in_the_order_they_come() -> None:
    net = open_table("kariba", 3)
    arrive(net, 2, 0, 1)
    assert chairs(net)[0] == {hex_of(net, 2): 0, hex_of(net, 0): 1, hex_of(net, 1): 2}


def test_a_seat_taken_is_refused_in_one_line_naming_who_holds_it_and_the_free_seats() -> None:
    net = open_table("kiribati", 3, "family")
    arrive(net, 0)  # p0 takes seat 1, red
    net.peers[1].session.seat = 0
    with pytest.raises(TableFailed) as refused:
        arrive(net, 1)
    assert str(refused.value) == "seat 1 (red) is taken by p0; free: seat 2 (blue), seat 3 (green)"
    assert hex_of(net, 1) not in chairs(net)[0]  # nothing was sent


def test_a_colour_no_seat_has_is_refused_naming_the_colours_the_table_has() -> None:
    net = open_table("kiribati", 3, "family")
    net.peers[0].session.colour = "pink"
    with pytest.raises(TableFailed, match=r"^no seat at this table is pink; its colours: red \(free\), "
                                          r"blue \(free\), green \(free\)$"):
        arrive(net, 0)


def test_a_seat_that_is_not_at_the_table_is_refused_naming_the_free_seats() -> None:
    net = open_table("kariba", 2)
    net.peers[0].session.seat = 4
    with pytest.raises(TableFailed, match=r"^there is no seat 5 at this table of 2 seats; "
                                          r"free: seat 1 \(orange\), seat 2 \(cyan\)$"):
        arrive(net, 0)


def test_the_host_refuses_a_sit_at_a_taken_seat_and_the_one_who_came_second_is_told_in_one_line() -> None:
    net = open_table("kariba", 3)
    for peer in net.peers[:2]:
        for entry in net.host.table.log.entries:
            peer.table.receive(entry.to_json())
    # both chose seat 2 at the same moment: each saw it free
    first, second = (peer.table.compose(Kind.SIT, {"name": f"p{i}", "seat": 1})
                     for i, peer in enumerate(net.peers[:2]))
    net.peers[1].session.joined, net.peers[1].session.seat = True, 1
    net.send(0, first)
    frames = net.host.receive(net.peers[1].connection, net.peers[1].curve, second)
    assert any(b"seat 2 (cyan) is taken by p0" in data for _, data in frames)
    with pytest.raises(TableFailed, match=r"^seat 2 \(cyan\) is taken by p0; free: seat 1 \(orange\), "
                                          r"seat 3 \(green\)$"):
        net.send(1, net.peers[1].session.hello())  # catching up shows the seat gone


def rematch(kept: list[KeptSeat], seats: int = 3) -> Net:
    """A Kariba table opened as a rematch that keeps ``kept`` (``who`` "p0".."p2": the peers' keys)."""
    net = open_table("kariba", seats)
    host_key = SigningKey(os.urandom(32))
    keys = {f"p{i}": peer.key.verify_key.encode().hex() for i, peer in enumerate(net.peers)}
    body = [KeptSeat(who=keys.get(k["who"], k["who"]), seat=k["seat"], name=k["name"]) for k in kept]
    host = Sequencer.open(f"kariba-{os.urandom(6).hex()}", host_key, REGISTRY.game, game="kariba",
                          variant="standard", seats=seats, name="again", pin=REGISTRY.pin("kariba"),
                          kept=body)
    host.limit = net.host.limit
    for peer in net.peers:
        peer.session.table = Table(host.table.id, host_key.verify_key.encode(), peer.key, REGISTRY.game)
    return Net(host, net.peers)


def test_at_a_rematch_each_person_gets_the_seat_they_had_without_asking() -> None:
    net = rematch([{"who": "p0", "seat": 2, "name": "p0"}, {"who": "p1", "seat": 0, "name": "p1"}])
    arrive(net, 0, 2, 1)  # p2, new, comes before p1 is back: it takes the seat nobody had
    assert chairs(net)[0] == {hex_of(net, 0): 2, hex_of(net, 2): 1, hex_of(net, 1): 0}


def test_a_person_who_chooses_otherwise_at_a_rematch_gets_the_seat_they_chose() -> None:
    net = rematch([{"who": "p0", "seat": 0, "name": "p0"}])
    net.peers[0].session.seat = 2
    arrive(net, 0)
    assert chairs(net)[0] == {hex_of(net, 0): 2}


def test_a_seat_kept_for_someone_goes_to_another_only_when_no_other_seat_is_free() -> None:
    gone = SigningKey(os.urandom(32)).verify_key.encode().hex()
    net = rematch([{"who": gone, "seat": 0, "name": "Xan"}])
    net.peers[0].session.seat = 0
    with pytest.raises(TableFailed, match=r"^seat 1 \(orange\) is kept for Xan from the last game; "
                                          r"free: seat 2 \(cyan\), seat 3 \(green\)$"):
        arrive(net, 0)
    net.peers[0].session.seat, net.peers[0].session.joined = None, False
    arrive(net, 0, 1)
    assert chairs(net)[0] == {hex_of(net, 0): 1, hex_of(net, 1): 2}
    arrive(net, 2)  # only Xan's seat is left: the table does not wait for someone who may not come
    assert chairs(net)[0][hex_of(net, 2)] == 0


def test_a_bot_says_so_when_it_sits_and_a_seat_without_it_is_a_persons() -> None:
    net = open_table("kariba", 3)
    for peer in net.peers[:2]:
        peer.session.bot = "random"
    arrive(net, 0, 1)
    lobby = net.host.table.lobby
    assert lobby is not None and lobby.bots == {hex_of(net, 0): "random", hex_of(net, 1): "random"}
    assert not lobby.people_here()
    arrive(net, 2)
    assert lobby.people_here()
