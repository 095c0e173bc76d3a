"""Whole games between random players: they end, and the tiles and crates always add up.

300 games per seat count run in batches of 100, so the test workers share them out; a game takes
a few milliseconds. The conformance kit and OpenSpiel's random_sim_test run over every seat count
in ``tests/test_conformance.py`` and ``tests/test_openspiel.py``, as for every installed game.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from atoll import End, State
from atoll.bots.random_bot import RandomBot
from atoll.engine import LocalResolver, Match, load, replay, run, save
from atoll.plugins.animals_on_board import AnimalsOnBoard
from atoll.plugins.animals_on_board.meta import CRATES, FULL, MOST_CRATES
from atoll.plugins.animals_on_board.rules import pile_left, tiles_in_play
from atoll.registry import load_registry
from tests.animals_on_board.scenario import GAME

GAMES, BATCH = 300, 100


def assert_consistent(state: State) -> None:
    """Every tile is in one place, every crate too, and nobody holds more than five."""
    if not state["species"] or state["phase"] in ("shuffle", "deal", "keep", "open", "show"):
        return
    places = [h for group in state["groups"] for h in group]
    places += [h for ark in state["arks"] for h in ark] + [h for lost in state["discarded"] for h in lost]
    assert len(places) == len(set(places))
    assert len(places) + pile_left(state) == len(tiles_in_play(state))
    assert sum(state["crates"]) + state["supply"] == CRATES
    assert all(0 <= c <= MOST_CRATES for c in state["crates"]) and state["supply"] >= 0


def play_random(seats: int, seed: int, *, check_every_step: bool = False) -> Match:
    """One game between random players through the engine, to its end."""
    match = Match(GAME, GAME.configure(seats), LocalResolver(seed))
    on_action = (lambda m, seat, action: assert_consistent(m.state)) if check_every_step else None
    end = run(match, [RandomBot(seed * 10 + seat) for seat in range(seats)], on_action=on_action)
    assert isinstance(end, End)
    assert_consistent(match.state)
    assert all(len(ark) <= FULL for ark in match.state["arks"])
    state = match.state
    held = [len(ark) + len(lost) for ark, lost in zip(state["arks"], state["discarded"], strict=True)]
    assert max(held) >= FULL
    return match


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_random_games_keep_their_books_at_every_step(seats: int) -> None:
    """A few games, the tiles and crates checked after every action (A3, A12-A14, A23, A24)."""
    for seed in range(3):
        play_random(seats, seed, check_every_step=True)


@pytest.mark.parametrize("first", range(0, GAMES, BATCH))
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_three_hundred_random_games_per_seat_count_end_properly(seats: int, first: int) -> None:
    """300 random games per seat count end after a round with a full ark (A19), 100 to a batch."""
    for seed in range(first, first + BATCH):
        play_random(seats, seed)


def test_a_saved_game_replays_to_the_same_end(tmp_path: Path) -> None:
    """A recorded four-seat game, sealed choices and all, plays back to the same state and results."""
    resolver = LocalResolver(7)
    match = Match(GAME, GAME.configure(4), resolver)
    end = run(match, [RandomBot(seat) for seat in range(4)])
    path = tmp_path / "animals.jsonl"
    save(match, path, seed=7, faces=resolver.faces())
    replayed = replay(AnimalsOnBoard(), load(path))
    assert replayed.state == match.state and replayed.results() == end


def test_animals_on_board_is_found_through_its_entry_point() -> None:
    """The plugin registers through the `atoll.games` entry point, with its bot."""
    registry = load_registry()
    assert registry.games["animals_on_board"].plugin == "animals_on_board"
    assert [b.name for b in registry.bots_for("animals_on_board")].count("ark") == 1
