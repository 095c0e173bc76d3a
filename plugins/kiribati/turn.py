"""The order of play: set-up, keeping cards, events, the two steps of a turn, rounds and the end.

``phase`` in the state says what happens now:

=========  ===================================================================
setup      chance: a random turtle for row 3, then row 4 (rule K4)
keep       each seat in turn secretly keeps four action cards (K5)
event      chance: the round's event card is drawn (professional, K38)
roll       chance: the player on turn rolls both dice (K6)
die        the player chooses a die (and may play a card)
turtle     the player does the die's turtle action (K7-K17)
throw      the player throws animals off an over-full diving turtle (K18)
animals    the player moves animals, plays a card, or is done (K19-K27)
answer     the owner of an animal a card was played against answers or passes (K36)
reveal     chance: the kept cards nobody played are opened (K49)
over       the game is over
=========  ===================================================================
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from types import MappingProxyType

from atoll import (
    JSON,
    Action,
    Chance,
    Decision,
    End,
    IllegalAction,
    Knowledge,
    MalformedInput,
    Pick,
    Request,
    Reveal,
    Roll,
    State,
    Step,
)
from atoll.jsondata import same
from atoll.plugins.kiribati import animals, cards, turtles
from atoll.plugins.kiribati.board import ROWS, parse_place
from atoll.plugins.kiribati.events import DRAWN, turn_card
from atoll.plugins.kiribati.meta import CARDS, CHILDREN, COLOURS, KEPT_CARDS, PROFESSIONAL
from atoll.plugins.kiribati.pieces import replaced
from atoll.plugins.kiribati.scoring import results
from atoll.plugins.kiribati.state import copy_state

#: Every choice of four cards to keep, each in the cards' canonical order (K5).
KEEPS = [list(kept) for kept in combinations(CARDS, KEPT_CARDS)]
#: The steps that come up at every turn, made once: each seat's decision, and rolling both dice (K6).
DECISIONS = tuple(Decision(seat) for seat in range(len(COLOURS)))
#: K5: every seat keeps its cards at once; ``KEEPING[seats][turn]`` is the decision of the seats still to.
KEEPING = tuple(
    tuple(Decision.at_once(range(first, seats)) if first < seats else None for first in range(seats))
    for seats in range(len(COLOURS) + 1)
)
ROLL = Chance(Roll(2, 6))
#: What a die can show.
FACES = range(1, 7)
#: What an action that shows no card reveals.
NOTHING_KNOWN: Knowledge = MappingProxyType({})
#: The phases in which the player on turn decides.
ON_TURN = frozenset({"keep", "die", "turtle", "throw", "animals"})
#: The kinds of action a die's turtle action is (K7-K17).
TURTLE_ACTIONS = ("turtle", "new", "dive", "float")


def actor(state: State) -> int | None:
    """The seat that decides now, or ``None`` when chance acts or the game is over."""
    phase = state["phase"]
    if phase in ON_TURN:
        seat: int = state["turn"]
        return seat
    if phase == "answer":
        return int(state["pending"]["target"][0])
    return None


def next_step(state: State) -> Step:
    """What happens now."""
    phase = state["phase"]
    seat = actor(state)
    if seat is not None:
        if phase == "keep":
            keeping = KEEPING[state["seats"]][seat]
            assert keeping is not None
            return keeping
        return DECISIONS[seat]
    if phase == "setup":
        return Chance(Pick(turtles.setup_faces(state)))
    if phase == "event":
        return Chance(Pick(tuple(state["events_left"])))
    if phase == "roll":
        return ROLL
    if phase == "reveal":
        return Chance(Reveal(tuple(_unplayed(state))))
    return End(results(state))


def legal(state: State, seat: int, known: Knowledge) -> list[Action]:
    """Every legal action of ``seat`` now."""
    phase = state["phase"]
    if phase == "keep" and state["turn"] <= seat < state["seats"]:
        return [{"secret": kept} for kept in KEEPS]  # K5: every seat that has not kept yet, at once
    if actor(state) != seat:
        return []
    if phase == "animals":
        out = animals.animal_moves(state, seat)
        out.append({"do": "done"})
    elif phase == "turtle":
        out = turtles.die_actions(state, state["die"])
        if state["die"] in turtles.OPTIONAL_DICE:
            out.append({"do": "pass"})  # K13, K14: on a 5 or a 6 the player may leave the turtles be
    elif phase == "die":
        out = _dice(state)
    elif phase == "answer":
        return cards.answers(state, seat, known)
    else:
        return [{"do": "throw", "seat": s, "animal": k} for s, k in turtles.throw_candidates(state)]
    out += cards.card_plays(state, seat, known)
    return out


def apply_action(state: State, action: Action) -> State:
    """The state after the deciding seat takes ``action``; raises :class:`IllegalAction` (and
    changes nothing) unless it is exactly one of the legal actions."""
    seat = actor(state)
    if seat is None:
        raise IllegalAction(f"no player may act now: the game is in phase {state['phase']!r}")
    if not isinstance(action, dict):
        raise IllegalAction(f"an action is a JSON object, not {action!r}")
    if state["phase"] == "keep":
        return _keep(state, seat, action)
    reveal = action.get("reveal")
    known: Knowledge = reveal if isinstance(reveal, dict) else NOTHING_KNOWN
    options = _candidates(state, seat, known, action)
    for twin in options:
        if same(twin, action):  # not ==: True == 1 in Python, but a peer reads true, not 1
            action = twin  # the legal twin: exact types, no stray values
            break
    else:
        raise IllegalAction(
            f"illegal action {action!r}: it is not one of the {len(options)} legal actions of "
            f"{COLOURS[seat]} in the {state['phase']} step; choose one of those"
        )
    new = copy_state(state)
    apply_legal(new, seat, action)
    return new


def apply_legal(new: State, seat: int, action: Action) -> None:
    """Carry out ``action`` of ``seat``, one of :func:`legal`'s and not a keep, on the working copy
    ``new`` (see :func:`~atoll.plugins.kiribati.state.copy_state`) without checking it again: what
    :func:`apply_action` does once it has checked, and what the fast path does with its own moves."""
    phase = new["phase"]
    do = action["do"]
    if do == "move":
        animals.move(new, seat, action)
        if new["finished"] and new["variant"] != PROFESSIONAL:
            _finish(new)  # K28: the first to rescue every animal wins at once
        else:
            _enter_animals(new)
    elif do == "done":
        _end_turn(new)
    elif do == "die":
        new["die"] = action["value"]
        _enter_turtle(new)
    elif do == "pass" and phase == "turtle":
        _enter_animals(new)
    elif do in TURTLE_ACTIONS:
        _turtle_action(new, action)
    elif do == "throw":
        turtles.throw(new, action["seat"], action["animal"])
        if new["throw"] is None:
            _enter_animals(new)
    elif do == "play":
        cards.play(new, seat, action)
        if new["phase"] != "answer":
            _reenter(new)
    else:
        cards.answer(new, action)
        _reenter(new)


def _candidates(state: State, seat: int, known: Knowledge, action: Action) -> list[Action]:
    """The legal actions that could be ``action``, by the kind it claims to be and the animal and place
    it names (all of them when unsure): checking against these is as strict as checking against every
    legal action, and much cheaper."""
    do, phase = action.get("do"), state["phase"]
    if phase == "animals" and do == "move":
        return animals.moves_like(state, seat, action)
    if phase == "animals" and do == "done":
        return [{"do": "done"}]
    if phase == "die" and do == "die":
        return _dice(state)
    if phase == "turtle" and do in TURTLE_ACTIONS:
        return turtles.die_actions_like(state, state["die"], action)
    if phase in cards.CARD_PHASES and do == "play":
        return cards.card_plays(state, seat, known, only=action.get("handle"))
    return legal(state, seat, known)


def _dice(state: State) -> list[Action]:
    """K6: choosing one of the two dice rolled (one choice when both show the same)."""
    low, high = sorted(state["dice"])
    if low == high:
        return [{"do": "die", "value": low}]
    return [{"do": "die", "value": low}, {"do": "die", "value": high}]


def _face(value: object) -> bool:
    """Whether ``value`` is what a die can show: a whole number 1-6 (``True`` and ``1.0`` are not)."""
    return type(value) is int and value in FACES


def _keep(state: State, seat: int, action: Action) -> State:
    """K5: ``seat``'s kept cards, sealed. The engine hands every seat's in seat order once all have kept
    (a simultaneous decision), naming the seat; keeping one seat after another reads the same."""
    if action.get("seat", seat) != seat or set(action) - {"seat", "sealed"}:
        raise IllegalAction(f"{action!r} is not seat {seat}'s sealed choice of cards to keep")
    sealed = action.get("sealed")
    if (
        not isinstance(sealed, list) or len(sealed) != KEPT_CARDS
        or not all(isinstance(h, str) for h in sealed) or len(set(sealed)) != KEPT_CARDS
    ):
        raise IllegalAction(f"keeping cards seals exactly {KEPT_CARDS} distinct handles, not {action!r}")
    if any(h in hand for hand in state["hands"] for h in sealed):
        raise IllegalAction(f"handles {sealed!r} are already in use")
    new = copy_state(state)
    new["hands"] = replaced(new["hands"], seat, list(sealed))
    new["turn"] = seat + 1
    if new["turn"] == new["seats"]:
        new["turn"] = 0
        _start_round(new)
    return new


def _turtle_action(state: State, action: Action) -> None:
    do = action["do"]
    if do == "new":
        turtles.put_new(state, action["size"], action["row"] - 1)
    else:
        col, row = parse_place(action["at"])
        {"turtle": turtles.drift, "dive": turtles.dive, "float": turtles.float_up}[do](state, col, row)
    if state["throw"] is not None:
        state["phase"] = "throw"
    else:
        _enter_animals(state)


def _enter_turtle(state: State) -> None:
    """The chosen die's turtle action, if it has any (K9: else nothing happens)."""
    if turtles.die_allows_any(state, state["die"]):
        state["phase"] = "turtle"
    else:
        _enter_animals(state)


