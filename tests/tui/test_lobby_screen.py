"""The lobby screen over a browser of tables (a fake one here: DNS-SD runs only on the simulated LAN):
tables appear and go while it is open, Enter joins, s watches, h opens the host form."""

from __future__ import annotations

import argparse
import asyncio
from dataclasses import dataclass, field

import pytest

from atoll.cli import cmd_join
from atoll.net.discovery import Announcement, FoundTable
from atoll.net.identity import CurveKeyPair, Identity
from atoll.tui.lobby import LobbyChoice, LobbyScreen, installed_builds
from tests.tui.driver import ENTER, SizedOutput, pipe, registry, wait_for

DOWN = "\x1b[B"


def found(name: str, game: str = "kariba", taken: int = 1, free: int = 2, build: str = "") -> FoundTable:
    """A table as a DNS-SD browser finds it."""
    announcement = Announcement(
        table=f"{game}-{abs(hash(name)) % 10**8}", name=name, game=game, variant="standard", taken=taken,
        free=free, proto="1", fingerprint=Identity.generate().fingerprint,
        curve_key=CurveKeyPair.generate().public.decode(), build=build,
    )
    return FoundTable(instance=f"{name}._atoll._tcp.local.", announcement=announcement,
                      addresses=("10.0.0.2",), port=4000)


@dataclass
class FakeBrowser:
    """Stands for a TableBrowser: its ``tables`` list changes as the test says."""

    tables: list[FoundTable] = field(default_factory=list)


def run_lobby(browser: FakeBrowser, script: list[tuple[str, float]], *,
              appear: FoundTable | None = None) -> tuple[LobbyChoice | None, LobbyScreen]:
    """Open the lobby, let ``appear`` show up on the LAN, type ``script`` (keys, pause after)."""
    infos = [installed.game.info for installed in registry().games.values()]

    async def scenario() -> tuple[LobbyChoice | None, LobbyScreen]:
        with pipe() as keys:
            lobby = LobbyScreen(browser, infos, lambda game: ["random"], input=keys, output=SizedOutput())
            task = asyncio.ensure_future(lobby.run())
            if appear is not None:
                await asyncio.sleep(0.1)
                browser.tables.append(appear)
                await wait_for(lambda: appear.announcement.name in "".join(t for _, t in lobby.list._text()))
            for typed, pause in script:
                keys.send_text(typed)
                await asyncio.sleep(pause)
            return await asyncio.wait_for(task, 10), lobby

    return asyncio.run(scenario())


def test_a_table_announced_while_the_lobby_is_open_shows_and_enter_joins_it() -> None:
    ann = found("Ann's table")
    choice, _ = run_lobby(FakeBrowser(), [(ENTER, 0)], appear=ann)
    assert choice == LobbyChoice("join", ann)


def test_s_watches_the_highlighted_table_even_when_it_is_full() -> None:
    full = found("full house", taken=3, free=0)
    choice, _ = run_lobby(FakeBrowser([found("Ann's table"), full]), [(DOWN, 0.05), (ENTER, 0.05), ("s", 0)])
    assert choice == LobbyChoice("spectate", full)


def test_h_opens_the_host_form_and_enter_there_hosts_the_chosen_game() -> None:
    choice, lobby = run_lobby(FakeBrowser(), [("h", 0.1), (ENTER, 0)])
    assert choice is not None and choice.action == "host" and choice.host == lobby.form.choice()


def test_q_leaves_the_lobby_without_a_choice() -> None:
    choice, _ = run_lobby(FakeBrowser([found("Ann's table")]), [("q", 0)])
    assert choice is None


def test_a_table_whose_game_differs_from_the_installed_one_is_marked_in_the_list() -> None:
    found_here = registry()
    mine = found_here.pin("kariba").short()
    tables = [found("same", build=mine), found("edited", build="0" * 16),
              found("elsewhere", game="go", build=mine), found("older host")]
    infos = [game.game.info for game in found_here.games.values()]
    lobby = LobbyScreen(FakeBrowser(tables), infos, lambda game: [], installed=installed_builds(found_here))
    marks = [line.other_game for line in lobby.tables()]
    assert marks == ["", "plays another build of kariba than the one installed here",
                     "plays go, which is not installed here", ""]
    text = "".join(t for _, t in lobby.list._text())
    assert "    plays another build of kariba than the one installed here\n" in text
    assert all(len(line) <= 80 for line in text.splitlines())


def test_the_plain_list_of_tables_marks_one_whose_game_differs_too(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    tables = [found("same", build=registry().pin("kariba").short()), found("edited", build="0" * 16)]

    async def browse(timeout: float) -> list[FoundTable]:
        return tables

    monkeypatch.setattr("atoll.net.discovery.browse", browse)  # DNS-SD runs only on the simulated LAN
    assert asyncio.run(cmd_join._list(argparse.Namespace(wait=0.1, json=False))) == 0
    out = capsys.readouterr().out
    assert out.count("plays another build of kariba than the one installed here") == 1
    assert out.index("'edited'") < out.index("plays another build")
