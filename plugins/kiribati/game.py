"""Kiribati as an atoll game: the Game API over the rule modules, which do the work."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from atoll import (
    JSON,
    Action,
    Config,
    Fragments,
    Game,
    Knowledge,
    Request,
    State,
    Step,
)
from atoll.plugins.kiribati import explain, render, texts, turn, view
from atoll.plugins.kiribati.meta import COLOURS, INFO, animals_in_play
from atoll.plugins.kiribati.state import initial_state

if TYPE_CHECKING:
    from atoll.fast import Draws, Position, Simulator


class Kiribati(Game):
    """Kiribati: rescue your animals from the sinking island over the turtles' backs.

    Variants ``children``, ``family`` (the default) and ``professional``; the
    children's variant takes the option ``{"animals": [...]}`` (2-5 animals).

    Actions (places are named ``c<column>r<row>``, seats by number):
    ``{"do": "die", "value": 4}``, ``{"do": "turtle", "at": "c2r3"}`` (drift east),
    ``{"do": "new", "size": 3, "row": 1}``, ``{"do": "dive" | "float", "at": ...}``,
    ``{"do": "throw", "seat": 1, "animal": "kagu"}``,
    ``{"do": "move", "animal": "koala", "to": "c2r1" | "island" | "mainland"[, "bump": [seat, kind]]}``,
    ``{"do": "play", "card": ..., "handle": h, "reveal": {h: card}[, "at" | "animal" | "target"]}``,
    ``{"do": "answer", "card": ..., "handle": h, "reveal": {h: card}}``, ``{"do": "pass"}``,
    ``{"do": "done"}``, and the sealed ``{"secret": [four cards]}``. The state's keys are
    listed in :func:`atoll.plugins.kiribati.state.initial_state`.
    """

    info = INFO
    guide = explain.KiribatiGuide()

    def configure(
        self,
        seats: int | None = None,
        variant: str | None = None,
        options: Mapping[str, JSON] | None = None,
    ) -> Config:
        """A checked config; a bad ``animals`` option raises :class:`~atoll.MalformedInput` here."""
        config = super().configure(seats, variant, options)
        animals_in_play(config.seats, config.variant, config.options)
        return config

    def setup(self, config: Config) -> State:
        """The sea before the random turtles of rows 3 and 4 are drawn."""
        return initial_state(config)

    def next(self, state: State) -> Step:
        """What happens now."""
        return turn.next_step(state)

    def legal_actions(self, state: State, seat: int, known: Knowledge) -> list[Action]:
        """Every legal action of ``seat``; card plays come from the faces it ``known``s."""
        return turn.legal(state, seat, known)

    def apply(self, state: State, action: Action) -> State:
        """The state after the deciding seat's ``action``; raises IllegalAction if it is not legal."""
        return turn.apply_action(state, action)

    def resolve(self, state: State, request: Request, outcome: Mapping[str, JSON]) -> State:
        """The state after chance answered ``request``."""
        return turn.resolve_chance(state, request, outcome)

    def view(self, state: State, seat: int | None, known: Knowledge) -> dict[str, JSON]:
        """The public board and tables, and ``seat``'s own kept cards."""
        return view.view(state, seat, known)

    def render(self, view: Mapping[str, JSON]) -> Fragments:
        """The board in colour."""
        return render.render(view)

    def describe(self, state: State, action: Action) -> str:
        """A short text such as ``die 4``, ``new 3 row 1``, ``kagu c2r1`` or ``done``."""
        return texts.describe(state, action)

    def aliases(self, state: State, action: Action) -> Sequence[str]:
        """``turtle row 2`` for moving a turtle of row 2, whichever place it is at; the cards to keep
        in any order."""
        return texts.aliases(action)

    def describe_chance(self, state: State, request: Request, outcome: Mapping[str, JSON]) -> str | None:
        """``red rolls 3 and 5``, ``round 4: the event is Storm``, the starting turtles, the cards
        left in hand at the end."""
        return texts.describe_chance(state, outcome)

    def describe_log(self, state: State, seat: int, action: Action) -> str:
        """A public log line (a secret choice of cards is never spelt out)."""
        return texts.describe_log(state, seat, action)

    def simulator(self, config: Config, draws: Draws, start: Position | None = None) -> Simulator | None:
        """The fast path (:mod:`atoll.plugins.kiribati.fast`), imported only when it is asked for."""
        from atoll.plugins.kiribati import fast

        return fast.simulator(config, draws, start)

    def seat_names(self, config: Config) -> Sequence[str]:
        """The players' colours."""
        return COLOURS[: config.seats]
