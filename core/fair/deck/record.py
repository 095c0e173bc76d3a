"""The table's mental decks, one per shuffled pile, as the fair record sees them.

Each pile a game shuffles becomes one :class:`~atoll.fair.deck.machine.MentalDeck`: a seat's own copy (with
its seed) inside that seat's record, a spectator's copy inside the audit's. This module maps the
engine's handles (``"<pile>.<i>"``) onto deck cards, turns deals, reveals and shown cards into the
deck's open rounds, collects the deck messages this seat must send (:attr:`DeckRecord.outbox`), and
computes every face once the seeds are open. The deck itself checks every point, proof and key.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from atoll.errors import CheatDetected, MalformedInput, ProtocolViolation
from atoll.fair.deck.keys import DeckSecrets
from atoll.fair.deck.machine import (
    KIND_LOCK,
    KIND_OPEN,
    KIND_SHUFFLE,
    DeckSpec,
    MentalDeck,
    Message,
)
from atoll.fair.primitives import group
from atoll.jsondata import JSON


def split_handle(handle: str) -> tuple[str, int]:
    """The pile and card index of a handle ``"<pile>.<i>"``."""
    pile, _, index = handle.rpartition(".")
    if not pile or not index.isdigit():
        raise ProtocolViolation(f"{handle!r} is not a card handle (<pile>.<index>)")
    return pile, int(index)


class DeckRecord:
    """Every mental deck of one table, from one participant's point of view."""

    def __init__(self, table: str, seats: int, seat: int | None = None, seed: bytes | None = None) -> None:
        self.table = table
        self.seats = seats
        self.seat = seat
        self._seed = seed
        self.decks: dict[str, MentalDeck] = {}
        self.outbox: list[Message] = []
        """Deck messages this seat must send, in order (the participant signs and sends them)."""
        self.shuffled_at: dict[str, int] = {}
        """Pile -> the step number its shuffle began at."""
        self.pipeline = False
        """This seat answers a shuffle or lock before checking its proof (see :meth:`MentalDeck.settle`)."""

    def pipelined(self) -> None:
        """From now on this seat answers a shuffle or lock before checking its proof, in every deck
        (see :meth:`MentalDeck.settle`)."""
        self.pipeline = True
        for deck in self.decks.values():
            deck.pipeline = True

    # -- reading ------------------------------------------------------------------------

    def has(self, handle: str) -> bool:
        """Whether ``handle`` names a card of a shuffled pile."""
        try:
            pile, index = split_handle(handle)
        except ProtocolViolation:
            return False
        deck = self.decks.get(pile)
        return deck is not None and index < deck.spec.size

    def card_count(self) -> int:
        """The number of cards in all piles."""
        return sum(deck.spec.size for deck in self.decks.values())

    def hand(self) -> dict[str, JSON]:
        """Faces this seat privately holds, by handle."""
        return {f"{pile}.{card}": face
                for pile, deck in self.decks.items() for card, face in deck.hand().items()}

    def public_faces(self, handles: Iterable[str]) -> dict[str, JSON]:
        """The faces of ``handles`` shown to everybody (each must have been revealed)."""
        out = {}
        for handle in handles:
            pile, card = split_handle(handle)
            faces = self.decks[pile].public_faces()
            if card not in faces:
                raise ProtocolViolation(f"card {handle!r} has not been revealed")
            out[handle] = faces[card]
        return out

    def all_public(self) -> dict[str, JSON]:
        """Every revealed card's face, by handle."""
        return {f"{pile}.{card}": face
                for pile, deck in self.decks.items() for card, face in deck.public_faces().items()}

    def _deck(self, handle: str) -> tuple[MentalDeck, int]:
        pile, card = split_handle(handle)
        if pile not in self.decks or card >= self.decks[pile].spec.size:
            raise ProtocolViolation(f"no card {handle!r}: pile {pile!r} was not shuffled or is smaller")
        return self.decks[pile], card

    # -- shuffling ----------------------------------------------------------------------

    def begin_shuffle(self, pile: str, faces: Sequence[JSON], n: int) -> list[tuple[int, str]]:
        """Start shuffling ``pile``; returns the (seat, label) messages owed, in turn order."""
        if pile in self.decks:
            raise ProtocolViolation(f"pile {pile!r} was already shuffled at this table")
        try:
            spec = DeckSpec(self.table, pile, tuple(faces), self.seats)
        except MalformedInput as exc:
            raise ProtocolViolation(f"cannot shuffle pile {pile!r}: {exc}") from exc
        deck = MentalDeck(spec, self.seat, self._seed)
        deck.pipeline = self.pipeline
        self.decks[pile] = deck
        self.shuffled_at[pile] = n
        self.outbox.extend(deck.start())
        return ([(s, label(KIND_SHUFFLE, pile)) for s in range(self.seats)]
                + [(s, label(KIND_LOCK, pile)) for s in range(self.seats)])

    # -- opening cards --------------------------------------------------------------------

    def begin_open(self, targets: Mapping[str, int | None]) -> list[tuple[int, str]]:
        """Open cards: ``targets`` maps a handle to the seat it is dealt to, or None to show it to all.

        Returns the (seat, label) messages owed; this seat's own message goes to :attr:`outbox`.
        Every pile is checked (:meth:`plan_open`) before any is changed, so a refused round spanning
        several piles leaves them all as they were.
        """
        self.plan_open(targets)
        owed: list[tuple[int, str]] = []
        for pile, cards in sorted(self._by_pile(targets).items()):
            deck = self.decks[pile]
            mine = deck.open(cards)
            self.outbox.extend(mine)
            seats = set(deck.waiting_for()) | {m["seat"] for m in mine}
            owed.extend((s, label(KIND_OPEN, pile)) for s in sorted(seats))
        return owed

    def plan_open(self, targets: Mapping[str, int | None]) -> list[tuple[int, str]]:
        """The (seat, label) messages opening ``targets`` would owe, changing nothing; raises as
        :meth:`begin_open` would if the round cannot be opened."""
        owed: list[tuple[int, str]] = []
        for pile, cards in sorted(self._by_pile(targets).items()):
            owed.extend((s, label(KIND_OPEN, pile)) for s in self.decks[pile].plan_open(cards))
        return owed

    def _by_pile(self, targets: Mapping[str, int | None]) -> dict[str, dict[int, int | None]]:
        by_pile: dict[str, dict[int, int | None]] = {}
        for handle, target in targets.items():
            deck, card = self._deck(handle)
            by_pile.setdefault(deck.spec.deck, {})[card] = target
        return by_pile

    def holder(self, handle: str) -> int | None:
        """The seat a card was dealt to, if any."""
        deck, card = self._deck(handle)
        return deck.holders().get(card)

    # -- messages -----------------------------------------------------------------------

    def receive(self, seat: int, body: JSON) -> None:
        """Check ``seat``'s deck message and fold it in (this seat's own messages are already in)."""
        if not isinstance(body, dict) or body.get("seat") != seat:
            raise CheatDetected(seat, "sent a deck message in another seat's name")
        pile = body.get("deck")
        if not isinstance(pile, str) or pile not in self.decks:
            raise CheatDetected(seat, f"sent a message for pile {pile!r}, which is not being shuffled")
        if seat == self.seat:
            self.decks[pile].settle()
            return
        self.outbox.extend(self.decks[pile].receive(body))

    def settle(self) -> None:
        """Check every proof this seat answered before checking it (:meth:`MentalDeck.settle`)."""
        for deck in self.decks.values():
            deck.settle()

    # -- seeds --------------------------------------------------------------------------

    def seed_problems(self, seat: int, seed: bytes) -> list[tuple[int, str]]:
        """Each pile where ``seat``'s steps do not follow from ``seed``: (step number, what)."""
        problems = []
        for pile, deck in self.decks.items():
            try:
                deck.check_seed_steps(seat, seed)
            except (CheatDetected, MalformedInput) as exc:
                problems.append((self.shuffled_at[pile], f"pile {pile!r}: {exc}"))
        return problems

    def all_faces(self, seeds: Mapping[int, bytes]) -> dict[str, JSON]:
        """Every card's face, from the opened ``seeds`` and the keys published in the decks' logs."""
        faces: dict[str, JSON] = {}
        for pile, deck in self.decks.items():
            locks = [m for m in deck.log if m.get("type") == KIND_LOCK]
            if len(locks) < self.seats:
                continue
            final = [group.point_from_hex(p) for p in locks[-1]["cards"]]
            keys = _published_keys(deck)
            for seat, seed in seeds.items():
                secrets = DeckSecrets.derive(seed, self.table, deck.digest, seat, deck.spec.size)
                for card, key in enumerate(secrets.card_keys):
                    keys.setdefault(card, {})[seat] = key
            where = {p: j for j, p in enumerate(deck.spec.card_points())}
            for card, point in enumerate(final):
                known = keys.get(card, {})
                if len(known) < self.seats:
                    continue
                combined = 1
                for key in known.values():
                    combined = combined * key % group.ORDER
                face_point = group.mul(group.inverse(combined), point)
                if face_point in where:
                    faces[f"{pile}.{card}"] = deck.spec.faces[where[face_point]]
        return faces


def label(kind: str, pile: str) -> str:
    """The label a deck message is owed under: its kind and pile (``"deck/open@deck"``)."""
    return f"{kind}@{pile}"


def message_label(body: JSON) -> str:
    """The label of a deck message body."""
    if not isinstance(body, dict):
        return label("?", "?")  # the handler refuses it; the label only has to be stable
    return label(str(body.get("type"))[:40], str(body.get("deck"))[:80])


def _published_keys(deck: MentalDeck) -> dict[int, dict[int, int]]:
    """Card -> seat -> key, for every key published in an open message of ``deck``."""
    keys: dict[int, dict[int, int]] = {}
    for message in deck.log:
        if message.get("type") == KIND_OPEN:
            for card, text in message.get("keys", []):
                keys.setdefault(card, {})[message["seat"]] = group.scalar_from_hex(text)
    return keys
