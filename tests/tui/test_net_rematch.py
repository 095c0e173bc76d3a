"""A rematch at a network table (docs/decisions/0005-network-rematch.md), on loopback in one event
loop: the host's person and a peer's person play High Card at their table screens (pipe input, dummy
output). Both press ``r`` on the result screen; the host opens the next game from the host form at the
same address with the same key, the peer finds it by knocking there, and they play it through."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import Coroutine
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from nacl.signing import SigningKey
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import PipeInput

from atoll.app.hosting import HostPlan, host_table
from atoll.app.joining import JoinPlan, join_table, knock
from atoll.app.person import Terminal
from atoll.client.net_source import NetTable
from atoll.errors import AtollError
from atoll.net.identity import Profile, open_profile, tables_dir
from atoll.net.transport import curve_keys
from atoll.registry import InstalledGame, Registry
from atoll.tui.palette import plain
from atoll.tui.screen import TableScreen
from tests.games.highcard import HighCard
from tests.tui.driver import ENTER, SizedOutput, pipe

#: How long the two games may take before the test fails rather than hangs.
TIMEOUT_S = 120.0


def free_port() -> int:
    """A loopback port that is free, with the port after it (the host's key service) free too."""
    while True:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = int(probe.getsockname()[1])
        with socket.socket() as after:
            try:
                after.bind(("127.0.0.1", port + 1))
            except OSError:
                continue
        return port


async def person(
    screens: list[TableScreen],
    keys: PipeInput,
    playing: asyncio.Task[int],
    *,
    hosting: bool,
    hints: list[str],
) -> None:
    """Play the first legal text whenever it is this person's turn; ``r`` on the first result screen
    and Enter on the second (``hints``: what the result screens said ``r`` does); the host answers the
    form of the next game with Enter (the same game)."""
    over_answered = 0
    ran: set[int] = set()  # the screens seen running
    while not playing.done():
        await asyncio.sleep(0.05)
        if not screens:
            continue
        screen = screens[-1]
        if not screen.app.is_running:
            if hosting and len(screens) == 1 and 1 in ran:
                keys.send_text(ENTER)  # the host form, filled in with High Card again: open it
                await asyncio.sleep(0.5)
            continue
        ran.add(len(screens))
        waiting = screen.source.waiting()
        if waiting.over and over_answered < len(screens):
            over_answered = len(screens)
            screen.buffer.reset()
            hints.append(plain(screen._hint()))
            keys.send_text("r" if len(screens) == 1 else ENTER)
        elif waiting.local and screen.viewer is not None:
            screen.buffer.reset()  # a text refused a moment ago, when the table had moved on
            keys.send_text(screen.source.texts(screen.viewer)[0] + ENTER)
            await asyncio.sleep(0.3)


async def apart(machine: Coroutine[object, object, int]) -> int:
    """Run ``machine`` in a prompt_toolkit session of its own: two people in one event loop would
    otherwise share the session's current application, and with it the keys typed."""
    with create_app_session():
        return await machine


def table_id(screen: TableScreen) -> str:
    """The id of the network table ``screen`` shows."""
    assert isinstance(screen.source, NetTable)
    return screen.source.table.id


def masters(home: Path) -> dict[str, str]:
    """Table id -> the master secret this machine drew for it."""
    return {folder.name: json.loads((folder / "secrets.json").read_text())["master"]
            for folder in tables_dir(home).iterdir() if (folder / "secrets.json").exists()}


@dataclass
class TwoGames:
    """What Ann (hosting) and Bea saw over a game and its rematch: their table screens, and what their
    result screens said ``r`` does."""

    ann: Profile
    bea: Profile
    host_screens: list[TableScreen] = field(default_factory=list)
    peer_screens: list[TableScreen] = field(default_factory=list)
    host_hints: list[str] = field(default_factory=list)
    peer_hints: list[str] = field(default_factory=list)


def two_games(tmp_path: Path, *, host_seat: int | None = None) -> TwoGames:
    """Ann hosts High Card for two (at ``host_seat``, if given), Bea joins; both press ``r`` after the
    first game and play the rematch through."""
    found = Registry(games={"highcard": InstalledGame(HighCard(), "tests", "tests")})
    seen = TwoGames(open_profile(tmp_path / "ann", name="Ann"), open_profile(tmp_path / "bea", name="Bea"))
    ann, bea = seen.ann, seen.bea
    port = free_port()
    plan = HostPlan("highcard", "standard", 2, "rematch table", "127.0.0.1", port, 0, "random", None,
                    headless=False, announce=False, late_watchers=False, seat=host_seat)
    curve = curve_keys(ann.identity.signing_key())[0].decode()
    joining = JoinPlan("127.0.0.1", port, curve, None, None, False, False)
    host_screens, peer_screens = seen.host_screens, seen.peer_screens
    host_hints, peer_hints = seen.host_hints, seen.peer_hints

    async def play(host_keys: PipeInput, peer_keys: PipeInput) -> list[int]:
        hosting = asyncio.ensure_future(apart(host_table(
            plan, found, ann, terminal=Terminal(host_keys, SizedOutput(24, 80), host_screens.append))))
        await asyncio.sleep(0.5)
        peering = asyncio.ensure_future(apart(join_table(
            joining, found, bea, terminal=Terminal(peer_keys, SizedOutput(24, 80), peer_screens.append))))
        people = [
            asyncio.ensure_future(person(host_screens, host_keys, hosting, hosting=True, hints=host_hints)),
            asyncio.ensure_future(person(peer_screens, peer_keys, peering, hosting=False, hints=peer_hints)),
        ]
        try:
            return list(await asyncio.wait_for(asyncio.gather(hosting, peering), TIMEOUT_S))
        finally:
            for task in (*people, hosting, peering):
                task.cancel()
            await asyncio.gather(*people, hosting, peering, return_exceptions=True)

    with pipe() as host_keys, pipe() as peer_keys:
        assert asyncio.run(play(host_keys, peer_keys)) == [0, 0]
    return seen


def test_r_on_both_result_screens_plays_a_new_table_at_the_same_address(tmp_path: Path) -> None:
    seen = two_games(tmp_path)
    host_screens, peer_screens, host_hints, peer_hints = (
        seen.host_screens, seen.peer_screens, seen.host_hints, seen.peer_hints)
    assert len(host_screens) == len(peer_screens) == 2
    assert host_hints[0].startswith("r: host another game at this address")
    assert peer_hints[0].startswith("r: take a seat at the host's next game")
    first, second = (table_id(screen) for screen in host_screens)
    assert first != second
    assert [table_id(screen) for screen in peer_screens] == [first, second]
    assert all(screen.source.results() is not None for screen in host_screens + peer_screens)
    for home in (seen.ann.home, seen.bea.home):  # new secrets for the new table, on both machines
        drawn = masters(home)
        assert set(drawn) == {first, second} and drawn[first] != drawn[second]


def my_seat(screen: TableScreen) -> int | None:
    assert isinstance(screen.source, NetTable)
    return screen.source.table.my_seat


def test_a_rematch_keeps_everyones_seat_the_host_chose_seat_2_and_keeps_it(tmp_path: Path) -> None:
    seen = two_games(tmp_path, host_seat=1)  # atoll host --seat 2: Bea, who chose none, has seat 1
    assert [my_seat(screen) for screen in seen.host_screens] == [1, 1]  # not the first free seat again
    assert [my_seat(screen) for screen in seen.peer_screens] == [0, 0]
    rematch = seen.host_screens[1].source
    assert isinstance(rematch, NetTable) and rematch.table.lobby is not None
    kept = {k["name"]: k["seat"] for k in rematch.table.lobby.kept}
    assert kept == {"Ann": 1, "Bea": 0}  # in the signed open entry, so every peer seats alike


def test_waiting_for_the_next_game_gives_up_with_a_line_saying_what_to_do() -> None:
    key = SigningKey.generate()
    curve = curve_keys(key)[0].decode()
    with pytest.raises(AtollError, match=r"no next game opened at 127\.0\.0\.1:\d+ .*atoll join"):
        asyncio.run(knock("127.0.0.1", free_port(), curve, key, after="finished-table", wait=0.5))


def test_ctrl_c_while_waiting_for_the_next_game_says_the_game_is_over_and_nothing_is_owed(
    tmp_path: Path,
) -> None:
    from atoll.app.joining import JoinState
    from atoll.cli.cmd_join import interrupted_line

    found = Registry(games={"highcard": InstalledGame(HighCard(), "tests", "tests")})
    bea = open_profile(tmp_path / "bea", name="Bea")
    curve = curve_keys(SigningKey.generate())[0].decode()
    state = JoinState()

    async def knocking() -> str:
        plan = JoinPlan("127.0.0.1", free_port(), curve, None, None, False, True)
        task = asyncio.ensure_future(join_table(plan, found, bea, after="kariba-finished", state=state))
        await asyncio.sleep(0.2)  # knocking at an address where no next game has opened yet
        said = interrupted_line(state)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        return said

    said = asyncio.run(knocking())
    assert "table kariba-finished is over and nothing is owed there" in said
    assert "--resume" not in said


def test_ctrl_c_before_the_game_is_over_says_how_to_take_the_seat_again() -> None:
    from atoll.app.joining import JoinState
    from atoll.cli.cmd_join import interrupted_line

    at_table = JoinState(at="kariba-0123")
    assert interrupted_line(at_table).endswith("take your seat again with: atoll join --resume")


def test_ctrl_c_before_reaching_any_table_says_nothing_was_written() -> None:
    from atoll.app.joining import JoinState
    from atoll.cli.cmd_join import interrupted_line

    said = interrupted_line(JoinState())
    assert "nothing was written" in said and "--resume" not in said


def moved_table(me: SigningKey, first: SigningKey) -> NetTable:
    """A peer's table (``me``) first hosted by ``first`` that another seat took over at entry 5."""
    from atoll.table.table import Table

    async def send(data: bytes) -> None:
        return None

    table = Table("highcard-moved", first.verify_key.encode(), me, lambda game: HighCard())
    table.log.hand_over(5, SigningKey.generate().verify_key.encode())
    return NetTable(table, role="sit", send=send)


def test_after_the_table_moved_during_the_game_r_says_a_rematch_needs_its_first_host() -> None:
    from atoll.app.person import rematch_line

    line = rematch_line(moved_table(SigningKey.generate(), SigningKey.generate()))
    assert line.startswith("this table moved to another seat during the game: a rematch needs its first host")


def test_after_the_table_moved_r_at_the_first_host_hosts_the_next_game_where_the_others_look() -> None:
    from atoll.app.person import rematch_line

    first = SigningKey.generate()
    line = rematch_line(moved_table(first, first))
    assert "r: host another game at this machine's address" in line
