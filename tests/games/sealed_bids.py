"""Sealed Bids: a bidding game in the manner of Raj ("Hols der Geier"), an example of a simultaneous
decision.

The rules, as the tests cite them:

1. A face-down deck of vulture cards worth -5 to -1 and 1 to 10 (the "short" variant: -2, -1, 1, 2, 3)
   is shuffled. Every seat holds one bid card of each value from 1 to the number of vulture cards.
2. Each round the top vulture card is turned face up and added to the pot.
3. Every seat picks one of its bid cards in secret, all at the same time; then all bids are shown at
   once. A bid card played is gone.
4. Equal bids cancel each other. If the pot's total is negative, the lowest bid left takes the pot;
   otherwise the highest bid left takes it. A seat scores the cards it takes.
5. If every bid cancelled, the pot stays and the next card joins it (after the last card it is lost).
6. After the last card the highest score wins; equal scores share the win.

Rule 3 is one simultaneous decision: ``next`` returns ``Decision.at_once(seats)``, every seat seals its
bid in any order, and ``apply`` receives ``{"seat": s, "sealed": [handle]}`` for each seat once all have
chosen; a ``Reveal`` of the handles then shows the bids at once. On a network table every seat commits
to its bid as soon as it picks it, and nobody sees a bid before every seat has committed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

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
    Guide,
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

#: The vulture cards of each variant (rule 1).
CARDS: dict[str, tuple[int, ...]] = {
    "standard": (-5, -4, -3, -2, -1, *range(1, 11)),
    "short": (-2, -1, 1, 2, 3),
}
COLOURS = ("red", "blue", "green", "yellow", "purple")
PILE = "vultures"


def taker(pot: Sequence[int], bids: Sequence[int]) -> int | None:
    """The seat that takes ``pot`` when the seats bid ``bids`` (rules 4 and 5): ``None`` if all cancel."""
    single = [value for value in bids if bids.count(value) == 1]
    if not single:
        return None
    wanted = min(single) if sum(pot) < 0 else max(single)
    return bids.index(wanted)


class SealedBidsGuide(Guide):
    """The game's words for its players."""

    def rules_summary(self, config: Config) -> str:
        """Enough to play a first game."""
        return (
            "Each round a vulture card is turned face up and joins the pot. Every player picks one of "
            "their bid cards in secret, all at once; then every bid is shown.\n\n"
            "Equal bids cancel. The highest bid left takes a pot worth 0 or more; the lowest bid left "
            "takes a negative pot. If every bid cancels, the pot waits for the next card.\n\n"
            "A bid card played is gone. After the last card the highest score wins."
        )

    def glossary(self, config: Config) -> Sequence[tuple[str, str]]:
        """What a bid is."""
        return [("bid", "play one of your bid cards, hidden until every player has bid")]

    def decision_prompt(self, state: State, seat: int) -> str | None:
        """What the seat decides, with the pot in view."""
        return f"bid for a pot of {sum(state['pot']):+d}"


