"""Measuring the action cards with bot games: what each card is worth keeping, and how often it is played.

    python -m atoll.plugins.kiribati.balance --variant family --games 300 [--seed 0] [--json]

Every seat is a Kiribati bot that keeps a random set of four cards (a different draw for each
seat and game), so each card is kept by about two seats in three. For each card the tally says
how often a seat that kept it won, against a seat that did not (a shared win counts as a
share), how often a seat that kept it played it (on its turn or as an answer), and how often a
seat that played it won. A card worth keeping raises the first figure over the second. The
seats sit in a fixed order; every seat draws its cards the same way, so the seat advantage
falls equally on every card. The numbers guided the card texts of K30-K35 (see the rules page).
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from atoll import End
from atoll.engine import LocalResolver, Match, run
from atoll.plugins.kiribati.bot import KiribatiBot
from atoll.plugins.kiribati.game import Kiribati
from atoll.plugins.kiribati.meta import CARDS, KEPT_CARDS
from atoll.sim import CHANCE, derive_seed


@dataclass
class CardTally:
    """What happened to one card over the games: seats that kept it, won, played it."""

    kept: int = 0
    kept_won: float = 0.0
    not_kept: int = 0
    not_kept_won: float = 0.0
    played: int = 0
    played_won: float = 0.0

    def figures(self) -> dict[str, float | int]:
        """The tally as rates (wins as a share of the games, in percent)."""
        return {
            "kept": self.kept,
            "win_kept": _percent(self.kept_won, self.kept),
            "win_not_kept": _percent(self.not_kept_won, self.not_kept),
            "played_when_kept": _percent(self.played, self.kept),
            "win_played": _percent(self.played_won, self.played),
        }


@dataclass
class Balance:
    """The tally of a run: one :class:`CardTally` per card."""

    variant: str
    seats: int
    games: int
    seed: int
    cards: dict[str, CardTally] = field(default_factory=lambda: {c: CardTally() for c in CARDS})

    def to_json(self) -> dict[str, object]:
        """The figures as one JSON object."""
        return {"variant": self.variant, "seats": self.seats, "games": self.games, "seed": self.seed,
                "cards": {card: tally.figures() for card, tally in self.cards.items()}}


def _percent(part: float, whole: int) -> float:
    return round(100.0 * part / whole, 1) if whole else 0.0


def measure(variant: str, seats: int, games: int, seed: int = 0) -> Balance:
    """Play ``games`` games of Kiribati bots that keep random cards, and tally every card."""
    game = Kiribati()
    config = game.configure(seats, variant)
    tally = Balance(variant, seats, games, seed)
    for index in range(games):
        keeps = [sorted(random.Random(derive_seed(seed, index, f"keep{s}")).sample(CARDS, KEPT_CARDS),
                        key=CARDS.index) for s in range(seats)]
        bots = [KiribatiBot(derive_seed(seed, index, s), keep=keeps[s]) for s in range(seats)]
        match = Match(game, config, LocalResolver(derive_seed(seed, index, CHANCE)))
        end = run(match, bots)
        assert isinstance(end, End)
        winners = end.results.winners
        for s in range(seats):
            share = 1.0 / len(winners) if s in winners else 0.0
            played = set(match.state["played"][s])
            for card in CARDS:
                entry = tally.cards[card]
                if card in keeps[s]:
                    entry.kept += 1
                    entry.kept_won += share
                    if card in played:
                        entry.played += 1
                        entry.played_won += share
                else:
                    entry.not_kept += 1
                    entry.not_kept_won += share
    return tally


def main(argv: Sequence[str] | None = None) -> None:
    """The command line: measure one variant and print the table (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--variant", default="family", choices=("family", "professional"))
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = measure(args.variant, args.seats, args.games, args.seed)
    if args.json:
        print(json.dumps(result.to_json()))
        return
    print(f"{args.games} games, {args.variant}, {args.seats} seats, seed {args.seed} (wins in % of games)")
    print(f"{'card':10} {'kept':>5} {'win kept':>9} {'win not':>8} {'played':>7} {'win played':>11}")
    for card, entry in result.cards.items():
        f = entry.figures()
        print(f"{card:10} {f['kept']:>5} {f['win_kept']:>9} {f['win_not_kept']:>8} "
              f"{f['played_when_kept']:>7} {f['win_played']:>11}")


if __name__ == "__main__":
    main()
