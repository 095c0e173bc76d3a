"""The Kariba game class: metadata, and the rules, view, rendering and texts put together."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from atoll import (
    JSON,
    Action,
    Config,
    Deal,
    Fragments,
    Game,
    GameInfo,
    Knowledge,
    Request,
    State,
    Step,
    Tensors,
)
from atoll.plugins.kariba import explain, rules, texts
from atoll.plugins.kariba.render import render as render_view
from atoll.plugins.kariba.view import view as seat_view

if TYPE_CHECKING:
    from atoll.fast import Draws, Position, Simulator


class Kariba(Game):
    """Kariba by Reiner Knizia: play animals to the waterhole, chase the weaker ones, win their cards."""

    info = GameInfo(
        "kariba", "Kariba", rules.MIN_SEATS, rules.MAX_SEATS, ("standard", "experienced"),
        summary="play animals to the waterhole; three or more chase the next weaker animal away",
    )
    guide = explain.KaribaGuide()

    def setup(self, config: Config) -> State:
        """The state before the shuffle."""
        return rules.setup(config)

    def next(self, state: State) -> Step:
        """A chance request, the seat to decide, or the end."""
        return rules.next_step(state)

    def legal_actions(self, state: State, seat: int, known: Knowledge) -> list[Action]:
        """The plays (or, in the experienced variant, the draws) open to ``seat``."""
        return rules.legal_actions(state, seat, known)

    def apply(self, state: State, action: Action) -> State:
        """The state after the seat to move takes ``action``."""
        return rules.apply(state, action)

    def resolve(self, state: State, request: Request, outcome: Mapping[str, JSON]) -> State:
        """The state after chance answered ``request``."""
        return rules.resolve(state, request, outcome)

    def view(self, state: State, seat: int | None, known: Knowledge) -> dict[str, JSON]:
        """What ``seat`` may see."""
        return seat_view(state, seat, known)

    def render(self, view: Mapping[str, JSON]) -> Fragments:
        """The view as coloured text."""
        return render_view(view)

    def describe(self, state: State, action: Action) -> str:
        """``play 2 giraffe``, ``draw pile`` or ``take zebra``."""
        return texts.describe(state, action)

    def aliases(self, state: State, action: Action) -> Sequence[str]:
        """``play mouse`` for the one play of mice, when only one count can be played."""
        return texts.aliases(state, action)

    def describe_log(self, state: State, seat: int, action: Action) -> str:
        """A log line naming the cards played and the cards won."""
        return texts.describe_log(state, seat, action, texts.seat_name(seat))

    def describe_chance(self, state: State, request: Request, outcome: Mapping[str, JSON]) -> str | None:
        """``the face-up row now shows mouse, mouse, leopard``, ``player 3 draws a card from the pile``."""
        names = [texts.seat_name(s) for s in range(state["seats"])]
        return texts.describe_chance(state, request, outcome, names)

    def seat_names(self, config: Config) -> Sequence[str]:
        """``player 1`` to ``player 4``: the numbers the client's seat marks carry."""
        return [texts.seat_name(seat) for seat in range(config.seats)]

    def simulator(self, config: Config, draws: Draws, start: Position | None = None) -> Simulator | None:
        """The fast path: :mod:`atoll.plugins.kariba.fast`, imported only when a bot or a simulation asks."""
        from atoll.plugins.kariba import fast

        return fast.simulator(config, draws, start)

    def describe_chance_to(
        self, state: State, request: Request, outcome: Mapping[str, JSON], seat: int, known: Knowledge
    ) -> str | None:
        """``you draw a zebra`` for the player who drew from the pile (the others read the public line)."""
        if not isinstance(request, Deal) or request.to[0][0] != seat:
            return None
        return texts.describe_draw_to(state, request, known)

    def action_bound(self, config: Config) -> int:
        """At most one play per card in a hand of five, or four draws (the pile and three face-up)."""
        return rules.HAND_SIZE

    def length_bound(self, config: Config) -> int:
        """Every play puts at least one of the 64 cards out of the hands for good, and every draw takes
        one into a hand: at most 128 decisions."""
        return 2 * len(rules.FACES)

    def chance_bound(self, config: Config) -> int:
        """The one chance node with several outcomes is the next card of the shuffle: eight animals."""
        return len(rules.ANIMALS)

    def action_id_count(self, config: Config) -> int:
        """Stable ids for learning algorithms (:mod:`atoll.plugins.kariba.spiel`): 49."""
        from atoll.plugins.kariba import spiel

        return spiel.ID_COUNT

    def action_id(self, state: State, action: Action) -> int:
        """``play 2 giraffe`` has one id in every state (:func:`atoll.plugins.kariba.spiel.action_id`)."""
        from atoll.plugins.kariba import spiel

        return spiel.action_id(state, action)

    def tensors(self, config: Config) -> Tensors:
        """Observation and information tensors (:class:`atoll.plugins.kariba.spiel.KaribaTensors`)."""
        from atoll.plugins.kariba import spiel

        return spiel.KaribaTensors(config)
