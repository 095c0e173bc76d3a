"""Kariba's rules as pure functions over a small, flat, public state (no rendering, no texts).

The state (plain JSON, public facts only)::

    phase       "shuffle" | "deal" | "reveal" | "play" | "draw" | "refill" | "over"
    experienced True in the experienced variant (three face-up cards beside the pile)
    seats       number of seats
    turn        the seat whose turn it is
    top         index of the top card of the draw pile: the pile is deck.<top> .. deck.63
    want        cards the pending refill deals (phase "refill" only)
    hands       per seat, the handles it holds, in the order it got them
    hole        per animal 1..8, how many cards stand at its place of the waterhole
    won         per seat, how many cards it has won (its score pile)
    row         handles of the face-up cards beside the pile (experienced variant)
    public      handle -> face for every face-up card and every card taken from the row

Animals are their numbers, 1 (mouse) to 8 (elephant). Rule numbers (K1, ...) refer
to docs/rules/kariba.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from atoll import (
    JSON,
    Action,
    Chance,
    Config,
    Deal,
    Decision,
    End,
    IllegalAction,
    Knowledge,
    MalformedInput,
    ProtocolViolation,
    Request,
    Results,
    Reveal,
    Shuffle,
    State,
    Step,
    seat_label,
)

MIN_SEATS, MAX_SEATS = 2, 4
MOUSE, ELEPHANT = 1, 8
ANIMALS = tuple(range(MOUSE, ELEPHANT + 1))
#: K1: 64 cards, eight of each animal.
FACES: tuple[int, ...] = tuple(animal for animal in ANIMALS for _ in range(8))
DECK = "deck"
HANDLES: tuple[str, ...] = tuple(Shuffle(DECK, FACES).handles())
HAND_SIZE = 5
ROW_SIZE = 3
#: K6: a place chases once it holds this many cards.
CHASE_AT = 3


# -- set-up and what happens next ------------------------------------------------


def setup(config: Config) -> State:
    """The state before the shuffle (K1, K2)."""
    if not MIN_SEATS <= config.seats <= MAX_SEATS:
        raise IllegalAction(f"Kariba takes {MIN_SEATS}-{MAX_SEATS} seats, not {config.seats}")
    if config.variant not in ("standard", "experienced"):
        raise IllegalAction(f"Kariba has no variant {config.variant!r}; choose standard or experienced")
    n = config.seats
    return {
        "phase": "shuffle", "experienced": config.variant == "experienced", "seats": n, "turn": 0,
        "top": 0, "want": 0, "hands": [[] for _ in range(n)], "hole": [0] * len(ANIMALS),
        "won": [0] * n, "row": [], "public": {},
    }


def next_step(state: State) -> Step:
    """What happens now: a chance request, the seat to decide, or the end."""
    phase = state["phase"]
    if phase == "play" or phase == "draw":
        return Decision(state["turn"])
    if phase == "refill":
        top = state["top"]
        return Chance(Deal(((state["turn"], HANDLES[top: top + state["want"]]),)))
    if phase == "reveal":
        top = state["top"]
        return Chance(Reveal(HANDLES[top: top + min(ROW_SIZE - len(state["row"]), len(HANDLES) - top)]))
    if phase == "shuffle":
        return Chance(Shuffle(DECK, FACES))
    if phase == "deal":
        return Chance(Deal(tuple(
            (seat, HANDLES[seat * HAND_SIZE: (seat + 1) * HAND_SIZE]) for seat in range(state["seats"])
        )))
    return End(results(state))


def results(state: State) -> Results:
    """K14: the score is the cards won; every seat with the most cards wins."""
    won = state["won"]
    best = max(won)
    return Results(tuple(won), tuple(seat for seat, cards in enumerate(won) if cards == best))


def pile_size(state: State) -> int:
    """How many cards are left in the draw pile."""
    return len(HANDLES) - int(state["top"])


# -- decisions ---------------------------------------------------------------------


def face_of(state: State, handle: str, known: Knowledge) -> int | None:
    """The face of a card in a hand: public if it came from the row, else from ``known``."""
    face = state["public"].get(handle)
    if face is None:
        face = known.get(handle)
    return face if isinstance(face, int) else None


def legal_actions(state: State, seat: int, known: Knowledge) -> list[Action]:
    """Every legal action of ``seat``: one play per animal and count, or one draw per source.

    A play shows the first cards of that animal in the hand, face-up ones (already
    public) before hidden ones, so each legal action has one text and shows no more
    than it must.
    """
    if seat != state["turn"]:
        return []
    phase = state["phase"]
    if phase == "play":
        public = state["public"]
        hand = state["hands"][seat]
        by_animal: dict[int, list[str]] = {}
        for handle in hand:
            if handle in public:
                by_animal.setdefault(public[handle], []).append(handle)
        for handle in hand:
            face = known.get(handle)
            if handle not in public and isinstance(face, int):
                by_animal.setdefault(face, []).append(handle)
        actions: list[Action] = []
        for animal in sorted(by_animal):
            handles = by_animal[animal]
            reveal: dict[str, int] = {}
            for count, handle in enumerate(handles, 1):
                if handle not in public:
                    reveal[handle] = animal
                actions.append({"play": handles[:count], "reveal": dict(reveal)})
        return actions
    if phase == "draw":
        actions = [{"draw": "pile"}] if pile_size(state) else []
        first: dict[int, str] = {}
        for handle in state["row"]:
            first.setdefault(state["public"][handle], handle)
        actions.extend({"take": first[animal]} for animal in sorted(first))
        return actions
    return []


def apply(state: State, action: Action) -> State:
    """The state after the seat to move takes ``action``; raises IllegalAction if it may not."""
    if not isinstance(action, dict):
        raise IllegalAction(f"an action is a JSON object, not {action!r}")
    phase = state["phase"]
    if phase == "play":
        return _play(state, action)
    if phase == "draw":
        return _draw(state, action)
    raise IllegalAction(f"no seat may act now: Kariba is in phase {phase!r}")


def chased_by(hole: list[int], animal: int) -> int | None:
    """K6, K8, K10: the animal that ``animal`` chases away from ``hole``, if any.

    The mouse chases only the elephant; any other animal chases the closest weaker
    animal present, skipping empty places.
    """
    if animal == MOUSE:
        return ELEPHANT if hole[ELEPHANT - 1] else None
    for weaker in range(animal - 1, MOUSE - 1, -1):
        if hole[weaker - 1]:
            return weaker
    return None


def chase(hole: list[int], animal: int) -> int | None:
    """The animal chased away after ``animal`` was played onto ``hole`` (None: nobody is chased)."""
    if hole[animal - 1] < CHASE_AT:
        return None
    return chased_by(hole, animal)


def played_animal(state: State, action: Action) -> tuple[list[str], int]:
    """The handles a play action shows and their one animal; raises IllegalAction if it is not a play.

    Which cards of one animal a seat shows is its own choice, so only what others can check
    is checked: the cards are in its hand, in hand order, and cards it took face up (whose
    faces everybody knows) go first, as :func:`legal_actions` offers them.
    """
    seat = state["turn"]
    handles = action.get("play")
    reveal = action.get("reveal")
    if set(action) != {"play", "reveal"} or not isinstance(handles, list) or not isinstance(reveal, dict):
        raise IllegalAction(f"not a Kariba play: {action!r}; a play is {{'play': [handles], 'reveal': ...}}")
    if not handles:
        raise IllegalAction(f"{seat_label(seat)} must play at least one card")
    hand = state["hands"][seat]
    if not all(isinstance(h, str) and h in hand for h in handles) or len(set(handles)) != len(handles):
        raise IllegalAction(
            f"{seat_label(seat)} cannot play {handles!r}: not all are distinct cards in its hand")
    public = state["public"]
    hidden = [h for h in handles if h not in public]
    if len(reveal) != len(hidden) or not all(h in reveal for h in hidden):
        raise IllegalAction(f"a play must show exactly its hidden cards {hidden!r}, not {list(reveal)!r}")
    faces = [public[h] if h in public else reveal[h] for h in handles]
    animal = faces[0]
    if not isinstance(animal, int) or isinstance(animal, bool) or animal not in ANIMALS or any(
        face != animal for face in faces
    ):
        raise IllegalAction(f"{seat_label(seat)} cannot play {handles!r}: the cards must all show one animal")
    face_up = [h for h in hand if public.get(h) == animal]
    if handles != sorted(handles, key=lambda h: (h not in public, hand.index(h))) or [
        h for h in handles if h in public
    ] != face_up[: len(handles)]:
        raise IllegalAction(
            f"{seat_label(seat)} plays {handles!r} out of order: cards taken face up first, then in hand "
            "order"
        )
    return handles, animal


def _play(state: State, action: Action) -> State:
    """K4-K10: put the cards at their place; at three or more, chase the closest weaker animal."""
    handles, animal = played_animal(state, action)
    seat = state["turn"]
    new = dict(state)
    hands = list(state["hands"])
    played = set(handles)
    hands[seat] = [h for h in hands[seat] if h not in played]
    new["hands"] = hands
    hole = list(state["hole"])
    hole[animal - 1] += len(handles)
    victim = chase(hole, animal)
    if victim is not None:
        won = list(state["won"])
        won[seat] += hole[victim - 1]
        hole[victim - 1] = 0
        new["won"] = won
    new["hole"] = hole
    if any(h in state["public"] for h in handles):
        new["public"] = {h: f for h, f in state["public"].items() if h not in played}
    return _continue_turn(new)


def _draw(state: State, action: Action) -> State:
    """K16: in the experienced variant a seat draws one card at a time, from the pile or the row."""
    seat = state["turn"]
    if action == {"draw": "pile"}:
        if not pile_size(state):
            raise IllegalAction(f"{seat_label(seat)} cannot draw from the pile: it is empty")
        new = dict(state)
        new["phase"], new["want"] = "refill", 1
        return new
    handle = action.get("take")
    if set(action) != {"take"} or not isinstance(handle, str):
        raise IllegalAction(f"not a Kariba draw: {action!r}; draw {{'draw': 'pile'}} or {{'take': handle}}")
    if handle not in state["row"]:
        raise IllegalAction(f"{seat_label(seat)} cannot take {handle!r}: it is not a face-up card")
    animal = state["public"][handle]
    if handle != next(h for h in state["row"] if state["public"][h] == animal):
        raise IllegalAction(
            f"{seat_label(seat)} cannot take {handle!r}: take the first face-up {animal} instead")
    new = dict(state)
    hands = list(state["hands"])
    hands[seat] = [*hands[seat], handle]
    new["hands"] = hands
    new["row"] = [h for h in state["row"] if h != handle]
    return _continue_turn(new)


def _continue_turn(new: State) -> State:
    """After a play or a draw: draw more (K11, K12, K16) or end the turn (K13, K17).

    Only the pile left to draw from: the missing cards are dealt at once. Face-up
    cards to choose from: the seat decides, one card at a time. Once the pile is
    empty nobody draws any more, face-up cards included (K18).
    """
    missing = HAND_SIZE - len(new["hands"][new["turn"]])
    if missing > 0 and pile_size(new):
        if new["row"]:
            new["phase"] = "draw"
        else:
            new["phase"], new["want"] = "refill", min(missing, pile_size(new))
    else:
        _end_turn(new)
    return new


def _end_turn(new: State) -> None:
    """K13: an empty hand at the end of a turn ends the game; else the next seat plays (K3).

    K17: face-up cards taken are replaced from the pile between turns.
    """
    new["want"] = 0
    if not new["hands"][new["turn"]]:
        new["phase"] = "over"
        return
    new["turn"] = (new["turn"] + 1) % new["seats"]
    refill_row = new["experienced"] and len(new["row"]) < ROW_SIZE and pile_size(new)
    new["phase"] = "reveal" if refill_row else "play"


# -- chance --------------------------------------------------------------------------


def resolve(state: State, request: Request, outcome: Mapping[str, JSON]) -> State:
    """The state after chance answered ``request`` (which must be the one ``next_step`` asks)."""
    step = next_step(state)
    if not isinstance(step, Chance) or step.request != request:
        raise ProtocolViolation(f"Kariba in phase {state['phase']!r} did not ask for {request.to_json()}")
    new = dict(state)
    phase = state["phase"]
    if isinstance(request, Shuffle):
        if list(outcome.get("handles", ())) != list(HANDLES):
            raise MalformedInput(f"the shuffle must name the deck's cards {DECK}.0-63: {outcome!r}")
        new["phase"] = "deal"
    elif isinstance(request, Deal) and phase == "deal":
        new["hands"] = [list(handles) for _, handles in request.to]
        new["top"] = state["seats"] * HAND_SIZE
        new["phase"] = "reveal" if state["experienced"] else "play"
    elif isinstance(request, Deal):
        seat = state["turn"]
        hands = list(state["hands"])
        hands[seat] = [*hands[seat], *request.to[0][1]]
        new["hands"] = hands
        new["top"] = state["top"] + state["want"]
        new["want"] = 0
        return _continue_turn(new)
    elif isinstance(request, Reveal):
        new["public"] = {**state["public"], **_faces(request, outcome)}
        new["row"] = [*state["row"], *request.handles]
        new["top"] = state["top"] + len(request.handles)
        new["phase"] = "play"
    return new


def _faces(request: Reveal, outcome: Mapping[str, JSON]) -> dict[str, int]:
    faces: Any = outcome.get("faces")
    if not isinstance(faces, dict) or sorted(faces) != sorted(request.handles) or not all(
        isinstance(f, int) and not isinstance(f, bool) and f in ANIMALS for f in faces.values()
    ):
        raise MalformedInput(f"a reveal of {list(request.handles)} must give each an animal 1-8: {outcome!r}")
    return {h: faces[h] for h in request.handles}