def _enter_animals(state: State) -> None:
    """The animals step; a player with no move and no card to play is done at once."""
    state["phase"] = "animals"
    if not cards.may_play(state) and not animals.can_move(state, state["turn"]):
        _end_turn(state)


def _reenter(state: State) -> None:
    """Back to the step a card interrupted; a current may have changed what the die allows."""
    if state["phase"] == "turtle":
        _enter_turtle(state)
    elif state["phase"] == "animals":
        _enter_animals(state)


def _end_turn(state: State) -> None:
    seat = state["turn"]
    # K31, K33: a rest or a sleep wears off at the end of its owner's turns
    if state["tired"]:
        state["tired"] = [
            [s, k, n - 1 if s == seat else n] for s, k, n in state["tired"] if s != seat or n > 1
        ]
    state["dice"], state["die"], state["moved"] = [], None, []
    state["placed"], state["extra"], state["carded"] = False, 0, False
    state["turn"] = (seat + 1) % state["seats"]
    if state["turn"] != 0:
        state["phase"] = "roll"
        return
    state["answered"] = []
    if state["variant"] == PROFESSIONAL:
        state["event"] = None
        if state["finished"] or state["round"] >= DRAWN:  # K46
            _finish(state)
            return
    state["round"] += 1
    _start_round(state)


