"""From the lobby to the result screen at a real table, for every built-in game (issue 14).

A table is open on loopback: a headless host and a random bot peer, both in this event loop (bot
processes would cost more to start than the game). It is never announced, since DNS-SD runs only
on the simulated LAN: a stand-in browser hands the lobby the running table's own announcement, as its
host would announce it now. The person chooses it with Enter, sits at the table screen (pipe input,
a dummy 80x24 output), types random legal moves to the end, reads the result there, and Enter leaves.
Each game is played at two seats in its shortest variant, to keep the suite short.
"""

from __future__ import annotations

import asyncio
import os
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from nacl.signing import SigningKey
from prompt_toolkit.input import PipeInput

from atoll.app.follow import announcement_of
from atoll.app.joining import JoinPlan, join_table
from atoll.app.person import Terminal
from atoll.app.serve import run_host
from atoll.cli.cmd_join import after_lobby
from atoll.client.source import TableSource
from atoll.net.discovery import FoundTable, instance_name
from atoll.net.encoding import fingerprint
from atoll.net.identity import open_profile
from atoll.net.transport import HostSocket, curve_keys
from atoll.table.host import Sequencer
from atoll.tui.lobby import LobbyChoice, LobbyScreen
from atoll.tui.palette import plain
from atoll.tui.screen import TableScreen
from tests.tui.driver import ENTER, SizedOutput, pipe, registry, wait_for
from tests.tui.test_table_screen import shortest_variant

GAMES = sorted(registry().games)
#: How long a game from the lobby may take before the test fails rather than hangs.
GAME_TIMEOUT = 180.0


@dataclass
class LoopbackBrowser:
    """Stands for a DNS-SD browser: the table ``host`` serves on loopback at ``port``, announced as
    :func:`~atoll.app.follow.announcement_of` announces it (seats taken and free as they are now)."""

    host: Sequencer
    port: int

    @property
    def tables(self) -> list[FoundTable]:
        """The running table, once it is open."""
        key = self.host.key
        announcement = announcement_of(self.host.table, curve_keys(key)[0].decode(),
                                       fingerprint(key.verify_key.encode()))
        return [FoundTable(instance=instance_name(announcement), announcement=announcement,
                           addresses=("127.0.0.1",), port=self.port)]


@dataclass
class Seen:
    """What the person saw: the lobby's lines, the table chosen there, and the table screen at the end."""

    lobby: str = ""
    choice: LobbyChoice | None = None
    screens: list[TableScreen] = field(default_factory=list)
    status: str = ""
    log: str = ""
    hint: str = ""
    moves: int = 0


def variant_of(game: str) -> str:
    """The variant to play: the only one, or the one whose random game ends soonest."""
    variants = registry().game(game).info.variants
    return variants[0] if len(variants) == 1 else shortest_variant(game)


async def from_lobby_to_result(game: str, variant: str, home: Path, keys: PipeInput) -> tuple[int, int, Seen]:
    """Open ``game`` at two seats on loopback, seat a bot, and play the other seat from the lobby on;
    the person's exit status, the bot's, and what the person saw."""
    found = registry()
    key = SigningKey(os.urandom(32))
    host = Sequencer.open(f"{game}-{os.urandom(6).hex()}", key, found.game, game=game,
                          variant=variant, seats=2, name="lobby table", pin=found.pin(game),
                          host_timeout=3600)  # no take-over under load: it would announce the table
    socket = HostSocket(curve_keys(key), host.admit)
    tasks: list[asyncio.Future[Any]] = []
    try:
        port = socket.bind("127.0.0.1", None)
        tasks.append(asyncio.ensure_future(run_host(host, socket, grace=2.0)))
        browser = LoopbackBrowser(host, port)
        bot = await JoinPlan.chosen(browser.tables[0], spectate=False)
        bot = JoinPlan(bot.host, bot.port, bot.curve, bot.expected_fp, "random", False, True,
                       bot_delay=0)  # a person sits: the bot would be paced, which this test looks not at
        tasks.append(asyncio.ensure_future(join_table(bot, found, open_profile(home / "bot", name="bot 1"))))
        seen = Seen()
        seen.choice = await choose_table(browser, keys, seen)
        person = Terminal(keys, SizedOutput(24, 80), seen.screens.append)
        joining = asyncio.ensure_future(
            after_lobby(seen.choice, found, lambda: open_profile(home / "ann", name="Ann"), terminal=person))
        tasks.append(joining)
        await asyncio.wait_for(play_random(joining, keys, seen), GAME_TIMEOUT)
        person_status, bot_status = await asyncio.wait_for(asyncio.gather(joining, tasks[1]), 60)
        await asyncio.wait_for(tasks[0], 60)
        assert isinstance(person_status, int) and isinstance(bot_status, int), (person_status, bot_status)
        return person_status, bot_status, seen
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        socket.close()


