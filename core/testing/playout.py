"""The playout: a game played to its end by random bots through the real engine, every step recorded
as a :class:`Moment`, with the "playout" check made on the way (:func:`play`).

Also what the other checks share about a playout: the error they raise (:class:`ConformanceError`),
the bots and their choices (to play the same seed again), and how they pick the moments they look at.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from atoll.bots.random_bot import RandomBot
from atoll.engine.local import LocalResolver
from atoll.engine.match import Event, Match
from atoll.engine.observation import Observation
from atoll.engine.save import ReplayResolver
from atoll.game import Game
from atoll.jsondata import JSON, clone
from atoll.types import Action, Chance, Config, Decision, End, Results, State, Step

#: A playout that takes more steps (decisions and chance events) than this has not ended.
DEFAULT_MAX_STEPS = 20_000
#: How many moments of a playout the costlier checks look at (spread evenly, first and last included).
VIEWED_MOMENTS = 200


class ConformanceError(AssertionError):
    """A game broke a rule of the game API. ``check`` names the rule; the message says where."""

    def __init__(self, check: str, where: str, detail: str) -> None:
        super().__init__(f"[{check}] {where}: {detail}")
        self.check = check


@dataclass(frozen=True)
class Moment:
    """One step of a recorded playout: everything as it was just before the step happened."""

    index: int
    state: State
    """The public state (a private copy)."""
    step: Step
    """What ``game.next`` said."""
    known: tuple[dict[str, JSON], ...]
    """Each seat's private knowledge."""
    legal: tuple[Action, ...]
    """The deciding seat's legal actions (empty at chance and at the end)."""
    event: Event | None
    """The log entry this step added (``None`` at the end)."""


@dataclass(frozen=True)
class Playout:
    """A game played to its end by random bots, with every step recorded."""

    game: Game
    config: Config
    seed: int
    max_steps: int
    pristine: Game
    """A copy of the game taken before the playout, so checks can start from an unused instance."""
    moments: tuple[Moment, ...]
    events: tuple[Event, ...]
    faces: dict[str, JSON]
    """Every hidden face (cards and sealed values), opened by the local resolver at the end."""
    results: Results

    def where(self, step: int | None = None) -> str:
        """Where in the game something happened, for error messages."""
        return _where(self.game, self.config, self.seed, step)

    def fail(self, check: str, detail: str, step: int | None = None) -> ConformanceError:
        """The error for ``check`` failing at ``step``."""
        return ConformanceError(check, self.where(step), detail)

    def fresh_game(self) -> Game:
        """An instance of the game that has never played: checks that rebuild states use it, so a
        game that keeps secrets in its instance between calls cannot pass them on."""
        return _copy_game(self.pristine)

    @property
    def decisions(self) -> list[Moment]:
        """The moments at which a seat decided."""
        return [m for m in self.moments if isinstance(m.step, Decision)]


def play(game: Game, config: Config, seed: int = 0, *, max_steps: int = DEFAULT_MAX_STEPS) -> Playout:
    """Play ``game`` to its end with random bots, recording every step.

    This is the "playout" check: the game must end within ``max_steps`` steps, a
    seat to decide must have legal actions (exactly ``{"secret": [...]}`` ones for a
    secret decision), every legal action must be accepted, and the results must
    give one score per seat and winners among the seats.
    """
    pristine = _copy_game(game)
    resolver = LocalResolver(seed)
    match = Match(game, config, resolver)
    bots = seat_bots(config, seed)
    moments: list[Moment] = []

    def fail(detail: str, step: int) -> ConformanceError:
        return ConformanceError("playout", _where(game, config, seed, step), detail)

    for index in range(max_steps + 1):
        try:
            step = match.step()
        except Exception as exc:
            raise fail(f"next() raised {exc!r}", index) from exc
        state, known = clone(match.state), tuple(dict(k) for k in match.known)
        if isinstance(step, End):
            _check_results(step.results, config, index, fail)
            moments.append(Moment(index, state, step, known, (), None))
            return Playout(game, config, seed, max_steps, pristine, tuple(moments), tuple(match.events),
                           resolver.faces(), step.results)
        if index == max_steps:
            raise fail(f"the game did not end within {max_steps} steps", index)
        legal: tuple[Action, ...] = ()
        logged = len(match.events)
        try:
            if isinstance(step, Decision):
                legal = _checked_legal(match, step, config, index, fail)
                match.act(step.seat, bot_choice(bots, match, step, legal))
            elif isinstance(step, Chance):
                match.advance()
            else:
                raise fail(f"next() returned {step!r}, not a Decision, Chance or End", index)
        except ConformanceError:
            raise
        except Exception as exc:
            raise fail(f"the game failed on its own legal play: {exc!r}", index) from exc
        moments.append(Moment(index, state, step, known, legal, None))
        # a simultaneous decision logs every seat's part once the last seat has chosen, in seat order
        new = match.events[logged:]
        for back, event in enumerate(reversed(new), start=1):
            moments[-back] = replace(moments[-back], event=event)
    raise AssertionError("unreachable")  # pragma: no cover


