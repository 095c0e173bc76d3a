"""A game in progress: the public state, what each seat privately knows, and the public log."""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType
from typing import Any

from atoll.chance import Request
from atoll.engine.ledger import Ledger
from atoll.engine.resolver import Resolver
from atoll.errors import AmbiguousAction, IllegalAction, MalformedInput, ProtocolViolation, UnknownAction
from atoll.game import Game
from atoll.jsondata import JSON, canonical
from atoll.numbering import seat_label
from atoll.types import Action, Chance, Config, Decision, End, Knowledge, State, Step

#: One entry of the public log: ``{"seat", "action"}``, ``{"seat", "sealed"}`` (with ``"at_once":
#: true`` for a seat's part of a simultaneous decision) or ``{"request", "outcome"}``.
Event = dict[str, Any]


def sealed_action(event: Event) -> Action:
    """What the game's ``apply`` received for the sealed choice logged as ``event``: ``{"sealed":
    handles}``, with the choosing ``"seat"`` for a part of a simultaneous decision."""
    if event.get("at_once"):
        return {"seat": event["seat"], "sealed": list(event["sealed"])}
    return {"sealed": list(event["sealed"])}


def normal_text(text: str) -> str:
    """``text`` as :meth:`Match.parse` compares it: lower case, single spaces, no spaces at the ends."""
    return " ".join(text.lower().split())


