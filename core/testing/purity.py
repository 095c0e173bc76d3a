"""The checks that the rules are pure functions over plain data: every value is plain JSON
(:func:`check_json`), no call changes the state it is given (:func:`check_no_mutation`), and the same
seed plays the same game (:func:`check_determinism`), also on an unused copy of the game with the
global random state disturbed and the random sources watched (:func:`check_hidden_inputs`).
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable

from atoll.chance import request_from_json
from atoll.engine.local import LocalResolver
from atoll.engine.match import Event, Match, sealed_action
from atoll.errors import AtollError
from atoll.game import Game
from atoll.jsondata import JSON, canonical, clone, roundtrip
from atoll.testing.compare import differ, difference, short
from atoll.testing.inputs import HiddenInput, tripwires, watched
from atoll.testing.playout import (
    VIEWED_MOMENTS,
    ConformanceError,
    Moment,
    Playout,
    bot_choice,
    seat_bots,
    spread,
)
from atoll.types import Action, Chance, Decision, End, Knowledge, Results, State


def check_determinism(playout: Playout) -> None:
    """The same seed gives the same game: the same public log and the same state at every step,
    played a second time on the same game instance (a game must not remember earlier games)."""
    _replay(playout, playout.game, "determinism", "")


def check_hidden_inputs(playout: Playout) -> None:
    """Rules have no hidden inputs: played again from the same seed on an unused copy of the game, with
    Python's global random state reseeded in between, no rule draws from ``random`` (the global state
    or a ``random.Random`` of its own) or ``os.urandom``, and the game is the same step for step (a
    game whose rules read the clock, or a counter kept outside the state, differs here)."""
    game = watched(playout.fresh_game())
    disturbed = random.getstate()
    random.seed(f"atoll kit {playout.seed}")  # a rule that draws from the global state draws other numbers
    try:
        with tripwires():
            _replay(playout, game, "hidden-inputs",
                    " with Python's global random state reseeded: a rule reads the clock or state kept "
                    "outside the game state; give it to the rules through the state or a chance request")
    except HiddenInput as exc:
        raise playout.fail("hidden-inputs", f"{exc}: rules may have no hidden inputs; draw dice, picks "
                           "and card orders through a chance request (Roll, Pick, Shuffle, Deal), which "
                           "the local resolver seeds and a table draws fairly") from None
    finally:
        random.setstate(disturbed)


def _replay(playout: Playout, game: Game, check: str, why: str) -> None:
    """Play ``playout``'s seed again on ``game`` and fail ``check`` (saying ``why``) where it differs."""
    match = Match(game, playout.config, LocalResolver(playout.seed))
    bots = seat_bots(playout.config, playout.seed)
    for m in playout.moments:
        if differ(match.state, m.state):
            raise playout.fail(check, "the state differs from the first playout with the same "
                               f"seed{why}: {difference(m.state, match.state)}", m.index)
        try:
            step = match.step()
            if m.event is None:
                if not isinstance(step, End):
                    raise playout.fail(check, "the first playout with the same seed ended here; "
                                       f"the second goes on{why}", m.index)
                return
            if isinstance(step, Decision):
                match.act(step.seat, bot_choice(bots, match, step, match.legal_actions(step.seat)))
            elif isinstance(step, Chance):
                match.advance()
            else:
                raise playout.fail(check, "the second playout with the same seed ends here; the "
                                   f"first went on{why}", m.index)
        except (ConformanceError, HiddenInput):
            raise
        except Exception as exc:
            raise playout.fail(check, f"the second playout with the same seed failed: {exc!r}",
                               m.index) from exc
        first = playout.events[len(match.events) - 1] if match.events else None
        if match.events and match.events[-1] != first:
            raise playout.fail(check, f"the log differs{why}: {short(first)} the first time, "
                               f"{short(match.events[-1])} the second", m.index)


def check_json(playout: Playout) -> None:
    """Every state, legal action, chance request and outcome, view and result is plain JSON: objects
    with string keys, lists, strings, integers, booleans and null, which survive encoding and
    decoding unchanged (no floats: rules use integers; no tuples, sets or other objects).

    States, actions and log entries are checked at every step; the views of every
    seat and the spectator at up to a few hundred steps spread over the playout.
    """
    game, seats = playout.game, range(playout.config.seats)

    def plain(value: JSON, what: str, index: int) -> None:
        if not _survives_json(value):
            problem = _not_json(value, what) or (
                f"{what} changes through JSON: {difference(value, roundtrip(value))}")
            raise playout.fail("json", problem, index)

    for m in playout.moments:
        plain(m.state, "the state", m.index)
        for action in m.legal:
            plain(action, "a legal action", m.index)
        if isinstance(m.step, Chance):
            request = m.step.request
            plain(request.to_json(), "a chance request", m.index)
            if request_from_json(roundtrip(request.to_json())) != request:
                raise playout.fail("json", f"request {request!r} does not read back from JSON", m.index)
        if m.event is not None:
            plain(m.event, "a log entry (action or chance outcome)", m.index)
    for m in spread(playout.moments, VIEWED_MOMENTS):
        for seat in seats:
            plain(game.view(m.state, seat, m.known[seat]), f"seat {seat}'s view", m.index)
        plain(game.view(m.state, None, {}), "the spectator's view", m.index)
    plain(playout.results.to_json(), "the results", playout.moments[-1].index)
    if Results.from_json(roundtrip(playout.results.to_json())) != playout.results:
        raise playout.fail("json", f"results {playout.results} do not read back from JSON")


