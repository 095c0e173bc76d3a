"""The public record of hidden information: which cards exist, who knows what, what is shown.

Everything here follows from the public log alone, so every peer (and a bot
guessing at the cards it cannot see) can keep the same ledger.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from atoll.chance import Deal, Request, Reveal, Roll, Shuffle
from atoll.jsondata import JSON
from atoll.types import State


@dataclass(frozen=True)
class Seal:
    """A sealed (secret) decision: who made it, its handles, and the state it was made in."""

    seat: int
    handles: tuple[str, ...]
    state: State


@dataclass
class Ledger:
    """Public facts about hidden cards and sealed choices."""

    piles: dict[str, tuple[JSON, ...]] = field(default_factory=dict)
    """Each shuffled pile's faces (as listed in the request; their order is hidden)."""
    pile_of: dict[str, str] = field(default_factory=dict)
    """Handle -> the pile it belongs to."""
    public: dict[str, JSON] = field(default_factory=dict)
    """Handle -> face, for everything shown to all."""
    holders: dict[str, set[int]] = field(default_factory=dict)
    """Handle -> the seats that privately know its face."""
    seals: list[Seal] = field(default_factory=list)
    """Sealed decisions in the order they were made."""
    dice: dict[str, int] = field(default_factory=dict)
    """Handle -> sides, for every die rolled under a cup (its value is known to its owner only)."""

    def record_chance(self, request: Request, outcome: Mapping[str, JSON]) -> None:
        """Fold in a resolved chance request."""
        if isinstance(request, Shuffle):
            self.piles[request.pile] = request.faces
            for handle in request.handles():
                self.pile_of[handle] = request.pile
        elif isinstance(request, Deal):
            for seat, handles in request.to:
                for handle in handles:
                    self.holders.setdefault(handle, set()).add(seat)
        elif isinstance(request, Reveal):
            self.public.update(outcome["faces"])
        elif isinstance(request, Roll) and request.to is not None:
            for handle in request.handles():
                self.dice[handle] = request.sides
                self.holders[handle] = {request.to}

    def record_reveal(self, faces: Mapping[str, JSON]) -> None:
        """Fold in faces an action showed."""
        self.public.update(faces)

    def record_seal(self, seat: int, handles: Iterable[str], state: State) -> None:
        """Fold in a sealed decision of ``seat`` made in ``state``."""
        sealed = tuple(handles)
        self.seals.append(Seal(seat, sealed, state))
        for handle in sealed:
            self.holders[handle] = {seat}

    def hidden_from(self, seat: int | None) -> list[str]:
        """Handles whose faces ``seat`` does not know (neither public nor its own), in order."""
        out = [h for h in self.pile_of if h not in self.public and seat not in self.holders.get(h, ())]
        out.extend(h for h in self.dice if h not in self.public and seat not in self.holders[h])
        for seal in self.seals:
            if seal.seat != seat:
                out.extend(h for h in seal.handles if h not in self.public)
        return out

    def copy(self) -> Ledger:
        """An independent copy (seal states are shared: states are never mutated)."""
        return Ledger(
            dict(self.piles),
            dict(self.pile_of),
            dict(self.public),
            {h: set(s) for h, s in self.holders.items()},
            list(self.seals),
            dict(self.dice),
        )
