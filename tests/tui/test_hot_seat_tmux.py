"""Two people at one keyboard in a real terminal (tmux, 80x24): every screen between their turns is
read, and none shows what the previous player chose in secret or holds (issue 30: the "pass the
keyboard" screen ended with `you played: bid 13`)."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.tui.test_tmux import Terminal, start

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None,
                                reason="tmux is not installed (apt-get install tmux)")

PROMPT = re.compile(r"^(secret choice|your move)> *$", re.MULTILINE)
HANDOFF = "Pass the keyboard to "


@pytest.fixture
def hot_seat(tmp_path: Path) -> Iterator[Terminal]:
    yield from start(tmp_path, "kiribati", "--variant", "family", "--humans", "2", "--seed", "3")


def legal_texts(term: Terminal) -> list[str]:
    """The first legal texts of the moment, as a refusal lists them (the typed text is then erased)."""
    term.type("zz", "Enter")
    term.wait_for("is not a legal action now")
    rows = term.tmux("capture-pane", "-p", "-N", "-t", "play").split("\n")  # -N: the spaces at the ends
    term.type("", "C-u")
    first = next(n for n, row in enumerate(rows) if "legal: " in row)
    hint = "".join(row.ljust(80) for row in rows[first:]).split("legal: ", 1)[1]
    texts = [text.strip() for text in hint.split(",")]
    return texts[:-1] if len(texts) > 1 else texts  # the list may be cut off at the last one


def test_no_screen_between_hot_seat_turns_shows_the_previous_players_secret_or_hand(
    hot_seat: Terminal,
) -> None:
    secrets: list[list[str]] = [[], []]  # each person's secret choices so far: nobody else may read them
    person, handoffs, moves = 0, 0, 0
    while handoffs < 4:
        screen = hot_seat.wait_for(PROMPT, timeout=60)
        secret = "secret choice>" in screen
        hand = re.search(r"^ *your hand: (.+)$", screen, re.MULTILINE)
        texts = legal_texts(hot_seat)
        chosen = texts[moves % len(texts)]  # the two people choose differently
        moves += 1
        hot_seat.type(chosen)
        hot_seat.wait_for(f"> {chosen}")
        hot_seat.type("", "Enter")
        if secret:
            secrets[person].append(chosen)
        after = hot_seat.wait_for(re.compile(f"{HANDOFF}|{PROMPT.pattern}", re.MULTILINE), timeout=60)
        if HANDOFF not in after:
            continue  # the same person decides again
        between = after
        assert "you played" not in between and chosen not in between, between
        assert "your hand" not in between and (hand is None or hand.group(1) not in between), between
        for said in secrets[person]:
            assert said not in between, f"{said!r} shows between turns:\n{between}"
        hot_seat.type("", "Enter")
        person, handoffs = 1 - person, handoffs + 1
        taken = hot_seat.wait_for(PROMPT, timeout=60)  # the next person's own screen, before they type
        assert "you played" not in taken, taken
        for said in secrets[1 - person]:
            assert said not in taken, f"{said!r} shows to the next person:\n{taken}"
    assert secrets[0] and secrets[1]  # both people's secret choices were put to the test
