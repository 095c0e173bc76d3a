"""The conformance kit: the rules of the game API, checked on any game by playing it.

A plugin runs every check from its own test suite with one call::

    from atoll.testing import check_game

    def test_my_game_follows_the_game_api() -> None:
        check_game(MyGame())

or gets one pytest case per variant, seat count and seed::

    @pytest.mark.parametrize("case", conformance_cases(MyGame()), ids=str)
    def test_my_game_conforms(case: ConformanceCase) -> None:
        case.run()

Each case plays the game to its end with random bots through the real engine
(:class:`~atoll.engine.Match`, :class:`~atoll.engine.LocalResolver`), records every
step as a :class:`Playout`, and runs the checks in :data:`CHECKS` over it. A check
that fails raises :class:`ConformanceError` naming the check, the game, variant,
seat count, seed and step. The checks are public functions of a playout, so a test
can run just one: ``check_render(play(game, config, seed))``.
"""

from __future__ import annotations

import copy
import functools
import json
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from prompt_toolkit.utils import get_cwidth

from atoll.bots.random_bot import RandomBot
from atoll.chance import Request, Roll, Shuffle, request_from_json
from atoll.engine.local import LocalResolver
from atoll.engine.match import Event, Match, normal_text, sealed_action
from atoll.engine.observation import Observation
from atoll.engine.save import ReplayResolver
from atoll.errors import AtollError, CheatDetected, IllegalAction, MalformedInput, ProtocolViolation
from atoll.game import Game
from atoll.guard import guard
from atoll.jsondata import JSON, canonical, clone, roundtrip
from atoll.testing.inputs import HiddenInput, tripwires, watched
from atoll.testing.texts import check_owner_marks, check_score_sheet, check_texts
from atoll.types import Action, Chance, Config, Decision, End, Knowledge, Results, State, Step

#: A playout that takes more steps (decisions and chance events) than this has not ended.
DEFAULT_MAX_STEPS = 20_000
#: The errors a refused action may raise: anything else is a crash, not a refusal.
REFUSALS = (IllegalAction, MalformedInput, ProtocolViolation, CheatDetected)

#: Columns a board may take at most: the client draws it whole on an 80x24 terminal.
BOARD_COLUMNS = 80

# How many moments of a playout the costlier checks look at (spread evenly, first and last included).
_ILLEGAL_MOMENTS = 8
_VIEWED_MOMENTS = 200
_RENDER_MOMENTS = 12
_PARSED_ACTIONS = 48


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


Check = Callable[[Playout], None]
T = TypeVar("T")


# -- playing -------------------------------------------------------------------


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
    bots = _bots(config, seed)
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
                match.act(step.seat, _choose(bots, match, step, legal))
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


def _bots(config: Config, seed: int) -> list[RandomBot]:
    return [RandomBot(seed * 7919 + seat) for seat in range(config.seats)]


def _choose(bots: Sequence[RandomBot], match: Match, step: Decision, legal: Sequence[Action]) -> Action:
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


# -- the checks ----------------------------------------------------------------


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
    bots = _bots(playout.config, playout.seed)
    for m in playout.moments:
        if _differ(match.state, m.state):
            raise playout.fail(check, "the state differs from the first playout with the same "
                               f"seed{why}: {_difference(m.state, match.state)}", m.index)
        try:
            step = match.step()
            if m.event is None:
                if not isinstance(step, End):
                    raise playout.fail(check, "the first playout with the same seed ended here; "
                                       f"the second goes on{why}", m.index)
                return
            if isinstance(step, Decision):
                match.act(step.seat, _choose(bots, match, step, match.legal_actions(step.seat)))
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
            raise playout.fail(check, f"the log differs{why}: {_short(first)} the first time, "
                               f"{_short(match.events[-1])} the second", m.index)


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
                f"{what} changes through JSON: {_difference(value, roundtrip(value))}")
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
    for m in _spread(playout.moments, _VIEWED_MOMENTS):
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
    viewed = {m.index for m in _spread(playout.moments, _VIEWED_MOMENTS)}
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
        if _differ(state, m.state):
            # Name the culprit: run the calls again, one at a time, each on its own copy.
            for name, call in calls:
                state = clone(m.state)
                call(state)
                if _differ(state, m.state):
                    raise playout.fail("no-mutation", f"{name} changed the state it was given: "
                                       f"{_difference(m.state, state)}", m.index)
            raise playout.fail("no-mutation", "the calls together changed the state they were given: "
                               f"{_difference(m.state, state)}", m.index)