class Match:
    """Drives one game: asks ``next``, routes chance to the resolver, checks and applies actions.

    The state the game sees is public; each seat's private knowledge (handle ->
    face) is kept here beside it, and the :class:`Ledger` records the public
    facts about hidden cards. ``events`` is the public log; replaying it (with
    the same resolver answers) gives the same state.
    """

    def __init__(self, game: Game, config: Config, resolver: Resolver) -> None:
        self.game = game
        self.config = config
        self.resolver = resolver
        self.state: State = game.setup(config)
        self.known: list[dict[str, JSON]] = [{} for _ in range(config.seats)]
        self.ledger = Ledger()
        self.events: list[Event] = []
        self.before: list[State] = []
        """The state before each event (``before[i]`` for ``events[i]``; for each part of a simultaneous
        decision, the state the decision was made in), to word the log from: states are never changed in
        place, so this keeps references, not copies."""
        self._step: Step | None = None
        self._seals = 0
        # A simultaneous decision's choices so far: seat -> its handles, applied once every seat chose.
        self._together: dict[int, list[str]] = {}

    # -- reading ------------------------------------------------------------------

    def step(self) -> Step:
        """What happens now (cached until the state changes). During a simultaneous decision its
        ``seat`` is the first seat that has not chosen yet (:meth:`waiting_for` names them all)."""
        if self._step is None:
            self._step = self.game.next(self.state)
        step = self._step
        if self._together and isinstance(step, Decision):
            return replace(step, seat=self.waiting_for()[0])
        return step

    def waiting_for(self) -> tuple[int, ...]:
        """The seats that may decide now, in seat order: every seat of a simultaneous decision that
        has not chosen yet, the one seat to decide otherwise, none at a chance step or the end."""
        if self._step is None:
            self._step = self.game.next(self.state)
        step = self._step
        if not isinstance(step, Decision):
            return ()
        return tuple(s for s in step.deciders if s not in self._together)

    @property
    def sealed_count(self) -> int:
        """How many sealed decisions (each seat's part of a simultaneous one counted) were applied so
        far: the number the next one's handles carry."""
        return self._seals

    def knowledge(self, seat: int) -> Knowledge:
        """A read-only view of what ``seat`` privately knows."""
        return MappingProxyType(self.known[seat])

    def legal_actions(self, seat: int) -> list[Action]:
        """The legal actions of ``seat`` now (empty unless it is to decide)."""
        if seat not in self.waiting_for():
            return []
        return self.game.legal_actions(self.state, seat, self.known[seat])

    def view(self, seat: int | None) -> dict[str, JSON]:
        """What ``seat`` (``None``: a spectator) may see."""
        known: Knowledge = {} if seat is None else self.known[seat]
        return self.game.view(self.state, seat, known)

    def texts(self, seat: int) -> dict[str, Action]:
        """The legal actions of ``seat`` by their texts; raises if two share a text."""
        out: dict[str, Action] = {}
        for action in self.legal_actions(seat):
            text = self.game.describe(self.state, action)
            if text in out:
                raise AmbiguousAction(
                    f"{self.game.info.name}: two legal actions are both described as {text!r}"
                )
            out[text] = action
        return out

    def parse(self, seat: int, text: str) -> Action:
        """The legal action of ``seat`` whose text or alias is ``text``, or the one whose text begins so
        (spaces and case do not matter)."""
        wanted = normal_text(text)
        texts = self.texts(seat)
        for candidate, action in texts.items():
            if normal_text(candidate) == wanted:
                return action
        aliased = [
            candidate for candidate, action in texts.items()
            if any(normal_text(alias) == wanted for alias in self.game.aliases(self.state, action))
        ]
        if len(aliased) == 1:
            return texts[aliased[0]]
        if aliased:
            raise AmbiguousAction(f"{text!r} could be any of: {', '.join(sorted(aliased))}")
        matches = [t for t in texts if t.lower().startswith(wanted)] if wanted else []
        if len(matches) == 1:
            return texts[matches[0]]
        if matches:
            raise AmbiguousAction(f"{text!r} could be any of: {', '.join(sorted(matches))}")
        hint = ", ".join(sorted(texts)[:8]) + (" ..." if len(texts) > 8 else "")
        raise UnknownAction(f"{text!r} is not a legal action now; legal: {hint}")

    # -- changing -----------------------------------------------------------------

    def act(self, seat: int, action: Action, *, remote: bool = False) -> None:
        """``seat`` takes ``action``; raises and changes nothing if it may not.

        ``remote``: the seat plays on another machine, so its private knowledge is not held here;
        the faces its action shows are checked by the resolver's proof alone.
        """
        step = self.step()
        if not isinstance(step, Decision):
            raise ProtocolViolation(f"{seat_label(seat)} acted, but no seat is to decide now")
        if seat not in self.waiting_for():
            if seat in step.deciders:
                raise ProtocolViolation(f"{seat_label(seat)} has already chosen; the others are choosing")
            raise ProtocolViolation(
                f"{seat_label(seat)} acted out of turn; {seat_label(step.seat)} is to decide")
        if not isinstance(action, dict):
            raise MalformedInput(f"an action is a JSON object, not {action!r}")
        if step.secret:
            self._act_sealed(seat, action)
            return
        reveal = action.get("reveal", {})
        if not isinstance(reveal, dict):
            raise MalformedInput(f"'reveal' must map handles to faces: {reveal!r}")
        unknown = [] if remote else [h for h in reveal if h not in self.known[seat]]
        if unknown:
            raise IllegalAction(f"{seat_label(seat)} cannot show {', '.join(unknown)}: not in its hand")
        if reveal:
            self.resolver.prove(seat, reveal)
        before = self.state
        self.state = self.game.apply(self.state, action)
        self._step = None
        if reveal:
            self.ledger.record_reveal(reveal)
        self.events.append({"seat": seat, "action": action})
        self.before.append(before)

    def _act_sealed(self, seat: int, action: Action) -> None:
        values = action.get("secret")
        if not isinstance(values, list) or not values:
            raise MalformedInput(f"a secret decision needs 'secret': [values], got {action!r}")
        legal = {canonical(a) for a in self.game.legal_actions(self.state, seat, self.known[seat])}
        if canonical(action) not in legal:
            raise IllegalAction(f"{seat_label(seat)} may not seal {values!r} now")
        self._seal(seat, values)

    def act_sealed_unseen(self, seat: int, count: int) -> None:
        """``seat``, playing on another machine, sealed ``count`` values this peer does not learn.

        Their legality is checked when they are opened; here only the commitment step runs.
        """
        step = self.step()
        if not isinstance(step, Decision) or seat not in self.waiting_for() or not step.secret:
            raise ProtocolViolation(f"{seat_label(seat)} sealed a choice, but it is not to seal one now")
        self._seal(seat, [None] * count, seen=False)

    def _seal(self, seat: int, values: list[JSON], *, seen: bool = True) -> None:
        """Apply a sealed decision of ``len(values)`` slots; the values are known here only if ``seen``."""
        step = self.step()
        assert isinstance(step, Decision)
        if step.simultaneous:
            self._seal_together(step, seat, values, seen=seen)
            return
        handles = [f"s{seat}-{self._seals}.{i}" for i in range(len(values))]
        before = self.state
        self.state = self.game.apply(self.state, {"sealed": handles})
        self._step = None
        self._seals += 1
        self.resolver.seal(seat, handles, values if seen else None)  # type: ignore[arg-type]
        if seen:
            self.known[seat].update(zip(handles, values, strict=True))
        self.ledger.record_seal(seat, handles, before)
        self.events.append({"seat": seat, "sealed": handles})
        self.before.append(before)

    def _seal_together(self, step: Decision, seat: int, values: list[JSON], *, seen: bool) -> None:
        """Commit ``seat``'s part of a simultaneous decision now; once every seat has chosen, hand the
        game each seat's handles in seat order. A seat's handles are numbered by its place among the
        deciding seats, so they are the same whatever order the seats chose in."""
        number = self._seals + step.seats.index(seat)
        handles = [f"s{seat}-{number}.{i}" for i in range(len(values))]
        self.resolver.seal(seat, handles, values if seen else None)  # type: ignore[arg-type]
        if seen:
            self.known[seat].update(zip(handles, values, strict=True))
        self._together[seat] = handles
        if len(self._together) < len(step.seats):
            return
        before = state = self.state
        for decider in step.seats:
            state = self.game.apply(state, {"seat": decider, "sealed": self._together[decider]})
        self.state = state
        self._step = None
        self._seals += len(step.seats)
        for decider in step.seats:
            self.ledger.record_seal(decider, self._together[decider], before)
            self.events.append({"seat": decider, "sealed": self._together[decider], "at_once": True})
            self.before.append(before)  # every part is worded in the state the decision was made in
        self._together = {}

    def advance(self) -> Request:
        """Resolve the pending chance request; returns it."""
        step = self.step()
        if not isinstance(step, Chance):
            raise ProtocolViolation("advance() called, but chance is not to act now")
        request = step.request
        resolution = self.resolver.resolve(request)
        before = self.state
        self.state = self.game.resolve(self.state, request, resolution.outcome)
        self._step = None
        for seat, faces in resolution.privately.items():
            self.known[seat].update(faces)
        self.ledger.record_chance(request, resolution.outcome)
        self.events.append({"request": request.to_json(), "outcome": resolution.outcome})
        self.before.append(before)
        return request

    def results(self) -> End | None:
        """The end of the game, or ``None`` while it goes on."""
        step = self.step()
        return step if isinstance(step, End) else None