class SealedBids(Game):
    """Sealed Bids (see the module docstring for the rules)."""

    info = GameInfo(
        name="sealed_bids",
        title="Sealed Bids",
        min_seats=2,
        max_seats=5,
        variants=("standard", "short"),
        summary="every player bids at once for a pot of vulture cards (Raj)",
    )
    guide = SealedBidsGuide()

    # -- rules ----------------------------------------------------------------------

    def setup(self, config: Config) -> State:
        """Rule 1: the deck is still to be shuffled; every seat holds bids 1 to the number of cards."""
        cards = CARDS[config.variant]
        return {
            "cards": list(cards), "deck": [], "turned": 0, "phase": "shuffle", "pot": [],
            "hands": [list(range(1, len(cards) + 1)) for _ in range(config.seats)],
            "bids": [None] * config.seats, "scores": [0] * config.seats, "last": None,
        }

    def next(self, state: State) -> Step:
        """Shuffle, turn a card (rule 2), bid at once (rule 3), show the bids, or the end (rule 6)."""
        phase = state["phase"]
        if phase == "shuffle":
            return Chance(Shuffle(PILE, tuple(state["cards"])))
        if phase == "turn":
            return Chance(Reveal((state["deck"][state["turned"]],)))
        if phase == "bid":
            return Decision.at_once([s for s, bid in enumerate(state["bids"]) if bid is None])
        if phase == "show":
            return Chance(Reveal(tuple(state["bids"])))
        return End(self._results(state))

    def legal_actions(self, state: State, seat: int, known: Knowledge) -> list[Action]:
        """Rule 3: one bid card the seat still holds, sealed."""
        if state["phase"] != "bid" or not 0 <= seat < len(state["bids"]) or state["bids"][seat] is not None:
            return []
        return [{"secret": [value]} for value in state["hands"][seat]]

    def apply(self, state: State, action: Action) -> State:
        """Record one seat's sealed bid; once every seat has bid, the bids are to be shown."""
        seat, sealed = action.get("seat"), action.get("sealed")
        if state["phase"] != "bid" or set(action) != {"seat", "sealed"}:
            raise IllegalAction(f"{action!r} is no sealed bid, or nobody bids now")
        if type(seat) is not int or not 0 <= seat < len(state["bids"]) or state["bids"][seat] is not None:
            raise IllegalAction(f"seat {seat!r} is not to bid now")
        if not isinstance(sealed, list) or len(sealed) != 1 or not isinstance(sealed[0], str):
            raise IllegalAction(f"a bid is one sealed card, not {sealed!r}")
        new = clone(state)
        new["bids"][seat] = sealed[0]
        if all(bid is not None for bid in new["bids"]):
            new["phase"] = "show"
        return new

    def resolve(self, state: State, request: Request, outcome: Mapping[str, JSON]) -> State:
        """The shuffled deck, a card turned (rule 2), or the bids shown and the pot taken (rules 4-5)."""
        new = clone(state)
        if isinstance(request, Shuffle):
            new["deck"], new["phase"] = list(outcome["handles"]), "turn"
            return new
        faces = outcome["faces"]
        if state["phase"] == "turn":
            new["pot"].append(faces[state["deck"][state["turned"]]])
            new["turned"] += 1
            new["phase"] = "bid"
            return new
        bids = [faces[handle] for handle in state["bids"]]
        for seat, value in enumerate(bids):
            if value not in state["hands"][seat]:
                raise IllegalAction(f"seat {seat} bid {value!r}, which it does not hold")
            new["hands"][seat].remove(value)
        won = taker(state["pot"], bids)
        if won is not None:
            new["scores"][won] += sum(state["pot"])
            new["pot"] = []
        new["last"] = {"bids": bids, "pot": list(state["pot"]), "taker": won}
        new["bids"] = [None] * len(bids)
        done = new["turned"] == len(new["deck"])
        new["phase"] = "over" if done else "turn"
        if done:
            new["pot"] = []  # rule 5: a pot left after the last card is lost
        return new

    def _results(self, state: State) -> Results:
        scores = tuple(state["scores"])
        best = max(scores)
        return Results(scores, tuple(s for s, score in enumerate(scores) if score == best))

    # -- bounds for adapters (OpenSpiel) ----------------------------------------------

    def length_bound(self, config: Config) -> int | None:
        """One bid per seat per card."""
        return len(CARDS[config.variant]) * config.seats

    def chance_bound(self, config: Config) -> int | None:
        """The distinct vulture cards."""
        return len(CARDS[config.variant])

    def action_id_count(self, config: Config) -> int:
        """Bid ``v`` is id ``v - 1``."""
        return len(CARDS[config.variant])

    def action_id(self, state: State, action: Action) -> int:
        """Bid ``v`` is id ``v - 1``, in every state."""
        value: int = action["secret"][0]
        return value - 1

    # -- what a seat sees -------------------------------------------------------------

    def view(self, state: State, seat: int | None, known: Knowledge) -> dict[str, JSON]:
        """The public state, and the seat's own sealed bid once the round's bids are all in."""
        mine = None if seat is None else state["bids"][seat]
        return {
            "seat": seat, "pot": state["pot"], "left": len(state["deck"]) - state["turned"],
            "hands": state["hands"], "scores": state["scores"], "last": state["last"],
            "bidding": [bid is not None for bid in state["bids"]],
            "my_bid": None if mine is None else known.get(mine),
            "names": [COLOURS[s] for s in range(len(state["scores"]))],
        }

    def render(self, view: Mapping[str, JSON]) -> Fragments:
        """The pot, the cards left, then a line per seat: score, bid cards left, bid."""
        pot: list[int] = view["pot"]
        out: Fragments = [("bold", f"pot {' '.join(f'{v:+d}' for v in pot) or '-'}"),
                          ("", f"  ({sum(pot):+d})   {view['left']} vulture cards face down\n")]
        last = view["last"]
        for seat, name in enumerate(view["names"]):
            bid = "sealed" if view["bidding"][seat] else ""
            if seat == view["seat"] and view["my_bid"] is not None:
                bid = f"sealed {view['my_bid']}"
            shown = f"last {last['bids'][seat]}" if last else ""
            hand = " ".join(str(v) for v in view["hands"][seat])
            out.append((f"fg:ansi{name}", f"{seat + 1} {name:<6}"))
            out.append(("", f" {view['scores'][seat]:+3d}  {shown:<7} {bid:<9} {hand}\n"))
        return out

    def describe(self, state: State, action: Action) -> str:
        """``bid 7``."""
        return f"bid {action['secret'][0]}"

    def describe_chance(self, state: State, request: Request, outcome: Mapping[str, JSON]) -> str | None:
        """The card turned, or the bids shown and who took the pot."""
        if isinstance(request, Shuffle):
            return "the vulture cards are shuffled"
        faces = outcome["faces"]
        if state["phase"] == "turn":
            return f"vulture card {faces[state['deck'][state['turned']]]:+d} is turned"
        bids = [faces[handle] for handle in state["bids"]]
        won = taker(state["pot"], bids)
        shown = ", ".join(f"{COLOURS[s]} {v}" for s, v in enumerate(bids))
        return f"bids {shown}: " + ("all cancel" if won is None else f"{COLOURS[won]} takes the pot")

    def seat_names(self, config: Config) -> Sequence[str]:
        """Colours."""
        return COLOURS[: config.seats]


@hookimpl
def atoll_games() -> list[Game]:
    """Contribute Sealed Bids (for the tests that install it as a plugin)."""
    return [SealedBids()]