def _start_round(state: State) -> None:
    state["phase"] = "event" if state["variant"] == PROFESSIONAL else "roll"


def _finish(state: State) -> None:
    state["phase"] = "reveal" if _unplayed(state) else "over"


def _unplayed(state: State) -> list[str]:
    return [h for hand in state["hands"] for h in hand]


def resolve_chance(state: State, request: Request, outcome: Mapping[str, JSON]) -> State:
    """The state after chance answered ``request``; raises :class:`MalformedInput` for an outcome
    that does not answer the request this state asks."""
    expected = next_step(state)
    # the engine passes back the very request it was given, so identity settles it at once
    if not isinstance(expected, Chance) or (expected.request is not request and expected.request != request):
        raise MalformedInput(f"Kiribati asked for {expected!r} in phase {state['phase']!r}, not {request!r}")
    new = copy_state(state)
    phase = state["phase"]
    if isinstance(request, Pick):
        picked = _picked(request, outcome)
        if phase == "setup":
            turtles.put_new(new, int(picked), new["setup_row"])
            new["setup_row"] += 1
            if new["setup_row"] == ROWS:
                if new["variant"] == CHILDREN:
                    _start_round(new)
                else:
                    new["phase"] = "keep"
        else:
            turn_card(new, str(picked))
            new["phase"] = "roll"
    elif isinstance(request, Roll):
        values = outcome.get("values")
        if not isinstance(values, list) or len(values) != 2 or not all(_face(v) for v in values):
            raise MalformedInput(f"two dice show two values 1-6, not {values!r}")
        new["dice"] = list(values)
        new["phase"] = "die"
    elif isinstance(request, Reveal):
        faces = outcome.get("faces")
        if not isinstance(faces, dict) or sorted(faces) != sorted(request.handles):
            raise MalformedInput(f"opening {list(request.handles)} needs a face for each, not {faces!r}")
        if not all(face in CARDS for face in faces.values()):
            raise MalformedInput(f"opened faces must be action cards: {faces!r}")
        new["opened"] = dict(faces)
        new["phase"] = "over"
    else:
        raise MalformedInput(f"Kiribati never asks for {request!r}")
    return new


def _picked(request: Pick, outcome: Mapping[str, JSON]) -> JSON:
    picked = outcome.get("picked")
    if not isinstance(picked, list) or len(picked) != 1 or picked[0] not in request.options:
        raise MalformedInput(f"a pick from {list(request.options)} must name one of them, not {picked!r}")
    return picked[0]
