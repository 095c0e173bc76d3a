"""Random games from start to end: they finish, keep their books, and replay (rules S16-S19).

The 300 games per seat count run in batches of 50 so that test workers share them out: the
suite plays the first batch, ``scripts/long-runs`` every batch. A few games checked at every step
run always. (The conformance kit and
OpenSpiel's ``random_sim_test`` run over every installed game, Survival included, for 2, 3
and 4 seats in ``tests/test_conformance.py`` and ``tests/test_openspiel.py``.)
"""

from __future__ import annotations

from pathlib import Path

import pytest

from atoll import Action, End, State
from atoll.bots.random_bot import RandomBot
from atoll.engine import LocalResolver, Match, load, replay, run, save
from atoll.plugins.survival import Survival
from atoll.plugins.survival.board import FIXED_SET
from atoll.plugins.survival.bot import SurvivalBot
from atoll.plugins.survival.meta import ANIMALS, POINTS
from atoll.plugins.survival.obstacles import walls
from atoll.plugins.survival.state import index_tokens
from atoll.registry import load_registry
from tests.fair.helpers import played_through
from tests.long_runs import batches
from tests.survival.scenario import GAME

GAMES = 300
BATCH = 50


def assert_consistent(state: State) -> None:
    """The books every rule keeps: the token index, obstacles clear of tokens, every prey on the board,
    caught or still to place exactly once, and a predator only for a player with prey."""
    assert state["at"] == index_tokens(state)
    assert state["walls"] == walls(state["obstacles"])
    assert not set(state["at"]) & (FIXED_SET | set(state["walls"]))
    seats: int = state["seats"]
    for seat in range(seats):
        caught = [animal for catcher in state["caught"] for owner, animal in catcher if owner == seat]
        mine = sorted([*state["prey"][seat], *state["unplaced"][seat], *caught])
        assert mine == sorted(ANIMALS)
        if state["phase"] != "place":
            assert (state["predators"][seat] is None) == (not state["prey"][seat])


def play_random(seats: int, seed: int, *, check_every_step: bool = False) -> Match:
    """One game between random players through the engine, to its end."""
    match = Match(GAME, GAME.configure(seats), LocalResolver(seed))

    def check(m: Match, seat: int, action: Action) -> None:
        assert_consistent(m.state)
        texts = m.texts(seat)
        assert len([t for t in texts if not t.startswith(("obstacle ", "place "))]) <= 6 + 6 * 5

    end = run(match, [RandomBot(seed * 10 + s) for s in range(seats)], max_steps=100_000,
              on_action=check if check_every_step else None)
    assert isinstance(end, End)
    assert_consistent(match.state)
    state = match.state
    survivors = [s for s in range(seats) if state["prey"][s]]
    caught = [sum(POINTS[a] for _, a in state["caught"][s]) for s in range(seats)]
    kept = [sum(POINTS[a] for a in state["prey"][s]) if s in survivors else 0 for s in range(seats)]
    assert list(end.results.scores) == [c + k for c, k in zip(caught, kept, strict=True)]
    assert len(survivors) == 1 or state["round"] == 60
    return match


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_random_games_keep_their_books_at_every_step(seats: int) -> None:
    """S16, S17: a few random games with the books checked after every action."""
    for seed in range(2):
        play_random(seats, seed, check_every_step=True)


@pytest.mark.slow
@pytest.mark.parametrize("first", batches(GAMES, BATCH))
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_three_hundred_random_games_per_seat_count_end_properly(seats: int, first: int) -> None:
    """S17, S19: 300 random games per seat count end with the right scores, 50 to a batch (the first
    batch in the suite, every batch in ``scripts/long-runs``)."""
    for seed in range(first, first + BATCH):
        play_random(seats, seed)


def test_a_saved_game_replays_to_the_same_end(tmp_path: Path) -> None:
    """A recorded four-seat game plays back to the same state and results."""
    resolver = LocalResolver(7)
    match = Match(GAME, GAME.configure(4), resolver)
    end = run(match, [RandomBot(seat) for seat in range(4)])
    path = tmp_path / "survival.jsonl"
    save(match, path, seed=7, faces=resolver.faces())
    replayed = replay(Survival(), load(path))
    assert replayed.state == match.state and replayed.results() == end


def test_a_whole_game_on_the_fair_protocols_rolls_every_die_together_and_re_checks() -> None:
    """S7: at a network table every throw is a roll both seats commit to before either is opened
    (the fair protocols); a whole game of two Survival bots plays to its end and its record re-checks."""
    net, record = played_through("survival", [SurvivalBot(seat) for seat in range(2)])
    engine = net.host.table.engine
    assert engine is not None and isinstance(engine.match.results(), End)
    rolls = sum(1 for e in engine.match.events if e.get("request", {}).get("kind") == "roll")
    assert record.seats == 2 and record.draws == rolls > 0


def test_survival_is_found_through_its_entry_point() -> None:
    """The plugin registers through the ``atoll.games`` entry point, as an outside plugin would."""
    registry = load_registry()
    assert registry.games["survival"].plugin == "survival"
    assert registry.games["survival"].game.info.min_seats == 2
    assert registry.games["survival"].game.info.max_seats == 4
