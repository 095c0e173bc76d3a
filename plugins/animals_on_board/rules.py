"""Animals on Board's flow as pure functions: set-up, chance, rounds and the end (no texts, no drawing).

The state (plain JSON, public facts only)::

    phase    "remove" | "shuffle" | "deal" | "keep" | "open" | "show" | "fill" | "play" | "give"
             | "depart" | "cut" | "over"
    seats    number of seats
    species  the species in play, in board order; ``removed`` the ones left out (A2)
    top      index of the next tile of the draw pile (handles ``tiles.<top>`` ...)
    hands    per seat, the three tiles it drew (A5)
    seals    per seat, the handles of its sealed choice of the tile to keep: [tile, face] (A6)
    public   handle -> face of every tile shown face up
    groups   the animal groups in the centre, each a list of handles in board order
    hidden   handle of the face-down tile in the centre, or None
    arks     per seat, the handles on its ark; ``discarded`` per seat, those lost at departure
    crates   per seat; ``supply`` the crates in the general supply
    out      per seat, whether it dropped out of the round
    start    the seat holding the start-player flag; ``flag_taken`` whether someone dropped out
             this round (and so took the flag)
    turn     the seat to move; ``final`` whether this is the last player's final turn (A18)
    round    the round being played, from 1

Rule numbers (A1, ...) refer to docs/rules/animals-on-board.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from atoll import (
    JSON,
    Chance,
    Config,
    Deal,
    Decision,
    End,
    IllegalAction,
    MalformedInput,
    Pick,
    ProtocolViolation,
    Request,
    Reveal,
    Shuffle,
    State,
    Step,
)
from atoll.plugins.animals_on_board import scoring
from atoll.plugins.animals_on_board.meta import (
    CRATES,
    DRAWN,
    FACE_UP,
    FULL,
    INFO,
    PILE,
    REMOVED,
    SPECIES,
    START_CRATES,
    faces_of,
    is_face,
    order,
    removed_option,
)

#: Phases in which a seat decides.
DECIDING = ("keep", "play", "cut")


# -- set-up ------------------------------------------------------------------------


def setup(config: Config) -> State:
    """The state before anything is drawn (A1-A4)."""
    if not INFO.min_seats <= config.seats <= INFO.max_seats:
        raise IllegalAction(f"Animals on Board takes 2-4 seats, not {config.seats}")
    removed = removed_option(config.seats, config.options)
    n = config.seats
    state: State = {
        "phase": "remove", "seats": n, "species": [], "removed": [], "top": 0,
        "hands": [[] for _ in range(n)], "seals": [[] for _ in range(n)], "public": {},
        "groups": [], "hidden": None, "arks": [[] for _ in range(n)], "discarded": [[] for _ in range(n)],
        "crates": [START_CRATES] * n, "supply": CRATES - START_CRATES * n, "out": [False] * n,
        "start": 0, "flag_taken": False, "turn": 0, "final": False, "round": 0,
    }
    if removed is not None:
        _remove(state, removed)
    return state


def _remove(state: State, removed: list[str]) -> None:
    state["removed"] = [s for s in SPECIES if s in removed]
    state["species"] = [s for s in SPECIES if s not in removed]
    state["phase"] = "shuffle"


def tiles_in_play(state: State) -> tuple[str, ...]:
    """The faces of the tiles in play (A1, A2), in board order."""
    return faces_of(state["species"])


def handle(index: int) -> str:
    """The handle of the tile at ``index`` of the shuffled pile."""
    return f"{PILE}.{index}"


def pile_left(state: State) -> int:
    """How many tiles are left in the draw pile."""
    return len(state["species"]) * 5 - int(state["top"])


# -- what happens next -------------------------------------------------------------------


def next_step(state: State) -> Step:
    """What happens now: a chance request, the seat to decide, or the end."""
    phase = state["phase"]
    if phase == "play" or phase == "cut":
        return Decision(state["turn"])
    if phase == "keep":
        return Decision(state["turn"], secret=True)
    if phase == "fill":
        top = state["top"]
        return Chance(Reveal(tuple(handle(i) for i in range(top, top + missing_face_up(state)))))
    if phase == "give":
        return Chance(Deal(((state["turn"], (state["hidden"],)),)))
    if phase == "remove":
        return Chance(Pick(SPECIES, REMOVED[state["seats"]]))
    if phase == "shuffle":
        return Chance(Shuffle(PILE, tiles_in_play(state)))
    if phase == "deal":
        return Chance(Deal(tuple((seat, tuple(hand)) for seat, hand in enumerate(state["hands"]))))
    if phase == "open":
        return Chance(Reveal(tuple(seal[0] for seal in state["seals"])))
    if phase == "show":
        return Chance(Reveal(tuple(put_out(state))))
    if phase == "depart":
        return Chance(Reveal(tuple(unseen_on_arks(state))))
    return End(scoring.results(state))


def put_out(state: State) -> list[str]:
    """A7: the two tiles of each player that go face up into the centre, in seat order."""
    return [h for seat, hand in enumerate(state["hands"]) for h in hand if h not in state["arks"][seat]]


def unseen_on_arks(state: State) -> list[str]:
    """A22: the tiles on the arks that have never been shown, in seat order."""
    return [h for ark in state["arks"] for h in ark if h not in state["public"]]


def face_up_in_centre(state: State) -> int:
    """How many face-up tiles lie in the centre."""
    hidden = state["hidden"]
    return sum(1 for group in state["groups"] for h in group if h != hidden)


def missing_face_up(state: State) -> int:
    """A8: how many face-up tiles the round's group still lacks."""
    return FACE_UP[state["seats"]] - face_up_in_centre(state)


