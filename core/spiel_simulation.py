"""The OpenSpiel bridge's simulation: an atoll game as pure functions from snapshot to snapshot.

:mod:`atoll.openspiel` wraps it in pyspiel's classes; this module needs no OpenSpiel. A
:class:`Snapshot` is one moment of a full-information game (every hidden face, what each
seat knows, the public log); a :class:`Simulation` is the rules of one configured game over
snapshots, with the bounds OpenSpiel is promised (:class:`Bounds`, measured by :func:`probe`
where the game does not declare them).
"""

from __future__ import annotations

import hashlib
import random
import warnings
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from atoll.bots.determinize import Sampler
from atoll.bots.random_bot import RandomBot
from atoll.chance import Deal, Pick, Request, Reveal, Roll, Shuffle, request_from_json
from atoll.engine.ledger import Ledger
from atoll.engine.local import LocalResolver
from atoll.engine.loop import run
from atoll.engine.match import Event, Match
from atoll.engine.observation import Observation
from atoll.errors import AtollError
from atoll.game import Game
from atoll.jsondata import JSON, canonical
from atoll.tensors import Tensors, size
from atoll.types import Action, Chance, Config, Decision, End, State, Step

#: Prefix of every atoll game's short name in OpenSpiel.
PREFIX = "atoll_"
#: OpenSpiel's player id of chance (``pyspiel.PlayerId.CHANCE``).
CHANCE = -1
#: Random playouts measured to find the default bounds of a seat count and variant.
PROBE_PLAYOUTS = 2
#: The default ``max_game_length`` is the longest probe times this, plus :data:`LENGTH_MARGIN`.
LENGTH_FACTOR = 3
LENGTH_MARGIN = 16


class BoundExceeded(AtollError):
    """A game went past a bound that OpenSpiel was promised (actions, chance outcomes, its length)."""


class BadActionId(AtollError):
    """A game's stable action ids break their promise: out of range, or two legal actions share one."""


class CutOff(UserWarning):
    """A game reached ``max_game_length`` without ending: it was stopped there and scored as a draw."""


# -- bounds --------------------------------------------------------------------


@dataclass(frozen=True)
class Bounds:
    """What OpenSpiel is promised about one seat count and variant of a game."""

    max_game_length: int
    """Decisions before the game is cut off."""
    max_chance_outcomes: int
    """Outcomes of the widest chance node."""
    declared: bool = False
    """Whether ``max_game_length`` is the game's own bound (``Game.length_bound``): a game that goes
    past it is an error, not a game to cut off."""


def probe(game: Game, config: Config, playouts: int = PROBE_PLAYOUTS) -> Bounds:
    """Default bounds from ``playouts`` random playouts through the engine."""
    longest, widest = 0, 0
    for seed in range(playouts):
        match = Match(game, config, LocalResolver(seed))
        run(match, [RandomBot(seed * 7919 + seat) for seat in range(config.seats)])
        longest = max(longest, sum(1 for event in match.events if "seat" in event))
        for event in match.events:
            if "request" in event:
                widest = max(widest, _width(request_from_json(event["request"])))
    return Bounds(LENGTH_FACTOR * longest + LENGTH_MARGIN, widest)


def _width(request: Request) -> int:
    """The most outcomes a chance node of ``request`` can have."""
    if isinstance(request, Roll):
        return request.sides
    if isinstance(request, Pick):
        return len(_distinct(request.options))
    if isinstance(request, Shuffle):
        return len(_distinct(request.faces))
    return 0


def _distinct(values: Sequence[JSON]) -> list[str]:
    """The distinct values (as canonical JSON) in order of first appearance."""
    return list(dict.fromkeys(canonical(v) for v in values))


