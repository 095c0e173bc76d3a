"""The conformance kit on private faces and booleans: it fails a game whose actions carry the dice under
the mover's cup outside "reveal", and a game that takes True for a number (issue 15, item 6)."""

from __future__ import annotations

import pytest

from atoll import Action, Knowledge, State
from atoll.authoring.examples.dice_under_cups import DiceUnderCups
from atoll.testing import ConformanceError, check_hidden_faces, check_illegal_actions, play


class ShowsItsDiceWithEveryBid(DiceUnderCups):
    """Each bid carries the bidder's own dice under "dice" (not "reveal"), and the state keeps them."""

    def legal_actions(self, state: State, seat: int, known: Knowledge) -> list[Action]:
        mine = sorted(int(known[h]) for h in state["cups"][seat])
        return [dict(a, dice=mine) if "bid" in a else a for a in super().legal_actions(state, seat, known)]

    def apply(self, state: State, action: Action) -> State:
        new = super().apply(state, {k: v for k, v in action.items() if k != "dice"})
        if "dice" in action:
            new["boasts"] = action["dice"]
        return new


class TakesTrueForAQuantity(DiceUnderCups):
    """Checks a bid's quantity with isinstance(q, int), which True passes."""

    def apply(self, state: State, action: Action) -> State:
        bid = action.get("bid")
        if isinstance(bid, list) and bid and isinstance(bid[0], bool):
            action = dict(action, bid=[int(bid[0]), *bid[1:]])
        return super().apply(state, action)


def test_the_example_passes_the_hidden_faces_and_illegal_actions_checks() -> None:
    playout = play(DiceUnderCups(), DiceUnderCups().configure(3), seed=2)
    check_hidden_faces(playout)
    check_illegal_actions(playout)


def test_a_bid_that_carries_the_bidders_dice_outside_reveal_fails_hidden_faces() -> None:
    game = ShowsItsDiceWithEveryBid()
    playout = play(game, game.configure(2), seed=1)
    with pytest.raises(ConformanceError, match=r"\[hidden-faces\].*carries them outside 'reveal'"):
        check_hidden_faces(playout)


def test_a_game_that_takes_true_for_a_quantity_fails_illegal_actions() -> None:
    game = TakesTrueForAQuantity()
    playout = play(game, game.configure(2), seed=1)
    with pytest.raises(ConformanceError, match="a boolean where an integer is expected"):
        check_illegal_actions(playout)
