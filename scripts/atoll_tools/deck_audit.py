"""Re-check a whole mental deck from its transcript alone, and name the first seat whose step fails.

The auditor is a spectator's :class:`~atoll.fair.deck.machine.MentalDeck` fed every message in order: it
checks each shuffle proof, lock proof, card point and published key as a live peer would and, for
every seat whose seed is opened, re-derives the seat's keys and permutation and re-checks every step
it took. The first message that does not check raises :class:`~atoll.errors.CheatDetected` naming its
author; earlier seats' steps have all checked by then.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from atoll.errors import ProtocolViolation
from atoll.fair.deck.machine import KIND_OPEN, DeckSpec, MentalDeck, Message, Targets
from atoll.jsondata import JSON


@dataclass(frozen=True)
class DeckAudit:
    """The outcome of an audit that found no cheat."""

    seeds_opened: tuple[int, ...]
    """Seats whose seeds were opened; their every step was re-derived and re-checked."""
    seeds_kept: tuple[int, ...]
    """Seats that never opened their seed; only their proofs were checked."""
    waiting: tuple[int, ...]
    """Seats that still owed a message when the transcript ended (they withheld it)."""
    faces: dict[int, JSON] = field(default_factory=dict)
    """Every card's face, when all seeds were opened; else only the revealed ones."""


def audit_deck(
    spec: DeckSpec,
    messages: Sequence[Message],
    rounds: Sequence[Targets] | None = None,
) -> DeckAudit:
    """Re-check ``messages`` (a deck's whole transcript, in order) against ``spec``.

    ``rounds`` are the open rounds' targets as the game asked for them (from its public log); without
    them the auditor takes each round's targets from the first message of that round. Raises
    :class:`~atoll.errors.CheatDetected` naming the first seat whose step does not check, or
    :class:`~atoll.errors.ProtocolViolation` (with the message's position) for a transcript out of order.
    """
    auditor = MentalDeck(spec, None)
    for position, message in enumerate(messages):
        try:
            if isinstance(message, dict) and message.get("type") == KIND_OPEN:
                _catch_up(auditor, message, rounds)
            auditor.receive(message)
        except ProtocolViolation as exc:
            raise ProtocolViolation(f"deck {spec.deck!r} transcript, message {position}: {exc}") from exc
    opened = auditor.seeds_opened()
    kept = tuple(s for s in range(spec.seats) if s not in opened)
    faces = auditor.all_faces() if not kept else auditor.public_faces()
    return DeckAudit(tuple(opened), kept, tuple(auditor.waiting_for()), faces)


def _catch_up(auditor: MentalDeck, message: Message, rounds: Sequence[Targets] | None) -> None:
    """Start the open rounds up to ``message``'s (a round in which nobody owed a key has no message)."""
    wanted = message.get("round")
    while isinstance(wanted, int) and wanted > auditor.round:
        if not auditor.round_done():
            raise ProtocolViolation(f"open round {wanted} begins while seats {auditor.waiting_for()} "
                                    f"still owe keys for round {auditor.round}")
        auditor.open(_targets(auditor.round, rounds, message))


def _targets(
    done: int, rounds: Sequence[Targets] | None, message: Message
) -> dict[int, int | None]:
    if rounds is not None:
        if done >= len(rounds):
            raise ProtocolViolation(f"the transcript has more open rounds than the {len(rounds)} asked for")
        return dict(rounds[done])
    pairs = message.get("targets")
    if not isinstance(pairs, list) or not all(isinstance(p, list) and len(p) == 2 for p in pairs):
        raise ProtocolViolation("an open message without its targets")
    return {int(card): target for card, target in pairs}
