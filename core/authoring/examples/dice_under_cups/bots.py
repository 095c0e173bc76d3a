"""A bot made for Dice Under Cups: it trusts the odds of the dice it cannot see."""

from __future__ import annotations

from atoll import Action, Bot, Game, Observation

SIDES = 6


class OddsBot:
    """Expects each hidden die to show a face one time in six, and its own dice as they are.

    It calls "liar" when the bid asks for more dice than it expects by ``margin`` or more, and
    otherwise makes the cheapest raise it expects to hold (or, failing one, the cheapest raise).
    """

    def __init__(self, margin: float = 1.0) -> None:
        self.margin = margin

    def choose(self, observation: Observation) -> Action:
        """Call or raise, from the expected count of each face."""
        view = observation.game.view(observation.state, observation.seat, observation.known)
        mine = [int(die) for die in view["mine"]]
        hidden = sum(view["dice"]) - len(mine)

        def expected(face: int) -> float:
            return mine.count(face) + hidden / SIDES

        bid = view["bid"]
        if bid is not None and bid[0] - expected(bid[1]) >= self.margin:
            return {"call": "liar"}
        raises = [a for a in observation.legal if "bid" in a]
        believable = [a for a in raises if a["bid"][0] <= expected(a["bid"][1])]
        choice = (believable or raises or observation.legal)[0]
        return dict(choice)


def make_odds_bot(game: Game, seat: int, seed: int) -> Bot:
    """Build an odds bot for ``seat`` (it needs no randomness, so ``seed`` is unused)."""
    return OddsBot()
