"""The fast path's board to and from the rules' JSON state: to start at a :class:`~atoll.fast.Position`,
and to show where a simulator is (its tests compare that with the rules' own state)."""

from __future__ import annotations

from atoll import JSON, State
from atoll.plugins.kiribati.board import ROWS
from atoll.plugins.kiribati.fast_board import FastBoard
from atoll.plugins.kiribati.fast_codes import (
    EVENTS,
    ISLAND,
    MAINLAND,
    NO_EVENT,
    NOWHERE,
    PHASES,
    PLACE_COUNT,
    VARIANTS,
)
from atoll.plugins.kiribati.meta import ANIMALS, CARDS

_ANIMAL = {kind: index for index, kind in enumerate(ANIMALS)}
_CARD = {card: index for index, card in enumerate(CARDS)}


def load(board: FastBoard, state: State, faces: dict[str, JSON]) -> None:
    """Set ``board`` to the JSON ``state``, whose kept cards show the ``faces`` given."""
    board.variant = VARIANTS.index(state["variant"])
    board.seats = seats = state["seats"]
    board.cols = state["cols"]
    board.kinds = tuple(_ANIMAL[kind] for kind in state["animals"])
    board.count = len(board.kinds)
    board.size = [0] * PLACE_COUNT
    board.on = [[] for _ in range(PLACE_COUNT)]
    board.loc = loc = [NOWHERE] * (5 * seats)
    for row, line in enumerate(state["board"]):
        for col, turtle in enumerate(line):
            if turtle is not None:
                place = col * 4 + row
                board.size[place] = turtle["size"]
                board.on[place] = [seat * 5 + _ANIMAL[kind] for seat, kind in turtle["animals"]]
                for animal in board.on[place]:
                    loc[animal] = place
    board.mainland = [[_ANIMAL[kind] for kind in ashore] for ashore in state["mainland"]]
    for seat in range(seats):
        for kind in state["island"][seat]:
            loc[seat * 5 + _ANIMAL[kind]] = ISLAND
        for kind in board.mainland[seat]:
            loc[seat * 5 + kind] = MAINLAND
    board.large, board.small = state["supply"]["large"], state["supply"]["small"]
    board.finished = list(state["finished"])
    board.phase = PHASES.index(state["phase"])
    board.setup_row = state["setup_row"]
    board.turn = state["turn"]
    board.round = state["round"]
    board.dice = list(state["dice"])
    board.die = state["die"] or 0
    board.moved = [_ANIMAL[kind] for kind in state["moved"]]
    board.placed = state["placed"]
    board.extra = state["extra"]
    board.carded = state["carded"]
    board.answered = list(state["answered"])
    pending = state["pending"]
    board.pending = None if pending is None else (
        _CARD[pending["card"]], pending["by"], _piece(pending["target"]), PHASES.index(pending["resume"]))
    throw = state["throw"]
    board.throw_at = -1 if throw is None else _place(throw["at"])
    board.throw_kagu = bool(throw and throw["kagu"])
    board.clamp = [-1 if kind is None else _ANIMAL[kind] for kind in state["clamp"]]
    board.tired = [[seat, _ANIMAL[kind], turns] for seat, kind, turns in state["tired"]]
    board.handles = [list(hand) for hand in state["hands"]]
    board.hands = [[_CARD[str(faces[handle])] for handle in hand] for hand in state["hands"]]
    board.played = [[_CARD[card] for card in pile] for pile in state["played"]]
    board.opened = dict(state["opened"])
    board.event = NO_EVENT if state["event"] is None else EVENTS.index(state["event"])
    board.events_left = list(state["events_left"])
    board.events_seen = list(state["events_seen"])
    board._legal = None


def _piece(pair: JSON) -> int:
    assert isinstance(pair, list)
    return int(pair[0]) * 5 + _ANIMAL[str(pair[1])]


def _place(name: JSON) -> int:
    assert isinstance(name, str)
    col, row = int(name[1:name.index("r")]) - 1, int(name[name.index("r") + 1:]) - 1
    return col * 4 + row


def _name(place: int) -> str:
    return f"c{place // 4 + 1}r{place % 4 + 1}"


def dump(board: FastBoard) -> State:
    """The JSON state the rules would hold where ``board`` is."""
    seats = board.seats
    kinds = [ANIMALS[kind] for kind in board.kinds]
    grid: list[list[JSON]] = [
        [
            None if not board.size[col * 4 + row] else {
                "size": board.size[col * 4 + row],
                "animals": [[a // 5, ANIMALS[a % 5]] for a in board.on[col * 4 + row]],
            }
            for col in range(board.cols)
        ]
        for row in range(ROWS)
    ]
    pending: JSON = None
    if board.pending is not None:
        card, by, target, resume = board.pending
        pending = {"card": CARDS[card], "by": by, "target": [target // 5, ANIMALS[target % 5]],
                   "resume": PHASES[resume]}
    return {
        "variant": VARIANTS[board.variant],
        "seats": seats,
        "cols": board.cols,
        "animals": kinds,
        "board": grid,
        "supply": {"large": board.large, "small": board.small},
        "island": [
            [ANIMALS[k] for k in board.kinds if board.loc[seat * 5 + k] == ISLAND] for seat in range(seats)
        ],
        "mainland": [[ANIMALS[k] for k in ashore] for ashore in board.mainland],
        "finished": list(board.finished),
        "phase": PHASES[board.phase],
        "setup_row": board.setup_row,
        "turn": board.turn,
        "round": board.round,
        "dice": list(board.dice),
        "die": board.die or None,
        "moved": [ANIMALS[k] for k in board.moved],
        "placed": board.placed,
        "extra": board.extra,
        "carded": board.carded,
        "answered": list(board.answered),
        "pending": pending,
        "throw": None if board.throw_at < 0 else {"at": _name(board.throw_at), "kagu": board.throw_kagu},
        "clamp": [None if kind < 0 else ANIMALS[kind] for kind in board.clamp],
        "tired": [[seat, ANIMALS[kind], turns] for seat, kind, turns in board.tired],
        "hands": [list(hand) for hand in board.handles],
        "played": [[CARDS[card] for card in pile] for pile in board.played],
        "opened": dict(board.opened),
        "event": None if board.event == NO_EVENT else EVENTS[board.event],
        "events_left": list(board.events_left),
        "events_seen": list(board.events_seen),
    }
