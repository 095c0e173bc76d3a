"""The decisions of Animals on Board: keep a tile (A6), split or take a group (A10-A17), cut an ark (A24).

Actions (groups are numbered from 1 in the order the board shows them)::

    {"secret": [handle, face]}       keep this drawn tile face down (sealed; apply gets {"sealed": [..]})
    {"split": 2, "part": [handles]}  split group 2: ``part`` (never the group's first tile) becomes a
                                     new, last group; the rest stays group 2
    {"take": 2}                      take group 2 onto the ark, paying a crate a tile
    {"forfeit": true}                neither is possible: the turn is lost
    {"discard": [handles]}           cut the ark to ten at departure, discarding these
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from atoll import Action, IllegalAction, Knowledge, State, seat_label
from atoll.plugins.animals_on_board import rules, scoring
from atoll.plugins.animals_on_board.meta import MOST_CRATES, is_face, order


def legal_actions(state: State, seat: int, known: Knowledge) -> list[Action]:
    """Every legal action of ``seat`` now, in a stable order (empty unless it is to decide)."""
    if rules.deciding_seat(state) != seat:
        return []
    phase = state["phase"]
    if phase == "keep":
        drawn = [(h, face) for h in state["hands"][seat] if is_face(face := known.get(h))]
        return [{"secret": [h, face]} for h, face in sorted(drawn, key=lambda pair: order(str(pair[1])))]
    if phase == "cut":
        return [{"discard": option} for option in scoring.cut_options(state, seat)]
    actions = splits(state)
    actions.extend(takes(state, seat))
    return actions or [{"forfeit": True}]


def splits(state: State) -> list[Action]:
    """A11: every way to split a group of two or more tiles into two non-empty groups, once each.

    The part split off never holds the group's first tile, so each division is listed once.
    """
    out: list[Action] = []
    for number, group in enumerate(state["groups"], 1):
        rest = group[1:]
        for size in range(1, len(rest) + 1):
            out.extend({"split": number, "part": list(part)} for part in combinations(rest, size))
    return out


def takes(state: State, seat: int) -> list[Action]:
    """A14: the groups ``seat`` can pay for, a crate a tile."""
    crates = state["crates"][seat]
    return [{"take": number} for number, group in enumerate(state["groups"], 1) if len(group) <= crates]


def apply(state: State, action: Action) -> State:
    """The state after the seat to move takes ``action``; raises IllegalAction if it may not."""
    if not isinstance(action, dict):
        raise IllegalAction(f"an action is a JSON object, not {action!r}")
    phase = state["phase"]
    if phase == "keep":
        return _keep(state, action)
    if phase == "cut":
        return _cut(state, action)
    if phase != "play":
        raise IllegalAction(f"no seat may act now: Animals on Board is in phase {phase!r}")
    if set(action) == {"split", "part"}:
        return _split(state, action)
    if set(action) == {"take"}:
        return _take(state, action)
    if action == {"forfeit": True}:
        return _forfeit(state)
    raise IllegalAction(
        f"not an Animals on Board move: {action!r}; "
        "split with {'split': group, 'part': [tiles]}, take with {'take': group}"
    )


def group_of(state: State, number: Any) -> list[str]:
    """The group with this number (from 1); raises IllegalAction if there is none."""
    groups = state["groups"]
    if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= len(groups):
        raise IllegalAction(f"there is no group {number!r}: the groups are numbered 1-{len(groups)}")
    group: list[str] = groups[number - 1]
    return group


def _keep(state: State, action: Action) -> State:
    """A6: the seat's sealed choice of the tile it keeps face down."""
    sealed = action.get("sealed")
    if set(action) != {"sealed"} or not isinstance(sealed, list) or len(sealed) != 2 or not all(
        isinstance(h, str) for h in sealed
    ):
        raise IllegalAction(f"the tile to keep is a sealed choice of [tile, face], not {action!r}")
    new = dict(state)
    seals = list(state["seals"])
    seals[state["turn"]] = list(sealed)
    new["seals"] = seals
    if state["turn"] + 1 < state["seats"]:
        new["turn"] = state["turn"] + 1
    else:
        new["phase"] = "open"
    return new


def _split(state: State, action: Action) -> State:
    """A11, A12: split one group in two and take a food crate (a sixth sends the player back to four)."""
    seat = state["turn"]
    number = action["split"]
    group = group_of(state, number)
    part = action["part"]
    if not isinstance(part, list) or not part or len(group) < 2:
        raise IllegalAction(f"{seat_label(seat)} cannot split group {number} so: {action!r}")
    if part != [h for h in group if h in part] or group[0] in part or len(set(part)) != len(part):
        raise IllegalAction(
            f"{seat_label(seat)} cannot split off {part!r} from group {number}: name tiles of the group in "
            "its order, never its first tile, each once"
        )
    new = dict(state)
    groups = list(state["groups"])
    groups[number - 1] = [h for h in group if h not in part]
    groups.append(list(part))
    new["groups"] = groups
    crates = list(state["crates"])
    if crates[seat] == MOST_CRATES:
        crates[seat] -= 1
        new["supply"] = state["supply"] + 1
    elif state["supply"] > 0:
        crates[seat] += 1
        new["supply"] = state["supply"] - 1
    new["crates"] = crates
    rules.after_turn(new)
    return new


def _take(state: State, action: Action) -> State:
    """A14-A16: take a whole group, a crate a tile, and drop out; the first out takes the flag."""
    seat = state["turn"]
    number = action["take"]
    group = group_of(state, number)
    if len(group) > state["crates"][seat]:
        raise IllegalAction(
            f"{seat_label(seat)} cannot take group {number}: its {len(group)} tiles cost {len(group)} crates "
            f"and it has {state['crates'][seat]}"
        )
    new = dict(state)
    new["groups"] = [g for i, g in enumerate(state["groups"], 1) if i != number]
    crates = list(state["crates"])
    crates[seat] -= len(group)
    new["crates"] = crates
    new["supply"] = state["supply"] + len(group)
    arks = list(state["arks"])
    arks[seat] = [*arks[seat], *group]
    new["arks"] = arks
    out = list(state["out"])
    out[seat] = True
    new["out"] = out
    if not state["flag_taken"]:
        new["start"], new["flag_taken"] = seat, True
    if state["hidden"] in group:
        new["phase"] = "give"
    else:
        rules.after_turn(new)
    return new


def _forfeit(state: State) -> State:
    """A17: a player who can neither split nor take loses the turn and stays in the round."""
    seat = state["turn"]
    if splits(state) or takes(state, seat):
        raise IllegalAction(f"{seat_label(seat)} cannot forfeit: it can split a group or take one")
    new = dict(state)
    rules.after_turn(new)
    return new


def _cut(state: State, action: Action) -> State:
    """A24: the owner cuts an ark over ten to ten, never leaving a species at exactly two."""
    seat = state["turn"]
    discard = action.get("discard")
    if set(action) != {"discard"} or discard not in scoring.cut_options(state, seat):
        raise IllegalAction(
            f"{seat_label(seat)} cannot discard {discard!r}: discard tiles of its ark, in ark order, down to "
            "ten, leaving no species at exactly two"
        )
    new = dict(state)
    arks, discarded = list(state["arks"]), list(state["discarded"])
    arks[seat] = [h for h in arks[seat] if h not in discard]
    discarded[seat] = [*discarded[seat], *discard]
    new["arks"], new["discarded"] = arks, discarded
    scoring.next_cut(new)
    return new
