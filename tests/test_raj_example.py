"""The plugin guide's worked example of secret decisions (Raj, `tests/games/raj.py`): what each hook
receives for a sealed bid, the log naming who took the prize from the state after the bids open, and
the conformance kit over it."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from atoll import Chance, hookimpl
from atoll.client.local import new_local_table
from atoll.engine import LocalResolver, Match
from atoll.registry import load_registry
from atoll.testing import check_game
from tests.client.test_local_table import play_out
from tests.games.raj import Raj


def bidding(seats: int = 2) -> Match:
    game = Raj()
    match = Match(game, game.configure(seats), LocalResolver(3))
    while isinstance(match.step(), Chance):
        match.advance()
    return match


def test_the_bidder_reads_its_bids_as_describe_words_the_secret_values() -> None:
    match = bidding()
    texts = match.texts(0)
    assert texts["bid 13"] == {"secret": [13]}
    assert Raj().action_id(match.state, texts["bid 13"]) == 12


def test_apply_receives_a_handle_whose_card_only_the_bidder_knows() -> None:
    match = bidding()
    match.act(0, {"secret": [13]})
    [handle] = [h for h in match.state["bids"] if h is not None]
    assert handle == "s0-0.0" and match.knowledge(0)[handle] == 13
    assert handle not in match.knowledge(1)
    assert match.view(0)["my_bid"] == 13 and match.view(1)["my_bid"] is None


def test_the_log_names_who_took_the_prize_from_the_state_after_the_bids_open(tmp_path: Path) -> None:
    plugin = ModuleType("raj")
    plugin.atoll_games = hookimpl(lambda: [Raj()])  # type: ignore[attr-defined]
    found = load_registry(entry_points=False, extra=[("raj", plugin)])
    source = new_local_table(found, "raj", seed=2, bots=["random"], save_path=tmp_path / "raj.jsonl")
    play_out(source)
    opened = [line.text for line in source.log() if line.text.startswith("bids ")]
    assert len(opened) == 15
    assert all(": all matched" in text or " takes " in text for text in opened), opened
    assert "red: made a secret choice" in [line.seen_by(1) for line in source.log()]


@pytest.mark.parametrize("seats", [2, 5])
def test_raj_follows_the_game_api(seats: int) -> None:
    game = Raj()
    check_game(game, seats=[seats], playouts=1)
