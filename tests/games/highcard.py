"""High card: a tiny game that uses every kind of chance request and a sealed decision.

Each seat is dealt two cards from a shuffled deck of 1-8 (two of each), secretly
bets "high" or "low", then plays one card face up. A die is rolled; every bet
is opened; a seat scores its card, plus the die when its bet matches the die
(high: 4-6, low: 1-3). The highest score wins.
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
    Roll,
    Shuffle,
    State,
    Step,
    clone,
    hookimpl,
)

FACES = tuple(n for n in range(1, 9) for _ in range(2))


class HighCard(Game):
    """The high-card test game."""

    info = GameInfo("highcard", "High Card", 2, 4, ("standard", "quick"))

    def setup(self, config: Config) -> State:
        n = config.seats
        return {"phase": "shuffle", "seats": n, "turn": 0, "deck": [], "hands": [[] for _ in range(n)],
                "bets": [[] for _ in range(n)], "played": [None] * n, "die": None, "open": {}}

    def next(self, state: State) -> Step:
        phase = state["phase"]
        if phase == "shuffle":
            return Chance(Shuffle("deck", FACES))
        if phase == "deal":
            deck = state["deck"]
            return Chance(Deal(tuple((s, tuple(deck[2 * s: 2 * s + 2])) for s in range(state["seats"]))))
        if phase in ("bet", "play"):
            return Decision(state["turn"], secret=phase == "bet")
        if phase == "roll":
            return Chance(Roll(1, 6))
        if phase == "open":
            return Chance(Reveal(tuple(h for bet in state["bets"] for h in bet)))
        return End(self._results(state))

    def _results(self, state: State) -> Results:
        die = state["die"]
        scores = []
        for seat in range(state["seats"]):
            card = state["played"][seat][1]
            bet = state["open"][state["bets"][seat][0]]
            scores.append(card + (die if (bet == "high") == (die >= 4) else 0))
        best = max(scores)
        return Results(tuple(scores), tuple(s for s, v in enumerate(scores) if v == best))

    def legal_actions(self, state: State, seat: int, known: Knowledge) -> list[Action]:
        if state["phase"] == "bet" and seat == state["turn"]:
            return [{"secret": ["high"]}, {"secret": ["low"]}]
        if state["phase"] == "play" and seat == state["turn"]:
            return [{"play": h, "reveal": {h: known[h]}} for h in state["hands"][seat] if h in known]
        return []

    def apply(self, state: State, action: Action) -> State:
        seat, phase = state["turn"], state["phase"]
        new = clone(state)
        if phase == "bet":
            sealed = action.get("sealed")
            if not isinstance(sealed, list) or len(sealed) != 1:
                raise IllegalAction(f"a bet seals exactly one value, not {action!r}")
            new["bets"][seat] = sealed
        elif phase == "play":
            handle = action.get("play")
            face = action.get("reveal", {}).get(handle)
            if handle not in state["hands"][seat] or face not in FACES:
                raise IllegalAction(f"seat {seat} cannot play {handle!r}: not in its hand")
            new["played"][seat] = [handle, face]
            new["hands"][seat].remove(handle)
        else:
            raise IllegalAction(f"no seat may act in phase {phase!r}")
        new["turn"] = (seat + 1) % state["seats"]
        if new["turn"] == 0:
            new["phase"] = "play" if phase == "bet" else "roll"
        return new

    def resolve(self, state: State, request: Request, outcome: Mapping[str, JSON]) -> State:
        new = clone(state)
        if isinstance(request, Shuffle):
            new["deck"], new["phase"] = list(outcome["handles"]), "deal"
        elif isinstance(request, Deal):
            for seat, handles in request.to:
                new["hands"][seat] = list(handles)
            new["phase"] = "bet"
        elif isinstance(request, Roll):
            new["die"], new["phase"] = outcome["values"][0], "open"
        elif isinstance(request, Reveal):
            new["open"], new["phase"] = dict(outcome["faces"]), "over"
        return new

    def view(self, state: State, seat: int | None, known: Knowledge) -> dict[str, JSON]:
        hand = [[h, known.get(h)] for h in state["hands"][seat]] if seat is not None else []
        return {"seat": seat, "hand": hand, "played": state["played"], "die": state["die"],
                "phase": state["phase"]}

    def render(self, view: Mapping[str, JSON]) -> Fragments:
        return [("bold", f"phase {view['phase']}"), ("", f" hand {view['hand']}\n")]

    def describe(self, state: State, action: Action) -> str:
        if "secret" in action:
            return f"bet {action['secret'][0]}"
        return f"play {action['reveal'][action['play']]} ({action['play']})"


@hookimpl
def atoll_games() -> list[Game]:
    """Contribute High Card."""
    return [HighCard()]
