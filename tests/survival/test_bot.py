"""The Survival bot hunts what its predator can reach and moves its prey out of danger."""

from __future__ import annotations

from atoll import State
from atoll.bots.random_bot import RandomBot
from atoll.engine import LocalResolver, Match, run
from atoll.engine.loop import observe
from atoll.plugins.survival.bot import SurvivalBot, distances, prey_value, threats
from atoll.plugins.survival.obstacles import choices, walls
from atoll.registry import load_registry
from atoll.types import Decision
from tests.bots.checked import Checked
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


def test_on_doubles_the_bot_lays_the_obstacle_that_leaves_its_prey_safest() -> None:
    """S14: red rolls 3-3 with its buffalo and kudu in reach of blue's predator in the middle. The
    obstacle it lays (the best of the 40 layouts it weighs) leaves its prey safer than all but a
    twentieth of the 615 layouts it could lay; a layout picked blindly would do so once in twenty."""
    tokens = {"a1": "red predator", "b5": "red buffalo", "e8": "red kudu", "g6": "blue predator",
              "k11": "blue impala", "k10": "blue kudu"}
    state = play_turn(roll(position(tokens), 3, 3), 0)
    assert len(state["obstacles"]) == 1
    laid = prey_value(state, 0, threats(state, 0))
    before = dict(state, obstacles={}, walls=walls({}), obstacle_due=True)
    safer = 0
    layouts = choices(before)
    for number, at, turn, _ in layouts:
        obstacles = {str(number): {"at": at, "turn": turn}}
        after = dict(before, obstacles=obstacles, walls=walls(obstacles))
        safer += prey_value(after, 0, threats(after, 0)) > laid
    assert safer <= len(layouts) // 20


def bot_game(seats: int, seed: int) -> Match:
    """One game to its end with a Survival bot in every seat."""
    match = Match(GAME, GAME.configure(seats), LocalResolver(seed))
    run(match, [Checked(SurvivalBot(seed * 10 + s)) for s in range(seats)])
    return match


def test_the_bot_chooses_only_legal_actions_with_every_seat_count() -> None:
    """Whole games with 2, 3 and 4 seats, placing, hunting, fleeing and laying obstacles: every
    choice is one of the legal actions it was offered."""
    for seats in (2, 3, 4):
        bot_game(seats, seed=seats)


def test_the_same_seed_plays_the_same_game() -> None:
    """Two games with the same seeds are the same game, action for action."""
    assert bot_game(3, seed=8).events == bot_game(3, seed=8).events


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
