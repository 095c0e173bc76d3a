"""Helpers that build Animals on Board positions and play them by the texts a player types.

Two ways in: :func:`start` plays a real match from the shuffle with a stacked draw pile (for
rules about chance and hidden tiles); :func:`table` writes a position in the middle of a round
straight into a state (for rules about one turn), with the owners' knowledge of their arks.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from atoll import JSON, Action, Knowledge, State
from atoll.engine import Match
from atoll.jsondata import canonical
from atoll.plugins.animals_on_board import AnimalsOnBoard
from atoll.plugins.animals_on_board.meta import FACE_UP, HIDDEN, SPECIES, faces_of
from atoll.testing import RiggedResolver
from atoll.types import Decision

GAME = AnimalsOnBoard()
#: The species the scenarios leave out (A2), so that no chance is spent choosing them.
LEFT_OUT: dict[int, list[str]] = {2: ["camel", "gorilla", "hippo", "monkey"], 3: ["camel", "hippo"], 4: []}


def in_play(seats: int) -> tuple[str, ...]:
    """The faces in play with the scenarios' species left out."""
    return faces_of([s for s in SPECIES if s not in LEFT_OUT[seats]])


def pile(seats: int, first: Sequence[str]) -> list[str]:
    """A pile order (top first) starting with ``first``, then the other tiles in board order."""
    rest = Counter(in_play(seats))
    rest.subtract(first)
    if any(count < 0 for count in rest.values()):
        raise ValueError(f"the rig uses tiles not in play or twice: {first}")
    return list(first) + [f for f in in_play(seats) if rest[f] > 0]


def settle(match: Match) -> None:
    """Let chance act until a seat must decide or the game is over."""
    while match.results() is None and not isinstance(match.step(), Decision):
        match.advance()


def start(
    drawn: Sequence[Sequence[str]], then: Sequence[str] = (), keep: Sequence[str] | None = None
) -> Match:
    """A match in which seat ``s`` draws ``drawn[s]`` and the pile goes on with ``then``; each seat
    keeps ``keep[s]`` (if given: the match then stands at the first turn of round 1)."""
    seats = len(drawn)
    order = pile(seats, [t for hand in drawn for t in hand] + list(then))
    config = GAME.configure(seats, options={"removed": LEFT_OUT[seats]} if LEFT_OUT[seats] else {})
    match = Match(GAME, config, RiggedResolver(piles={"tiles": order}))
    settle(match)
    for seat, tile in enumerate(keep or ()):
        match.act(seat, match.parse(seat, f"keep {tile}"))
        settle(match)
    return match


def seat_to_move(match: Match) -> int:
    """The seat that must decide now."""
    step = match.step()
    assert isinstance(step, Decision), f"no seat is to decide: {step}"
    return step.seat


def play(match: Match, text: str) -> None:
    """The seat to move takes the action with this text; then chance acts."""
    seat = seat_to_move(match)
    match.act(seat, match.parse(seat, text))
    settle(match)


def table(
    seats: int = 3,
    groups: Sequence[Sequence[str]] = (),
    arks: Sequence[Sequence[str]] = (),
    crates: Sequence[int] | None = None,
    turn: int = 0,
    out: Sequence[int] = (),
    start: int = 0,
    round: int = 2,
) -> tuple[State, list[dict[str, JSON]]]:
    """A position in round ``round`` with ``turn`` to move, and what each seat knows of its ark.

    ``groups`` are the centre's groups by face (``"hidden"`` is the face-down tile); ``arks`` the
    tiles on each ark, known to its owner only; seats in ``out`` have dropped out (one seat left:
    it is on its final turn, A18). Every listed
    tile gets a handle from the top of the pile, as if drawn.
    """
    config = GAME.configure(seats, options={"removed": LEFT_OUT[seats]} if LEFT_OUT[seats] else {})
    state = GAME.setup(config)
    handles = iter(f"tiles.{i}" for i in range(len(in_play(seats))))
    public: dict[str, str] = {}
    known: list[dict[str, JSON]] = [{} for _ in range(seats)]
    state["hidden"] = None
    state["groups"] = []
    for group in groups:
        listed = []
        for face in group:
            h = next(handles)
            if face == HIDDEN:
                state["hidden"] = h
            else:
                public[h] = face
            listed.append(h)
        state["groups"].append(listed)
    state["arks"] = [[] for _ in range(seats)]
    for seat, ark in enumerate(arks):
        for face in ark:
            h = next(handles)
            known[seat][h] = face
            state["arks"][seat].append(h)
    used = len(public) + sum(len(a) for a in state["arks"]) + (state["hidden"] is not None)
    crates = list(crates) if crates is not None else [1] * seats
    state.update(
        phase="play", public=public, top=used, crates=crates, supply=20 - sum(crates),
        out=[seat in out for seat in range(seats)], turn=turn, start=start,
        flag_taken=bool(out), round=round, final=seats - len(out) == 1, hands=[[] for _ in range(seats)],
    )
    return state, known


def texts(state: State, known: Mapping[str, JSON] | None = None) -> list[str]:
    """The texts of the legal actions of the seat to move."""
    seat = state["turn"]
    return [GAME.describe(state, a) for a in GAME.legal_actions(state, seat, known or {})]


def action(state: State, text: str, known: Mapping[str, JSON] | None = None) -> Action:
    """The legal action of the seat to move with this text."""
    seat = state["turn"]
    for candidate in GAME.legal_actions(state, seat, known or {}):
        if GAME.describe(state, candidate) == text:
            return candidate
    raise AssertionError(f"{text!r} is not legal; legal: {texts(state, known)[:12]}")


def act(state: State, *steps: str, known: Knowledge | None = None) -> State:
    """Apply the actions with these texts in turn."""
    for text in steps:
        state = GAME.apply(state, action(state, text, known))
    return state


def centre(state: State) -> list[list[str]]:
    """The centre's groups by face, as the board shows them."""
    return [[state["public"].get(h, HIDDEN) for h in group] for group in state["groups"]]


def snapshot(state: State) -> str:
    """The state as canonical text, to show that something left it unchanged."""
    return canonical(state)


def full_group(seats: int) -> int:
    """How many face-up tiles a round starts with (A8)."""
    return FACE_UP[seats]
