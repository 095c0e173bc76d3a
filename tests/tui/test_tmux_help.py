"""Every built-in game explains itself in a real terminal (tmux, 80x24): in every variant, F2 shows its
rules summary, F3 its cards, tiles or pieces, F4 its board's symbols, each in the game's own words and
not a pointer to another key; and the first decision says in one line what is being decided."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from atoll.registry import load_registry
from tests.tui.test_tmux import Terminal, start

GAMES = load_registry()
CASES = [(name, variant) for name in sorted(GAMES.games) for variant in GAMES.game(name).info.variants]
#: The client's words when a game says nothing (core/tui/help.py): none may show.
FALLBACKS = ("gives no rules summary", "lists no cards", "gives no legend")
FIRST_TURN = re.compile(r"^ your turn \(.*\n(your move>|secret choice>)", re.MULTILINE)


@pytest.fixture(params=CASES, ids=["-".join(case) for case in CASES])
def playing(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Terminal, str, str]]:
    name, variant = request.param
    for term in start(tmp_path, name, "--variant", variant, "--bots", "random", "--seed", "3"):
        yield term, name, variant


def words(text: str, count: int = 4) -> str:
    """The first ``count`` words of ``text``: what a help screen shows at its top, wrapped or not."""
    return " ".join(text.split()[:count])


def opened(term: Terminal, key: str, title: str) -> str:
    """The help screen ``key`` opens, read once its title shows (and the close hint: the board is
    gone); it is closed again (Esc)."""
    term.type("", key)
    shown = re.compile(rf"^{re.escape(title)}$(?s:.*)Esc or q closes", re.MULTILINE)
    screen = " ".join(term.wait_for(shown).split())
    term.type("", "Escape")
    term.wait_for(FIRST_TURN)
    return screen


def test_f2_f3_and_f4_show_the_games_own_rules_cards_and_legend(playing: tuple[Terminal, str, str]) -> None:
    term, name, variant = playing
    game = GAMES.game(name)
    config = game.configure(2, variant)
    status = term.wait_for(FIRST_TURN, timeout=60).split("\n")
    asked = next(line for line in status if line.startswith(" your turn ("))
    assert not asked.rstrip().endswith((": a move", ": a secret choice")), asked  # the game says what

    rules = opened(term, "F2", f"{game.info.title} ({variant}), 2 seats")
    summary = game.rules_summary(config)
    assert words(summary, 6) in rules, rules
    assert " ".join(summary.split()[-4:]) in rules, rules  # the whole summary fits the screen
    cards = opened(term, "F3", "Cards, tiles and pieces")
    name_, meaning = game.glossary(config)[0]
    assert f"{name_} {words(meaning)}" in cards, cards
    legend = opened(term, "F4", "Legend")
    symbol, means = game.legend(config)[0]
    assert f"{symbol} {words(means)}" in legend, legend
    for screen in (rules, cards, legend):
        assert not any(fallback in screen for fallback in FALLBACKS), screen