Fail = Callable[[str, int], ConformanceError]


def seat_bots(config: Config, seed: int) -> list[RandomBot]:
    """The random bots that play ``seed``'s playout, one a seat (the same each time for one seed)."""
    return [RandomBot(seed * 7919 + seat) for seat in range(config.seats)]


def bot_choice(bots: Sequence[RandomBot], match: Match, step: Decision, legal: Sequence[Action]) -> Action:
    """The action the deciding seat's bot takes among ``legal``."""
    seat = step.seat
    return bots[seat].choose(Observation(match.game, match.config, seat, match.state, match.knowledge(seat),
                                         match.ledger, list(legal), step.secret))


def _checked_legal(
    match: Match, step: Decision, config: Config, index: int, fail: Fail
) -> tuple[Action, ...]:
    if not 0 <= step.seat < config.seats:
        raise fail(f"seat {step.seat} is to decide, but the seats are 0-{config.seats - 1}", index)
    legal = match.legal_actions(step.seat)
    if not legal:
        raise fail(f"seat {step.seat} must decide but has no legal action", index)
    for action in legal:
        if not isinstance(action, dict):
            raise fail(f"legal action {action!r} is not a JSON object", index)
        if step.secret and not (set(action) == {"secret"} and isinstance(action["secret"], list)
                                and action["secret"]):
            raise fail(f"a secret decision's legal actions are {{'secret': [values]}}, not {action!r}", index)
    return tuple(legal)


def _check_results(results: Results, config: Config, index: int, fail: Fail) -> None:
    if len(results.scores) != config.seats:
        raise fail(f"results have {len(results.scores)} scores for {config.seats} seats: {results}", index)
    if not all(isinstance(s, int) for s in results.scores):
        raise fail(f"scores must be integers: {results.scores}", index)
    if len(set(results.winners)) != len(results.winners) or not all(
        isinstance(w, int) and 0 <= w < config.seats for w in results.winners
    ):
        raise fail(f"winners must be distinct seats 0-{config.seats - 1}: {results.winners}", index)


def _where(game: Game, config: Config, seed: int, step: int | None) -> str:
    at = f", step {step}" if step is not None else ""
    return f"{game.info.name} ({config.variant}, {config.seats} seats, seed {seed}{at})"


def _copy_game(game: Game) -> Game:
    # A game that cannot be copied is used as it is: the checks that want a fresh instance then
    # cannot tell memory kept in the instance from the state, but every other check still runs.
    try:
        return copy.deepcopy(game)
    except Exception:
        return game


def seat_of(m: Moment) -> int:
    """The seat deciding at ``m`` (for a simultaneous decision, the first still to choose)."""
    assert isinstance(m.step, Decision)
    return m.step.seat


def match_at(playout: Playout, m: Moment) -> Match:
    """A match standing at moment ``m``, whose resolver proves reveals against the true faces."""
    match = Match(playout.game, playout.config, ReplayResolver([], playout.faces))
    match.state = clone(m.state)
    match.known = [dict(k) for k in m.known]
    return match


T = TypeVar("T")


def spread(items: Sequence[T], count: int) -> list[T]:
    """At most ``count`` items, evenly spread, the first and the last included."""
    if len(items) <= count:
        return list(items)
    if count == 1:
        return [items[0]]
    last = len(items) - 1
    return [items[round(i * last / (count - 1))] for i in range(count)]
