"""The course of a game: the draw for who starts, placing prey, rolling, moving, obstacles, catches and
the end (rules S2, S6-S21).

Actions (places are named ``a1`` ... ``k11``, see :mod:`atoll.plugins.survival.board`):
``{"do": "place", "animal": "zebra", "at": "d4"}``, ``{"do": "assign", "predator": 5}`` (the
predator takes the 5, the prey the other die), ``{"do": "step", "token": "predator" | animal,
"to": "e5"}`` and ``{"do": "obstacle", "id": 2, "at": "d5", "turn": 1}``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from atoll import (
    JSON,
    Action,
    Chance,
    Decision,
    End,
    IllegalAction,
    MalformedInput,
    ProtocolViolation,
    Request,
    Results,
    Roll,
    State,
    Step,
)
from atoll.plugins.survival.board import FIXED_SET, PLACES, STARTS
from atoll.plugins.survival.meta import ANIMALS, COLOURS, POINTS, ROUND_LIMIT
from atoll.plugins.survival.moves import (
    can_step,
    predator_may_step,
    predator_steps,
    prey_may_step,
    steps,
)
from atoll.plugins.survival.obstacles import choices, footprint, may_lay, movable_places, walls
from atoll.plugins.survival.state import in_game, occupants

DICE = Roll(2, 6)


def draw(seats: int) -> Roll:
    """The draw for who starts (rule S2): one die with a side for every seat."""
    return Roll(1, seats)


def next_step(state: State) -> Step:
    """What happens now: the draw for who starts, a roll at the start of a turn, a decision, or the end."""
    if state["phase"] == "over":
        return End(results(state))
    if state["phase"] == "draw":
        return Chance(draw(state["seats"]))
    if state["phase"] == "roll":
        return Chance(DICE)
    return Decision(state["turn"])


def legal(state: State, seat: int) -> list[Action]:
    """Every legal action of ``seat`` now, in a stable order (steps before obstacles)."""
    if state["phase"] in ("draw", "roll", "over") or seat != state["turn"]:
        return []
    if state["phase"] == "place":
        taken = set(occupants(state)) | FIXED_SET
        return [
            {"do": "place", "animal": animal, "at": place}
            for animal in state["unplaced"][seat] for place in PLACES if place not in taken
        ]
    if state["phase"] == "assign":
        return [{"do": "assign", "predator": die} for die in sorted(set(state["dice"]), reverse=True)]
    predator, prey = steps(state)
    actions: list[Action] = [{"do": "step", "token": "predator", "to": p} for p in predator]
    actions += [{"do": "step", "token": animal, "to": p} for animal, p in prey]
    if state["obstacle_due"]:
        actions += [{"do": "obstacle", "id": n, "at": at, "turn": t} for n, at, t, _ in choices(state)]
    return actions


def apply_action(state: State, action: Action) -> State:
    """The state after the player on turn takes ``action``; raises IllegalAction if it is not legal."""
    if not isinstance(action, dict):
        raise MalformedInput(f"a Survival action is a JSON object, not {action!r}")
    phase, do = state["phase"], action.get("do")
    wanted = {"place": "place", "assign": "assign", "step": "move", "obstacle": "move"}.get(str(do))
    if wanted is None:
        raise MalformedInput(f"unknown action {action!r}: 'do' must be place, assign, step or obstacle")
    if phase != wanted:
        raise IllegalAction(f"{action!r} is not allowed now: the game is in its {phase!r} phase")
    if do == "place":
        return _place(state, action)
    if do == "assign":
        return _assign(state, action)
    if do == "step":
        return _after_move(_step(state, action))
    return _after_move(_obstacle(state, action))


def resolve_chance(state: State, request: Request, outcome: Mapping[str, JSON]) -> State:
    """The state after the draw for who starts (rule S2) or the roll at the start of a turn (rule S7;
    doubles: rule S14)."""
    if state["phase"] == "draw" and request == draw(state["seats"]):
        return _start(state, outcome)
    if state["phase"] != "roll" or request != DICE:
        raise ProtocolViolation(f"Survival did not ask for {request!r} in its {state['phase']!r} phase")
    values = outcome.get("values")
    if (not isinstance(values, list) or len(values) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 6 for v in values)):
        raise MalformedInput(f"a roll of two dice must give two values 1-6, not {values!r}")
    new = dict(state, dice=list(values), touched=[], path=[], phase="assign")
    if values[0] == values[1]:
        new.update(phase="move", predator_die=values[0], predator_left=values[0], prey_left=values[0],
                   obstacle_due=True)
    return _after_move(new) if new["phase"] == "move" else new


def _start(state: State, outcome: Mapping[str, JSON]) -> State:
    """Rule S2: the seat drawn places the first prey and, once all are placed, moves first; the
    predators go on the start corners in the order of play from it."""
    seats, values = state["seats"], outcome.get("values")
    if (not isinstance(values, list) or len(values) != 1 or not isinstance(values[0], int)
            or isinstance(values[0], bool) or not 1 <= values[0] <= seats):
        raise MalformedInput(f"the draw for who starts gives one value 1-{seats}, not {values!r}")
    first = values[0] - 1
    predators = corners(seats, first)
    return dict(state, phase="place", first=first, turn=first, predators=predators,
                at={place: [seat, "predator"] for seat, place in enumerate(predators)})


def corners(seats: int, first: int) -> list[str]:
    """Each seat's start corner when ``first`` starts (rule S2): the first start place of
    :data:`~atoll.plugins.survival.board.STARTS` for the player drawn, the next for the next player
    in the order of play, and so on (our decision, for balance)."""
    return [STARTS[seats][(seat - first) % seats] for seat in range(seats)]


# -- actions -----------------------------------------------------------------------


def _place(state: State, action: Action) -> State:
    """Rule S6: one prey at a time, anywhere free, in turn order (or snake order)."""
    seat, animal, at = state["turn"], action.get("animal"), action.get("at")
    if animal not in state["unplaced"][seat]:
        raise IllegalAction(f"{COLOURS[seat]} has no {animal!r} left to place; left: "
                            f"{', '.join(state['unplaced'][seat])}")
    if at not in PLACES or at in FIXED_SET or at in occupants(state):
        raise IllegalAction(f"cannot place on {at!r}: place prey on a free place of the board")
    prey = [dict(p) for p in state["prey"]]
    prey[seat][animal] = at
    unplaced = [list(u) for u in state["unplaced"]]
    unplaced[seat].remove(animal)
    new = dict(state, prey=prey, unplaced=unplaced, at={**state["at"], at: [seat, animal]})
    if not any(unplaced):
        return _begin_turn(new, state["first"])
    new["turn"] = placer(state["seats"], sum(len(u) for u in unplaced), state["first"], state["snake"])
    return new


def placer(seats: int, left: int, first: int, snake: bool) -> int:
    """Who places the next prey when ``left`` prey are still to be placed (rule S6): in turn order
    from the seat drawn to start (``first``); in the snake variant from it round to the seat before
    it, then back, and so on."""
    done = seats * len(ANIMALS) - left
    rnd, pos = divmod(done, seats)
    return (first + (pos if rnd % 2 == 0 or not snake else seats - 1 - pos)) % seats


def _assign(state: State, action: Action) -> State:
    """Rule S7: one die to the predator, the other to the prey."""
    die, dice = action.get("predator"), state["dice"]
    if die not in dice or isinstance(die, bool):
        raise IllegalAction(f"the predator must take one of the dice {dice}, not {die!r}")
    other = dice[1] if dice[0] == die else dice[0]
    new = dict(state, phase="move", predator_die=die, predator_left=die, prey_left=other)
    return _after_move(new)


def _step(state: State, action: Action) -> State:
    """Rules S8-S13: a predator or prey step; the predator catches prey it steps on."""
    seat, token, to = state["turn"], action.get("token"), action.get("to")
    if token == "predator":
        if not predator_may_step(state, to):
            raise IllegalAction(
                f"the predator cannot step to {to!r}; it may step to: "
                f"{', '.join(predator_steps(state)) or 'nowhere (its move is over)'}")
        here = state["predators"][seat]
        predators = list(state["predators"])
        predators[seat] = to
        at = dict(state["at"])
        del at[here]
        victim = at.get(to)
        at[to] = [seat, "predator"]
        new = dict(state, predators=predators, predator_left=state["predator_left"] - 1, at=at,
                   touched=[*state["touched"], *([here] if here not in state["touched"] else []), to],
                   path=[*(state["path"] or [here]), to])
        return _catch(new, victim) if victim is not None else new
    if token not in ANIMALS:
        raise MalformedInput(f"a step moves 'predator' or one of {', '.join(ANIMALS)}, not {token!r}")
    if not prey_may_step(state, token, to):
        raise IllegalAction(f"{COLOURS[seat]}'s {token} cannot step to {to!r} now")
    here = state["prey"][seat][token]
    prey = list(state["prey"])
    prey[seat] = {**prey[seat], token: to}
    at = dict(state["at"])
    del at[here]
    at[to] = [seat, token]
    return dict(state, prey=prey, prey_left=state["prey_left"] - 1, at=at,
                touched=[*state["touched"], *([here] if here not in state["touched"] else []), to])


def _catch(state: State, victim: Sequence[Any]) -> State:
    """Rule S12 and S16: the caught prey leaves the board; a player without prey loses the predator."""
    owner, animal = victim
    prey = list(state["prey"])
    prey[owner] = {a: p for a, p in prey[owner].items() if a != animal}
    caught = list(state["caught"])
    caught[state["turn"]] = [*caught[state["turn"]], [owner, animal]]
    new = dict(state, prey=prey, caught=caught)
    if not prey[owner]:
        predators, out = list(state["predators"]), list(state["out"])
        at = dict(state["at"])
        del at[predators[owner]]
        predators[owner] = None
        out[owner] = state["clock"]
        new.update(predators=predators, out=out, at=at)
    return new


def _obstacle(state: State, action: Action) -> State:
    """Rules S14, S15: doubles lay an obstacle, or move one once all four are out."""
    if not state["obstacle_due"]:
        raise IllegalAction("an obstacle is laid or moved only on a turn that rolled doubles, once")
    number, at, turn = action.get("id"), action.get("at"), action.get("turn")
    if type(number) is not int or type(turn) is not int or not isinstance(at, str):  # a bool is no number
        raise MalformedInput(f"an obstacle action names 'id' (1-4), 'at' (a place) and 'turn': {action!r}")
    if not may_lay(state, number, at, turn):
        raise IllegalAction(_why_not(state, number, at, turn))
    obstacles = {**state["obstacles"], str(number): {"at": at, "turn": turn}}
    return dict(state, obstacles=obstacles, walls=walls(obstacles), obstacle_due=False)


def _why_not(state: State, number: int, at: str, turn: int) -> str:
    """Why obstacle ``number`` may not go to ``at`` turned ``turn`` times."""
    places = footprint(number, at, turn)
    text = f"obstacle {number} at {at} turn {turn}"
    if places is None:
        return f"{text} does not fit the board (numbers 1-4, turns as listed, inside the edge)"
    key = str(number)
    if len(state["obstacles"]) < 4 and key in state["obstacles"]:
        return f"{text}: obstacle {number} is out already; lay one of the others first"
    clash = sorted(set(places) & (FIXED_SET | set(occupants(state)) | movable_places(state, skip=key)))
    if clash:
        return f"{text} would cover {', '.join(clash)}, which is not free"
    return f"{text} is where it lies already: move it to a new position"


# -- the flow ----------------------------------------------------------------------


def _after_move(state: State) -> State:
    """End the game if at most one player has prey, the turn if nothing is left to do in it."""
    if len(in_game(state)) <= 1:
        return dict(state, phase="over")
    if can_step(state):
        return state
    if state["obstacle_due"] and choices(state, first=True):
        return state
    seat, seats = state["turn"], state["seats"]
    nxt = (seat + 1) % seats
    while not state["prey"][nxt]:
        nxt = (nxt + 1) % seats
    return _begin_turn(state, nxt)


def _begin_turn(state: State, seat: int) -> State:
    """The next turn (rule S7), or the end when the round limit is reached (S19). A round begins
    with the seat drawn to start (S2, S13)."""
    first, seats = state["first"], state["seats"]
    new_round = state["round"] == 0 or (seat - first) % seats <= (state["turn"] - first) % seats
    rounds = state["round"] + 1 if new_round else state["round"]
    base = dict(state, dice=[], predator_die=0, predator_left=0, prey_left=0, obstacle_due=False,
                touched=[], path=[])
    if rounds > ROUND_LIMIT:
        return dict(base, phase="over")
    return dict(base, phase="roll", turn=seat, round=rounds, clock=state["clock"] + 1)


def scores(state: State) -> list[int]:
    """Points so far: the prey each seat's predator caught, and at the end the survivors' own prey
    (rules S17, S19)."""
    points = [sum(POINTS[animal] for _, animal in caught) for caught in state["caught"]]
    if state["phase"] == "over":
        for seat in in_game(state):
            points[seat] += sum(POINTS[a] for a in state["prey"][seat])
    return points


def ranking_key(state: State, seat: int) -> tuple[int, int]:
    """What places a seat at the end (rule S18): points, then how long it kept prey."""
    out = state["out"][seat]
    return scores(state)[seat], (state["clock"] + 1 if out is None else out)


def results(state: State) -> Results:
    """The end: scores, and the winners by points and then by who kept prey longest (rule S18)."""
    keys = [ranking_key(state, seat) for seat in range(state["seats"])]
    best = max(keys)
    return Results(tuple(scores(state)), tuple(s for s, key in enumerate(keys) if key == best))
