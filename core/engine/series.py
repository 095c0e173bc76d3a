"""A match of several games: the same game played a number of times at one table, each seat's
scores added up game by game (Kariba's rulebook: "play three games and add the scores").

Any game can be played so; the series knows nothing of the game but its results. The seat with the
highest total wins the match, and seats with equal highest totals share it (decision 0012).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from atoll.types import Results


@dataclass(frozen=True)
class Series:
    """``games`` games in a row, and the results of those played so far, in order."""

    games: int
    played: tuple[Results, ...] = ()

    def __post_init__(self) -> None:
        if self.games < 1:
            raise ValueError(f"a match is at least one game, not {self.games}")
        if len({len(r.scores) for r in self.played}) > 1:
            raise ValueError("the games of a match are played by the same seats")

    def add(self, results: Results) -> Series:
        """The series after one more game ended with ``results``."""
        if self.over:
            raise ValueError(f"the match of {self.games} games is over")
        return Series(self.games, (*self.played, results))

    @property
    def over(self) -> bool:
        """Whether every game of the match has been played."""
        return len(self.played) >= self.games

    def totals(self) -> tuple[int, ...]:
        """Each seat's scores added up over the games played (empty before the first ends)."""
        if not self.played:
            return ()
        return tuple(sum(scores) for scores in zip(*(r.scores for r in self.played), strict=True))

    def leaders(self) -> tuple[int, ...]:
        """The seats with the highest total: the match's winners once it is over."""
        totals = self.totals()
        return tuple(s for s, total in enumerate(totals) if total == max(totals)) if totals else ()

    def summary(self, names: Sequence[str]) -> list[str]:
        """Lines for a result screen: where the match stands, every seat's total and each game's scores."""
        if not self.played:
            return [f"match of {self.games} games: none played yet"]
        totals = ", ".join(f"{names[s]} {total}" for s, total in enumerate(self.totals()))
        leaders = ", ".join(names[s] for s in self.leaders())
        if self.over:
            verb = "wins" if len(self.leaders()) == 1 else "share the win"
            head = f"match over after {self.games} games: {leaders} {verb} (totals: {totals})"
        else:
            ahead = "leads" if len(self.leaders()) == 1 else "lead"
            played = f"game {len(self.played)} of {self.games} played"
            head = f"match: {played}, {leaders} {ahead} (totals: {totals})"
        games = [f"  game {n}: " + ", ".join(f"{names[s]} {score}" for s, score in enumerate(r.scores))
                 for n, r in enumerate(self.played, 1)]
        return [head, *games]
