"""Choosing a seat in the lobby (docs/decisions/0023-seats-at-a-table.md): Enter on a table with two or
more seats free opens the seat picker, each seat with the mark and colour the seat bar gives it and
whether it is free; ↑/↓ move between the free seats only, Enter sits there, Esc goes back to the list.
A table whose host does not say which seats are free (an earlier version) is joined as before."""

from __future__ import annotations

import asyncio
import dataclasses
import shlex
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from atoll.net.discovery import FoundTable
from atoll.tui.lobby import LobbyChoice, LobbyScreen, game_colours
from tests.tui.driver import ENTER, ESCAPE, SizedOutput, pipe, registry
from tests.tui.test_lobby_screen import DOWN, FakeBrowser, found
from tests.tui.test_tmux import ROOT, Terminal

UP = "\x1b[A"


def islanders(open_seats: tuple[int, ...] | None = (1, 3)) -> FoundTable:
    """A Kiribati table of five (red, blue, green, yellow, purple) where seats 1, 3 and 5 are taken."""
    table = found("islanders", game="kiribati", taken=3, free=2)
    announced = dataclasses.replace(table.announcement, open_seats=open_seats)
    return dataclasses.replace(table, announcement=announced)


def pick(browser: FakeBrowser, keys: str) -> tuple[LobbyChoice | None, str]:
    """Type ``keys`` in the lobby, a pause after each; the choice, and the picker's text as last drawn."""
    infos = [installed.game.info for installed in registry().games.values()]

    async def scenario() -> tuple[LobbyChoice | None, str]:
        with pipe() as typed:
            lobby = LobbyScreen(browser, infos, lambda game: ["random"], colours=game_colours(registry()),
                                input=typed, output=SizedOutput())
            task = asyncio.ensure_future(lobby.run())
            shown = ""
            for key in [*keys.split(" "), ESCAPE + ESCAPE]:
                typed.send_text(key)
                await asyncio.sleep(0.1)
                if lobby.picking:
                    shown = "".join(text for _, text in lobby.picker._text())
            return await asyncio.wait_for(task, 10), shown

    return asyncio.run(scenario())


def test_enter_on_a_table_with_free_seats_opens_the_picker_and_enter_sits_at_the_first_free_one() -> None:
    table = islanders()
    choice, shown = pick(FakeBrowser([table]), ENTER + " " + ENTER)
    assert choice == LobbyChoice("join", table, seat=1)
    for line in ["▶ ▲2 blue      free", "  ●1 red       taken", "  ■3 green     taken", "  ◆4 yellow    free",
                 "  ★5 purple    taken"]:
        assert line in shown, shown


def test_the_arrows_move_between_free_seats_only() -> None:
    table = islanders()
    choice, _ = pick(FakeBrowser([table]), " ".join([ENTER, DOWN, DOWN, UP, DOWN, ENTER]))
    assert choice == LobbyChoice("join", table, seat=3)  # from seat 2 to seat 4, past the taken seat 3


def test_escape_in_the_picker_goes_back_to_the_list_of_tables() -> None:
    choice, _ = pick(FakeBrowser([islanders()]), ENTER + " " + ESCAPE)
    assert choice is None  # the second Escape left the lobby from the list


def test_a_table_whose_host_does_not_say_which_seats_are_free_is_joined_as_before() -> None:
    table = islanders(open_seats=None)
    choice, shown = pick(FakeBrowser([table]), ENTER)
    assert choice == LobbyChoice("join", table) and shown == ""


# -- as a person sees it: tmux at 80x24 --------------------------------------------------------

LOBBY = """
import asyncio
from atoll.registry import load_registry
from atoll.tui.lobby import LobbyScreen, game_colours
from tests.tui.test_lobby_seats import islanders
from tests.tui.test_lobby_screen import FakeBrowser, found
found_here = load_registry()
games = [installed.game.info for installed in found_here.games.values()]
lobby = LobbyScreen(FakeBrowser([found("Ann's table"), islanders()]), games, lambda game: ["random"],
                    colours=game_colours(found_here))
choice = asyncio.run(lobby.run())
print("chosen:", choice.action, choice.table.announcement.name, "seat", choice.seat + 1)
"""


@pytest.fixture
def lobby(tmp_path: Path) -> Iterator[Terminal]:
    if subprocess.run(["which", "tmux"], capture_output=True).returncode != 0:
        pytest.skip("tmux is not installed (apt-get install tmux)")
    term = Terminal(f"atoll-test-{uuid.uuid4().hex[:12]}")
    command = shlex.join(["env", f"ATOLL_HOME={tmp_path / 'atoll'}", f"HOME={tmp_path}", sys.executable,
                          "-c", LOBBY]) + "; sleep 120"
    try:
        term.tmux("new-session", "-d", "-s", "play", "-x", "80", "-y", "24", "-c", str(ROOT), command)
        yield term
    finally:
        subprocess.run(["tmux", "-L", term.socket, "kill-server"], capture_output=True, timeout=10)


def test_a_person_picks_a_free_seat_by_its_mark_and_colour_in_the_lobby_at_80x24(lobby: Terminal) -> None:
    lobby.wait_for("islanders")
    lobby.type("", "Down", "Enter")
    screen = lobby.wait_for("choose your seat")
    for line in ["islanders: kiribati (standard) — choose your seat", "▶ ▲2 blue      free",
                 "  ●1 red       taken", "  ◆4 yellow    free", "Enter sit there · Esc back to the tables"]:
        assert line in screen, f"{line!r} is not on the screen:\n{screen}"
    assert all(len(line) <= 80 for line in screen.splitlines())
    lobby.type("", "Down")
    lobby.wait_for("▶ ◆4 yellow    free")
    lobby.type("", "Enter")
    lobby.wait_for("chosen: join islanders seat 4")


def test_the_plain_list_of_tables_names_the_free_seats_to_choose_with_seat(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import argparse

    from atoll.cli import cmd_join

    async def browse(timeout: float) -> list[FoundTable]:
        return [islanders(), found("Ann's table")]

    monkeypatch.setattr("atoll.net.discovery.browse", browse)  # DNS-SD runs only on the simulated LAN
    assert asyncio.run(cmd_join._list(argparse.Namespace(wait=0.1, json=False))) == 0
    out = capsys.readouterr().out
    assert out.count("free seats") == 1 and "    free seats 2, 4: choose one with --seat N\n" in out
