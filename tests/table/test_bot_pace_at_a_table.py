"""Bots at a network table are paced so people can follow them (docs/decisions/0023-seats-at-a-table.md):
each move of a bot takes at least ``--bot-delay`` seconds, thinking included; by default the same pause
as ``atoll play`` while a person sits at the table, and none at a table of bots alone (watched or not)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from atoll.app.tables import bot_pace, seat_bot
from atoll.cli.main import build_parser
from atoll.pace import BOT_DELAY
from tests.commands import env_for, run
from tests.table.harness import REGISTRY, Net, observe_seat, open_table


def seated(people: int, bots: int, watchers: int = 0) -> Net:
    """A Kariba table whose first ``people`` seats are people's and the rest bots', all seated."""
    net = open_table("kariba", people + bots, watchers=watchers)
    for peer in net.peers[people:people + bots]:
        peer.session.bot = "random"
    for index, peer in enumerate(net.peers):
        net.send(index, peer.session.hello())
    return net


def test_a_bot_is_paced_like_atoll_play_while_a_person_sits_at_the_table() -> None:
    assert bot_pace(seated(1, 1).peers[1].table, None) == BOT_DELAY > 0


def test_a_table_of_bots_is_not_paced_for_its_spectators_unless_the_host_asks() -> None:
    assert bot_pace(seated(0, 2, watchers=1).peers[0].table, None) == 0  # a big screen: --bot-delay


def test_a_table_of_bots_alone_is_not_slowed_down() -> None:
    assert bot_pace(seated(0, 2).peers[0].table, None) == 0


def test_a_bot_delay_given_holds_whoever_is_at_the_table() -> None:
    assert bot_pace(seated(0, 2).peers[0].table, 0.2) == 0.2
    assert bot_pace(seated(1, 1).peers[1].table, 0) == 0


def test_a_paced_bots_move_takes_at_least_the_delay_its_thinking_included() -> None:
    net = seated(1, 1)
    mover = next(peer for peer in net.peers if peer.table.engine is not None and peer.table.engine.my_turn())
    choose = seat_bot(REGISTRY, "random", mover.table, 0.4)
    began = time.monotonic()
    action = asyncio.run(choose(observe_seat(mover)))
    assert time.monotonic() - began >= 0.4
    assert action in mover.table.engine.match.legal_actions(mover.table.engine.seat)  # type: ignore[union-attr]


JOIN_BOT = ["join", "--address", "10.0.0.2:4000", "--bot", "random"]


@pytest.mark.parametrize("command", [["host", "kariba"], JOIN_BOT], ids=["host", "join"])
def test_host_and_join_take_a_bot_delay_in_seconds_and_leave_the_default_to_the_table(
    command: list[str],
) -> None:
    parser = build_parser(command)
    assert parser.parse_args(command).bot_delay is None  # the table decides: paced while people watch
    assert parser.parse_args([*command, "--bot-delay", "1.5"]).bot_delay == 1.5


def test_a_bot_delay_without_a_bot_to_pace_is_refused_in_one_line(tmp_path: Path) -> None:
    ran = run(["join", "--address", "127.0.0.1:4000", "--bot-delay", "1"], env_for(tmp_path))
    assert ran.status != 0
    assert ran.output.strip().splitlines() == [
        "atoll join: --bot-delay paces the bot of --bot: give --bot KIND, or leave it out"
    ]