def _check_part(playout: Playout, m: Moment, parts: list[State]) -> list[State]:
    """``apply`` of one seat's part of a simultaneous decision, on the state the parts before it made
    (the engine applies them one after another), leaves that state unchanged; the states so far."""
    assert isinstance(m.step, Decision) and m.event is not None
    state = m.state if not parts else parts[-1]
    action = sealed_action(m.event)
    given = clone(state)
    after = playout.game.apply(given, clone(action))
    if _differ(given, state):
        raise playout.fail("no-mutation", f"apply({_short(action)}) changed the state it was given: "
                           f"{_difference(state, given)}", m.index)
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
            calls.append((f"describe({_short(action)})", functools.partial(_describe, game, action)))
    return calls


def _changing_call(game: Game, event: Event) -> Call:
    if "request" in event:
        request = request_from_json(event["request"])
        return (f"resolve({_short(event['request'])})",
                lambda state: game.resolve(state, request, clone(event["outcome"])))
    action: Action = sealed_action(event) if "sealed" in event else event["action"]
    return f"apply({_short(action)})", lambda state: game.apply(state, clone(action))


def _view(game: Game, seat: int | None, known: Knowledge, state: State) -> object:
    return game.view(state, seat, known)


def _legal(game: Game, seat: int, known: Knowledge, state: State) -> object:
    return game.legal_actions(state, seat, known)


def _describe(game: Game, action: Action, state: State) -> object:
    return game.describe(state, action)


def check_public_replay(playout: Playout) -> None:
    """A spectator rebuilds every public state from the public log alone.

    Starting from ``setup``, a fresh game instance folds in each logged action,
    sealed decision and chance outcome, with no hidden face anywhere, and must
    reach the recorded state at every step (and ask for the same step). A game
    that carried a face it learnt privately (through ``known`` or its own
    memory) into the public state cannot pass.
    """
    game = playout.fresh_game()
    state = game.setup(playout.config)
    together: list[Event] = []
    for m in playout.moments:
        if _differ(state, m.state):
            raise playout.fail("public-replay", "the public state cannot be rebuilt from the public log: "
                               f"{_difference(m.state, state)}", m.index)
        step = game.next(state)
        if _step_json(step) != _step_json(m.step):
            raise playout.fail("public-replay", f"from the public log alone the game asks for "
                               f"{_step_json(step)}, not {_step_json(m.step)}", m.index)
        if m.event is None:
            return
        if "request" in m.event:
            state = game.resolve(state, request_from_json(m.event["request"]), clone(m.event["outcome"]))
        elif "sealed" in m.event and isinstance(m.step, Decision) and m.step.simultaneous:
            together.append(m.event)  # the game sees every seat's part once all have chosen
            if len(together) == len(m.step.seats):
                for event in together:
                    state = game.apply(state, sealed_action(event))
                together = []
        elif "sealed" in m.event:
            state = game.apply(state, sealed_action(m.event))
        else:
            state = game.apply(state, clone(m.event["action"]))


