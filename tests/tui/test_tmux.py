"""The full-screen client in a real terminal (tmux, 80x24): what a person checks while playing.

The whole board on every turn, the hand, the prompt, the move applied, a refusal explained with
the text kept, Tab completing, leaving with the command to go on, and the result screen.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from atoll.client.saves import read_save

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None,
                                reason="tmux is not installed (apt-get install tmux)")


class Terminal:
    """A tmux server of our own (its own socket) running one command in an 80x24 window."""

    def __init__(self, socket: str) -> None:
        self.socket = socket

    def tmux(self, *args: str) -> str:
        done = subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True,
                              timeout=10, check=True)
        return done.stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "play")

    def printed(self) -> str:
        """The screen with wrapped lines joined (a printed command longer than the width is one line)."""
        return self.tmux("capture-pane", "-p", "-J", "-t", "play")

    def wait_for(self, check: str | re.Pattern[str], timeout: float = 30) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if (check.search(screen) if isinstance(check, re.Pattern) else check in screen):
                return screen
            time.sleep(0.1)
        raise AssertionError(f"{check!r} did not appear; the screen shows:\n{self.screen()}")

    def type(self, text: str, *keys: str) -> None:
        if text:
            self.tmux("send-keys", "-t", "play", "-l", text)
        if keys:
            self.tmux("send-keys", "-t", "play", *keys)


def start(tmp_path: Path, *args: str, command_name: str = "play") -> Iterator[Terminal]:
    term = Terminal(f"atoll-test-{uuid.uuid4().hex[:12]}")
    if command_name == "play" and "--bot-delay" not in args:
        args = ("--bot-delay", "0", *args)  # bots at full speed, unless a test looks at the pacing
    command = shlex.join(["env", f"ATOLL_HOME={tmp_path / 'atoll'}", sys.executable, "-m", "atoll.cli.main",
                          command_name, *args]) + "; sleep 120"
    try:
        term.tmux("new-session", "-d", "-s", "play", "-x", "80", "-y", "24", "-c", str(ROOT), command)
        yield term
    finally:
        subprocess.run(["tmux", "-L", term.socket, "kill-server"], capture_output=True, timeout=10)
        socket = Path(os.environ.get("TMUX_TMPDIR", "/tmp")) / f"tmux-{os.getuid()}" / term.socket
        socket.unlink(missing_ok=True)


@pytest.fixture
def kariba(tmp_path: Path) -> Iterator[Terminal]:
    yield from start(tmp_path, "kariba", "--bots", "random", "--seed", "3")


@pytest.fixture
def kiribati(tmp_path: Path) -> Iterator[Terminal]:
    yield from start(tmp_path, "kiribati", "--variant", "family", "--bots", "random", "--seed", "3")


#: The Kariba board: every line a person reads, from the waterhole to the hand.
KARIBA_BOARD = ["Waterhole", "  1 mouse", "  8 elephant", "Draw pile:", "player 1 (you):", "player 2:",
                "Your hand:"]
YOUR_TURN = re.compile(r"^ your turn .*\n(your move>|game over)", re.MULTILINE)


def test_kariba_plays_to_the_result_screen_with_the_whole_board_on_every_turn(
    kariba: Terminal, tmp_path: Path
) -> None:
    screen = kariba.wait_for(YOUR_TURN)
    kariba.type("play 9 unicorn", "Enter")
    refused = kariba.wait_for("is not a legal action now")
    assert "your move> play 9 unicorn" in refused  # what was typed stays
    kariba.type("", "C-u")
    turns = 0
    while "game over" not in screen:
        for line in KARIBA_BOARD:
            assert line in screen, f"turn {turns}: {line!r} is not on the screen:\n{screen}"
        hand = re.search(r"^Your hand: (\w+)", screen, re.MULTILINE)
        assert hand is not None, screen
        move = f"play 1 {hand.group(1)}"
        kariba.type(move)
        kariba.wait_for(f"your move> {move}")  # typed (and the last move's note gone) before Enter
        kariba.type("", "Enter")
        turns += 1
        screen = kariba.wait_for(re.compile(rf"^ your turn .*\nyour move>\s*\n.*you played: {move}|game over",
                                            re.MULTILINE), timeout=60)
    assert turns > 5
    screen = kariba.wait_for("game over (Enter leaves, r: rematch)>")
    kariba.type("", "Enter")
    kariba.wait_for("replay it with: ")
    hint = re.search(r"replay it with: (.+)$", kariba.printed(), re.MULTILINE)
    assert hint is not None
    saved = next((tmp_path / "atoll" / "games").glob("kariba-*.jsonl"))
    assert read_save(saved).finished
    done = subprocess.run(hint.group(1) + " --plain", shell=True, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "ATOLL_HOME": str(tmp_path / "atoll")})
    assert done.returncode == 0 and "every step checks" in done.stdout  # the command works as printed


def test_kiribati_explains_a_refusal_completes_with_tab_and_leaves_resumable(
    kiribati: Terminal, tmp_path: Path
) -> None:
    screen = kiribati.wait_for("secret choice>")
    for line in ["MAINLAND", " r4 ", " r1 ", "ISLAND", "your hand:", "▶●1 red (you)"]:
        assert line in screen, f"{line!r} is not on the screen:\n{screen}"
    kiribati.type("kep", "Enter")
    refused = kiribati.wait_for("'kep' is not a legal action now")
    assert "secret choice> kep" in refused
    kiribati.type("", "C-u")
    kiribati.type("keep f", "Tab")
    kiribati.wait_for(re.compile(r"secret choice> keep feeding\s*$", re.MULTILINE))  # tmux trims the space
    kiribati.type("rest current sleep")
    kiribati.wait_for("secret choice> keep feeding rest current sleep")  # Tab gave "keep feeding "
    kiribati.type("", "Enter")
    kiribati.wait_for("made a secret choice (keep feeding rest current sleep; only you know it)")
    kiribati.type("", "C-c")
    kiribati.wait_for("leave the game? it is saved")
    kiribati.type("y")
    kiribati.wait_for(re.compile(r"^saved to ", re.MULTILINE))  # printed once the screen is gone
    assert "go on later with: " in kiribati.printed() and "play --resume" in kiribati.printed()
    saved = next((tmp_path / "atoll" / "games").glob("kiribati-*.jsonl"))
    assert not read_save(saved).finished


@pytest.fixture
def hosting(tmp_path: Path) -> Iterator[Terminal]:
    yield from start(tmp_path, "kariba", "--seats", "2", "--bots", "1", "--bot-kind", "random", "--bind",
                     "127.0.0.1", "--no-announce", "--player", "Ann", command_name="host")


def test_atoll_host_seats_its_person_at_the_table_screen_with_table_talk(hosting: Terminal) -> None:
    screen = hosting.wait_for(YOUR_TURN, timeout=60)  # the bot peer (its own process) sat down
    for line in [*KARIBA_BOARD, "▶●1 player 1 (you)", "▲2 player 2 (bot 1, random bot)"]:
        assert line in screen, f"{line!r} is not on the screen:\n{screen}"
    hosting.type("'hello, bot", "Enter")
    hosting.wait_for("» Ann (player 1): hello, bot", timeout=60)
    hosting.type("", "C-c")
    hosting.wait_for("leave the game? you host this table: leaving closes it for everyone", timeout=60)
    hosting.type("y")
    hosting.wait_for("is closed for everyone", timeout=60)  # printed once the screen is gone
    assert "Ann, the host, closed the table" in hosting.printed()


def _bot_process(home: Path) -> int:
    """The process id of the bot peer this test's host started (its data folder is under ``home``)."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes().split(b"\0")
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if b"join" in command and any(v.startswith(f"ATOLL_HOME={home}/bots/".encode()) for v in environ):
            return int(entry.name)
    raise AssertionError(f"no bot process under {home}")


def test_a_network_table_shows_the_turn_time_left_and_a_seat_that_went_away(tmp_path: Path) -> None:
    for term in start(tmp_path, "kariba", "--seats", "2", "--bots", "1", "--bot-kind", "random", "--bind",
                      "127.0.0.1", "--no-announce", "--player", "Ann", "--turn-time", "300",
                      command_name="host"):
        screen = term.wait_for(re.compile(r"^ \d:\d\d left · your turn ", re.MULTILINE), timeout=60)
        assert "(bot 1, random bot)" in screen, screen
        os.kill(_bot_process(tmp_path / "atoll"), signal.SIGKILL)  # the bot's machine is gone, off turn
        screen = term.wait_for("bot 1 is away; the table waits", timeout=15)
        assert "(bot 1, away)" in screen, screen
        assert re.search(r"^ \d:\d\d left · your turn ", screen, re.MULTILINE), screen