async def choose_table(browser: LoopbackBrowser, keys: PipeInput, seen: Seen) -> LobbyChoice | None:
    """Open the lobby; once it shows the table with the bot seated, Enter chooses it."""
    infos = [installed.game.info for installed in registry().games.values()]
    lobby = LobbyScreen(browser, infos, lambda game: ["random"], input=keys, output=SizedOutput(24, 80))
    choosing = asyncio.ensure_future(lobby.run())
    await wait_for(lambda: "1/2 seats" in plain(lobby.list._text()))
    seen.lobby = plain(lobby.list._text())
    keys.send_text(ENTER)
    return await asyncio.wait_for(choosing, 10)


async def play_random(joining: asyncio.Future[Any], keys: PipeInput, seen: Seen) -> None:
    """Whenever it is the person's turn, type a random legal text; at the end, note the result screen
    and press Enter."""
    rng = random.Random(7)
    while not joining.done():
        await asyncio.sleep(0.01)
        if not seen.screens or not seen.screens[-1].app.is_running:
            continue
        screen = seen.screens[-1]
        source = screen.source
        waiting = source.waiting()
        if waiting.over:
            seen.status, seen.log = plain(screen._status()), plain(screen._log_text())
            seen.hint = plain(screen._hint())
            keys.send_text(ENTER)
            await asyncio.wait({joining}, timeout=10)
        elif waiting.local and screen.viewer is not None and waiting.seat == screen.viewer:
            screen.buffer.reset()  # a text refused a moment ago, when the table had moved on
            texts = source.texts(screen.viewer)
            keys.send_text(rng.choice(list(texts)) + ENTER)
            seen.moves += 1
            await wait_for(moved_on(source, len(source.log())), 30)


def moved_on(source: TableSource, before: int) -> Callable[[], bool]:
    """Whether the table has logged more than ``before`` lines, or ended."""
    return lambda: len(source.log()) != before or source.waiting().over


class NoAnnouncing:
    """Stands for the DNS-SD announcer a seat uses when it takes a table over: this test runs on the
    machine's own interfaces, where nothing may be announced, so any attempt fails the test."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        raise AssertionError("a seat tried to announce the table on this machine's interfaces")


@pytest.mark.parametrize("game", GAMES)
def test_a_table_chosen_in_the_lobby_is_played_with_typed_moves_to_the_result_screen(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("atoll.app.follow.Announcer", NoAnnouncing)
    variant = variant_of(game)
    with pipe() as keys:
        person, bot, seen = asyncio.run(from_lobby_to_result(game, variant, tmp_path, keys))
    assert "lobby table" in seen.lobby and f"{game} ({variant})" in seen.lobby and "1 free" in seen.lobby
    assert seen.choice is not None and seen.choice.action == "join"
    assert len(seen.screens) == 1 and seen.moves > 0
    assert (person, bot) == (0, 0), capsys.readouterr().err[-2000:]
    # the result screen: who won and the scores on the status line and under the log, and what r does
    assert seen.status.lstrip().startswith("game over:") and "scores:" in seen.status
    assert "game over:" in seen.log
    assert seen.hint.startswith("r: take a seat at the host's next game")
    assert "game over:" in capsys.readouterr().out  # the closing lines, once the screen is gone
