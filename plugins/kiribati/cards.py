"""Action cards (family and professional): playing them, their effects, and the answer (rules K29-K36)."""

from __future__ import annotations

from typing import Any

from atoll import Action, Knowledge, State
from atoll.plugins.kiribati.board import ROWS, parse_place, place
from atoll.plugins.kiribati.meta import CARDS, CHILDREN
from atoll.plugins.kiribati.pieces import is_clamped, is_tired, locate, replaced, send_home, turtles
from atoll.plugins.kiribati.turtles import chain, drift

#: Cards played against another player's animal; its owner may answer them (K36).
TARGETED = ("rest", "sleep", "shark")
#: Which card answers which: a clamp grip saves from a shark, food wakes a tired animal (K36).
ANSWERS = {"clamp": ("shark",), "feeding": ("rest", "sleep")}
#: Turns of its owner that a rest break and a deep sleep last (K31, K33).
TIRED_TURNS = {"rest": 1, "sleep": 2}
#: The phases of its own turn in which a player may play a card (K29).
CARD_PHASES = ("die", "turtle", "animals")


def may_play(state: State) -> bool:
    """Whether the player on turn may still play a card this turn (public facts only)."""
    return (
        bool(state["hands"][state["turn"]])  # first: most often empty, and always in the children's game
        and not state["carded"]
        and state["variant"] != CHILDREN
        and state["phase"] in CARD_PHASES
    )


def card_plays(state: State, seat: int, known: Knowledge, only: object = None) -> list[Action]:
    """The cards ``seat`` may play now, from the faces it knows, with every choice each allows; with
    ``only``, just the plays of the card with that handle (checking one play need not list them all)."""
    if not may_play(state) or seat != state["turn"]:
        return []
    out: list[Action] = []
    for handle in state["hands"][seat]:
        if only is not None and handle != only:
            continue
        card = known.get(handle)
        if card not in CARDS:
            continue
        base: Action = {"do": "play", "card": card, "handle": handle, "reveal": {handle: card}}
        if card == "feeding":
            out.append(base)
        elif card == "current":
            out += [{**base, "at": place(c, r)} for c, r, _ in turtles(state) if _may_carry(state, c, r)]
        elif card == "clamp":
            out += [{**base, "animal": kind} for kind in locate(state, seat) if _choosable(state, kind)]
        elif card in TARGETED:
            out += [{**base, "target": target} for target in _targets(state, seat, card)]
    return out


def _choosable(state: State, kind: str) -> bool:
    """K39: in a cloudy round no card has any effect on a koala."""
    return not (kind == "koala" and state["event"] == "cloudy")


def _may_carry(state: State, col: int, row: int) -> bool:
    """Whether a current may carry the turtle at (col, row): as a die would, but never into the open
    sea, itself or a turtle it pushes (K32); and in a cloudy round not when it or a turtle it pushes
    carries a koala, since the cards have no effect on koalas then (K39, our decision)."""
    moving = chain(state, col, row)
    if moving is None or moving[-1] == state["cols"] - 1:
        return False
    if state["event"] != "cloudy":
        return True
    line = state["board"][row]
    return not any(k == "koala" for c in moving for _, k in line[c]["animals"])


def _targets(state: State, seat: int, card: str) -> list[list[Any]]:
    """Another player's animals on turtles that ``card`` may be played against."""
    out: list[list[Any]] = []
    for _, row, turtle in turtles(state):
        for owner, kind in turtle["animals"]:
            if owner == seat or not _choosable(state, kind):
                continue
            if card == "shark" and (row == ROWS - 1 or is_clamped(state, owner, kind)):
                continue  # K35: no shark in the mainland's shallows
            if card != "shark" and is_tired(state, owner, kind):
                continue
            out.append([owner, kind])
    return out


def play(state: State, seat: int, action: Action) -> None:
    """Play a card from :func:`card_plays`. A card against another player's animal opens the answer
    window (``phase`` "answer") when its owner still holds cards and has not answered this round."""
    card = action["card"]
    _discard(state, seat, action["handle"], card)
    state["carded"] = True
    if card == "feeding":
        state["extra"] += 1
    elif card == "current":
        drift(state, *parse_place(action["at"]))
    elif card == "clamp":
        state["clamp"] = replaced(state["clamp"], seat, action["animal"])
    elif card in TARGETED:
        owner = action["target"][0]
        if state["hands"][owner] and owner not in state["answered"]:
            resume = state["phase"]
            state["pending"] = {"card": card, "by": seat, "target": action["target"], "resume": resume}
            state["phase"] = "answer"
        else:
            strike(state, card, action["target"])


def _discard(state: State, seat: int, handle: str, card: str) -> None:
    """``seat`` plays its kept card ``handle``, which shows ``card``: it goes face up on its discard pile."""
    hand = list(state["hands"][seat])
    hand.remove(handle)
    state["hands"] = replaced(state["hands"], seat, hand)
    state["played"] = replaced(state["played"], seat, [*state["played"][seat], card])


def answers(state: State, seat: int, known: Knowledge) -> list[Action]:
    """The answering player's choices: pass, or the one card that answers the card played (K36)."""
    pending = state["pending"]
    out: list[Action] = [{"do": "pass"}]
    for handle in state["hands"][seat]:
        card = known.get(handle)
        if card in ANSWERS and pending["card"] in ANSWERS[card]:
            out.append({"do": "answer", "card": card, "handle": handle, "reveal": {handle: card}})
    return out


def answer(state: State, action: Action) -> None:
    """Take the answer: ``pass`` lets the card strike; an answering card stops it."""
    pending = state["pending"]
    owner, kind = pending["target"]
    if action["do"] == "pass":
        strike(state, pending["card"], pending["target"])
    else:
        _discard(state, owner, action["handle"], action["card"])
        state["answered"] = [*state["answered"], owner]
        if action["card"] == "clamp":
            state["clamp"] = replaced(state["clamp"], owner, kind)
    state["phase"] = pending["resume"]
    state["pending"] = None


def strike(state: State, card: str, target: list[Any]) -> None:
    """The effect of a card against an animal: it rests, sleeps, or is thrown off by the shark."""
    owner, kind = target
    where = locate(state, owner)
    col, row = where[kind]
    if card == "sleep":
        state["tired"] = [*state["tired"], [owner, kind, TIRED_TURNS[card]]]
    elif card == "rest":  # K31: every animal of the owner on that turtle rests
        resting = [
            [owner, k, TIRED_TURNS[card]] for k in state["animals"]
            if where.get(k) == (col, row) and not is_tired(state, owner, k) and _choosable(state, k)
        ]
        state["tired"] = [*state["tired"], *resting]
    else:
        send_home(state, col, row, owner, kind)
