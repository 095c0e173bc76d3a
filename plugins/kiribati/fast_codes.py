"""The fast path's numbers: places, animals, cards, phases and events as small ints, and action codes.

A place is ``col * 4 + row`` (0-based), so the island is :data:`ISLAND` (24) and the
mainland :data:`MAINLAND` (25); an animal is ``seat * 5 + kind``, the kind by
:data:`~atoll.plugins.kiribati.meta.ANIMALS`. An action's code packs its public fields
(never a card's handle) into one int, ``kind * 1_000_000 + detail`` with the kind by
:data:`KINDS`, so the same code is the same text in any state, as a search over
guessed worlds needs. :func:`encode` gives the code of a full-API action.
"""

from __future__ import annotations

from typing import Any

from atoll import Action
from atoll.plugins.kiribati.board import ISLAND as ISLAND_NAME
from atoll.plugins.kiribati.board import JUMPS, PLACES, RABBIT_STEPS, ROWS, STEPS
from atoll.plugins.kiribati.board import MAINLAND as MAINLAND_NAME
from atoll.plugins.kiribati.events import DECK
from atoll.plugins.kiribati.meta import ANIMALS, CARDS
from atoll.plugins.kiribati.turn import KEEPS

#: Places on the widest board (six columns of four rows); the island and the mainland after them.
PLACE_COUNT = 24
ISLAND = 24
MAINLAND = 25
#: Where an animal not in this game is (it is in no place at all).
NOWHERE = -1
#: The animal kinds, by their index in ANIMALS.
MONKEY, LIZARD, KAGU, RABBIT, KOALA = range(5)
#: The cards, by their index in CARDS.
FEEDING, REST, CURRENT, SLEEP, CLAMP, SHARK = range(6)
#: The events, by their index in :data:`EVENTS`; :data:`NO_EVENT` outside a professional round.
EVENTS = tuple(DECK)
CLOUDY, FISHING_NET, THUNDERSTORM, SUNSHINE, FLOW, STORM = range(6)
NO_EVENT = -1
#: The variants, by their index in the game's variants.
CHILDREN, FAMILY, PROFESSIONAL = range(3)
VARIANTS = ("children", "family", "professional")

#: The phases: those below :data:`ANSWER` are decisions of the player on turn, those from :data:`SETUP`
#: on are chance's (and the end), so ``phase >= SETUP`` means "not at a decision".
KEEP, DIE, TURTLE, THROW, ANIMALS_STEP, ANSWER, SETUP, EVENT, ROLL, REVEAL, OVER = range(11)
PHASES = ("keep", "die", "turtle", "throw", "animals", "answer", "setup", "event", "roll", "reveal", "over")

#: The kinds of action, by their ``do`` (``"secret"``: keeping four cards).
KINDS = ("secret", "die", "turtle", "new", "dive", "float", "throw", "move", "play", "answer", "pass", "done")
_BASE = 1_000_000
SECRET, DIE_CODE, DRIFT, NEW, DIVE, FLOAT, THROW_CODE, MOVE, PLAY, ANSWER_CODE, PASS, DONE = (
    index * _BASE for index in range(len(KINDS)))
#: ``MOVE_CODES[kind][to]``: the code of moving an animal of ``kind`` to a place, the island or the
#: mainland; a koala displacing animal ``victim`` adds ``1 + victim``.
MOVE_CODES = tuple(tuple(MOVE + (kind * 32 + to) * 32 for to in range(MAINLAND + 1)) for kind in range(5))
#: The codes of the fifteen choices of four cards to keep, and those choices as card numbers.
KEEP_CODES = [SECRET + index for index in range(len(KEEPS))]
KEEP_CARDS = tuple(tuple(CARDS.index(card) for card in kept) for kept in KEEPS)

_TO = {name: col * 4 + row for name, (col, row) in PLACES.items()}
_TO.update({ISLAND_NAME: ISLAND, MAINLAND_NAME: MAINLAND})
_KEEP = {tuple(kept): index for index, kept in enumerate(KEEPS)}
_ANIMAL = {kind: index for index, kind in enumerate(ANIMALS)}
_CARD = {card: index for index, card in enumerate(CARDS)}


def piece(pair: Any) -> int:
    """An animal of a seat, ``[seat, kind]``, as one number."""
    return int(pair[0]) * 5 + _ANIMAL[pair[1]]


def encode(action: Action) -> int:
    """The code of a Kiribati action."""
    if "secret" in action:
        return SECRET + _KEEP[tuple(action["secret"])]
    do = action["do"]
    if do == "move":
        bump = action.get("bump")
        code = MOVE_CODES[_ANIMAL[action["animal"]]][_TO[action["to"]]]
        return code if bump is None else code + 1 + piece(bump)
    if do in ("turtle", "dive", "float"):
        return {"turtle": DRIFT, "dive": DIVE, "float": FLOAT}[do] + _TO[action["at"]]
    if do == "die":
        return DIE_CODE + int(action["value"])
    if do == "new":
        return NEW + int(action["size"]) * 8 + int(action["row"])
    if do == "throw":
        return THROW_CODE + int(action["seat"]) * 5 + _ANIMAL[action["animal"]]
    if do == "play":
        detail = 0
        if "at" in action:
            detail = 1 + _TO[action["at"]]
        elif "animal" in action:
            detail = 1 + _ANIMAL[action["animal"]]
        elif "target" in action:
            detail = 1 + piece(action["target"])
        return PLAY + _CARD[action["card"]] * 64 + detail
    if do == "answer":
        return ANSWER_CODE + _CARD[action["card"]]
    return PASS if do == "pass" else DONE


def _steps(table: dict[int, Any], cols: int) -> tuple[tuple[int, ...], ...]:
    """A neighbour table of :mod:`atoll.plugins.kiribati.board` by place number, in its order."""
    out: list[tuple[int, ...]] = [()] * PLACE_COUNT
    for row in range(ROWS):
        for col in range(cols):
            out[col * 4 + row] = tuple(c * 4 + r for c, r, _ in table[cols][row][col])
    return tuple(out)


def _jumps(cols: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    out: list[tuple[tuple[int, int], ...]] = [()] * PLACE_COUNT
    for row in range(ROWS):
        for col in range(cols):
            jumps = JUMPS[cols][row][col]
            out[col * 4 + row] = tuple((oc * 4 + orow, c * 4 + r) for oc, orow, c, r, _ in jumps)
    return tuple(out)


#: By board width: the places next to each place (``STEP_TO``, the rabbit's with the diagonals
#: ``RABBIT_TO``) and the monkey's jumps as (place jumped over, place landed on), in the rules' order.
STEP_TO = {cols: _steps(STEPS, cols) for cols in (5, 6)}
RABBIT_TO = {cols: _steps(RABBIT_STEPS, cols) for cols in (5, 6)}
JUMP_TO = {cols: _jumps(cols) for cols in (5, 6)}
#: By board width, by animal kind: the steps an animal of that kind may take (a rabbit's diagonals too).
KIND_STEPS = {
    cols: tuple(RABBIT_TO[cols] if kind == RABBIT else STEP_TO[cols] for kind in range(5)) for cols in (5, 6)
}
#: By board width and row: the row's places, west to east.
ROW_PLACES = {
    cols: tuple(tuple(col * 4 + row for col in range(cols)) for row in range(ROWS)) for cols in (5, 6)
}
#: By board width: every place row by row from the south, west to east (the rules' board order).
ROW_ORDER = {cols: tuple(col * 4 + row for row in range(ROWS) for col in range(cols)) for cols in (5, 6)}
