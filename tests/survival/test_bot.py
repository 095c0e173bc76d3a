"""The Survival bot hunts what its predator can reach and moves its prey out of danger."""

from __future__ import annotations

from atoll import State
from atoll.bots.random_bot import RandomBot
from atoll.engine import LocalResolver, Match, run
from atoll.engine.loop import observe
from atoll.plugins.survival.bot import SurvivalBot, distances
from atoll.registry import load_registry
from atoll.types import Decision
from tests.survival.scenario import GAME, position, roll


def play_turn(state: State, seat: int) -> State:
    """Let the bot play ``seat``'s whole turn from ``state`` (after the roll)."""
    match = Match(GAME, GAME.configure(state["seats"]), LocalResolver(0))
    match.state = state
    bot = SurvivalBot(1)
    while isinstance(match.step(), Decision) and match.state["turn"] == seat:
        match.act(seat, bot.choose(observe(match, seat)))
    return match.state


def test_the_bot_gives_its_predator_the_die_that_catches_most() -> None:
    """With 2 and 5 the predator takes the 5 and passes over both the impala and the buffalo."""
    tokens = {"d8": "red predator", "a2": "red zebra", "k11": "blue predator", "e8": "blue impala",
              "d6": "blue buffalo", "k8": "blue kudu"}
    state = play_turn(roll(position(tokens), 2, 5), 0)
    assert sorted(animal for _, animal in state["caught"][0]) == ["buffalo", "impala"]


def test_the_bot_moves_a_threatened_prey_away_from_the_predator() -> None:
    """Blue's buffalo two steps from red's predator ends its turn further away."""
    tokens = {"a1": "red predator", "b2": "red zebra", "k11": "blue predator", "d4": "blue buffalo",
              "k8": "blue kudu", "j9": "blue impala"}
    state = roll(position(tokens, turn=1), 6, 3)
    before = distances("a1", set())["d4"]
    after_state = play_turn(state, 1)
    buffalo = after_state["prey"][1]["buffalo"]
    assert distances("a1", {"c3"})[buffalo] > before


def test_the_bot_is_offered_for_survival_only() -> None:
    """The plugin contributes the ``survival`` bot kind for this game."""
    kind = load_registry().bot("survival", "survival")
    assert kind.games == ("survival",)


def test_the_bot_beats_random_players() -> None:
    """In six three-seat games against two random players, the bot (seat rotating) wins at least five."""
    wins = 0
    for seed in range(6):
        bots = [RandomBot(seed * 10 + s) for s in range(3)]
        bots[seed % 3] = SurvivalBot(seed)  # type: ignore[call-overload]
        match = Match(GAME, GAME.configure(3), LocalResolver(seed))
        end = run(match, bots)
        wins += seed % 3 in end.results.winners
    assert wins >= 5
