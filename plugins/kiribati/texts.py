"""Short, unique texts for actions, as the player types them (``die 4``, ``kagu c2r1``, ``done``)."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import permutations

from atoll import JSON, Action, State
from atoll.plugins.kiribati.board import PLACES
from atoll.plugins.kiribati.events import TITLES
from atoll.plugins.kiribati.meta import CARD_TITLES, COLOURS


def describe(state: State, action: Action) -> str:
    """The text of ``action``; unique among the legal actions of any state."""
    if "secret" in action:
        return "keep " + " ".join(action["secret"])
    if "sealed" in action:
        return "keep four cards"
    do = action["do"]
    if do == "die":
        return f"die {action['value']}"
    if do in ("turtle", "dive", "float"):
        return f"{do} {action['at']}"
    if do == "new":
        return f"new {action['size']} row {action['row']}"
    if do == "throw":
        return f"throw {COLOURS[action['seat']]} {action['animal']}"
    if do == "move":
        text = f"{action['animal']} {action['to']}"
        if "bump" in action:
            seat, kind = action["bump"]
            text += f" bump {COLOURS[seat]} {kind}"
        return text
    if do == "play":
        return "play " + " ".join([action["card"], *_card_detail(action)])
    if do == "answer":
        return f"answer {action['card']}"
    return str(do)  # "pass", "done"


def describe_chance(state: State, outcome: Mapping[str, JSON]) -> str | None:
    """A log line for what chance did in ``state`` (the phase says what was asked)."""
    phase = state["phase"]
    if phase == "roll":
        first, second = outcome["values"]
        return f"{COLOURS[state['turn']]} rolls {first} and {second}"
    picked = outcome.get("picked")
    if phase == "setup" and isinstance(picked, list):
        places = "1 place" if picked[0] == 1 else f"{picked[0]} places"
        return f"row {state['setup_row'] + 1} starts with a turtle of {places}"
    if phase == "event" and isinstance(picked, list):
        return f"round {state['round']}: the event is {TITLES[str(picked[0])]}"
    faces = outcome.get("faces")
    if phase == "reveal" and isinstance(faces, dict):
        kept = [
            f"{COLOURS[seat]} {', '.join(CARD_TITLES[str(faces[h])] for h in hand)}"
            for seat, hand in enumerate(state["hands"]) if hand
        ]
        return "cards never played: " + "; ".join(kept)
    return None


def aliases(action: Action) -> list[str]:
    """Other texts for ``action``: ``turtle row N`` for a turtle of row N (the parser refuses it,
    naming the places, when two turtles of that row may move), and a set of cards to keep in any
    order (K5: a set is the same whichever card is named first)."""
    if "secret" in action:
        return ["keep " + " ".join(cards) for cards in permutations(action["secret"])]
    if action.get("do") == "turtle":
        return [f"turtle row {PLACES[action['at']][1] + 1}"]
    return []


def _card_detail(action: Action) -> list[str]:
    if "at" in action:
        return [action["at"]]
    if "animal" in action:
        return [action["animal"]]
    if "target" in action:
        seat, kind = action["target"]
        return [COLOURS[seat], kind]
    return []


def describe_log(state: State, seat: int, action: Action) -> str:
    """A public line for the game log: a secret choice is never spelt out."""
    if "secret" in action or "sealed" in action:
        return f"{COLOURS[seat]} keeps four action cards"
    if action.get("do") == "pass" and state["phase"] == "turtle":
        return f"{COLOURS[seat]}: pass (no turtle moves)"
    return f"{COLOURS[seat]}: {describe(state, action)}"