def sort_group(state: State, handles: list[str]) -> list[str]:
    """``handles`` in board order: by species and number, the face-down tile last."""
    public = state["public"]
    return sorted(handles, key=lambda h: order(public[h]) if h in public else (len(SPECIES), 0))


# -- chance --------------------------------------------------------------------------


def resolve(state: State, request: Request, outcome: Mapping[str, JSON]) -> State:
    """The state after chance answered ``request`` (which must be the one :func:`next_step` asks)."""
    step = next_step(state)
    if not isinstance(step, Chance) or step.request != request:
        raise ProtocolViolation(
            f"Animals on Board in phase {state['phase']!r} did not ask for {request.to_json()}"
        )
    new = dict(state)
    phase = state["phase"]
    if phase == "remove":
        picked: Any = outcome.get("picked")
        if not isinstance(picked, list) or len(set(picked)) != len(picked) or not all(
            p in SPECIES for p in picked
        ) or len(picked) != REMOVED[state["seats"]]:
            wanted = REMOVED[state["seats"]]
            raise MalformedInput(f"the species left out must be {wanted} different species: {outcome!r}")
        _remove(new, picked)
    elif phase == "shuffle":
        count = len(tiles_in_play(state))
        if list(outcome.get("handles", ())) != [handle(i) for i in range(count)]:
            raise MalformedInput(f"the shuffle must name the tiles {PILE}.0-{count - 1}: {outcome!r}")
        new["hands"] = [[handle(DRAWN * seat + i) for i in range(DRAWN)] for seat in range(state["seats"])]
        new["top"] = DRAWN * state["seats"]
        new["phase"] = "deal"
    elif phase == "deal":
        new["phase"], new["turn"] = "keep", 0
    elif phase == "open" and isinstance(request, Reveal):
        _open(new, request, outcome)
    elif isinstance(request, Reveal):
        faces = _faces(request, outcome, tiles_in_play(state))
        new["public"] = {**state["public"], **faces}
        if phase == "show":
            new["groups"] = [sort_group(new, list(request.handles))]
            start_round(new)
        elif phase == "fill":
            new["groups"] = [sort_group(new, [*state["groups"][0], *request.handles])]
            new["top"] = state["top"] + len(request.handles)
            _place_hidden(new)
        else:  # depart
            scoring.discard_pairs(new)
            scoring.next_cut(new)
    else:  # give: the taker learned the face-down tile
        new["hidden"] = None
        after_turn(new)
    return new


def _open(new: State, request: Reveal, outcome: Mapping[str, JSON]) -> None:
    """A6: the sealed choices are opened: each kept tile goes onto its player's ark."""
    faces: Any = outcome.get("faces")
    if not isinstance(faces, dict) or sorted(faces) != sorted(request.handles):
        raise MalformedInput(f"the opened choices must name {list(request.handles)}: {outcome!r}")
    arks = []
    for seat, seal in enumerate(new["seals"]):
        kept = faces[seal[0]]
        if kept not in new["hands"][seat]:
            raise MalformedInput(f"seat {seat} kept {kept!r}, which is not one of the tiles it drew")
        arks.append([kept])
    new["arks"] = arks
    new["phase"] = "show"


def _faces(request: Reveal, outcome: Mapping[str, JSON], tiles: tuple[str, ...]) -> dict[str, str]:
    faces: Any = outcome.get("faces")
    if not isinstance(faces, dict) or sorted(faces) != sorted(request.handles) or not all(
        is_face(f) and f in tiles for f in faces.values()
    ):
        handles = list(request.handles)
        raise MalformedInput(f"a reveal of {handles} must give each a tile in play: {outcome!r}")
    return {h: faces[h] for h in request.handles}


# -- rounds -----------------------------------------------------------------------------


def start_round(new: State) -> None:
    """A8, A9: a new round: one group in the centre, filled up; the start player moves first."""
    new["round"] = new["round"] + 1
    new["out"] = [False] * new["seats"]
    new["flag_taken"], new["final"] = False, False
    new["turn"] = new["start"]
    new["groups"] = [sort_group(new, [h for group in new["groups"] for h in group])]
    if missing_face_up(new) > 0:
        if pile_left(new) < missing_face_up(new):
            raise ProtocolViolation("the draw pile ran out, which the rules make impossible")
        new["phase"] = "fill"
    else:
        _place_hidden(new)


def _place_hidden(new: State) -> None:
    """A8: one face-down tile from the pile, unless one is left from the last round; then play."""
    if new["hidden"] is None and pile_left(new) > 0:
        hidden = handle(new["top"])
        new["hidden"] = hidden
        new["top"] = new["top"] + 1
        new["groups"] = [[*new["groups"][0], hidden]]
    new["phase"] = "play"


def after_turn(new: State) -> None:
    """A9, A18: the next player still in the round moves; the last one left gets one final turn,
    after which the round ends."""
    new["phase"] = "play"
    remaining = [seat for seat in range(new["seats"]) if not new["out"][seat]]
    if new["final"] or not remaining:
        end_round(new)
    elif len(remaining) == 1:
        new["final"], new["turn"] = True, remaining[0]
    else:
        n = new["seats"]
        new["turn"] = next(
            (new["turn"] + step) % n for step in range(1, n + 1) if not new["out"][(new["turn"] + step) % n]
        )


def end_round(new: State) -> None:
    """A19: after a round, the game departs if an ark holds ten or more tiles; else a new round."""
    if any(len(ark) >= FULL for ark in new["arks"]):
        new["phase"] = "depart"
    else:
        start_round(new)


def deciding_seat(state: State) -> int | None:
    """The seat to decide now, or ``None`` when chance acts or the game is over."""
    return state["turn"] if state["phase"] in DECIDING else None
