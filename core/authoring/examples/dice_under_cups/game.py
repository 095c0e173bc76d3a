"""Dice Under Cups: Liar's Dice (Perudo without wild ones), an example of dice only their owner sees.

The rules, as the tests cite them:

1. Every seat starts with 5 dice (2 in the "short" variant).
2. Each round, every seat that still has dice rolls them under its cup: only it sees them.
3. The round's starter bids first. A bid says "at least Q dice on the table show face F".
4. In turn, each seat either raises or calls "liar" on the bid before it. A raise bids more dice
   (any face), or as many dice of a higher face.
5. On "liar" every cup is lifted. If at least Q dice show F the bid holds and the caller loses a
   die; otherwise the bidder loses a die.
6. A seat without dice is out. The seat that lost the die starts the next round; if it is out, the
   next seat still in starts.
7. The last seat with dice wins (scores: the dice each seat has left).

Chance is asked for, never made: each cup is a private roll, ``Roll(n, 6, to=seat, cup=name)``,
whose outcome names the dice by handles; the owner learns their values through ``known``, and
lifting the cups is a ``Reveal`` of the handles. On a network table each die comes from the owner's
committed secret and a joint draw of every seat, so nobody can load a die or look under a cup.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeGuard

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
    Roll,
    State,
    Step,
    clone,
)

DICE = {"standard": 5, "short": 2}
SIDES = 6
COLOURS = ("red", "blue", "green", "yellow", "purple", "orange")
LIAR: Action = {"call": "liar"}


def cup_name(round_: int, seat: int) -> str:
    """The cup ``seat`` rolls under in round ``round_`` (its dice are ``"<cup>.<i>"``)."""
    return f"r{round_}s{seat}"


def is_count(value: object) -> bool:
    """Whether ``value`` is an integer (``True`` is not a count of dice)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _two_counts(value: object) -> TypeGuard[list[int]]:
    """Whether ``value`` is a bid's two integers."""
    return isinstance(value, list) and len(value) == 2 and all(map(is_count, value))


