"""N seats' copies of one mental deck in one process, wired together: for local play, tests and benchmarks.

:class:`DeckTable` gives every seat its own :class:`~atoll.fair.deck.machine.MentalDeck` (with its own seed)
and, optionally, a spectator copy; it delivers each message to every other copy, in order, and keeps
the transcript. It is the in-process stand-in for a network table: the seats share nothing but the
messages. ``tamper`` (tests only) may rewrite a seat's outgoing messages, to play a cheating seat.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence

from atoll.fair.deck.machine import DeckSpec, MentalDeck, Message, Targets
from atoll.jsondata import JSON

#: Rewrites a message a seat sends (``seat, message -> message``); used to play a cheater in tests.
Tamper = Callable[[int, Message], Message]


class DeckTable:
    """Every seat's copy of one deck (plus a spectator's), delivering every message to all the others."""

    def __init__(self, spec: DeckSpec, seeds: Sequence[bytes], *, spectator: bool = True,
                 tamper: Tamper | None = None) -> None:
        if len(seeds) != spec.seats:
            raise ValueError(f"one seed per seat: {len(seeds)} seeds for {spec.seats} seats")
        self.spec = spec
        self.decks = [MentalDeck(spec, seat, seed) for seat, seed in enumerate(seeds)]
        self.spectator = MentalDeck(spec, None) if spectator else None
        self.transcript: list[Message] = []
        self.tamper = tamper

    def setup(self) -> None:
        """Shuffle and lock: every seat in turn, each step checked by every other copy."""
        self.deliver([(s, m) for s, deck in enumerate(self.decks) for m in deck.start()])

    def open(self, targets: Targets) -> None:
        """One open round on every copy (``targets``: card -> seat dealt to, or None to reveal)."""
        if self.spectator is not None:
            self.spectator.open(targets)
        outgoing: list[tuple[int, Message]] = []
        for seat, deck in enumerate(self.decks):
            if seat not in deck.left():
                outgoing += [(seat, m) for m in deck.open(targets)]
        self.deliver(outgoing)

    def leave(self, seat: int) -> None:
        """``seat`` leaves gracefully, handing over its keys."""
        self.deliver([(seat, self.decks[seat].leave())])

    def open_seeds(self) -> None:
        """End of game: every seat opens its seed and every copy re-checks that seat's whole part."""
        self.deliver([(seat, deck.open_seed()) for seat, deck in enumerate(self.decks)])

    def deliver(self, outgoing: Sequence[tuple[int, Message]]) -> None:
        """Deliver messages (and the replies they cause) to every copy but the sender's, in order."""
        queue = deque(outgoing)
        while queue:
            sender, message = queue.popleft()
            if self.tamper is not None:
                message = self.tamper(sender, message)
            self.transcript.append(message)
            for seat, deck in enumerate(self.decks):
                if seat != sender and seat not in deck.left():
                    queue.extend((seat, reply) for reply in deck.receive(message))
            if self.spectator is not None:
                self.spectator.receive(message)

    def hands(self) -> list[dict[int, JSON]]:
        """What each seat privately holds (card -> face), seat by seat."""
        return [deck.hand() for deck in self.decks]