# -- the simulation ------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Snapshot:
    """One moment of a simulated game. Never changed once made, so clones share it."""

    state: State
    known: tuple[Mapping[str, JSON], ...]
    truth: Mapping[str, JSON]
    """Every hidden face dealt out so far (shuffled cards and sealed values)."""
    drawn: tuple[JSON, ...] = ()
    """Values drawn so far for the chance request in progress."""
    seals: int = 0
    decisions: int = 0
    cut: bool = False
    """True when the game was cut off at ``max_game_length``."""
    log: tuple[Event, ...] = ()
    """The public log: what every seat has seen happen (its digest, the public record of hidden cards
    and a game's information tensors are derived from it when asked, never on the way)."""
    sealed_in: tuple[State, ...] = ()
    """The state each sealed decision was made in, in order (a guess at a sealed value needs it)."""
    together: tuple[tuple[int, tuple[str, ...]], ...] = ()
    """The parts of a simultaneous decision sealed so far (seat, handles): the game and the public log
    see them only once every seat has chosen."""
    cache: dict[str, Any] = field(default_factory=dict, repr=False)
    """Values derived from the fields above (the step, the legal actions, strings)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Snapshot:
        return self

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "cache": {}}


class Simulation:
    """The rules of one configured game over snapshots: pure functions from snapshot to snapshot."""

    def __init__(self, game: Game, config: Config, bounds: Bounds) -> None:
        self.game = game
        self.config = config
        self.bounds = bounds
        self.action_bound = game.action_bound(config)
        #: How many stable action ids the game numbers its moves with (0: numbered by position).
        self.id_count = game.action_id_count(config)
        #: What OpenSpiel is told: the stable ids, else the positions ``action_bound`` allows.
        self.num_distinct_actions = self.id_count or self.action_bound
        self.tensors: Tensors | None = game.tensors(config)
        self.initial = self._settle(Snapshot(game.setup(config), tuple({} for _ in range(config.seats)), {}))

    # -- reading --------------------------------------------------------------

    def step(self, snap: Snapshot) -> Step:
        """What the game says happens now (a game cut off says so in ``snap.cut``, not here)."""
        if "step" not in snap.cache:
            step = self.game.next(snap.state)
            if snap.together and isinstance(step, Decision):
                chosen = {seat for seat, _ in snap.together}
                step = replace(step, seat=next(s for s in step.seats if s not in chosen))
            snap.cache["step"] = step
        cached: Step = snap.cache["step"]
        return cached

    def over(self, snap: Snapshot) -> bool:
        """Whether the game has ended (or was cut off)."""
        return snap.cut or isinstance(self.step(snap), End)

    def legal(self, snap: Snapshot) -> list[Action]:
        """The deciding seat's legal actions: in the order of their canonical JSON, or the game's own
        order when it numbers them with stable ids."""
        if "legal" not in snap.cache:
            step = self.step(snap)
            assert isinstance(step, Decision)
            actions = self.game.legal_actions(snap.state, step.seat, snap.known[step.seat])
            if not self.id_count and len(actions) > self.action_bound:
                raise BoundExceeded(
                    f"{self.game.info.name}: seat {step.seat} has {len(actions)} legal actions, more than "
                    f"action_bound ({self.action_bound}); raise the game's action_bound"
                )
            # stable ids order the actions themselves; positions need an order that is the same everywhere
            snap.cache["legal"] = actions if self.id_count else sorted(actions, key=canonical)
        legal: list[Action] = snap.cache["legal"]
        return legal

    def choices(self, snap: Snapshot) -> dict[int, Action]:
        """The deciding seat's legal actions by their OpenSpiel ids, in the order of the ids."""
        if "choices" not in snap.cache:
            numbered = self._numbered(snap) if self.id_count else dict(enumerate(self.legal(snap)))
            snap.cache["choices"] = numbered
        choices: dict[int, Action] = snap.cache["choices"]
        return choices

    def _numbered(self, snap: Snapshot) -> dict[int, Action]:
        """The legal actions by the game's stable ids, checked against the promise ids make."""
        table: dict[int, Action] = {}
        for action in self.legal(snap):
            number = self.game.action_id(snap.state, action)
            if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number < self.id_count:
                raise BadActionId(
                    f"{self.game.info.name}: action_id gave {number!r} for {canonical(action)}; ids are "
                    f"whole numbers 0-{self.id_count - 1} (action_id_count is {self.id_count})"
                )
            if number in table:
                raise BadActionId(
                    f"{self.game.info.name}: {canonical(table[number])} and {canonical(action)} are both "
                    f"legal and share action id {number}; give every legal action its own id"
                )
            table[number] = action
        return dict(sorted(table.items()))

    def chance_outcomes(self, snap: Snapshot) -> list[tuple[int, float]]:
        """The outcomes of the chance node now and their probabilities."""
        request = self._request(snap)
        if isinstance(request, Roll):
            return [(face, 1.0 / request.sides) for face in range(request.sides)]
        pool = request.options if isinstance(request, Pick) else request.faces
        left = Counter(canonical(v) for v in pool) - Counter(canonical(v) for v in snap.drawn)
        total = sum(left.values())
        outcomes = [(i, left[text] / total) for i, text in enumerate(_distinct(pool)) if left[text]]
        if outcomes[-1][0] >= self.bounds.max_chance_outcomes:
            raise BoundExceeded(
                f"{self.game.info.name}: a chance node has outcome {outcomes[-1][0]}, beyond "
                f"max_chance_outcomes ({self.bounds.max_chance_outcomes}); load the game with a larger "
                "'max_chance_outcomes'"
            )
        return outcomes

    def returns(self, snap: Snapshot) -> list[float]:
        """Each seat's share of the win (all zero before the end)."""
        seats = self.config.seats
        if not self.over(snap):
            return [0.0] * seats
        step = self.step(snap)
        winners = step.results.winners if isinstance(step, End) and not snap.cut else ()
        # a game cut off has no result; all it can be scored is a draw (and CutOff said so)
        if not winners:
            return [1.0 / seats] * seats
        return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(seats)]

    def describe(self, snap: Snapshot, player: int, action: int) -> str:
        """A text for ``action`` of ``player`` (or chance) in ``snap``."""
        if player == CHANCE and isinstance(self.step(snap), Chance) and not snap.cut:
            request = self._request(snap)
            if isinstance(request, Roll):
                return f"a die shows {action + 1}"
            pool = request.options if isinstance(request, Pick) else request.faces
            texts = _distinct(pool)
            if 0 <= action < len(texts):
                what = "pick" if isinstance(request, Pick) else f"next card of {request.pile}"
                return f"{what}: {texts[action]}"
        step = self.step(snap)
        if isinstance(step, Decision) and step.seat == player and not snap.cut:
            choices = self.choices(snap)
            if action in choices:
                return self.game.describe(snap.state, choices[action])
        return f"action {action}"

    def text(self, snap: Snapshot) -> str:
        """The whole simulated state (truth included) as text."""
        if "text" not in snap.cache:
            snap.cache["text"] = "\n".join([
                canonical(snap.state),
                f"known {canonical(list(snap.known))}",
                f"truth {canonical(snap.truth)}",
                f"drawn {canonical(list(snap.drawn))} decisions {snap.decisions} cut {snap.cut}",
            ])
        text: str = snap.cache["text"]
        return text

    def view(self, snap: Snapshot, seat: int | None) -> str:
        """What ``seat`` (``None``: a spectator) sees, as canonical JSON."""
        key = f"view {seat}"
        if key not in snap.cache:
            known = snap.known[seat] if seat is not None else {}
            snap.cache[key] = canonical(self.game.view(snap.state, seat, known))
        view: str = snap.cache[key]
        return view

    def digest(self, snap: Snapshot) -> str:
        """A digest of the public log (information states hold it: it makes them perfect recall)."""
        if "digest" not in snap.cache:
            snap.cache["digest"] = _digest(snap.log)
        digest: str = snap.cache["digest"]
        return digest

    def ledger(self, snap: Snapshot) -> Ledger:
        """The public record of hidden cards, as :class:`~atoll.engine.Match` keeps it, from the log."""
        if "ledger" not in snap.cache:
            ledger, seals = Ledger(), iter(snap.sealed_in)
            for event in snap.log:
                if "request" in event:
                    ledger.record_chance(request_from_json(event["request"]), event["outcome"])
                elif "sealed" in event:
                    ledger.record_seal(event["seat"], event["sealed"], next(seals))
                elif isinstance(reveal := event["action"].get("reveal"), dict):
                    ledger.record_reveal(reveal)
            snap.cache["ledger"] = ledger
        built: Ledger = snap.cache["ledger"]
        return built

    def observation_tensor(self, snap: Snapshot, seat: int) -> list[float]:
        """The game's observation tensor of ``seat`` (the game must have tensors)."""
        assert self.tensors is not None
        return self._checked(self.tensors.observation(snap.state, seat, snap.known[seat]),
                             self.tensors.observation_shape(), "observation")

    def information_tensor(self, snap: Snapshot, seat: int) -> list[float]:
        """The game's information-state tensor of ``seat`` (the game must have tensors)."""
        assert self.tensors is not None
        values = self.tensors.information(snap.state, seat, snap.known[seat], snap.log)
        return self._checked(values, self.tensors.information_shape(), "information")

    def _checked(self, values: list[float], shape: tuple[int, ...], what: str) -> list[float]:
        if len(values) != size(shape):
            raise BoundExceeded(
                f"{self.game.info.name}: its {what} tensor has {len(values)} numbers, but its shape {shape} "
                f"holds {size(shape)}; a tensor's shape never changes within a configured game"
            )
        return values

    def resample(self, snap: Snapshot, seat: int, rng: random.Random) -> Snapshot:
        """A snapshot ``seat`` cannot tell from ``snap``: the same public state, log and own faces,
        every face hidden from it drawn afresh by atoll's own :class:`~atoll.bots.determinize.Sampler`,
        which reads only the public record and the seat's knowledge (never ``snap.truth``)."""
        if snap.drawn:
            raise AtollError(
                f"{self.game.info.name}: cannot resample in the middle of a chance request; resample at a "
                "decision"
            )
        observation = Observation(self.game, self.config, seat, snap.state, snap.known[seat],
                                  self.ledger(snap), [])
        world = Sampler(observation).world(rng)
        known, truth = [dict(k) for k in world.known], dict(world.faces)
        for other, handles in snap.together:  # the other seats' parts of a simultaneous decision: guessed
            if other != seat:
                guessed = world.pending.get(other)
                if guessed is None:
                    legal = world.legal(other)
                    guessed = legal[rng.randrange(len(legal))]["secret"]
                truth.update(zip(handles, guessed, strict=True))
                known[other].update(zip(handles, guessed, strict=True))
            else:
                known[seat].update((h, snap.truth[h]) for h in handles)
                truth.update((h, snap.truth[h]) for h in handles)
        return replace(snap, known=tuple(known), truth=truth, cache={})

    # -- changing -------------------------------------------------------------

    def decide(self, snap: Snapshot, number: int) -> Snapshot:
        """The snapshot after the deciding seat takes the legal action OpenSpiel calls ``number``."""
        step = self.step(snap)
        assert isinstance(step, Decision)
        choices = self.choices(snap)
        if number not in choices:
            raise AtollError(
                f"{self.game.info.name}: action {number} is not legal for seat {step.seat} now; legal: "
                f"{sorted(choices)}"
            )
        seat, action = step.seat, choices[number]
        if step.simultaneous:
            return self._settle(self._decide_together(snap, step, seat, list(action["secret"])))
        if step.secret:
            values = list(action["secret"])
            handles = [f"s{seat}-{snap.seals}.{i}" for i in range(len(values))]
            state = self.game.apply(snap.state, {"sealed": handles})
            secrets = dict(zip(handles, values, strict=True))
            known = _learn(snap.known, {seat: secrets})
            event: Event = {"seat": seat, "sealed": handles}
            after = replace(snap, state=state, known=known, truth={**snap.truth, **secrets},
                            seals=snap.seals + 1, sealed_in=(*snap.sealed_in, snap.state), cache={})
        else:
            event = {"seat": seat, "action": action}
            after = replace(snap, state=self.game.apply(snap.state, action), cache={})
        return self._settle(replace(after, decisions=snap.decisions + 1, log=(*snap.log, event)))

    def _decide_together(self, snap: Snapshot, step: Decision, seat: int, values: list[JSON]) -> Snapshot:
        """``seat``'s part of a simultaneous decision: sealed now (only the seat learns it), handed to
        the game with every other part, in seat order, once the last seat has chosen. OpenSpiel sees one
        player node per seat, in seat order, none of which sees the others' parts: the turn-based form of
        a simultaneous move."""
        number = snap.seals + step.seats.index(seat)
        handles = [f"s{seat}-{number}.{i}" for i in range(len(values))]
        secrets = dict(zip(handles, values, strict=True))
        together = (*snap.together, (seat, tuple(handles)))
        snap = replace(snap, known=_learn(snap.known, {seat: secrets}), truth={**snap.truth, **secrets},
                       together=together, decisions=snap.decisions + 1, cache={})
        if len(together) < len(step.seats):
            return snap
        parts = sorted(together)
        state = snap.state
        for decider, sealed in parts:
            state = self.game.apply(state, {"seat": decider, "sealed": list(sealed)})
        events: list[Event] = [{"seat": d, "sealed": list(h), "at_once": True} for d, h in parts]
        return replace(snap, state=state, seals=snap.seals + len(parts), together=(),
                       sealed_in=(*snap.sealed_in, *(snap.state for _ in parts)),
                       log=(*snap.log, *events), cache={})

    def draw(self, snap: Snapshot, outcome: int) -> Snapshot:
        """The snapshot after chance drew ``outcome`` at the node now."""
        return self._settle(self._drawn(snap, outcome))

    def _drawn(self, snap: Snapshot, outcome: int) -> Snapshot:
        request = self._request(snap)
        if isinstance(request, Roll):
            value: JSON = outcome + 1
        else:
            pool = request.options if isinstance(request, Pick) else request.faces
            value = _value_of(pool, _distinct(pool)[outcome])
        drawn = (*snap.drawn, value)
        if isinstance(request, Roll) and request.to is not None and len(drawn) == request.count:
            # dice under a cup: one chance node per die, seen by the cup's owner only
            handles = request.handles()
            dice = dict(zip(handles, drawn, strict=True))
            known = _learn(snap.known, {request.to: dice})
            return self._fold(replace(snap, truth={**snap.truth, **dice}, known=known), request,
                              {"handles": handles})
        if isinstance(request, Roll) and len(drawn) == request.count:
            return self._fold(snap, request, {"values": list(drawn)})
        if isinstance(request, Pick) and len(drawn) == request.count:
            return self._fold(snap, request, {"picked": list(drawn)})
        if isinstance(request, Shuffle) and len(drawn) == len(request.faces):
            handles = request.handles()
            truth = {**snap.truth, **dict(zip(handles, drawn, strict=True))}
            return self._fold(replace(snap, truth=truth), request, {"handles": handles})
        return replace(snap, drawn=drawn, cache={})

    def _settle(self, snap: Snapshot) -> Snapshot:
        """Take every step that needs nobody: deals, reveals and chance nodes with one outcome."""
        while True:
            step = self.step(snap)
            if isinstance(step, End):
                return snap
            if isinstance(step, Decision):
                if snap.decisions >= self.bounds.max_game_length:
                    return self._cut(snap)
                return snap
            request = step.request
            if isinstance(request, Deal):
                known = _learn(snap.known, {s: {h: snap.truth[h] for h in hs} for s, hs in request.to})
                snap = self._fold(replace(snap, known=known), request, {})
            elif isinstance(request, Reveal):
                snap = self._fold(snap, request, {"faces": {h: snap.truth[h] for h in request.handles}})
            elif not isinstance(request, Roll) and len(outcomes := self.chance_outcomes(snap)) == 1:
                snap = self._drawn(snap, outcomes[0][0])
            else:
                return snap

    def _cut(self, snap: Snapshot) -> Snapshot:
        """Stop a game that reached ``max_game_length`` (an error if the game declared that bound)."""
        name, bound = self.game.info.name, self.bounds.max_game_length
        if self.bounds.declared:
            raise BoundExceeded(
                f"{name}: a game went past {bound} decisions, the game's own length_bound for "
                f"{self.config.seats} seats ({self.config.variant}); its length_bound is wrong"
            )
        warnings.warn(CutOff(
            f"{PREFIX}{name}: a game was cut off after {bound} decisions (max_game_length) and scored as a "
            "draw; declare Game.length_bound, or load the game with a larger 'max_game_length'"
        ), stacklevel=2)
        return replace(snap, cut=True, cache={})

    def _fold(self, snap: Snapshot, request: Request, outcome: dict[str, JSON]) -> Snapshot:
        event: Event = {"request": request.to_json(), "outcome": outcome}
        state = self.game.resolve(snap.state, request, outcome)
        return replace(snap, state=state, drawn=(), log=(*snap.log, event), cache={})

    def _request(self, snap: Snapshot) -> Roll | Pick | Shuffle:
        step = self.step(snap)
        assert isinstance(step, Chance) and isinstance(step.request, (Roll, Pick, Shuffle))
        return step.request


def _learn(known: tuple[Mapping[str, JSON], ...], faces: Mapping[int, Mapping[str, JSON]]) -> tuple[
        Mapping[str, JSON], ...]:
    return tuple({**k, **faces[seat]} if seat in faces else k for seat, k in enumerate(known))


def _digest(log: Sequence[Event]) -> str:
    return hashlib.sha256(canonical(list(log)).encode()).hexdigest()


def _value_of(pool: Sequence[JSON], text: str) -> JSON:
    return next(v for v in pool if canonical(v) == text)
