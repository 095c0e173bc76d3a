"""The checks of secrecy: a spectator rebuilds every public state from the public log alone
(:func:`check_public_replay`), and nothing public, nor a seat's view or its actions that show no card,
depends on a face hidden from that seat (:func:`check_hidden_faces`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from atoll.chance import Request, Roll, Shuffle, request_from_json
from atoll.engine.match import Event, Match, sealed_action
from atoll.engine.save import ReplayResolver
from atoll.jsondata import JSON, canonical, clone
from atoll.testing.compare import differ, difference, short
from atoll.testing.playout import Playout
from atoll.types import Action, Chance, Decision, Step


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
        if differ(state, m.state):
            raise playout.fail("public-replay", "the public state cannot be rebuilt from the public log: "
                               f"{difference(m.state, state)}", m.index)
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
        if differ(match.state, m.state):
            raise playout.fail("hidden-faces", f"the public state depends on faces seat {seat} never saw: "
                               f"{difference(m.state, match.state)}", m.index)
        original = playout.game.view(m.state, seat, m.known[seat])
        now = match.view(seat)
        if canonical(now) != canonical(original):
            raise playout.fail("hidden-faces", f"seat {seat}'s view depends on faces it never saw: "
                               f"{difference(original, now)}", m.index)
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
                                   f"saw: {short(action)} is no longer offered", m.index)
            return  # another seat's cards differ, so its options may too: the log cannot be followed
        match.act(actor, clone(action))


def _step_json(step: Step) -> JSON:
    if isinstance(step, Decision) and step.simultaneous:
        return {"decision": list(step.seats), "secret": step.secret}
    if isinstance(step, Decision):
        return {"decision": step.seat, "secret": step.secret}
    if isinstance(step, Chance):
        request: Request = step.request
        return {"chance": request.to_json()}
    return {"end": step.results.to_json()}


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