def check_no_mutation(playout: Playout) -> None:
    """``next``, ``legal_actions``, ``view``, ``describe``, ``apply`` and ``resolve`` never change
    the state they are given (the engine keeps states it has handed out).

    ``next`` and ``apply``/``resolve`` are checked at every step; the calls made for
    every seat (views, legal actions, texts) at up to a few hundred steps.
    """
    viewed = {m.index for m in spread(playout.moments, VIEWED_MOMENTS)}
    parts: list[State] = []  # a simultaneous decision: the states its parts were applied to so far
    for m in playout.moments:
        calls = _reading_calls(playout, m, every_seat=m.index in viewed)
        if m.event is not None and m.event.get("at_once"):
            parts = _check_part(playout, m, parts)
        elif m.event is not None:
            calls.append(_changing_call(playout.game, m.event))
        state = clone(m.state)
        for _, call in calls:
            call(state)
        if differ(state, m.state):
            # Name the culprit: run the calls again, one at a time, each on its own copy.
            for name, call in calls:
                state = clone(m.state)
                call(state)
                if differ(state, m.state):
                    raise playout.fail("no-mutation", f"{name} changed the state it was given: "
                                       f"{difference(m.state, state)}", m.index)
            raise playout.fail("no-mutation", "the calls together changed the state they were given: "
                               f"{difference(m.state, state)}", m.index)


def _check_part(playout: Playout, m: Moment, parts: list[State]) -> list[State]:
    """``apply`` of one seat's part of a simultaneous decision, on the state the parts before it made
    (the engine applies them one after another), leaves that state unchanged; the states so far."""
    assert isinstance(m.step, Decision) and m.event is not None
    state = m.state if not parts else parts[-1]
    action = sealed_action(m.event)
    given = clone(state)
    after = playout.game.apply(given, clone(action))
    if differ(given, state):
        raise playout.fail("no-mutation", f"apply({short(action)}) changed the state it was given: "
                           f"{difference(state, given)}", m.index)
    done = [*parts, after]
    return [] if len(done) == len(m.step.seats) else done


Call = tuple[str, Callable[[State], object]]


def _reading_calls(playout: Playout, m: Moment, *, every_seat: bool) -> list[Call]:
    game = playout.game
    calls: list[Call] = [("next()", game.next)]
    if every_seat:
        for seat in range(playout.config.seats):
            known = m.known[seat]
            calls.append((f"view(seat {seat})", functools.partial(_view, game, seat, known)))
            calls.append((f"legal_actions(seat {seat})", functools.partial(_legal, game, seat, known)))
        calls.append(("view(spectator)", functools.partial(_view, game, None, {})))
        for action in m.legal:
            calls.append((f"describe({short(action)})", functools.partial(_describe, game, action)))
    return calls


def _changing_call(game: Game, event: Event) -> Call:
    if "request" in event:
        request = request_from_json(event["request"])
        return (f"resolve({short(event['request'])})",
                lambda state: game.resolve(state, request, clone(event["outcome"])))
    action: Action = sealed_action(event) if "sealed" in event else event["action"]
    return f"apply({short(action)})", lambda state: game.apply(state, clone(action))


def _view(game: Game, seat: int | None, known: Knowledge, state: State) -> object:
    return game.view(state, seat, known)


def _legal(game: Game, seat: int, known: Knowledge, state: State) -> object:
    return game.legal_actions(state, seat, known)


def _describe(game: Game, action: Action, state: State) -> object:
    return game.describe(state, action)


class _FloatFound(Exception):
    pass


def _no_float(text: str) -> JSON:
    raise _FloatFound(text)


def _survives_json(value: JSON) -> bool:
    """Whether ``value`` is plain JSON without floats: a fast test (the JSON codec does the walking);
    :func:`_not_json` then says where, when it is not."""
    try:
        return bool(json.loads(canonical(value), parse_float=_no_float) == value)
    except (AtollError, _FloatFound):
        return False


def _not_json(value: object, path: str) -> str | None:
    """Where ``value`` is not plain JSON (floats count as not JSON: rules use integers), or ``None``."""
    if value is None or isinstance(value, (bool, int, str)):
        return None
    if isinstance(value, float):
        return f"{path} holds the float {value!r}; rules use integers"
    if isinstance(value, list):
        for i, item in enumerate(value):
            problem = _not_json(item, f"{path}[{i}]")
            if problem:
                return problem
        return None
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                return f"{path} has the key {key!r}, which is not a string"
            problem = _not_json(item, f"{path}[{key!r}]")
            if problem:
                return problem
        return None
    return f"{path} holds a {type(value).__name__} ({short(value)}), which is not JSON"