def check_hidden_faces(playout: Playout) -> None:
    """Nothing public depends on a face that is hidden from somebody.

    1. For each seat, the faces of the cards it never saw (neither dealt to it nor
       shown) are permuted within their piles, the dice under other seats' cups it
       never saw are turned to other faces, and the same public log is driven
       through a fresh game on a resolver that holds these other faces. As long as
       the log can be followed (another seat's options may legitimately change with
       its cards), the public state and the seat's view must be exactly those of
       the original game, and the seat's own legal actions must be the same.
    2. At each decision, the faces the deciding seat holds unseen by others are
       permuted among its own cards (its dice turned to other faces): its legal
       actions that show no card must stay the same, texts included. Such an action
       goes into the public log as it is, so one that carried a private face outside
       ``"reveal"`` would show it to every seat; and the other seats, who cannot see
       those faces, must be able to check it with ``apply``.
    """
    piles: dict[str, list[str]] = {}
    dice: dict[str, int] = {}
    shown: set[str] = set()
    for event in playout.events:
        if "request" in event:
            request = request_from_json(event["request"])
            if isinstance(request, Shuffle):
                piles[request.pile] = request.handles()
            elif isinstance(request, Roll) and request.to is not None:
                dice.update((h, request.sides) for h in request.handles())
        shown.update(_shown_by(event))
    final_known = playout.moments[-1].known
    for seat in range(playout.config.seats):
        unseen = [[h for h in handles if h not in shown and h not in final_known[seat]]
                  for handles in piles.values()]
        faces = _rolled_over(_rotated(playout.faces, unseen),
                             {h: s for h, s in dice.items() if h not in shown and h not in final_known[seat]})
        if faces != playout.faces:
            _follow_with_other_faces(playout, seat, faces)
    _check_quiet_actions(playout, dice)


def _shown_by(event: Event) -> list[str]:
    """The handles whose faces a log entry makes public."""
    if "request" in event and event["request"].get("kind") == "reveal":
        return list(event["outcome"]["faces"])
    reveal = event.get("action", {}).get("reveal") if isinstance(event.get("action"), dict) else None
    return list(reveal) if isinstance(reveal, dict) else []


def _check_quiet_actions(playout: Playout, dice: Mapping[str, int]) -> None:
    shown: set[str] = set()
    for m in playout.moments:
        if isinstance(m.step, Decision) and not m.step.secret:
            seat = m.step.seat
            known = m.known[seat]
            groups: dict[str, list[str]] = {}
            for handle in known:
                if handle not in shown and handle not in dice:
                    groups.setdefault(handle.rsplit(".", 1)[0], []).append(handle)
            mine = {h: dice[h] for h in known if h in dice and h not in shown}
            other = _rolled_over(_rotated(known, list(groups.values())), mine)
            if other != known:
                quiet = {canonical(a) for a in m.legal if not a.get("reveal")}
                again = playout.game.legal_actions(m.state, seat, other)
                quiet_again = {canonical(a) for a in again if not a.get("reveal")}
                if quiet != quiet_again:
                    changed = sorted(quiet ^ quiet_again)[0]
                    raise playout.fail("hidden-faces", f"seat {seat}'s action {changed}, which shows no "
                                       "card, comes and goes with the faces of its hidden cards or dice: "
                                       "if it carries them outside 'reveal' it shows them to every seat, and "
                                       "the other seats, who cannot see them, could not check it", m.index)
        if m.event is not None:
            shown.update(_shown_by(m.event))


def _follow_with_other_faces(playout: Playout, seat: int, faces: dict[str, JSON]) -> None:
    game = playout.fresh_game()
    match = Match(game, playout.config, ReplayResolver(list(playout.events), faces))
    for m in playout.moments:
        if _differ(match.state, m.state):
            raise playout.fail("hidden-faces", f"the public state depends on faces seat {seat} never saw: "
                               f"{_difference(m.state, match.state)}", m.index)
        original = playout.game.view(m.state, seat, m.known[seat])
        now = match.view(seat)
        if canonical(now) != canonical(original):
            raise playout.fail("hidden-faces", f"seat {seat}'s view depends on faces it never saw: "
                               f"{_difference(original, now)}", m.index)
        event = m.event
        if event is None:
            return
        if "request" in event:
            match.advance()
            continue
        actor = int(event["seat"])
        action: Action = event.get("action") or {"secret": [playout.faces[h] for h in event["sealed"]]}
        legal = {canonical(a) for a in match.legal_actions(actor)}
        if canonical(action) not in legal:
            if actor == seat:
                raise playout.fail("hidden-faces", f"seat {seat}'s legal actions depend on faces it never "
                                   f"saw: {_short(action)} is no longer offered", m.index)
            return  # another seat's cards differ, so its options may too: the log cannot be followed
        match.act(actor, clone(action))


