"""Two tiny games made to test bots: one of pure look-ahead, one where peeking would pay.

Race to ten: a public count starts at ``options["start"]`` (default 0); the seats
take turns adding 1 or 2; whoever makes the count exactly 10 wins.

Guess the card: three cards 1, 2 and 3 are shuffled; seat 0 and seat 1 get one
each, face down; seat 0 names the face of seat 1's card; seat 1's card is then
shown, and seat 0 wins if it named it, else seat 1 wins.
"""

from __future__ import annotations

from collections.abc import Mapping

from atoll import (
    JSON,
    Action,
    Chance,
    Config,
    Deal,
    Decision,
    End,
    Fragments,
    Game,
    GameInfo,
    IllegalAction,
    Knowledge,
    Request,
    Results,
    Reveal,
    Shuffle,
    State,
    Step,
    clone,
)

TARGET = 10
CARDS = (1, 2, 3)


class RaceToTen(Game):
    """Race to ten: add 1 or 2; making exactly ten wins."""

    info = GameInfo("race", "Race to Ten", 2, 2)

    def setup(self, config: Config) -> State:
        return {"count": int(config.options.get("start", 0)), "turn": 0, "winner": None}

    def next(self, state: State) -> Step:
        winner = state["winner"]
        if winner is None:
            return Decision(state["turn"])
        return End(Results(tuple(int(seat == winner) for seat in range(2)), (winner,)))

    def legal_actions(self, state: State, seat: int, known: Knowledge) -> list[Action]:
        if state["winner"] is not None or seat != state["turn"]:
            return []
        return [{"add": n} for n in (1, 2) if state["count"] + n <= TARGET]

    def apply(self, state: State, action: Action) -> State:
        if action not in self.legal_actions(state, state["turn"], {}):
            raise IllegalAction(f"cannot {action!r} with the count at {state['count']}")
        count = state["count"] + action["add"]
        winner = state["turn"] if count == TARGET else None
        return {"count": count, "turn": 1 - state["turn"], "winner": winner}

    def resolve(self, state: State, request: Request, outcome: Mapping[str, JSON]) -> State:
        raise IllegalAction("race to ten has no chance")

    def view(self, state: State, seat: int | None, known: Knowledge) -> dict[str, JSON]:
        return dict(state)

    def render(self, view: Mapping[str, JSON]) -> Fragments:
        return [("", f"count {view['count']}\n")]

    def describe(self, state: State, action: Action) -> str:
        return f"add {action['add']}"


class GuessTheCard(Game):
    """Guess the card: seat 0 names seat 1's hidden card."""

    info = GameInfo("guess", "Guess the Card", 2, 2)

    def setup(self, config: Config) -> State:
        return {"phase": "shuffle", "hands": [], "guess": None, "shown": None}

    def next(self, state: State) -> Step:
        phase = state["phase"]
        if phase == "shuffle":
            return Chance(Shuffle("deck", CARDS))
        if phase == "deal":
            return Chance(Deal(((0, (state["hands"][0],)), (1, (state["hands"][1],)))))
        if phase == "guess":
            return Decision(0)
        if phase == "show":
            return Chance(Reveal((state["hands"][1],)))
        winner = 0 if state["guess"] == state["shown"] else 1
        return End(Results(tuple(int(seat == winner) for seat in range(2)), (winner,)))

    def legal_actions(self, state: State, seat: int, known: Knowledge) -> list[Action]:
        if state["phase"] != "guess" or seat != 0:
            return []
        return [{"guess": face} for face in CARDS]

    def apply(self, state: State, action: Action) -> State:
        if state["phase"] != "guess" or action.get("guess") not in CARDS:
            raise IllegalAction(f"cannot {action!r} now")
        new = clone(state)
        new["guess"], new["phase"] = action["guess"], "show"
        return new

    def resolve(self, state: State, request: Request, outcome: Mapping[str, JSON]) -> State:
        new = clone(state)
        if isinstance(request, Shuffle):
            new["hands"], new["phase"] = list(outcome["handles"][:2]), "deal"
        elif isinstance(request, Deal):
            new["phase"] = "guess"
        elif isinstance(request, Reveal):
            new["shown"], new["phase"] = outcome["faces"][state["hands"][1]], "over"
        return new

    def view(self, state: State, seat: int | None, known: Knowledge) -> dict[str, JSON]:
        return {**state, "known": dict(known)}

    def render(self, view: Mapping[str, JSON]) -> Fragments:
        return [("", f"{view}\n")]

    def describe(self, state: State, action: Action) -> str:
        return f"guess {action['guess']}"
