"""Animals on Board as an atoll game: the Game API over the rule modules, which do the work."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from math import comb
from typing import TYPE_CHECKING

from atoll import JSON, Action, Config, Fragments, Game, Knowledge, Request, State, Step
from atoll.plugins.animals_on_board import actions, explain, rules, texts
from atoll.plugins.animals_on_board.meta import FACE_UP, FULL, INFO, MOST_CRATES, removed_option
from atoll.plugins.animals_on_board.render import render as render_view
from atoll.plugins.animals_on_board.view import view as seat_view

if TYPE_CHECKING:
    from atoll.fast import Draws, Position, Simulator


class AnimalsOnBoard(Game):
    """Animals on Board (zur Linde and Sentker, 2016): split the groups, take one, avoid pairs.

    The option ``{"removed": [species, ...]}`` lets the host choose the species left out with
    two or three seats; without it chance chooses. Actions are listed in
    :mod:`atoll.plugins.animals_on_board.actions`, the state's keys in
    :mod:`atoll.plugins.animals_on_board.rules`.
    """

    info = INFO
    guide = explain.AnimalsOnBoardGuide()

    def configure(
        self,
        seats: int | None = None,
        variant: str | None = None,
        options: Mapping[str, JSON] | None = None,
    ) -> Config:
        """A checked config; a bad ``removed`` option raises :class:`~atoll.MalformedInput` here."""
        config = super().configure(seats, variant, options)
        removed_option(config.seats, config.options)
        return config

    def setup(self, config: Config) -> State:
        """The state before the species are chosen and the tiles shuffled."""
        return rules.setup(config)

    def next(self, state: State) -> Step:
        """A chance request, the seat to decide, or the end."""
        return rules.next_step(state)

    def legal_actions(self, state: State, seat: int, known: Knowledge) -> list[Action]:
        """Every legal action of ``seat``: the tile to keep, splits and takes, or the cut."""
        return actions.legal_actions(state, seat, known)

    def apply(self, state: State, action: Action) -> State:
        """The state after the seat to move takes ``action``."""
        return actions.apply(state, action)

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
        """``keep lion3``, ``split 1: lion3 zebra1``, ``take 2: fox5 hidden``, ``forfeit`` or
        ``discard fox1``."""
        return texts.describe(state, action)

    def aliases(self, state: State, action: Action) -> Sequence[str]:
        """A split named by its other side; ``take 2`` for taking group 2."""
        return texts.aliases(state, action)

    def describe_chance(self, state: State, request: Request, outcome: Mapping[str, JSON]) -> str | None:
        """The species left out, the tiles put out and filled in, the arks at departure."""
        return texts.describe_chance(state, request, outcome)

    def describe_log(self, state: State, seat: int, action: Action) -> str:
        """A public log line: a take names the face-up tiles everybody saw go."""
        return texts.describe_log(state, seat, action)

    def seat_names(self, config: Config) -> Sequence[str]:
        """``player 1`` to ``player 4``: the numbers the client's seat marks carry."""
        return [texts.seat_name(seat) for seat in range(config.seats)]

    def simulator(self, config: Config, draws: Draws, start: Position | None = None) -> Simulator | None:
        """The fast path: :mod:`atoll.plugins.animals_on_board.fast`, imported only when a bot or a
        simulation asks."""
        from atoll.plugins.animals_on_board import fast

        return fast.simulator(config, draws, start)

    def action_bound(self, config: Config) -> int:
        """The splits of the thirteen-tile group (4 seats), or the cuts of a fourteen-tile ark."""
        splits: int = 2 ** FACE_UP[config.seats]
        return max(splits, comb(FULL - 1 + MOST_CRATES, MOST_CRATES - 1))
