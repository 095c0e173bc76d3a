"""Positions for bot tests: a match played on until the decision a test wants."""

from __future__ import annotations

from collections.abc import Callable

from atoll.engine import Match, observe
from atoll.engine.observation import Observation
from atoll.types import Action, Chance, Decision


def play_until(
    match: Match, choose: Callable[[Observation], Action], wanted: Callable[[Observation], bool]
) -> Observation:
    """Resolve chance and take ``choose``'s actions until a seat's observation is ``wanted``; return it."""
    while True:
        step = match.step()
        if isinstance(step, Chance):
            match.advance()
            continue
        assert isinstance(step, Decision), "the game ended before the wanted decision"
        observation = observe(match, step.seat)
        if wanted(observation):
            return observation
        match.act(step.seat, choose(observation))
