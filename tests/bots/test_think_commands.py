"""`--think SECONDS` wherever a bot kind is chosen: people wait a second a decision unless they say
otherwise, and the bot peers a host starts think what the host was told."""

from __future__ import annotations

import argparse

import pytest

from atoll.app.bot_peers import BotPeer
from atoll.bots.search import DEFAULT_THINK
from atoll.cli import cmd_host, cmd_join, cmd_play
from atoll.cli.common import THINK


def parsed(module: object, *args: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    module.add_arguments(parser)  # type: ignore[attr-defined]
    return parser.parse_args(list(args))


@pytest.mark.parametrize("module", [cmd_play, cmd_host, cmd_join])
def test_a_search_bot_thinks_a_second_a_decision_where_people_wait(module: object) -> None:
    assert parsed(module).think == THINK == DEFAULT_THINK == 1.0


@pytest.mark.parametrize("module", [cmd_play, cmd_host, cmd_join])
def test_think_takes_seconds(module: object) -> None:
    assert parsed(module, "--think", "0.25").think == 0.25


def test_the_bot_peers_of_a_host_get_its_think_time() -> None:
    command = BotPeer(1, "127.0.0.1:4000", "search", think=2.5).command()
    assert command[-2:] == ["--think", "2.5"]
    assert command[command.index("--bot") + 1] == "search" and "bot 2" in command


def test_without_a_think_time_the_bot_peers_keep_their_default() -> None:
    assert "--think" not in BotPeer(0, "127.0.0.1:4000", "kiribati").command()
