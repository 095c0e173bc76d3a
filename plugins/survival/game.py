"""Survival of the Fittest as an atoll game: the Game API over the rule modules, which do the work."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from atoll import JSON, Action, Config, Fragments, Game, Knowledge, Request, State, Step
from atoll.plugins.survival import explain, render, texts, turn, view
from atoll.plugins.survival.board import NEIGHBOURS, PLACES
from atoll.plugins.survival.meta import ANIMALS, COLOURS, INFO
from atoll.plugins.survival.obstacles import bound
from atoll.plugins.survival.state import initial_state

if TYPE_CHECKING:
    from atoll.fast import Draws, Position, Simulator


class Survival(Game):
    """Survival of the Fittest: one predator and five prey each on a hex board of our design.

    Actions: ``{"do": "place", "animal", "at"}``, ``{"do": "assign", "predator": die}``,
    ``{"do": "step", "token": "predator" | animal, "to": place}`` and
    ``{"do": "obstacle", "id": 1-4, "at": place, "turn": n}``; the state's keys are listed in
    :func:`atoll.plugins.survival.state.initial_state`.
    """

    info = INFO
    guide = explain.SurvivalGuide()

    def setup(self, config: Config) -> State:
        """Predators on their corners; the prey wait to be placed."""
        return initial_state(config)

    def next(self, state: State) -> Step:
        """A roll, the seat to decide, or the end."""
        return turn.next_step(state)

    def legal_actions(self, state: State, seat: int, known: Knowledge) -> list[Action]:
        """Placements, the dice choice, single steps and (on doubles) obstacle layouts."""
        return turn.legal(state, seat)

    def apply(self, state: State, action: Action) -> State:
        """The state after the player on turn's ``action``; raises IllegalAction if it is not legal."""
        return turn.apply_action(state, action)

    def resolve(self, state: State, request: Request, outcome: Mapping[str, JSON]) -> State:
        """The state after the roll."""
        return turn.resolve_chance(state, request, outcome)

    def view(self, state: State, seat: int | None, known: Knowledge) -> dict[str, JSON]:
        """The whole board (nothing is hidden), the points and where the player on turn can go."""
        return view.view(state, seat)

    def render(self, view: Mapping[str, JSON]) -> Fragments:
        """The board as hexagons, readable without colour."""
        return render.render(view)

    def describe(self, state: State, action: Action) -> str:
        """``place zebra d4``, ``predator 5 prey 2``, ``predator e5``, ``zebra d4`` or
        ``obstacle 2 at d5 turn 1``."""
        return texts.describe(state, action)

    def aliases(self, state: State, action: Action) -> Sequence[str]:
        """The place alone for a step, the predator's name, the dice the other way round."""
        return texts.aliases(state, action)

    def describe_chance(self, state: State, request: Request, outcome: Mapping[str, JSON]) -> str | None:
        """``red rolls 3 and 5``."""
        return texts.describe_chance(state, outcome)

    def describe_log(self, state: State, seat: int, action: Action) -> str:
        """A log line naming catches and, when the predator's move ends, its path."""
        return texts.describe_log(state, seat, action)

    def goes_on_without(self, state: State, seat: int) -> bool:
        """Survival hides nothing: its dice are public draws, which go on among the other seats."""
        return True

    def seat_names(self, config: Config) -> Sequence[str]:
        """The players' colours."""
        return COLOURS[: config.seats]

    def simulator(self, config: Config, draws: Draws, start: Position | None = None) -> Simulator | None:
        """The fast path: :mod:`atoll.plugins.survival.fast`, imported only when a bot or a simulation
        asks."""
        from atoll.plugins.survival import fast

        return fast.simulator(config, draws, start)

    def action_bound(self, config: Config) -> int:
        """Placing: five prey on any of the 91 places; moving: six predator steps, six for each of
        five prey, and (on doubles) every layout of every obstacle."""
        steps = max(len(n) for n in NEIGHBOURS.values())
        return max(len(ANIMALS) * len(PLACES), steps * (1 + len(ANIMALS)) + bound())
