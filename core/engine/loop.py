"""The turn loop: run a match to its end, asking each seat's agent when it is to decide."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from atoll.engine.match import Match
from atoll.engine.observation import Agent, Observation
from atoll.errors import AtollError
from atoll.numbering import seat_label
from atoll.types import Action, Decision, End


def observe(match: Match, seat: int) -> Observation:
    """The observation ``seat`` gets now (it must be the seat to decide)."""
    step = match.step()
    secret = isinstance(step, Decision) and step.secret
    return Observation(
        match.game,
        match.config,
        seat,
        match.state,
        match.knowledge(seat),
        match.ledger,
        match.legal_actions(seat),
        secret,
    )


class StuckGame(AtollError):
    """A game that did not end within its step bound, or left a seat with no legal action."""


def run(
    match: Match,
    agents: Sequence[Agent],
    *,
    max_steps: int = 100_000,
    on_action: Callable[[Match, int, Action], None] | None = None,
) -> End:
    """Play ``match`` to the end; ``on_action`` sees each decision before it is applied."""
    for _ in range(max_steps):
        step = match.step()
        if isinstance(step, End):
            return step
        if isinstance(step, Decision):
            observation = observe(match, step.seat)
            if not observation.legal:
                name = match.game.info.name
                raise StuckGame(f"{name}: {seat_label(step.seat)} must decide but has no legal action")
            action = agents[step.seat].choose(observation)
            if on_action is not None:
                on_action(match, step.seat, action)
            match.act(step.seat, action)
        else:
            match.advance()
    raise StuckGame(f"{match.game.info.name}: no end after {max_steps} steps")
