"""The checks of the actions a seat sends: every legal action has a text of its own, which parses
back to it (:func:`check_action_texts`), and whatever is not a legal action is refused and changes
nothing (:func:`check_illegal_actions`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from atoll.engine.match import Match, normal_text
from atoll.errors import CheatDetected, IllegalAction, MalformedInput, ProtocolViolation
from atoll.jsondata import JSON, canonical, clone
from atoll.testing.compare import difference, short
from atoll.testing.playout import VIEWED_MOMENTS, Moment, Playout, match_at, seat_of, spread
from atoll.types import Action, Decision

#: The errors a refused action may raise: anything else is a crash, not a refusal.
REFUSALS = (IllegalAction, MalformedInput, ProtocolViolation, CheatDetected)

# How many moments of a playout the costlier checks look at (spread evenly, first and last included).
_ILLEGAL_MOMENTS = 8
_PARSED_ACTIONS = 48


def check_action_texts(playout: Playout) -> None:
    """Every legal action has a unique, non-empty ``describe`` text (ignoring case and spacing), and
    ``Match.parse`` of that text gives back exactly that action.

    Texts are checked at every decision, parsing at up to a few hundred spread over the playout.
    """
    parsed_at = {m.index for m in spread(playout.decisions, VIEWED_MOMENTS)}
    for m in playout.decisions:
        seat = seat_of(m)
        texts: dict[str, Action] = {}
        for action in m.legal:
            text = playout.game.describe(m.state, action)
            if not isinstance(text, str) or not text.strip():
                raise playout.fail("action-texts", f"describe({short(action)}) gave {text!r}", m.index)
            key = normal_text(text)
            if key in texts:
                raise playout.fail("action-texts", f"two legal actions of seat {seat} are both described as "
                                   f"{text!r}: {short(texts[key])} and {short(action)}", m.index)
            texts[key] = action
        if m.index not in parsed_at:
            continue
        _check_aliases(playout, m, texts)
        match = match_at(playout, m)
        for key in spread(sorted(texts), _PARSED_ACTIONS):
            parsed = match.parse(seat, key)
            if canonical(parsed) != canonical(texts[key]):
                raise playout.fail("action-texts", f"parse({key!r}) gave {short(parsed)}, not "
                                   f"{short(texts[key])}", m.index)


def _check_aliases(playout: Playout, m: Moment, texts: Mapping[str, Action]) -> None:
    """Aliases are non-empty strings, and none is another legal action's own text (the parser would
    take that action, so the alias could never be typed)."""
    for key, action in texts.items():
        aliases = playout.game.aliases(m.state, action)
        for alias in aliases:
            if not isinstance(alias, str) or not alias.strip():
                raise playout.fail("action-texts", f"aliases({short(action)}) holds {alias!r}", m.index)
            other = texts.get(normal_text(alias))
            if other is not None and other is not action:
                raise playout.fail("action-texts", f"the alias {alias!r} of {key!r} is the text of "
                                   f"{short(other)}, so it can never name {short(action)}", m.index)


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
    for m in spread(decisions, VIEWED_MOMENTS):
        for other in range(playout.config.seats):
            if other not in _deciders(m) and playout.game.legal_actions(m.state, other, m.known[other]):
                raise playout.fail("illegal-actions", f"seat {other} is offered actions although seat "
                                   f"{seat_of(m)} is to decide", m.index)
    for m in spread(decisions, _ILLEGAL_MOMENTS):
        seat = seat_of(m)
        match = match_at(playout, m)
        for other in range(playout.config.seats):
            if other not in _deciders(m):
                _refused(playout, m, match, other, m.legal[0], f"seat {other} acting out of turn")
        for label, action in _illegal_candidates(playout, m, decisions):
            if not _refused(playout, m, match, seat, action, label):
                match = match_at(playout, m)


def _refused(playout: Playout, m: Moment, match: Match, seat: int, action: Action, label: str) -> bool:
    """Whether ``action`` was refused; an accepted equivalent of a legal action returns False."""
    before = (canonical(match.state), len(match.events), canonical(match.known))
    try:
        match.act(seat, clone(action))
    except REFUSALS:
        pass
    except Exception as exc:
        raise playout.fail("illegal-actions", f"{label}: {short(action)} crashed the game with {exc!r}; "
                           "refuse it with IllegalAction or MalformedInput", m.index) from exc
    else:
        if not label.startswith(_BOOLEAN) and _equivalent_to_legal(playout, m, action):
            return False
        raise playout.fail("illegal-actions", f"{label}: {short(action)} was accepted, but it is not "
                           "among the legal actions", m.index)
    if (canonical(match.state), len(match.events), canonical(match.known)) != before:
        raise playout.fail("illegal-actions", f"{label}: refusing {short(action)} changed the state: "
                           f"{difference(m.state, match.state)}", m.index)
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
    seat = seat_of(m)
    candidates: list[tuple[str, Action]] = [
        ("an unknown kind of action", {"conformance-kit-no-such-kind": 1}),
        ("an empty action", {}),
    ]
    for action in spread(list(m.legal), 4):
        for key in sorted(action):
            rest = {k: v for k, v in action.items() if k != key}
            if action[key] not in (None, {}, []):  # an empty value often means the same as none at all
                candidates.append((f"a legal action without {key!r}", rest))
            candidates.append((f"a legal action with {key!r} changed", {**rest, key: _changed(action[key])}))
        boolean = _boolean_for_integer(action)
        if boolean is not None:
            candidates.append((f"{_BOOLEAN} in a legal action", boolean))
    elsewhere = [(d, a) for d in decisions if d is not m for a in d.legal[:2]]
    for d, action in spread(elsewhere, 4):
        who = "another seat" if seat_of(d) != seat else "the same seat"
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


def _deciders(m: Moment) -> tuple[int, ...]:
    """Every seat deciding at ``m`` (several for a simultaneous decision)."""
    assert isinstance(m.step, Decision)
    return m.step.deciders


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
