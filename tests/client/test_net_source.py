"""A network table as the screen reads it (socket-free: the table harness's host and peers): what the
status line says the table waits for, whose words the log uses, and table talk with spectators marked."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from atoll.client.net_source import NetTable
from atoll.client.source import Refused
from atoll.types import Config
from tests.table.harness import REGISTRY, Net, open_table


def source(net: Net, index: int, *, role: str = "sit", away: tuple[int, ...] = ()) -> NetTable:
    """Peer ``index``'s table for the screen; what it says goes through the harness to the host."""
    async def send(data: bytes) -> None:
        net.send(index, data)

    table = NetTable(net.peers[index].table, role=role, send=send, away=lambda: away)
    net.peers[index].session.on_chat = table.hear
    lobby = net.host.table.lobby
    assert lobby is not None
    table.game = REGISTRY.game(lobby.game)
    table.config = Config(lobby.seats, lobby.variant, dict(lobby.options))
    return table


def silence_fair_messages_of(net: Net, index: int) -> None:
    """Peer ``index`` plays no part in the fair protocols: what it writes for them never reaches the host
    (whatever order the harness delivers the set-up in)."""
    send = net.send

    def without_fair(sender: int, data: bytes) -> None:
        if sender != index or json.loads(data).get("kind") != "fair":
            send(sender, data)

    net.send = without_fair  # type: ignore[method-assign]


def test_before_every_seat_is_taken_the_table_waits_for_players() -> None:
    net = open_table("kariba", 3)
    net.send(0, net.peers[0].session.hello())
    seen = source(net, 0)
    assert seen.waiting().text == "waiting for players: 1 of 3 seats taken, 2 free"
    assert "The game starts when every seat is taken (2 free)." in "".join(t for _, t in seen.board(0))


def test_the_status_names_the_seat_whose_part_of_the_fair_protocols_is_missing() -> None:
    net = open_table("kariba", 2)
    silence_fair_messages_of(net, 1)
    for index in range(2):
        net.send(index, net.peers[index].session.hello())
    seen = source(net, 0)
    assert seen.waiting().text == "waiting for p1's greeting"


def test_table_talk_reaches_everyone_and_marks_a_spectator() -> None:
    net = open_table("kariba", 2, watchers=1)
    for index in range(3):
        net.send(index, net.peers[index].session.hello())
    player, watcher = source(net, 0), source(net, 2, role="watch")

    async def talk() -> None:
        watcher.chat("nice move")
        player.chat("thanks")
        await asyncio.sleep(0)

    asyncio.run(talk())
    for seen in (player, watcher):
        talk_lines = [line.text for line in seen.log() if line.chat]
        assert talk_lines == ["p2 (watching): nice move", "p0 (player 1): thanks"], talk_lines


def test_an_empty_chat_line_is_refused_and_nothing_is_sent() -> None:
    net = open_table("kariba", 2)
    net.send(0, net.peers[0].session.hello())
    seen = source(net, 0)
    try:
        seen.chat("   ")
    except Refused as exc:
        assert "say something" in str(exc)
    else:
        raise AssertionError("an empty chat line was sent")


#: A short variant where a game has one, so the suite stays quick.
SHORT = {"kiribati": "children"}


@pytest.mark.parametrize("game", sorted(REGISTRY.games))
def test_the_log_tells_every_step_of_a_network_game_in_the_games_words(game: str) -> None:
    net = open_table(game, 2, SHORT.get(game), watchers=1)
    net.run()
    player, watcher = source(net, 0), source(net, 2, role="watch")
    for seen in (player, watcher):
        assert not any("the log stops" in line.text for line in seen.log())
        assert seen.waiting().over and seen.results() is not None
    engine = player.table.engine
    assert engine is not None
    moves = [line for line in player.log() if line.seat is not None and not line.chat]
    assert len(moves) == len([event for event in engine.match.events if "seat" in event])


def test_a_seat_the_host_shows_as_away_is_named_in_the_status() -> None:
    net = open_table("kariba", 2)
    silence_fair_messages_of(net, 1)
    for index in range(2):
        net.send(index, net.peers[index].session.hello())
    seen = source(net, 0, away=(1,))
    assert seen.waiting().text == "waiting for p1's greeting (p1 is away)"


def test_at_a_simultaneous_decision_every_seat_is_asked_at_once_and_waits_only_for_the_others() -> None:
    """Kiribati's K5: each player keeps four cards at once; one who has kept reads who still chooses."""
    net = open_table("kiribati", 3, "professional")
    for index in range(3):
        net.send(index, net.peers[index].session.hello())
    seen = [source(net, index) for index in range(3)]
    for index in range(3):
        now = seen[index].waiting()
        assert now.seat == index and now.secret
    keep = {"secret": ["feeding", "current", "clamp", "shark"]}
    net.send(1, net.peers[1].table.move(keep))
    assert seen[1].waiting().text == "red, green are making secret choices…"
    assert seen[0].waiting().seat == 0 and seen[2].waiting().seat == 2


def test_the_turn_time_counts_down_on_every_screen_warns_at_ten_seconds_and_says_when_it_ran_out() -> None:
    from tests.table.test_survive import play_until_a_seat_owes_a_move, start

    net = open_table("kariba", 2, turn_time=30)
    start(net)
    late = play_until_a_seat_owes_a_move(net)
    other = 1 - late
    now = [100.0]
    screens = {}
    for index in (late, other):
        seen = source(net, index)
        assert seen.table.lobby is not None and seen.table.lobby.turn_time == 30  # from the signed open entry
        screens[index] = NetTable(seen.table, role="sit", send=seen._send, clock=lambda: now[0])
        screens[index].game, screens[index].config = seen.game, seen.config
    mine, theirs = screens[late], screens[other]
    name = f"p{late}"
    assert theirs.waiting().text == f"0:30 left · player {late + 1} ({name}) is thinking…"
    assert mine.waiting().text.startswith("0:30 left · ")
    now[0] += 21
    assert theirs.waiting().text.startswith("only 0:09 left! · ")
    assert mine.waiting().text.startswith("hurry, only 0:09 left! · ")
    now[0] += 10
    assert theirs.waiting().text.startswith("out of time, the table states a timeout · ")
    assert mine.waiting().text.startswith("your time has run out · ")


def test_what_is_logged_is_kept_for_the_audit_and_shown_only_with_verbose(tmp_path: Path) -> None:
    """The table's news comes through the table alone: a refusal between machines or the port's trouble
    is kept in ``refusals.log`` and shown on the screen only when the person asked with ``--verbose``."""
    import logging

    from nacl.signing import SigningKey

    from atoll.app.person import REFUSALS_FILE, _diagnostics_kept, verbose
    from atoll.table.table import Table

    folder = tmp_path
    key = SigningKey.generate()
    table = Table("kariba-refusals", key.verify_key.encode(), key, REGISTRY.game,
                  log_path=folder / "log.jsonl")

    async def no_send(data: bytes) -> None:
        del data

    refusal = "host: refused sit: already at the table"
    flood = "the table's port: refusing new connections"
    for shown in (False, True):
        verbose(shown)
        try:
            seen = NetTable(table, role="sit", send=no_send)
            with _diagnostics_kept(seen):
                logging.getLogger("atoll.table.peer").warning(refusal)
                logging.getLogger("atoll.net.door").warning(flood)
            lines = [line.text for line in seen._log]
        finally:
            verbose(False)
        assert (f"({refusal})" in lines) is shown
        assert (f"({flood})" in lines) is shown
    kept = (folder / REFUSALS_FILE).read_text()
    assert kept.count(refusal) == 2 and kept.count(flood) == 2
