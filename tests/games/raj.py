"""Raj (Hols der Geier), small: the plugin guide's worked example of secret decisions.

Fifteen prize cards (-5 to -1 and 1 to 10) are shuffled face down. Each round one prize is turned up
and every seat secretly bids one of its bid cards (1 to 15, each used once); then all bids are opened
together. The highest bid no other seat matched takes a positive prize, the lowest such bid a negative
one; when every bid is matched, the prize goes to the next round's taker with the next prize. The
most points win.
"""

from __future__ import annotations

from collections.abc import Mapping

from atoll import (
    JSON,
    Action,
    Chance,
    Config,
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
    hookimpl,
)

PRIZES = (-5, -4, -3, -2, -1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
BIDS = tuple(range(1, 16))
COLOURS = ("red", "blue", "green", "yellow", "purple")


class Raj(Game):
    """Raj with sealed bids taken in seat order (each bid is secret until all are opened)."""

    info = GameInfo("raj", "Raj", 2, 5)

    def setup(self, config: Config) -> State:
        n = config.seats
        return {"phase": "shuffle", "pile": [], "prize": [], "turn": 0, "bids": [None] * n,
                "hands": [list(BIDS) for _ in range(n)], "points": [0] * n, "last": None}

    def next(self, state: State) -> Step:
        phase = state["phase"]
        if phase == "shuffle":
            return Chance(Shuffle("prizes", PRIZES))
        if phase == "turn":                          # the next prize card is turned up
            return Chance(Reveal((state["pile"][0],)))
        if phase == "bid":                           # each seat seals one bid card
            return Decision(state["turn"], secret=True)
        if phase == "open":                          # every bid at once
            return Chance(Reveal(tuple(state["bids"])))
        points = state["points"]
        return End(Results(tuple(points), tuple(s for s, p in enumerate(points) if p == max(points))))

    def legal_actions(self, state: State, seat: int, known: Knowledge) -> list[Action]:
        if state["phase"] != "bid" or seat != state["turn"]:
            return []
        return [{"secret": [card]} for card in state["hands"][seat]]   # the hands are public

    def apply(self, state: State, action: Action) -> State:
        sealed = action.get("sealed")
        if state["phase"] != "bid" or not isinstance(sealed, list) or len(sealed) != 1:
            raise IllegalAction(f"a bid seals one card, in the bidding: not {action!r}")
        new: State = clone(state)
        new["bids"][state["turn"]] = sealed[0]       # a handle: its card is the bidder's secret
        new["turn"] = (state["turn"] + 1) % len(state["hands"])
        if new["turn"] == 0:
            new["phase"] = "open"
        return new

    def resolve(self, state: State, request: Request, outcome: Mapping[str, JSON]) -> State:
        new: State = clone(state)
        if isinstance(request, Shuffle):
            new["pile"], new["phase"] = list(outcome["handles"]), "turn"
        elif state["phase"] == "turn":
            handle = state["pile"][0]
            new["pile"] = state["pile"][1:]
            new["prize"].append(outcome["faces"][handle])
            new["phase"] = "bid"
        else:
            bids = [outcome["faces"][handle] for handle in state["bids"]]
            taker = _taker(bids, sum(new["prize"]))
            for seat, card in enumerate(bids):
                new["hands"][seat].remove(card)
            if taker is not None:
                new["points"][taker] += sum(new["prize"])
                new["prize"] = []
            new["last"] = {"bids": bids, "taker": taker}
            new["bids"] = [None] * len(bids)
            new["phase"] = "turn" if new["pile"] else "over"
        return new

    def view(self, state: State, seat: int | None, known: Knowledge) -> dict[str, JSON]:
        mine = state["bids"][seat] if seat is not None else None
        return {**clone(state), "seat": seat, "my_bid": known.get(mine) if mine is not None else None}

    def render(self, view: State) -> Fragments:
        prize = " + ".join(str(p) for p in view["prize"]) or "-"
        out: Fragments = [("bold", f"Raj: prize {prize}\n")]
        for seat, points in enumerate(view["points"]):
            left = len(view["hands"][seat])
            out.append(("", f"  {COLOURS[seat]:<7} {points:>3} points, {left} bid cards left\n"))
        if view["my_bid"] is not None:
            out.append(("", f"  your bid: {view['my_bid']}\n"))
        return out

    def describe(self, state: State, action: Action) -> str:
        return f"bid {action['secret'][0]}"          # the chooser alone reads it

    def action_id_count(self, config: Config) -> int:
        return len(BIDS)

    def action_id(self, state: State, action: Action) -> int:
        return int(action["secret"][0]) - 1          # bid 13 is always id 12

    def seat_names(self, config: Config) -> list[str]:
        return list(COLOURS[: config.seats])

    def describe_chance_after(
        self, state: State, request: Request, outcome: Mapping[str, JSON], after: State
    ) -> str | None:
        if state["phase"] == "turn":
            return f"the prize is {outcome['faces'][state['pile'][0]]}"
        if state["phase"] != "open":
            return None
        last = after["last"]                         # the rules decided it once, in resolve
        bids = ", ".join(f"{COLOURS[s]} {card}" for s, card in enumerate(last["bids"]))
        if last["taker"] is None:
            return f"bids {bids}: all matched, the prize stays"
        return f"bids {bids}: {COLOURS[last['taker']]} takes {sum(state['prize'])}"


def _taker(bids: list[int], prize: int) -> int | None:
    """The seat whose unmatched bid is highest (a positive prize) or lowest (a negative one)."""
    unmatched = [card for card in bids if bids.count(card) == 1]
    if not unmatched:
        return None
    return bids.index(max(unmatched) if prize > 0 else min(unmatched))


@hookimpl
def atoll_games() -> list[Game]:
    """Contribute Raj."""
    return [Raj()]