def check_action_texts(playout: Playout) -> None:
    """Every legal action has a unique, non-empty ``describe`` text (ignoring case and spacing), and
    ``Match.parse`` of that text gives back exactly that action.

    Texts are checked at every decision, parsing at up to a few hundred spread over the playout.
    """
    parsed_at = {m.index for m in _spread(playout.decisions, _VIEWED_MOMENTS)}
    for m in playout.decisions:
        seat = _seat(m)
        texts: dict[str, Action] = {}
        for action in m.legal:
            text = playout.game.describe(m.state, action)
            if not isinstance(text, str) or not text.strip():
                raise playout.fail("action-texts", f"describe({_short(action)}) gave {text!r}", m.index)
            key = normal_text(text)
            if key in texts:
                raise playout.fail("action-texts", f"two legal actions of seat {seat} are both described as "
                                   f"{text!r}: {_short(texts[key])} and {_short(action)}", m.index)
            texts[key] = action
        if m.index not in parsed_at:
            continue
        _check_aliases(playout, m, texts)
        match = _match_at(playout, m)
        for key in _spread(sorted(texts), _PARSED_ACTIONS):
            parsed = match.parse(seat, key)
            if canonical(parsed) != canonical(texts[key]):
                raise playout.fail("action-texts", f"parse({key!r}) gave {_short(parsed)}, not "
                                   f"{_short(texts[key])}", m.index)


def _check_aliases(playout: Playout, m: Moment, texts: Mapping[str, Action]) -> None:
    """Aliases are non-empty strings, and none is another legal action's own text (the parser would
    take that action, so the alias could never be typed)."""
    for key, action in texts.items():
        aliases = playout.game.aliases(m.state, action)
        for alias in aliases:
            if not isinstance(alias, str) or not alias.strip():
                raise playout.fail("action-texts", f"aliases({_short(action)}) holds {alias!r}", m.index)
            other = texts.get(normal_text(alias))
            if other is not None and other is not action:
                raise playout.fail("action-texts", f"the alias {alias!r} of {key!r} is the text of "
                                   f"{_short(other)}, so it can never name {_short(action)}", m.index)


def check_illegal_actions(playout: Playout) -> None:
    """An illegal action is refused with an :data:`REFUSALS` error and changes nothing.

    The illegal actions are built from the legal ones: a key removed, a value
    changed, a boolean where an integer is expected (``True == 1`` in Python, but
    not in JSON: another peer reads ``true``), an unknown kind, a legal action of
    another step or seat, a ``reveal`` of a card the seat does not hold. "Illegal" means "not among the
    legal actions": ``apply`` must refuse whatever ``legal_actions`` does not
    list, since on a network table it is the only check. One exception: an
    accepted action whose text is a legal action's text is that action in
    another form (showing another copy of an identical hidden card, which
    ``apply`` cannot tell apart from the listed copy). Acting out of turn is
    refused too, and no seat but the one to decide is offered any action.
    Candidates are tried at a few decisions spread over the playout.
    """
    decisions = playout.decisions
    for m in _spread(decisions, _VIEWED_MOMENTS):
        for other in range(playout.config.seats):
            if other not in _deciders(m) and playout.game.legal_actions(m.state, other, m.known[other]):
                raise playout.fail("illegal-actions", f"seat {other} is offered actions although seat "
                                   f"{_seat(m)} is to decide", m.index)
    for m in _spread(decisions, _ILLEGAL_MOMENTS):
        seat = _seat(m)
        match = _match_at(playout, m)
        for other in range(playout.config.seats):
            if other not in _deciders(m):
                _refused(playout, m, match, other, m.legal[0], f"seat {other} acting out of turn")
        for label, action in _illegal_candidates(playout, m, decisions):
            if not _refused(playout, m, match, seat, action, label):
                match = _match_at(playout, m)