class DiceUnderCups(Game):
    """Liar's Dice: bid on the dice under everybody's cups, or call the last bid a lie."""

    info = GameInfo(
        name="dice_under_cups",
        title="Dice Under Cups",
        min_seats=2,
        max_seats=6,
        variants=("standard", "short"),
        summary="Liar's Dice: bid on all the dice under the cups, or call the last bid a lie",
    )

    # -- set-up ---------------------------------------------------------------------

    def setup(self, config: Config) -> State:
        return {
            "dice": [DICE[config.variant]] * config.seats,
            "total": DICE[config.variant] * config.seats,  # dice at the start: numbers the bids
            "round": 1,
            "starter": 0,
            "phase": "roll",  # roll -> bid -> lift -> roll ... (rule 2-5)
            "cups": [[] for _ in range(config.seats)],  # this round's dice handles, per seat
            "bid": None,  # [quantity, face, bidder]
            "turn": 0,
            "caller": None,
            "last": None,  # what the last lifted round showed, for the board
        }

    # -- rules ----------------------------------------------------------------------

    def next(self, state: State) -> Step:
        if state["phase"] == "over":
            return End(self._results(state))
        if state["phase"] == "roll":
            seat = self._next_to_roll(state)
            return Chance(Roll(state["dice"][seat], SIDES, to=seat, cup=cup_name(state["round"], seat)))
        if state["phase"] == "lift":
            return Chance(Reveal(tuple(h for cup in state["cups"] for h in cup)))
        return Decision(state["turn"])

    def legal_actions(self, state: State, seat: int, known: Knowledge) -> list[Action]:
        if state["phase"] != "bid" or seat != state["turn"]:
            return []
        actions: list[Action] = [{"bid": [q, f]} for q in range(1, sum(state["dice"]) + 1)
                                 for f in range(1, SIDES + 1) if self._raises(state, q, f)]
        if state["bid"] is not None:
            actions.append(dict(LIAR))
        return actions

    def apply(self, state: State, action: Action) -> State:
        # Check everything: on a network table this is the only check an action gets.
        if state["phase"] != "bid":
            raise IllegalAction("nobody may bid now: the dice are being rolled or lifted")
        new: State = clone(state)
        if action == LIAR:
            if state["bid"] is None:
                raise IllegalAction("rule 4: there is no bid to call a lie yet; open with a bid")
            new["phase"], new["caller"] = "lift", state["turn"]
            return new
        bid = action.get("bid")
        if set(action) != {"bid"} or not _two_counts(bid):
            raise IllegalAction(f"an action is {{'bid': [quantity, face]}} (two integers) or "
                                f"{{'call': 'liar'}}, not {action!r}")
        quantity, face = bid
        if not 1 <= face <= SIDES or not 1 <= quantity <= sum(state["dice"]):
            raise IllegalAction(f"rule 3: bid {quantity}x{face} is not a quantity of dice on the table "
                                "and a face of a die")
        if not self._raises(state, quantity, face):
            raise IllegalAction(f"rule 4: {quantity}x{face} does not raise the bid {self._bid_text(state)}")
        new["bid"] = [quantity, face, state["turn"]]
        new["turn"] = self._next_in(state, state["turn"])
        return new

    def resolve(self, state: State, request: Request, outcome: Mapping[str, JSON]) -> State:
        new: State = clone(state)
        if isinstance(request, Roll) and state["phase"] == "roll" and request.to is not None:
            new["cups"][request.to] = list(outcome["handles"])
            if all(new["cups"][s] for s in self._in(new)):
                new["phase"], new["turn"] = "bid", new["starter"]
            return new
        if isinstance(request, Reveal) and state["phase"] == "lift":
            return self._lifted(new, outcome["faces"])
        raise IllegalAction(f"no such chance was asked for: {request.to_json()}")

    def _lifted(self, new: State, faces: Mapping[str, JSON]) -> State:
        quantity, face, bidder = new["bid"]
        shown = sum(1 for value in faces.values() if value == face)
        loser = new["caller"] if shown >= quantity else bidder  # rule 5
        new["dice"][loser] -= 1
        new["last"] = {"bid": [quantity, face], "bidder": bidder, "caller": new["caller"], "shown": shown,
                       "loser": loser,
                       "cups": [[faces[h] for h in cup] for cup in new["cups"]]}
        new["bid"], new["caller"] = None, None
        new["cups"] = [[] for _ in new["cups"]]
        if len(self._in(new)) == 1:  # rule 7
            new["phase"] = "over"
            return new
        new["round"] += 1
        new["starter"] = loser if new["dice"][loser] else self._next_in(new, loser)  # rule 6
        new["phase"] = "roll"
        return new

    def _in(self, state: State) -> list[int]:
        return [seat for seat, count in enumerate(state["dice"]) if count]

    def _next_in(self, state: State, seat: int) -> int:
        seats = len(state["dice"])
        return next(s % seats for s in range(seat + 1, seat + seats + 1) if state["dice"][s % seats])

    def _next_to_roll(self, state: State) -> int:
        return next(s for s in self._in(state) if not state["cups"][s])

    def _raises(self, state: State, quantity: int, face: int) -> bool:
        if state["bid"] is None:
            return True
        q, f, _ = state["bid"]
        return bool(quantity > q or (quantity == q and face > f))

    def _bid_text(self, state: State) -> str:
        return "(none yet)" if state["bid"] is None else f"{state['bid'][0]}x{state['bid'][1]}"

    def _results(self, state: State) -> Results:
        return Results(tuple(state["dice"]), tuple(self._in(state)))

    # -- for adapters: bounds and stable action ids -------------------------------------

    def action_bound(self, config: Config) -> int:
        return self.action_id_count(config)

    def length_bound(self, config: Config) -> int | None:
        # a round of d dice on the table takes at most 6d raises and a call; d falls by one a round
        start = DICE[config.variant] * config.seats
        return sum(SIDES * d + 1 for d in range(2, start + 1))

    def chance_bound(self, config: Config) -> int | None:
        return SIDES

    def action_id_count(self, config: Config) -> int:
        return SIDES * DICE[config.variant] * config.seats + 1

    def action_id(self, state: State, action: Action) -> int:
        if action == LIAR:
            return int(SIDES * state["total"])  # after every bid
        quantity, face = action["bid"]
        return int((quantity - 1) * SIDES + face - 1)

    # -- what a seat sees -------------------------------------------------------------

    def view(self, state: State, seat: int | None, known: Knowledge) -> dict[str, JSON]:
        # Public: the counts of dice, the bid, the last lifted round. Private: the seat's own dice,
        # taken from ``known`` (the engine's record of what this seat was shown), never from the state.
        mine = [] if seat is None else [known[h] for h in state["cups"][seat] if h in known]
        return {
            "seat": seat,
            "dice": list(state["dice"]),
            "round": state["round"],
            "phase": state["phase"],
            "bid": clone(state["bid"]),
            "turn": state["turn"],
            "last": clone(state["last"]),
            "mine": mine,
        }

    def render(self, view: Mapping[str, JSON]) -> Fragments:
        out: Fragments = [("bold", f"Dice Under Cups, round {view['round']}\n")]
        bid = view["bid"]
        for seat, count in enumerate(view["dice"]):
            style = f"fg:ansi{COLOURS[seat]}" + (" bold" if seat == view["turn"] else "")
            you = " (you)" if seat == view["seat"] else ""
            out.append((style, f"  {COLOURS[seat]:<7} {'#' * count:<5} {count} dice{you}\n"))
        if view["mine"]:
            out.append(("bold", f"  under your cup: {' '.join(str(d) for d in view['mine'])}\n"))
        if bid is not None:
            out.append(("", f"  bid: {bid[0]} dice showing {bid[1]}, by {COLOURS[bid[2]]}\n"))
        last = view["last"]
        if last is not None:
            out.append(("", f"  last round: {last['shown']} showed {last['bid'][1]} against a bid of "
                            f"{last['bid'][0]}; {COLOURS[last['loser']]} lost a die\n"))
        return out

    def describe(self, state: State, action: Action) -> str:
        if action == LIAR:
            return "liar"
        quantity, face = action["bid"]
        return f"bid {quantity}x{face}"

    def describe_log(self, state: State, seat: int, action: Action) -> str:
        if action == LIAR:
            return f"{COLOURS[seat]} calls {self._bid_text(state)} a lie; the cups are lifted"
        quantity, face = action["bid"]
        return f"{COLOURS[seat]} bids {quantity} dice showing {face}"

    def describe_chance(self, state: State, request: Request, outcome: Mapping[str, JSON]) -> str | None:
        if isinstance(request, Roll) and request.to is not None:
            return f"{COLOURS[request.to]} rolls {request.count} dice under the cup"
        if isinstance(request, Reveal) and state["bid"] is not None:
            quantity, face, _ = state["bid"]
            shown = sum(1 for value in outcome["faces"].values() if value == face)
            return f"the cups are lifted: {shown} dice show {face}, against a bid of {quantity}"
        return None

    def describe_chance_to(
        self, state: State, request: Request, outcome: Mapping[str, JSON], seat: int, known: Knowledge
    ) -> str | None:
        if isinstance(request, Roll) and request.to == seat:  # only the owner reads its own dice
            dice = " ".join(str(known[h]) for h in outcome["handles"] if h in known)
            return f"you roll {dice} under your cup"
        return None

    def seat_names(self, config: Config) -> Sequence[str]:
        return COLOURS[: config.seats]

    def rules_summary(self, config: Config) -> str:
        return ("Everyone rolls their dice under a cup and sees only their own. Bid 'at least Q dice on "
                "the table show F' (bid QxF), raising the last bid, or call it a lie (liar). On a call "
                "the cups are lifted: if the bid holds the caller loses a die, otherwise the bidder does. "
                "The last seat with dice wins.")
