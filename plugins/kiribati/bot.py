"""The Kiribati bot: rescues its animals, uses its cards and keeps out of harm's way.

It sees only its :class:`~atoll.Observation`: the public state, its own kept cards and
the legal actions. On its turn it plans the whole turn at once (die, turtle action,
throws, animal moves, a card) with :class:`~atoll.plugins.kiribati.bot_plan.TurnPlanner`
and then plays the plan out, re-planning only if the position is not the one it expected.
A seeded generator breaks ties, so a seed and the same observations give the same moves.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from atoll import Action, Game, Observation, State
from atoll.plugins.kiribati.bot_eval import DEFAULT_WEIGHTS, Weights, evaluate
from atoll.plugins.kiribati.bot_plan import EPSILON, Step, TurnPlanner
from atoll.plugins.kiribati.meta import CARDS, PROFESSIONAL

#: The four cards kept (K5). Family: the cards that do most on the board. Professional: the
#: three worth two points unplayed, and the feeding station, the cheapest extra step.
KEEP = {
    "family": ("feeding", "current", "sleep", "shark"),
    PROFESSIONAL: ("feeding", "sleep", "clamp", "shark"),
}
#: How many die-and-turtle choices the planner plays out to the end of the turn.
DEFAULT_WIDTH = 5


class KiribatiBot:
    """Plans each turn with a heuristic evaluation and a shallow search; see the module docstring."""

    def __init__(
        self,
        seed: int,
        *,
        weights: Weights = DEFAULT_WEIGHTS,
        width: int = DEFAULT_WIDTH,
        keep: Sequence[str] | None = None,
    ) -> None:
        self.weights = weights
        self.width = width
        self.keep = keep  # the four cards to keep; None: those of KEEP for the variant
        self._rng = random.Random(seed)
        self._plan: list[Step] = []

    def choose(self, observation: Observation) -> Action:
        """The action for this decision: one of ``observation.legal``."""
        legal = observation.legal
        if observation.secret:
            return keep_choice(observation.state, legal, self.keep)
        state = observation.state
        planned = self._planned(state, legal)
        if planned is not None:
            return planned
        if len(legal) == 1:
            return legal[0]
        if state["phase"] == "answer":
            return self._answer(observation)
        planner = TurnPlanner(
            observation.game, observation.seat, observation.known, self.weights, self._rng, self.width
        )
        line = planner.plan(state)
        if not line.steps or line.steps[0][1] not in legal:
            return legal[self._rng.randrange(len(legal))]
        self._plan = list(line.steps[1:])
        return line.steps[0][1]

    def _planned(self, state: State, legal: list[Action]) -> Action | None:
        """The next step of the current plan, if the position is the one the plan expected."""
        if self._plan:
            expected, action = self._plan.pop(0)
            if expected == state and action in legal:
                return action
        self._plan = []
        return None

    def _answer(self, observation: Observation) -> Action:
        """Pass or answer a card played against one of its animals, whichever scores better."""
        game, seat, known = observation.game, observation.seat, observation.known
        best_value, best = -float("inf"), observation.legal[0]
        for action in observation.legal:
            value = evaluate(game.apply(observation.state, action), seat, known, self.weights)
            if value > best_value + EPSILON:
                best_value, best = value, action
        return best


def keep_choice(state: State, legal: list[Action], keep: Sequence[str] | None = None) -> Action:
    """The sealed choice of four cards: ``keep``, or the fixed preference of :data:`KEEP` for the variant."""
    keep = keep if keep is not None else KEEP.get(state["variant"], KEEP["family"])
    wanted = [card for card in CARDS if card in keep]
    for action in legal:
        if action.get("secret") == wanted:
            return action
    return legal[0]


def make_kiribati_bot(game: Game, seat: int, seed: int) -> KiribatiBot:
    """Build a Kiribati bot for ``seat`` (the bot hook's factory)."""
    return KiribatiBot(seed)
