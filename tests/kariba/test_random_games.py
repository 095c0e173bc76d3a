"""Whole Kariba games between random bots: they end, keep every card, and follow the game API."""

from __future__ import annotations

from pathlib import Path

import pytest

from atoll import Action, Deal, MalformedInput, ProtocolViolation, Shuffle
from atoll.bots.random_bot import RandomBot
from atoll.engine import LocalResolver, Match, load, replay, run, save
from atoll.jsondata import canonical, roundtrip
from atoll.plugins.kariba import Kariba
from atoll.plugins.kariba.rules import FACES, HANDLES
from atoll.registry import load_registry
from tests.kariba.scenario import GAME

CONFIGS = [(seats, variant) for variant in ("standard", "experienced") for seats in (2, 3, 4)]


def _checked_game(seats: int, variant: str, seed: int) -> Match:
    """Play one random game, checking at every decision that texts are unique and apply is pure."""
    match = Match(GAME, GAME.configure(seats, variant), LocalResolver(seed))

    def check(match: Match, seat: int, action: Action) -> None:
        match.texts(seat)  # raises AmbiguousAction if two legal actions share a text
        before = canonical(match.state)
        GAME.apply(match.state, action)
        assert canonical(match.state) == before
        assert roundtrip(match.state) == match.state

    run(match, [RandomBot(seed * 10 + seat) for seat in range(seats)], on_action=check)
    return match


@pytest.mark.parametrize(("seats", "variant"), CONFIGS)
def test_a_random_game_ends_with_scores_summing_to_the_cards_won(seats: int, variant: str) -> None:
    """K13, K14: every random game ends; the scores are the cards won, and no card is lost or made."""
    for seed in range(4):
        match = _checked_game(seats, variant, seed)
        end = match.results()
        assert end is not None
        view = match.view(None)
        assert list(end.results.scores) == view["won"]
        best = max(view["won"])
        assert list(end.results.winners) == [s for s, won in enumerate(view["won"]) if won == best]
        on_table = sum(view["hole"]) + sum(view["hand_sizes"]) + view["pile"] + len(view["row"])
        assert sum(end.results.scores) + on_table == 64
        assert view["pile"] == 0 and 0 in view["hand_sizes"]  # face-up cards may be left over (K18)


def test_a_saved_game_replays_to_the_same_end(tmp_path: Path) -> None:
    """A recorded experienced game with four seats plays back to the same state and results."""
    resolver = LocalResolver(7)
    match = Match(GAME, GAME.configure(4, "experienced"), resolver)
    end = run(match, [RandomBot(seat) for seat in range(4)])
    path = tmp_path / "kariba.jsonl"
    save(match, path, seed=7, faces=resolver.faces())
    replayed = replay(Kariba(), load(path))
    assert replayed.state == match.state
    assert replayed.results() == end


def test_chance_the_game_did_not_ask_for_is_refused() -> None:
    """The game folds in only the chance request it asked for, with a well-formed outcome."""
    state = GAME.setup(GAME.configure(2))
    with pytest.raises(ProtocolViolation, match="did not ask"):
        GAME.resolve(state, Deal(((0, ("deck.0",)),)), {})
    with pytest.raises(MalformedInput, match="must name the deck"):
        GAME.resolve(state, Shuffle("deck", FACES), {"handles": list(reversed(HANDLES))})


def test_kariba_is_found_through_its_entry_point() -> None:
    """The plugin registers through the `atoll.games` entry point, as a third-party plugin would."""
    registry = load_registry()
    assert registry.games["kariba"].plugin == "kariba"
    assert registry.games["kariba"].game.info.variants == ("standard", "experienced")
