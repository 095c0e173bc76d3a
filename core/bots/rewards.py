"""What a search's ending is worth to each seat: a real result, or a game's judgement of a position.

Every reward lies in ``[0, 1]``, higher better for the seat, so the search's tree compares them
alike whichever way a playout ended (decision 0027).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from atoll.types import Results


def rewards(results: Results, seats: int, margin_weight: float) -> list[float]:
    """Each seat's reward in ``[0, 1]``: its share of the win, blended with its score's place.

    The share is 1 for a sole winner, 1/k for one of k winners, else 0;
    ``margin_weight`` of the reward goes to where the seat's score lies between
    the game's lowest and highest, so among moves that win equally often the
    bigger win (or the smaller loss) is preferred.
    """
    return _shares(results.winners, results.scores, seats, margin_weight)


def standing_rewards(standing: Sequence[float], seats: int, margin_weight: float) -> list[float]:
    """Each seat's reward in ``[0, 1]`` from a game's :meth:`~atoll.fast.Simulator.estimate`, scored
    as :func:`rewards` would score a game that ended with those scores: the leaders share the win."""
    best = max(standing[:seats])
    return _shares(tuple(s for s in range(seats) if standing[s] == best), standing, seats, margin_weight)


def _shares(winners: Sequence[int], scores: Sequence[float], seats: int, margin_weight: float) -> list[float]:
    share = 1.0 / len(winners) if winners else 0.0
    out = [share if seat in winners else 0.0 for seat in range(seats)]
    if margin_weight and len(scores) >= seats:
        low, high = min(scores), max(scores)
        spread = high - low
        for seat in range(seats):
            place = (scores[seat] - low) / spread if spread else 0.5
            out[seat] = (1.0 - margin_weight) * out[seat] + margin_weight * place
    return out


def lead(standing: Sequence[float], seat: int) -> float:
    """How far ``seat`` stands ahead of the best other seat in a judgement (behind: negative)."""
    return standing[seat] - max(v for s, v in enumerate(standing) if s != seat)


def squashed(leads: Sequence[float], scale: float) -> list[float]:
    """Each seat's lead squashed into ``(0, 1)`` on ``scale`` (0.5 for no lead; 0 or less: scale 1)."""
    scale = scale if scale > 0 else 1.0
    return [0.5 + 0.5 * math.tanh(v / scale) for v in leads]
