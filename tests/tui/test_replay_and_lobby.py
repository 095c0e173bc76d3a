"""Stepping through a saved game, the lobby list of announced tables, and what everybody can read."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from prompt_toolkit.layout import Layout
from prompt_toolkit.output import ColorDepth

from atoll.client.local import new_local_table
from atoll.client.saves import read_save
from atoll.engine import LocalResolver, Match, run, save
from atoll.tui.host_form import FIELDS, HostChoice, HostForm
from atoll.tui.lobby import Announcement, LobbyList
from atoll.tui.palette import Look, plain
from atoll.tui.replay import ReplayScreen, frames
from atoll.tui.screen import TableScreen
from tests.tui.driver import SizedOutput, pipe, registry

RIGHT, LEFT, END, HOME = "\x1b[C", "\x1b[D", "\x1b[F", "\x1b[H"


def saved_game(tmp_path: Path) -> Path:
    game = registry().game("kariba")
    match = Match(game, game.configure(2), LocalResolver(4))
    bots = [registry().bot("random", "kariba").make(game, seat, seat) for seat in range(2)]
    run(match, bots)
    path = tmp_path / "kariba.jsonl"
    save(match, path, seed=4, faces=match.resolver.faces())  # type: ignore[attr-defined]
    return path


def test_replay_steps_forward_back_and_to_either_end(tmp_path: Path) -> None:
    saved = read_save(saved_game(tmp_path)).saved
    game = registry().game("kariba")
    steps = frames(game, saved)
    assert len(steps) == len(saved.events) + 1

    async def scenario() -> list[int]:
        with pipe() as keys:
            screen = ReplayScreen(game, saved, steps, input=keys, output=SizedOutput())
            task = asyncio.ensure_future(screen.app.run_async())
            seen = []
            for key in [RIGHT, RIGHT, LEFT, END, HOME, END]:
                before = screen.at
                keys.send_text(key)
                for _ in range(400):
                    await asyncio.sleep(0.005)
                    if screen.at != before:
                        break
                seen.append(screen.at)
            keys.send_text("q")
            await task
        return seen

    last = len(steps) - 1
    assert asyncio.run(scenario()) == [1, 2, 1, last, 0, last]


def test_replay_shows_a_seats_hand_only_when_seen_by_that_seat(tmp_path: Path) -> None:
    saved = read_save(saved_game(tmp_path)).saved
    game = registry().game("kariba")
    with pipe() as keys:
        screen = ReplayScreen(game, saved, frames(game, saved), input=keys, output=SizedOutput())
        screen.step(3)
        spectator = plain(screen._board())
        screen.next_viewer()
        seat_0 = plain(screen._board())
    assert "Your hand" not in spectator
    assert "Your hand" in seat_0


TABLES = [
    Announcement("Ann's table", "kariba", "standard", 2, 1, "ann-laptop", "3f9a0c1d2e"),
    Announcement("full house", "kiribati", "family", 4, 0, "bob-pc", "a1b2c3d4e5"),
]


def test_the_lobby_lists_each_table_with_its_seats_host_and_key() -> None:
    lobby = LobbyList(lambda: TABLES, lambda action, table: None)
    text = plain(lobby._text())
    assert "Ann's table" in text and "kariba (standard)" in text and "2/3 seats" in text
    assert "1 free" in text and "host ann-laptop, key 3f9a0c1d2e" in text  # the whole fingerprint
    assert "full house" in text and "full" in text


def test_the_lobby_joins_the_chosen_table_and_watches_or_hosts() -> None:
    chosen: list[tuple[str, str | None]] = []
    lobby = LobbyList(lambda: TABLES, lambda action, table: chosen.append((action, table and table.name)))

    async def scenario() -> None:
        from prompt_toolkit.application import Application

        with pipe() as keys:
            app: Application[None] = Application(layout=Layout(lobby), input=keys, output=SizedOutput())
            task = asyncio.ensure_future(app.run_async())
            for key in ["\r", "\x1b[B", "s", "\r", "h"]:
                keys.send_text(key)
                await asyncio.sleep(0.05)
            app.exit()
            await task

    asyncio.run(scenario())
    # Enter joins Ann's table; down, s watches the full table; Enter on a full table does nothing
    assert chosen == [("join", "Ann's table"), ("spectate", "full house"), ("host", None)]


def test_seat_marks_differ_in_shape_and_number_not_only_colour() -> None:
    marks = [Look().symbol(seat) for seat in range(5)]
    assert len({mark[0] for mark in marks}) == 5
    assert [mark[1:] for mark in marks] == ["1", "2", "3", "4", "5"]
    assert all(Look(unicode=False).symbol(seat).isascii() for seat in range(5))


def test_the_palette_replaces_ansi_colours_and_keeps_the_rest() -> None:
    assert Look().recolour([("fg:ansired bold", "R")]) == [("fg:#d55e00 bold", "R")]
    assert Look(palette=False).recolour([("fg:ansired bold", "R")]) == [("fg:ansired bold", "R")]
    assert Look().recolour([("fg:ansibrightwhite", "x")]) == [("", "x")]


def test_no_color_turns_every_colour_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    source = new_local_table(registry(), "kariba", seed=1, bots=["random"])
    with pipe() as keys:
        screen = TableScreen(source, input=keys, output=SizedOutput())
        assert screen.app.color_depth is ColorDepth.DEPTH_1_BIT


def test_the_host_form_opens_a_table_with_the_chosen_game_seats_and_bots() -> None:
    infos = [installed.game.info for installed in registry().games.values()]
    kariba = registry().game("kariba").info
    chosen: list[HostChoice | None] = []
    form = HostForm(infos, lambda game: ["random", "search"], chosen.append)
    while form.choice().game != "kariba":
        form.change(1)
    form.field = FIELDS.index("variant")
    form.change(1)
    form.field = FIELDS.index("seats")
    form.change(10)  # as many as the game takes, no more
    form.field = FIELDS.index("bots")
    form.change(2)
    form.field = FIELDS.index("bot kind")
    form.change(1)

    async def scenario() -> None:
        from prompt_toolkit.application import Application

        with pipe() as keys:
            app: Application[None] = Application(layout=Layout(form), input=keys, output=SizedOutput())
            task = asyncio.ensure_future(app.run_async())
            keys.send_text("\r")
            await asyncio.sleep(0.05)
            app.exit()
            await task

    asyncio.run(scenario())
    assert chosen == [HostChoice("kariba", kariba.variants[1], kariba.max_seats, 2, "search")]


def rematch_form(typed: str, last: HostChoice) -> HostChoice | None:
    """What the rematch form, opened on the game ``last`` just played, gives for the keys ``typed``."""
    from atoll.tui.host_form import choose_next_game

    infos = [installed.game.info for installed in registry().games.values()]

    async def scenario() -> HostChoice | None:
        with pipe() as keys:
            keys.send_text(typed)
            return await choose_next_game(infos, lambda game: ["random", "search"], last, input=keys,
                                          output=SizedOutput())

    return asyncio.run(scenario())


def test_the_rematch_form_starts_from_the_game_just_played_and_enter_opens_it_again() -> None:
    last = HostChoice("kiribati", "professional", 4, 2, "search")
    assert rematch_form("\r", last) == last


def test_escape_on_the_rematch_form_plays_no_more() -> None:
    assert rematch_form("\x1b", HostChoice("kariba", "standard", 2, 1, "random")) is None
