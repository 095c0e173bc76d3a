"""The one narrator: the log line of every step of a match, for local, network and replayed games.

A game describes its own actions (``describe_log``) and may word chance (``describe_chance_after``,
by default ``describe_chance``, and ``describe_chance_to`` for what one seat alone saw); chance it
does not word and sealed choices are the engine's, so they are worded here, from public facts only.
Each step is worded from the state before it (chance also from the state after it), which the match
keeps beside its events (:attr:`~atoll.engine.match.Match.before`): no screen keeps a second copy of
the game to word its log.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from atoll.chance import Deal, Pick, Request, Reveal, Roll, Shuffle, request_from_json
from atoll.client.source import LogLine
from atoll.engine.match import Match
from atoll.game import Game
from atoll.jsondata import JSON
from atoll.types import Knowledge, State


class Narrator:
    """Words a match's events as log lines, each once, in order.

    ``names`` gives the seats' display names when asked (they may change as people sit); ``tellable``
    are the seats whose own wording (a sealed choice's value, what chance showed them alone) this
    machine may show: the local people, this peer's seat, or every seat in a replay.
    """

    def __init__(self, names: Callable[[], Sequence[str]], tellable: Sequence[int]) -> None:
        self.names = names
        self.tellable = tuple(tellable)
        self.told = 0
        """How many of the match's events are worded already."""

    def catch_up(self, match: Match) -> list[LogLine]:
        """The lines of ``match``'s events not worded yet (the game's wording failing is a fault the
        caller reports: the events stay untold)."""
        states = [*match.before, match.state]  # the state before each event, and after the last
        lines = [
            narrate(match.game, event, states[index], self.names(), self.tellable, match.knowledge,
                    after=states[index + 1])
            for index, event in enumerate(match.events[self.told:], start=self.told)
        ]
        self.told = len(match.events)
        return lines


def narrate(
    game: Game,
    event: dict[str, Any],
    before: State,
    names: Sequence[str],
    tellable: Sequence[int],
    knowledge: Callable[[int], Knowledge],
    *,
    after: State,
) -> LogLine:
    """The log line of one match ``event`` (see :data:`~atoll.engine.match.Event`), worded from the
    state ``before`` it (and, for chance, the state ``after`` it), with the own wordings of the
    ``tellable`` seats (from their ``knowledge``)."""
    if "request" in event:
        request = request_from_json(event["request"])
        outcome: dict[str, JSON] = event["outcome"]
        text = game.describe_chance_after(before, request, outcome, after)
        privately = tuple(
            (seat, said) for seat in tellable
            if (said := game.describe_chance_to(before, request, outcome, seat, knowledge(seat)))
        )
        return LogLine(None, text if text is not None else describe_chance(request, outcome, names),
                       privately=privately)
    seat = int(event["seat"])
    if "sealed" in event:
        known = knowledge(seat) if seat in tellable else {}
        values = [known[handle] for handle in event["sealed"] if handle in known]
        private = None
        if values and len(values) == len(event["sealed"]):
            private = describe_sealed(names[seat], game.describe(before, {"secret": values}))
        return LogLine(seat, describe_sealed(names[seat]), private)
    return LogLine(seat, game.describe_log(before, seat, event["action"]))


def describe_chance(request: Request, outcome: Mapping[str, JSON], names: Sequence[str]) -> str:
    """One log line for a resolved chance ``request``; ``names`` are the seats' display names."""
    if isinstance(request, Roll) and request.to is not None:
        dice = "a die" if request.count == 1 else f"{request.count} dice"
        return f"chance: rolled {dice} (d{request.sides}) under {names[request.to]}'s cup, unseen"
    if isinstance(request, Roll):
        values = ", ".join(str(v) for v in outcome.get("values", []))
        dice = "a die" if request.count == 1 else f"{request.count} dice"
        return f"chance: rolled {dice} (d{request.sides}): {values}"
    if isinstance(request, Pick):
        picked = ", ".join(_word(v) for v in outcome.get("picked", []))
        return f"chance: picked {picked}"
    if isinstance(request, Shuffle):
        return f"chance: shuffled the {request.pile} ({len(request.faces)} cards, face down)"
    if isinstance(request, Deal):
        parts = [f"{len(handles)} to {names[seat]}" for seat, handles in request.to if handles]
        return f"chance: dealt cards face down: {', '.join(parts)}"
    assert isinstance(request, Reveal)
    faces = outcome.get("faces", {})
    shown = ", ".join(f"{handle} is {_word(faces.get(handle))}" for handle in request.handles)
    return f"chance: revealed {shown}"


def describe_sealed(name: str, text: str | None = None) -> str:
    """A log line for a sealed (secret) choice; ``text`` only in the chooser's own log."""
    if text is None:
        return f"{name}: made a secret choice"
    return f"{name}: made a secret choice ({text}; only you know it)"


def _word(value: JSON) -> str:
    return value if isinstance(value, str) else repr(value)
