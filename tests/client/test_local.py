"""Setting up a local game against bots, and saving it so `atoll replay` can check it."""

from __future__ import annotations

from pathlib import Path

import pytest

from atoll.bots.base import BotKind
from atoll.bots.random_bot import make_random_bot
from atoll.client.local import LocalGame, SetupError, bot_seed, default_bot, start_local_game
from atoll.engine import load, replay
from atoll.errors import UnknownGame
from atoll.registry import Registry, load_registry
from tests.games import highcard


@pytest.fixture
def registry() -> Registry:
    return load_registry(entry_points=False, extra=[("highcard", highcard)])


def play_out(local: LocalGame) -> None:
    """Play your seat by always taking the first legal text."""
    model = local.model
    model.advance()
    while model.results() is None:
        model.take(model.texts()[0])
        model.advance()


def test_the_default_bot_is_search_when_it_is_installed(registry: Registry) -> None:
    assert default_bot(registry, "highcard") == "search"


def test_the_default_bot_is_random_when_no_search_bot_is_installed(registry: Registry) -> None:
    only_random = Registry(registry.games, {"random": BotKind("random", "random", make_random_bot)})
    assert default_bot(only_random, "highcard") == "random"


def test_the_default_bot_is_one_made_for_the_game_when_a_plugin_offers_it(registry: Registry) -> None:
    expert = BotKind("expert", "plays only high card", make_random_bot, games=("highcard",))
    other = BotKind("chess-master", "plays only chess", make_random_bot, games=("chess",))
    kinds = {**registry.bots, "expert": expert, "chess-master": other}
    assert default_bot(Registry(registry.games, kinds), "highcard") == "expert"


def test_one_bot_kind_fills_every_bot_seat(registry: Registry) -> None:
    local = start_local_game(registry, "highcard", seed=1, seats=4, bots=["random"])
    assert local.model.names() == ["seat 1 (you)", "seat 2 (random bot)", "seat 3 (random bot)",
                                   "seat 4 (random bot)"]


def test_the_player_may_take_another_seat(registry: Registry) -> None:
    local = start_local_game(registry, "highcard", seed=1, seats=3, seat=2, bots=["random"])
    assert local.model.names()[2] == "seat 3 (you)"  # seat index 2: the third seat


def test_a_list_of_bot_kinds_must_give_one_per_bot_seat(registry: Registry) -> None:
    with pytest.raises(SetupError, match="2 bot kinds given for 3 bot seats"):
        start_local_game(registry, "highcard", seed=1, seats=4, bots=["random", "random"])


def test_an_unknown_bot_kind_is_refused_naming_the_kinds_there_are(registry: Registry) -> None:
    with pytest.raises(UnknownGame, match="no bot kind 'genius' plays highcard"):
        start_local_game(registry, "highcard", seed=1, bots=["genius"])


def test_a_seat_that_does_not_exist_is_refused(registry: Registry) -> None:
    with pytest.raises(SetupError, match="seat 3 does not exist: High Card has seats 1-2 here"):
        start_local_game(registry, "highcard", seed=1, seats=2, seat=2)


def test_each_bot_gets_its_own_seed_from_the_games_seed() -> None:
    assert bot_seed(7, 1) != bot_seed(7, 2)
    assert bot_seed(7, 1) == bot_seed(7, 1)


def test_the_same_seed_and_moves_give_the_same_game(registry: Registry) -> None:
    first, second = (
        start_local_game(registry, "highcard", seed=42, seats=3, bots=["search", "random"]) for _ in range(2)
    )
    play_out(first)
    play_out(second)
    assert first.model.match.events == second.model.match.events


def test_a_saved_game_replays_to_the_same_end(registry: Registry, tmp_path: Path) -> None:
    local = start_local_game(registry, "highcard", seed=9, seats=3, bots=["random"])
    play_out(local)
    local.save(tmp_path / "game.jsonl")
    saved = load(tmp_path / "game.jsonl")
    assert saved.seed == 9
    replayed = replay(highcard.HighCard(), saved)
    assert replayed.state == local.model.match.state


def test_an_unfinished_game_can_be_saved_and_replayed(registry: Registry, tmp_path: Path) -> None:
    local = start_local_game(registry, "highcard", seed=9, bots=["random"])
    local.model.advance()
    local.save(tmp_path / "game.jsonl")
    replayed = replay(highcard.HighCard(), load(tmp_path / "game.jsonl"))
    assert replayed.results() is None
    assert replayed.state == local.model.match.state
