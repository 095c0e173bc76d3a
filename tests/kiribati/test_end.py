"""The end of the professional game, victory points, tie-breaks and opening the cards: K46-K49."""

from __future__ import annotations

from typing import Any

from atoll import Action, Chance, End, Observation, Reveal, State
from atoll.bots.random_bot import RandomBot
from atoll.engine import LocalResolver, Match, run
from atoll.plugins.kiribati.scoring import results
from tests.kiribati.scenario import GAME, act, roll, sea, with_cards

EVERY = ["monkey", "lizard", "kagu", "rabbit", "koala"]


def pro(**kwargs: Any) -> State:
    """A professional position in red's animal step."""
    state = sea(variant="professional", supply=(0, 0), dice=(4, 4), **kwargs)
    state.update(phase="animals", die=4)
    return state


def test_the_professional_game_lasts_fifteen_rounds() -> None:
    """K46: after the last player's turn of round 15 the game ends."""
    state = pro(turtles={"c2r2": (4, ["red kagu"])}, turn=1)
    state["round"] = 15
    after = act(state, "done")
    assert isinstance(GAME.next(after), End)
    state["round"] = 14
    assert act(state, "done")["phase"] == "event"


def test_a_full_rescue_ends_the_professional_game_at_the_end_of_that_round() -> None:
    """K46: the round is played to its end, then the game ends."""
    state = pro(
        turtles={"c2r4": (4, ["red koala"]), "c1r1": (4, [])}, mainland=[f"red {a}" for a in EVERY[:4]]
    )
    state = act(state, "koala mainland")
    assert state["finished"] == [0] and state["turn"] == 1 and state["phase"] == "roll"
    state = act(roll(state, 3, 3), "die 3")  # row 3 is empty and so is the supply: nothing happens
    assert state["turn"] == 1 and state["phase"] == "animals"  # blue still plays its turn
    state = act(state, "done")
    end = GAME.next(state)
    assert isinstance(end, End) and end.results.winners == (0,)


def test_victory_points_for_rescued_animals_and_unplayed_cards() -> None:
    """K47: lizard 9, kagu 8, koala 7, monkey 6, rabbit 5; unplayed cards 1 or 2."""
    state = pro(mainland=["red lizard", "red rabbit", "blue kagu"])
    state["hands"] = [["a", "b"], ["c"]]
    state["opened"] = {"a": "shark", "b": "current", "c": "feeding"}
    state["phase"] = "over"
    assert results(state).scores == (9 + 5 + 2 + 1, 8 + 1)


def test_ties_go_to_the_player_with_fewest_steps_still_to_go() -> None:
    """K48: equal points, nobody finished: fewest steps still to go to the mainland wins (5 - r from
    a turtle of row r, 5 from the island). The review's example: one rabbit in row 4 (1 step) beats
    a monkey in row 3 and a rabbit in row 2 (2 + 3 steps), where summing rows gave 4 against 5."""
    state = pro(
        turtles={"c1r4": (4, ["red rabbit"]), "c1r3": (4, ["blue monkey"]), "c1r2": (4, ["blue rabbit"])},
        mainland=[*(f"red {a}" for a in ("lizard", "kagu", "koala", "monkey")),
                  *(f"blue {a}" for a in ("lizard", "kagu", "koala"))],
    )
    state["hands"] = [[], ["w", "x", "y", "z"]]
    state["opened"] = {"w": "sleep", "x": "clamp", "y": "feeding", "z": "current"}
    assert results(state).scores == (30, 30)
    assert results(state).winners == (0,)


def test_an_animal_on_the_island_still_has_five_steps_to_go() -> None:
    """K48: the island counts as row 0, five steps from the mainland: a kagu in row 2 beats one in
    row 1 (every other animal but the lizards on the island), and loses once it is back on the island."""
    state = pro(
        turtles={"c1r1": (4, ["red kagu"]), "c1r2": (4, ["blue kagu"])},
        mainland=["red lizard", "blue lizard"],
    )
    assert results(state).winners == (1,)  # blue 3 + 3 * 5 = 18 steps against red 4 + 3 * 5 = 19
    state["board"][1][0] = {"size": 4, "animals": []}
    state["island"][1] = ["monkey", "kagu", "rabbit", "koala"]
    assert results(state).winners == (0,)  # red 19 against blue 4 * 5 = 20


def test_a_full_rescue_beats_an_equal_score() -> None:
    """K48: among equal points, a player who rescued every animal beats one who did not."""
    state = pro(mainland=["red kagu", "red rabbit", "red koala", "red monkey", "red lizard"])
    state["finished"] = [0]
    state["mainland"][1] = ["lizard", "kagu", "koala", "monkey"]
    state["island"][1] = []
    state["board"][3][0] = {"size": 4, "animals": [[1, "rabbit"]]}  # 30 points and a rabbit in row 4
    state["hands"] = [[], ["x", "y", "z"]]
    state["opened"] = {"x": "shark", "y": "sleep", "z": "rest"}  # and 5 for the cards
    assert results(state).scores == (35, 35)
    assert results(state).winners == (0,)


def test_between_two_full_rescues_the_first_to_finish_wins_a_tie() -> None:
    """K48: two players rescued everything with equal points: the first to do so wins."""
    state = pro(mainland=[f"{colour} {a}" for colour in ("red", "blue") for a in EVERY])
    state["finished"] = [1, 0]
    assert results(state).winners == (1,)


def test_players_still_equal_share_the_victory() -> None:
    """K48: nothing separates them: both win."""
    state = pro(mainland=["red kagu", "blue kagu"])
    assert results(state).winners == (0, 1)


def test_the_unplayed_cards_are_opened_at_the_end() -> None:
    """K49: when a family game ends, one reveal opens every kept card nobody played."""
    state = sea(
        variant="family", turtles={"c3r4": (2, ["red koala"])}, mainland=[f"red {a}" for a in EVERY[:4]]
    )
    state.update(phase="animals", die=4)
    with_cards(state, 0, ["feeding", "rest"])
    with_cards(state, 1, ["shark"])
    state = act(state, "koala mainland")
    step = GAME.next(state)
    assert isinstance(step, Chance) and step.request == Reveal(("k0.0", "k0.1", "k1.0"))
    state = GAME.resolve(state, step.request, {"faces": {"k0.0": "feeding", "k0.1": "rest", "k1.0": "shark"}})
    assert state["opened"] == {"k0.0": "feeding", "k0.1": "rest", "k1.0": "shark"}
    assert isinstance(GAME.next(state), End)


def test_the_engine_opens_the_unplayed_cards_with_their_true_faces() -> None:
    """K49: through the engine, the opened faces are the ones the players sealed."""
    match = Match(GAME, GAME.configure(2, "professional"), LocalResolver(3))
    run(match, [Hoarder(1), Hoarder(2)])
    unplayed = [h for hand in match.state["hands"] for h in hand]
    assert len(unplayed) == 8
    assert match.state["opened"] == {h: match.known[int(h[1])][h] for h in unplayed}


class Hoarder(RandomBot):
    """A random player that never plays a card."""

    def choose(self, observation: Observation) -> Action:
        return self._rng.choice([a for a in observation.legal if a.get("do") != "play"])