def _refused(playout: Playout, m: Moment, match: Match, seat: int, action: Action, label: str) -> bool:
    """Whether ``action`` was refused; an accepted equivalent of a legal action returns False."""
    before = (canonical(match.state), len(match.events), canonical(match.known))
    try:
        match.act(seat, clone(action))
    except REFUSALS:
        pass
    except Exception as exc:
        raise playout.fail("illegal-actions", f"{label}: {_short(action)} crashed the game with {exc!r}; "
                           "refuse it with IllegalAction or MalformedInput", m.index) from exc
    else:
        if not label.startswith(_BOOLEAN) and _equivalent_to_legal(playout, m, action):
            return False
        raise playout.fail("illegal-actions", f"{label}: {_short(action)} was accepted, but it is not "
                           "among the legal actions", m.index)
    if (canonical(match.state), len(match.events), canonical(match.known)) != before:
        raise playout.fail("illegal-actions", f"{label}: refusing {_short(action)} changed the state: "
                           f"{_difference(m.state, match.state)}", m.index)
    return True


def _equivalent_to_legal(playout: Playout, m: Moment, action: Action) -> bool:
    """Whether ``action`` reads exactly as one of the legal actions at ``m``."""
    describe = playout.game.describe
    try:
        text = describe(m.state, action)
    except Exception:
        return False
    return any(describe(m.state, legal) == text for legal in m.legal)


