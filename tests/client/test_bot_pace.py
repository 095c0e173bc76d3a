"""Bots are paced so that people can follow them (``atoll play --bot-delay``): a pause between one
bot's move and the next bot's, none before a person's turn; and what happened since a person's last
move is summed up a line a seat."""

from __future__ import annotations

import asyncio
import time

import pytest

from atoll.cli import cmd_play
from atoll.cli.main import build_parser
from atoll.client.local import new_local_table
from atoll.client.local_table import LocalTable
from atoll.client.news import runs
from atoll.client.source import LogLine
from atoll.registry import load_registry


def parsed(*options: str) -> float:
    delay: float = build_parser(["play"]).parse_args(["play", "kariba", *options]).bot_delay
    return delay


def test_the_bot_delay_defaults_to_a_pause_people_can_follow_and_takes_seconds() -> None:
    assert parsed() == cmd_play.BOT_DELAY > 0
    assert parsed("--bot-delay", "0") == 0
    assert parsed("--bot-delay", "1.5") == 1.5


@pytest.mark.parametrize("given", ["-1", "soon", "61"])
def test_a_bot_delay_that_is_not_a_sensible_number_of_seconds_is_refused(
    given: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        parsed("--bot-delay", given)
    assert "--bot-delay" in capsys.readouterr().err


def seconds_to_your_turn(source: LocalTable) -> float:
    """Play the person's first move and time until their turn comes back."""

    async def scenario() -> float:
        task = asyncio.ensure_future(source.run(lambda: None))
        while not source.waiting().local:
            await asyncio.sleep(0.001)
        began = time.monotonic()
        source.submit(0, source.texts(0)[0])
        while not source.waiting().local:
            await asyncio.sleep(0.001)
        took = time.monotonic() - began
        task.cancel()
        return took

    return asyncio.run(scenario())


def test_bots_pause_between_their_moves_so_each_can_be_seen() -> None:
    kariba = new_local_table(load_registry(), "kariba", seed=3, seats=4, bots=["random"], pace=0.3)
    assert seconds_to_your_turn(kariba) >= 2 * 0.3  # three bots: a pause before the second and third


def test_the_persons_turn_comes_without_a_pause() -> None:
    kariba = new_local_table(load_registry(), "kariba", seed=3, seats=2, bots=["random"], pace=30)
    assert seconds_to_your_turn(kariba) < 30  # the one bot moves at once, and then it is yours at once


def test_news_is_summed_up_a_line_a_run_of_one_seats_moves() -> None:
    names = ["red", "blue"]
    lines = [LogLine(None, "blue rolls 3 and 5"), LogLine(1, "blue: die 5"), LogLine(1, "blue: kagu c1r1"),
             LogLine(None, "round 2: the event is Storm"), LogLine(0, "red: die 2", "red: die 2 (yours)"),
             LogLine(0, "hi", chat=True), LogLine(0, "red: done")]
    said = [run.line(names) for run in runs(lines, names, 0)]
    assert said == ["blue: rolls 3 and 5 · die 5 · kagu c1r1", "round 2: the event is Storm",
                    "red: die 2 (yours)", "hi", "red: done"]
