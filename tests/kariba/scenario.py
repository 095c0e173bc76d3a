"""Scenario helpers for the Kariba tests: rigged decks, matches that settle chance, plays by text."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from atoll.engine import Match
from atoll.jsondata import canonical
from atoll.plugins.kariba import Kariba
from atoll.plugins.kariba.rules import FACES
from atoll.testing import RiggedResolver
from atoll.types import Decision

GAME = Kariba()


def deck(hands: Sequence[Sequence[int]], pile: Sequence[int] = ()) -> list[int]:
    """A deck order (top first) that deals ``hands`` in seat order and then has ``pile`` on top
    of the draw pile; the cards left over follow, mice first."""
    order = [face for hand in hands for face in hand] + list(pile)
    rest = Counter(FACES)
    rest.subtract(order)
    if any(count < 0 for count in rest.values()):
        raise ValueError(f"the rig uses more than eight cards of an animal: {order}")
    return order + sorted(rest.elements())


def start(hands: Sequence[Sequence[int]], pile: Sequence[int] = (), variant: str = "standard") -> Match:
    """A match dealt ``hands`` (one per seat) with ``pile`` on top of the draw pile, at the first turn."""
    resolver = RiggedResolver(piles={"deck": deck(hands, pile)})
    match = Match(GAME, GAME.configure(len(hands), variant), resolver)
    settle(match)
    return match


def settle(match: Match) -> None:
    """Let chance act until a seat must decide or the game is over."""
    while match.results() is None and not isinstance(match.step(), Decision):
        match.advance()


def seat_to_move(match: Match) -> int:
    """The seat that must decide now."""
    step = match.step()
    assert isinstance(step, Decision), f"no seat is to decide: {step}"
    return step.seat


def play(match: Match, text: str) -> None:
    """The seat to move takes the action with this text; then chance acts."""
    seat = seat_to_move(match)
    match.act(seat, match.parse(seat, text))
    settle(match)


def hand(match: Match, seat: int) -> list[int]:
    """The faces ``seat`` holds, in ascending order (as its own view shows them)."""
    faces: list[int] = match.view(seat)["hand"]
    return faces


def set_hole(match: Match, places: Mapping[int, int]) -> None:
    """Put cards at the waterhole before the next play: ``{animal: count}``; the rest stay empty."""
    match.state = {**match.state, "hole": [places.get(animal, 0) for animal in range(1, 9)]}


def texts(match: Match) -> list[str]:
    """The texts of the legal actions of the seat to move, in the game's order."""
    return list(match.texts(seat_to_move(match)))


def snapshot(match: Match) -> str:
    """The public state as canonical text, to show that something left it unchanged."""
    return canonical(match.state)