def _illegal_candidates(playout: Playout, m: Moment, decisions: Sequence[Moment]) -> list[tuple[str, Action]]:
    seat = _seat(m)
    candidates: list[tuple[str, Action]] = [
        ("an unknown kind of action", {"conformance-kit-no-such-kind": 1}),
        ("an empty action", {}),
    ]
    for action in _spread(list(m.legal), 4):
        for key in sorted(action):
            rest = {k: v for k, v in action.items() if k != key}
            if action[key] not in (None, {}, []):  # an empty value often means the same as none at all
                candidates.append((f"a legal action without {key!r}", rest))
            candidates.append((f"a legal action with {key!r} changed", {**rest, key: _changed(action[key])}))
        boolean = _boolean_for_integer(action)
        if boolean is not None:
            candidates.append((f"{_BOOLEAN} in a legal action", boolean))
    elsewhere = [(d, a) for d in decisions if d is not m for a in d.legal[:2]]
    for d, action in _spread(elsewhere, 4):
        who = "another seat" if _seat(d) != seat else "the same seat"
        candidates.append((f"a legal action of {who} at step {d.index}", action))
    strangers = sorted(h for h in playout.faces if h not in m.known[seat])
    if strangers:
        handle = strangers[len(strangers) // 2]
        base = next((a for a in m.legal if isinstance(a.get("reveal"), dict) and a["reveal"]), m.legal[0])
        candidates.append((f"a reveal of {handle!r}, which seat {seat} does not hold",
                           {**base, "reveal": {handle: playout.faces[handle]}}))
    legal = {canonical(a) for a in m.legal}
    seen: set[str] = set()
    out = []
    for label, action in candidates:
        text = canonical(action)
        if text not in legal and text not in seen:
            seen.add(text)
            out.append((label, action))
    return out


#: How the label of a boolean candidate begins (no legal text excuses it: ``True`` reads as ``1``).
_BOOLEAN = "a boolean where an integer is expected"


def _boolean_for_integer(value: JSON) -> Any:
    """``value`` with its first integer (in key order) replaced by the boolean equal to it in Python
    (``1`` by ``True``, ``0`` by ``False``, others by ``True``), or ``None`` when it holds no integer."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value == 1 or value != 0
    if isinstance(value, list):
        for i, item in enumerate(value):
            changed = _boolean_for_integer(item)
            if changed is not None:
                return [*value[:i], changed, *value[i + 1:]]
    if isinstance(value, dict):
        for key in sorted(value):
            if key == "reveal":
                continue  # faces are the game's own values, checked by the proof, not by apply
            changed = _boolean_for_integer(value[key])
            if changed is not None:
                return {**value, key: changed}
    return None


def check_render(playout: Playout) -> None:
    """Everything a client draws can be drawn, at every step of the playout: ``render(view)`` gives a
    list of ``(style, text)`` string pairs for every seat and the spectator; ``describe`` gives every
    legal action a line of text; and the log's words are text (``describe_log`` a line for the action
    taken, ``describe_chance_after``, by default ``describe_chance``, a line or ``None``). A game whose
    drawing fails in any position fails.

    ``describe_log`` is also asked for every legal action (not only the one taken) at a few decisions
    spread over the playout: a client may word an action it was told of before it happens.
    """
    game = playout.game
    viewers: list[int | None] = [*range(playout.config.seats), None]
    for m, following in zip(playout.moments, [*playout.moments[1:], None], strict=True):
        for viewer in viewers:
            _check_drawing(playout, m, viewer)
        for action in m.legal:
            _check_line(playout, m, f"describe({_short(action)})", game.describe, m.state, action)
        event = m.event
        if event is None:
            continue
        if isinstance(m.step, Chance) and following is not None:
            line = game.describe_chance_after(m.state, m.step.request, event["outcome"], following.state)
            if line is not None and (not isinstance(line, str) or not line.strip()):
                raise playout.fail("render", f"describe_chance gave {line!r}; give a line of text, or "
                                   "None for the client's own words", m.index)
        elif isinstance(m.step, Decision) and "action" in event:  # the client words sealed choices itself
            _check_line(playout, m, f"describe_log({_short(event['action'])})", game.describe_log, m.state,
                        _seat(m), event["action"])
    open_decisions = [m for m in playout.decisions if isinstance(m.step, Decision) and not m.step.secret]
    for m in _spread(open_decisions, _RENDER_MOMENTS):
        for action in m.legal:
            _check_line(playout, m, f"describe_log({_short(action)})", game.describe_log, m.state, _seat(m),
                        action)


def _check_line(playout: Playout, m: Moment, what: str, call: Callable[..., object], *args: object) -> None:
    """``call(*args)`` gives a non-empty line of text, and does not raise."""
    try:
        line = call(*args)
    except Exception as exc:
        raise playout.fail("render", f"{what} raised {exc!r}", m.index) from exc
    if not isinstance(line, str) or not line.strip():
        raise playout.fail("render", f"{what} gave {line!r}; give a line of text", m.index)


def _check_drawing(playout: Playout, m: Moment, viewer: int | None) -> None:
    """The view of ``viewer`` at ``m`` renders to ``(style, text)`` pairs, without raising."""
    game = playout.game
    who = "the spectator" if viewer is None else f"seat {viewer}"
    known = m.known[viewer] if viewer is not None else {}
    try:
        fragments = game.render(game.view(m.state, viewer, known))
    except Exception as exc:
        raise playout.fail("render", f"drawing {who}'s view raised {exc!r}", m.index) from exc
    if not isinstance(fragments, list):
        raise playout.fail("render", f"render of {who}'s view gave a {type(fragments).__name__}, "
                           "not a list of (style, text) pairs", m.index)
    if not _plain_fragments(fragments):
        for fragment in fragments:
            if not (isinstance(fragment, tuple) and len(fragment) == 2
                    and all(isinstance(part, str) for part in fragment)):
                raise playout.fail("render", f"render of {who}'s view has the fragment {fragment!r}; "
                                   "each must be a (style, text) pair of strings", m.index)
    text = "".join(part for _, part in fragments)
    widest = max(text.split("\n"), key=get_cwidth)
    if get_cwidth(widest) > BOARD_COLUMNS:
        raise playout.fail("render", f"{who}'s board is {get_cwidth(widest)} columns wide, over the "
                           f"{BOARD_COLUMNS} an 80x24 terminal shows (the line {_short(widest, 60)}); "
                           "wrap it or draw it narrower", m.index)


def _plain_fragments(fragments: Sequence[Any]) -> bool:
    """Whether every fragment is a pair of two plain strings: a fast test (every step of a long game
    is drawn for every seat), which only says yes; the loop above finds the culprit, or lets pass
    what it accepts (such as a subclass of ``str``)."""
    if not fragments:
        return True
    if set(map(type, fragments)) != {tuple} or set(map(len, fragments)) != {2}:
        return False
    styles, texts = zip(*fragments, strict=True)
    return set(map(type, styles)) == {str} and set(map(type, texts)) == {str}


#: Every check, by name, in the order :func:`check_game` runs them (the playout itself comes first).
CHECKS: Mapping[str, Check] = {
    "json": check_json,
    "no-mutation": check_no_mutation,
    "public-replay": check_public_replay,
    "hidden-faces": check_hidden_faces,
    "action-texts": check_action_texts,
    "illegal-actions": check_illegal_actions,
    "render": check_render,
    "texts": check_texts,
    "score-sheet": check_score_sheet,
    "owner-marks": check_owner_marks,
    "determinism": check_determinism,
    "hidden-inputs": check_hidden_inputs,
}


# -- running them --------------------------------------------------------------


@dataclass(frozen=True)
class ConformanceCase:
    """One configuration and seed of a game; :meth:`run` plays it and runs the checks."""

    game: Game
    config: Config
    seed: int
    max_steps: int = DEFAULT_MAX_STEPS

    def __str__(self) -> str:
        return f"{self.game.info.name}-{self.config.variant}-{self.config.seats}p-seed{self.seed}"

    def run(self, checks: Sequence[str] | None = None) -> Playout:
        """Play the case and run ``checks`` (names from :data:`CHECKS`; all by default)."""
        unknown = [name for name in checks or () if name not in CHECKS]
        if unknown:
            raise ValueError(f"no check named {', '.join(unknown)}; the checks are {', '.join(CHECKS)}")
        playout = play(self.game, self.config, self.seed, max_steps=self.max_steps)
        for name in checks if checks is not None else CHECKS:
            try:
                CHECKS[name](playout)
            except ConformanceError:
                raise
            except Exception as exc:
                raise playout.fail(name, f"the game raised {exc!r}") from exc
        return playout


def conformance_cases(
    game: Game,
    *,
    seats: Sequence[int] | None = None,
    variants: Sequence[str] | None = None,
    playouts: int = 2,
    seed: int = 0,
    max_steps: int = DEFAULT_MAX_STEPS,
    limit: float | None = None,
) -> list[ConformanceCase]:
    """The cases :func:`check_game` runs: each variant x seat count x ``playouts`` seeds from ``seed``.

    ``seats`` and ``variants`` default to all the game offers. The game plays behind atoll's guard
    (:mod:`atoll.guard`), as it does when installed: what it raises is reported naming the game and
    the method, and a call that runs past ``limit`` seconds (default: ``ATOLL_PLUGIN_LIMIT``, else 20)
    is stopped and reported instead of hanging the test run.
    """
    game = guard(game, limit=limit)
    return [ConformanceCase(game, config, s, max_steps)
            for config in _configs(game, seats, variants) for s in range(seed, seed + playouts)]


def check_game(
    game: Game,
    *,
    seats: Sequence[int] | None = None,
    variants: Sequence[str] | None = None,
    playouts: int = 2,
    seed: int = 0,
    max_steps: int = DEFAULT_MAX_STEPS,
    checks: Sequence[str] | None = None,
    limit: float | None = None,
) -> None:
    """Run the conformance checks on ``game``; raises :class:`ConformanceError` at the first failure
    (``limit``: as for :func:`conformance_cases`)."""
    for case in conformance_cases(game, seats=seats, variants=variants, playouts=playouts, seed=seed,
                                  max_steps=max_steps, limit=limit):
        case.run(checks)


def _configs(game: Game, seats: Sequence[int] | None, variants: Sequence[str] | None) -> Iterator[Config]:
    info = game.info
    for variant in variants if variants is not None else info.variants:
        for count in seats if seats is not None else range(info.min_seats, info.max_seats + 1):
            yield game.configure(count, variant)


# -- helpers -------------------------------------------------------------------


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


def _seat(m: Moment) -> int:
    assert isinstance(m.step, Decision)
    return m.step.seat


def _deciders(m: Moment) -> tuple[int, ...]:
    """Every seat deciding at ``m`` (several for a simultaneous decision)."""
    assert isinstance(m.step, Decision)
    return m.step.deciders


def _match_at(playout: Playout, m: Moment) -> Match:
    """A match standing at moment ``m``, whose resolver proves reveals against the true faces."""
    match = Match(playout.game, playout.config, ReplayResolver([], playout.faces))
    match.state = clone(m.state)
    match.known = [dict(k) for k in m.known]
    return match


def _step_json(step: Step) -> JSON:
    if isinstance(step, Decision) and step.simultaneous:
        return {"decision": list(step.seats), "secret": step.secret}
    if isinstance(step, Decision):
        return {"decision": step.seat, "secret": step.secret}
    if isinstance(step, Chance):
        request: Request = step.request
        return {"chance": request.to_json()}
    return {"end": step.results.to_json()}


def _differ(a: JSON, b: JSON) -> bool:
    """Whether two pieces of plain JSON differ (compared as Python compares them: much faster than
    hashing their encodings, at the price of taking ``1`` and ``True`` for the same)."""
    return bool(a != b)


def _rolled_over(faces: Mapping[str, JSON], dice: Mapping[str, int]) -> dict[str, JSON]:
    """``faces`` with each die of ``dice`` (handle -> sides) turned to the next face (a 6 to a 1)."""
    out = dict(faces)
    for handle, sides in dice.items():
        value = out.get(handle)
        if isinstance(value, int) and not isinstance(value, bool):
            out[handle] = value % sides + 1
    return out


def _rotated(faces: Mapping[str, JSON], groups: Sequence[Sequence[str]]) -> dict[str, JSON]:
    """``faces`` with the faces within each group of handles moved on by one place."""
    out = dict(faces)
    for group in groups:
        for handle, source in zip(group, [*group[1:], *group[:1]], strict=True):
            out[handle] = faces[source]
    return out


def _changed(value: JSON) -> JSON:
    """A value of the same type that no rule should accept in its place."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return -1_000_003 - abs(value)
    if isinstance(value, str):
        return value + "\u2020not-a-real-value"
    if isinstance(value, list):
        return [] if value else ["\u2020not-a-real-value"]
    if isinstance(value, dict):
        return {} if value else {"\u2020not-a-real-value": None}
    return "\u2020not-a-real-value"


def _spread(items: Sequence[T], count: int) -> list[T]:
    """At most ``count`` items, evenly spread, the first and the last included."""
    if len(items) <= count:
        return list(items)
    if count == 1:
        return [items[0]]
    last = len(items) - 1
    return [items[round(i * last / (count - 1))] for i in range(count)]


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
    return f"{path} holds a {type(value).__name__} ({_short(value)}), which is not JSON"


def _difference(a: object, b: object, path: str = "") -> str:
    """The first place where ``a`` and ``b`` differ, as ``at [path]: a vs b``."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=repr):
            if key not in b:
                return f"at {path}[{key!r}]: {_short(a[key])} vs nothing"
            if key not in a:
                return f"at {path}[{key!r}]: nothing vs {_short(b[key])}"
            if a[key] != b[key] or type(a[key]) is not type(b[key]):
                return _difference(a[key], b[key], f"{path}[{key!r}]")
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y or type(x) is not type(y):
                return _difference(x, y, f"{path}[{i}]")
    return f"at {path or 'top'}: {_short(a)} vs {_short(b)}"


def _short(value: object, limit: int = 100) -> str:
    try:
        text = canonical(value)
    except AtollError:
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
