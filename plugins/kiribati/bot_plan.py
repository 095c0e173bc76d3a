"""Planning one whole turn for the Kiribati bot.

A turn after the roll holds no chance: the player picks a die, does its turtle action,
throws animals off a diving turtle, moves animals and may play a card. The planner tries
every die with every turtle action it allows, ranks what they lead to by the evaluation
(:mod:`atoll.plugins.kiribati.bot_eval`), and plays the most promising few to the end of
the turn, moving animals greedily; the best line wins and is tried once more with cards
(every card against every animal for every choice would cost too much). Only the game's
own ``legal_actions`` and ``apply`` move the position on, so the plan never breaks a rule.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from atoll import Action, Decision, Game, Knowledge, State
from atoll.plugins.kiribati.bot_eval import Weights, evaluate
from atoll.plugins.kiribati.cards import ANSWERS
from atoll.plugins.kiribati.meta import CARDS

#: A planned step: the position it is taken in, and the action.
Step = tuple[State, Action]
#: Cards that open the answer window (K36) and the card that answers each.
ANSWERED_BY = {attack: answer for answer, attacks in ANSWERS.items() for attack in attacks}
#: Below this difference two scores count as equal (and the seeded generator breaks the tie).
EPSILON = 1e-9


@dataclass(frozen=True)
class Line:
    """A plan for the rest of a turn: its steps and the score of where it leads."""

    value: float
    steps: tuple[Step, ...]


@dataclass
class TurnPlanner:
    """Plans the rest of ``seat``'s turn; ``width`` is how many die-and-turtle choices are played
    out to the end of the turn."""

    game: Game
    seat: int
    known: Knowledge
    weights: Weights
    rng: random.Random
    width: int

    def score(self, state: State) -> float:
        """The evaluation of ``state`` for the planning seat."""
        return evaluate(state, self.seat, self.known, self.weights)

    def plan(self, state: State) -> Line:
        """The best line found from ``state``, a decision of the planning seat in its own turn."""
        if state["phase"] not in ("die", "turtle"):
            return self._finish(state, cards=True)
        leaves = self._shuffled(list(self._turtle_leaves(state, ())))
        if not leaves:
            return self._finish(state, cards=True)
        ranked = sorted(leaves, key=lambda leaf: -self.score(leaf[1]))
        best: tuple[Line, tuple[Step, ...], State] | None = None
        for steps, leaf in ranked[: self.width]:
            rest = self._finish(leaf, cards=False)
            if best is None or rest.value > best[0].value + EPSILON:
                best = Line(rest.value, steps + rest.steps), steps, leaf
        assert best is not None
        line, steps, leaf = best
        with_cards = self._finish(leaf, cards=True)
        if with_cards.value > line.value + EPSILON:
            return Line(with_cards.value, steps + with_cards.steps)
        return line

    def _mine(self, state: State) -> bool:
        """Whether the planning seat decides in ``state`` within its own turn (not an answer)."""
        step = self.game.next(state)
        return isinstance(step, Decision) and step.seat == self.seat and state["phase"] != "answer"

    def _legal(self, state: State) -> list[Action]:
        return self.game.legal_actions(state, self.seat, self.known)

    def _shuffled(self, items: list[tuple[tuple[Step, ...], State]]) -> list[tuple[tuple[Step, ...], State]]:
        """The items in a seeded random order, so that a stable sort breaks ties at random."""
        self.rng.shuffle(items)
        return items

    def _turtle_leaves(
        self, state: State, steps: tuple[Step, ...]
    ) -> Iterator[tuple[tuple[Step, ...], State]]:
        """Every distinct position after a die and its turtle action (cards wait for the animal step)."""
        seen: set[str] = set()
        for action in self._legal(state):
            if action.get("do") == "play":
                continue
            after = self.game.apply(state, action)
            line = (*steps, (state, action))
            if self._mine(after) and after["phase"] in ("die", "turtle"):
                for leaf in self._turtle_leaves(after, line):
                    key = repr((leaf[1]["board"], leaf[1]["supply"], leaf[1]["phase"], leaf[1]["throw"]))
                    if key not in seen:
                        seen.add(key)
                        yield leaf
            else:
                yield line, after

    def _finish(self, state: State, cards: bool) -> Line:
        """Throws and animal moves (and cards, if ``cards``) to the end of the turn, greedily. An
        animal may come from the island only as the turn's first move (K20), so both ways are
        tried: with it and without."""
        if not self._mine(state) or state["phase"] != "animals" or state["moved"]:
            return self._greedy(state, None, cards)
        with_island = self._greedy(state, True, cards)
        without = self._greedy(state, False, cards)
        return with_island if with_island.value > without.value + EPSILON else without

    def _greedy(self, state: State, island: bool | None, cards: bool) -> Line:
        """Take the best-scoring action one at a time until the turn is over. ``island`` True: the
        first move must come from the island; False: no animal comes from the island."""
        steps: list[Step] = []
        adjust = 0.0  # the expected cost of answers to cards played on the way
        while self._mine(state):
            options = self._legal(state)
            if not cards:
                options = [a for a in options if a["do"] != "play"]
            if island is not None and not steps:
                options = [a for a in options if self._from_island(state, a) == island or a["do"] == "done"]
                if island and not any(a["do"] == "move" for a in options):
                    return Line(-float("inf"), ())
            best_value, best = -float("inf"), []
            done: tuple[Action, State, float] | None = None
            done_value = -float("inf")
            for action in options:
                value, after, cost = self._one_ply(state, action)
                if action["do"] == "done":
                    done = action, after, cost
                    done_value = value
                if value > best_value + EPSILON:
                    best_value, best = value, [(action, after, cost)]
                elif value >= best_value - EPSILON:
                    best.append((action, after, cost))
            if done is not None and done_value >= best_value - EPSILON:
                chosen, after, cost = done  # rather stop than make a move that gains nothing
            else:
                chosen, after, cost = best[self.rng.randrange(len(best))] if len(best) > 1 else best[0]
            adjust += cost
            steps.append((state, chosen))
            state = after
        return Line(self.score(state) + adjust, tuple(steps))

    def _from_island(self, state: State, action: Action) -> bool:
        return action["do"] == "move" and action["animal"] in state["island"][self.seat]

    def _one_ply(self, state: State, action: Action) -> tuple[float, State, float]:
        """The score of taking ``action`` now, the position it leads to, and what answers may cost.
        A card against another player's animal is scored over the owner's possible answers (the
        position is the one where the owner passed, the cost the expected loss to an answer); a
        feeding station by the best second move it allows."""
        after = self.game.apply(state, action)
        if after["phase"] == "answer":
            passed, passed_value, expected = self._answer_branches(after)
            return expected, passed, expected - passed_value
        value = self.score(after)
        if action["do"] == "play" and action["card"] == "feeding" and self._mine(after):
            for follow in self._legal(after):
                if follow["do"] == "move":
                    value = max(value, self.score(self.game.apply(after, follow)))
        return value, after, 0.0

    def _answer_branches(self, state: State) -> tuple[State, float, float]:
        """In the answer window: the position if the owner passes, its score, and the expected score
        over passing and answering, the owner holding the answer with the chance its hand size gives."""
        pending = state["pending"]
        owner: int = pending["target"][0]
        passed = self.game.apply(state, {"do": "pass"})
        value = self.score(passed)
        answer = ANSWERED_BY[pending["card"]]
        hand: list[str] = state["hands"][owner]
        played: list[str] = state["played"][owner]
        if answer in played or not hand:
            return passed, value, value
        chance = min(1.0, len(hand) / (len(CARDS) - len(played)))
        handle = hand[0]
        answered = self.game.apply(
            state, {"do": "answer", "card": answer, "handle": handle, "reveal": {handle: answer}}
        )
        return passed, value, (1.0 - chance) * value + chance * self.score(answered)
