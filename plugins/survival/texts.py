"""Texts a player types (``place zebra d4``, ``predator 5 prey 2``, ``predator e5``, ``zebra d4``,
``obstacle 2 at d5 turn 1``) and lines for the game log (rule S22).

A move is typed one step at a time: ``predator e4``, then ``predator e5``, ... . So the legal list
stays at most a few dozen steps (plus the obstacle layouts on doubles) however long the path.
"""

from __future__ import annotations

from collections.abc import Mapping

from atoll import JSON, Action, IllegalAction, State
from atoll.plugins.survival.meta import COLOURS, OBSTACLES, POINTS, PREDATORS
from atoll.plugins.survival.state import occupants


def describe(state: State, action: Action) -> str:
    """The text of ``action``; unique among the legal actions of any state."""
    do = action.get("do")
    if do == "place":
        return f"place {action['animal']} {action['at']}"
    if do == "assign":
        die = action["predator"]
        dice = list(state["dice"])
        if die in dice:
            dice.remove(die)
        return f"predator {die} prey {dice[0] if dice else '?'}"
    if do == "step":
        return f"{action['token']} {action['to']}"
    if do == "obstacle":
        return f"obstacle {action['id']} at {action['at']} turn {action['turn']}"
    raise IllegalAction(f"not a Survival action: {action!r}")


def aliases(state: State, action: Action) -> list[str]:
    """Other texts: the place alone for a step (``e5``), the predator's own name (``lion e5``), and
    the dice the other way round (``prey 2 predator 5``)."""
    do = action.get("do")
    if do == "step":
        named = [f"{PREDATORS[state['turn']]} {action['to']}"] if action["token"] == "predator" else []
        return [action["to"], *named]
    if do == "assign":
        text = describe(state, action).split()
        return [f"prey {text[3]} predator {text[1]}"]
    return []


def describe_chance(state: State, outcome: Mapping[str, JSON]) -> str | None:
    """``blue is drawn to start`` (S2); ``red rolls 3 and 5``, and doubles say an obstacle must be laid."""
    values = outcome.get("values")
    if state["phase"] == "draw" and isinstance(values, list) and len(values) == 1:
        drawn = values[0]
        if not isinstance(drawn, int) or not 1 <= drawn <= state["seats"]:
            return None
        name = COLOURS[drawn - 1]
        return f"{name} is drawn to start: {name} places the first prey and moves first"
    if state["phase"] != "roll" or not isinstance(values, list) or len(values) != 2:
        return None
    line = f"{COLOURS[state['turn']]} rolls {values[0]} and {values[1]}"
    if values[0] == values[1]:
        verb = "move" if len(state["obstacles"]) == 4 else "lay"
        line += f": doubles, {COLOURS[state['turn']]} must {verb} an obstacle"
    return line


def describe_log(state: State, seat: int, action: Action) -> str:
    """A log line: the step, with any catch and, when the predator's move ends, its whole path."""
    name = COLOURS[seat]
    do = action.get("do")
    if do == "place":
        return f"{name} places the {action['animal']} on {action['at']}"
    if do == "assign":
        return f"{name}: {describe(state, action)}"
    if do == "obstacle":
        title = OBSTACLES[action["id"]][0] if action.get("id") in OBSTACLES else "?"
        verb = "moves" if str(action.get("id")) in state["obstacles"] else "lays"
        return f"{name} {verb} obstacle {action['id']} ({title}) at {action['at']} turn {action['turn']}"
    if do != "step":
        return f"{name}: {action!r}"
    token, to = action["token"], action["to"]
    if token != "predator":
        return f"{name}'s {token} steps to {to}"
    line = f"{name}'s {PREDATORS[seat]} steps to {to}"
    victim = occupants(state).get(to)
    if victim is not None:
        owner, animal = victim
        line += f" and catches {COLOURS[owner]}'s {animal} ({POINTS[animal]})"
    if state["predator_left"] == 1:
        path = [*(state["path"] or [state["predators"][seat]]), to]
        line += f"; path {state['predator_die']}: {' '.join(path)}"
    return line
