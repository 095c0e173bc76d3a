"""Illegal actions are refused and change nothing (K50); a saved game replays to the same end (the
conformance kit over every variant and seat count is in tests/test_conformance.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from atoll import IllegalAction, MalformedInput, Pick, Roll, State
from atoll.bots.random_bot import RandomBot
from atoll.engine import LocalResolver, Match, load, replay, run, save
from atoll.jsondata import digest
from tests.kiribati.scenario import GAME, act, action, sea, with_cards


def refused(state: State, bad: Any) -> None:
    """``bad`` raises IllegalAction and leaves ``state`` as it was."""
    before = digest(state)
    with pytest.raises(IllegalAction):
        GAME.apply(state, bad)
    assert digest(state) == before


def test_a_die_that_was_not_rolled_is_refused() -> None:
    """K50: only a rolled die may be chosen."""
    refused(sea(turtles={"c1r1": (4, [])}, dice=(2, 3)), {"do": "die", "value": 4})


def test_a_turtle_action_the_die_does_not_allow_is_refused() -> None:
    """K50: a 1 moves a turtle of row 1 only."""
    state = act(sea(turtles={"c1r1": (4, []), "c1r2": (4, [])}, dice=(1, 1)), "die 1")
    refused(state, {"do": "turtle", "at": "c1r2"})
    refused(state, {"do": "new", "size": 4, "row": 1})
    refused(state, {"do": "dive", "at": "c1r1"})


def test_a_move_onto_open_water_or_a_full_turtle_is_refused() -> None:
    """K50: an animal only moves where the rules let it."""
    state = sea(turtles={"c1r1": (4, ["red kagu"]), "c1r2": (1, ["blue rabbit"])}, dice=(4, 4))
    state.update(phase="animals", die=4)
    refused(state, {"do": "move", "animal": "kagu", "to": "c2r1"})
    refused(state, {"do": "move", "animal": "kagu", "to": "c1r2"})
    refused(state, {"do": "move", "animal": "kagu", "to": "mainland"})
    refused(state, {"do": "move", "animal": "rabbit", "to": "c1r2"})  # blue's rabbit is not red's to move


def test_an_action_with_a_stray_or_missing_field_is_refused() -> None:
    """K50: an action must be exactly a legal one: no extra fields, none missing, right types."""
    state = sea(turtles={"c1r1": (4, [])}, dice=(2, 3))
    refused(state, {"do": "die", "value": 2, "also": "this"})
    refused(state, {"do": "die"})
    refused(state, {"do": "die", "value": "2"})
    refused(state, {"die": 2})
    refused(state, "die 2")


def test_a_card_not_in_hand_or_with_a_false_face_is_refused() -> None:
    """K50: a card play must name a kept, unplayed card and the face it was kept as."""
    state = sea(variant="family", turtles={"c2r3": (4, ["blue rabbit"])}, dice=(4, 4))
    with_cards(state, 0, ["shark"])
    play = {
        "do": "play",
        "card": "shark",
        "handle": "k0.0",
        "target": [1, "rabbit"],
        "reveal": {"k0.0": "shark"},
    }
    assert GAME.apply(state, play)["phase"] == "die"
    refused(state, {**play, "handle": "k1.0", "reveal": {"k1.0": "shark"}})
    refused(state, {**play, "reveal": {"k0.0": "rest"}})
    refused(state, {**play, "target": [0, "kagu"]})


def test_a_second_card_in_one_turn_is_refused() -> None:
    """K50 with K29: one card a turn."""
    state = sea(variant="family", turtles={"c2r3": (4, ["blue rabbit"])}, dice=(4, 4))
    known = with_cards(state, 0, ["feeding", "shark"])
    state = act(state, "play feeding", known=known)
    refused(
        state,
        {
            "do": "play",
            "card": "shark",
            "handle": "k0.1",
            "target": [1, "rabbit"],
            "reveal": {"k0.1": "shark"},
        },
    )


def test_keeping_cards_must_seal_four_fresh_handles() -> None:
    """K50 with K5: the sealed choice hands the game four distinct new handles."""
    state = GAME.setup(GAME.configure(2, "family"))
    state.update(phase="keep")
    refused(state, {"sealed": ["a", "b", "c"]})
    refused(state, {"sealed": ["a", "a", "b", "c"]})
    refused(state, {"secret": ["feeding", "rest", "current", "sleep"]})
    state["hands"][1] = ["a"]
    refused(state, {"sealed": ["a", "b", "c", "d"]})


def test_no_action_while_chance_is_to_act() -> None:
    """K50: nobody acts while the dice are rolling."""
    state = sea(turtles={"c1r1": (4, [])})
    state.update(phase="roll")
    refused(state, {"do": "done"})


def test_a_chance_outcome_that_does_not_answer_the_request_is_refused() -> None:
    """K50: an outcome from outside the request, or for another request, is malformed."""
    state = sea(turtles={"c1r1": (4, [])})
    state.update(phase="roll")
    with pytest.raises(MalformedInput):
        GAME.resolve(state, Roll(2, 6), {"values": [7, 1]})
    with pytest.raises(MalformedInput):
        GAME.resolve(state, Roll(1, 6), {"values": [3]})
    with pytest.raises(MalformedInput):
        GAME.resolve(state, Pick((1, 2)), {"picked": [1]})


@pytest.mark.parametrize("values", [[True, 3], [1.0, 3], ["2", 3], [3, 3, 3]], ids=repr)
def test_dice_show_whole_numbers_only(values: list[object]) -> None:
    """K6: a die shows 1-6; ``True`` or ``1.0`` (equal to 1 in Python) is no die, say, in an edited save."""
    state = sea(turtles={"c1r1": (4, [])})
    state.update(phase="roll")
    with pytest.raises(MalformedInput, match="two dice show two values 1-6"):
        GAME.resolve(state, Roll(2, 6), {"values": values})


def test_the_texts_of_actions_are_the_ones_players_type() -> None:
    """The legal actions read as the rules page lists them."""
    state = sea(
        variant="family", turtles={"c1r1": (4, ["red koala"]), "c1r2": (1, ["blue rabbit"])}, dice=(4, 4)
    )
    state.update(phase="animals", die=4)
    known = with_cards(state, 0, ["shark", "current", "clamp"])
    assert (
        GAME.describe(state, action(state, "koala c1r2 bump blue rabbit", known))
        == "koala c1r2 bump blue rabbit"
    )
    assert GAME.describe_log(state, 0, {"sealed": ["x"]}) == "red keeps four action cards"


# -- the game API, through the conformance kit and the engine ---------------------------------

# The conformance kit over a random game of every variant and seat count runs in
# tests/test_conformance.py, with every installed game: it is not repeated here.


def test_a_saved_game_replays_to_the_same_end(tmp_path: Path) -> None:
    """A professional game saved by the engine replays step by step to the same state and result."""
    config = GAME.configure(3, "professional")
    resolver = LocalResolver(11)
    match = Match(GAME, config, resolver)
    run(match, [RandomBot(s) for s in range(3)])
    save(match, tmp_path / "game.jsonl", seed=11, faces=resolver.faces())
    again = replay(GAME, load(tmp_path / "game.jsonl"))
    assert digest(again.state) == digest(match.state)
    assert again.results() == match.results()
