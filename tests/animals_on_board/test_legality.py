"""Illegal actions are refused and change nothing (rule A28)."""

from __future__ import annotations

from typing import Any

import pytest

from atoll import IllegalAction, MalformedInput, ProtocolViolation, Shuffle, State
from atoll.jsondata import canonical
from tests.animals_on_board.scenario import GAME, table


def refused(state: State, bad: Any) -> None:
    """``bad`` raises IllegalAction and leaves ``state`` as it was."""
    before = canonical(state)
    with pytest.raises(IllegalAction):
        GAME.apply(state, bad)
    assert canonical(state) == before


def position() -> State:
    state, _ = table(seats=3, groups=[["camel1", "fox2", "lion3"], ["zebra4"]], crates=[1, 1, 1])
    return state


@pytest.mark.parametrize(
    "bad",
    [
        {"split": 3, "part": ["tiles.3"]},
        {"split": 0, "part": ["tiles.1"]},
        {"split": True, "part": ["tiles.1"]},
        {"split": 1, "part": ["tiles.0"]},
        {"split": 1, "part": ["tiles.2", "tiles.1"]},
        {"split": 1, "part": ["tiles.1", "tiles.1"]},
        {"split": 1, "part": []},
        {"split": 1, "part": ["tiles.3"]},
        {"split": 2, "part": ["tiles.3"]},
        {"split": 1},
        {"take": 1},
        {"take": "1"},
        {"forfeit": True},
        {"discard": []},
        {"secret": ["tiles.0", "camel1"]},
        {"sealed": ["s0-0.0", "s0-0.1"]},
        [],
    ],
    ids=["no-group-3", "group-0", "group-true", "first-tile", "out-of-order", "twice", "nothing",
         "other-group", "single", "no-part", "too-dear", "number-as-text", "forfeit-with-moves",
         "discard-in-play", "secret-in-play", "sealed-in-play", "not-an-object"],
)
def test_a28_an_illegal_move_is_refused_and_changes_nothing(bad: Any) -> None:
    """A28: splits of missing groups, of the first tile, out of order or twice; takes one cannot
    pay; a forfeit with moves left; set-up and departure actions in the middle of a round."""
    refused(position(), bad)


def test_a28_chance_the_game_did_not_ask_for_is_refused() -> None:
    """A28: the game folds in only the chance it asked for, with a well-formed outcome."""
    state = GAME.setup(GAME.configure(4))
    with pytest.raises(ProtocolViolation, match="did not ask"):
        GAME.resolve(state, Shuffle("deck", ("lion1",)), {"handles": ["deck.0"]})
    request = GAME.next(state).request  # type: ignore[union-attr]
    with pytest.raises(MalformedInput, match="must name the tiles"):
        GAME.resolve(state, request, {"handles": ["tiles.1", "tiles.0"]})


def test_a28_no_seat_may_act_while_chance_is_to_act() -> None:
    """A28: before the shuffle nobody has anything to do."""
    state = GAME.setup(GAME.configure(2, options={"removed": ["camel", "fox", "lion", "zebra"]}))
    refused(state, {"take": 1})
    assert GAME.legal_actions(state, 0, {}) == []
