"""The mental deck: a face-down pile that N seats shuffle together, so that nobody knows the order
and every card opens on its own, to one seat (a private deal) or to everybody (a reveal).

Scheme (SRA-style commutative encryption in ristretto255, a group of prime order; see docs/fairness.md):

* Cards are independent points ``M_j``, hashed from the table, the deck name and the deck *digest*,
  which commits to the whole card list; a copy built from a different list has another digest and
  every message it sends is refused.
* **Shuffle** (seats 0..N-1 in turn): each seat multiplies every card by its shuffle key ``a`` and
  permutes, publishing ``A = a G`` and a zero-knowledge shuffle proof
  (:mod:`atoll.fair.primitives.shuffle_proof`).
* **Lock** (seats 0..N-1 in turn): each seat swaps ``a`` for one key per card,
  ``V_i = (k_i / a) W_i``, publishing ``K_i = k_i G`` and a Chaum–Pedersen proof per card
  (:mod:`atoll.fair.primitives.dleq`). Card ``i`` is then ``(prod_s k_s,i) M_j`` for a ``j`` nobody knows.
* **Open** rounds: for each card, a target seat (a private deal: every *other* seat publishes its
  ``k_s,i``) or ``None`` (a reveal: every key not yet published). Each published key is checked at
  once against its commitment ``K_s,i``; only the target, adding its own key, learns a dealt face.
* **Seeds**: every secret of a seat comes from one seed (:mod:`atoll.fair.deck.keys`), committed to
  in its shuffle message and opened at the end; every peer then re-derives and re-checks each step.

:class:`MentalDeck` is one participant's copy (a seat, or a spectator/auditor with ``seat=None``): a
pure state machine. Messages are plain JSON objects; :meth:`MentalDeck.receive` takes a message from
another participant and returns the messages this participant must send in reply (broadcast them to
everybody else). Nothing here touches a socket, a clock or a global random source. A message that
does not check raises :class:`~atoll.errors.CheatDetected` naming its author; one that comes out of
order raises :class:`~atoll.errors.ProtocolViolation`; either way the deck is left unchanged.

Why one module of over 500 lines: the rounds (shuffle, lock, open, seeds) share the per-card
state of one machine, and each check runs before that state changes; the primitives they use live in
:mod:`atoll.fair.primitives`.

Driving N seats in one process::

    decks = [MentalDeck(spec, s, os.urandom(32)) for s in range(n)]
    pending = [(0, m) for m in decks[0].start()]
    while pending:                       # shuffle, then lock, each seat in turn
        sender, message = pending.pop(0)
        for s, deck in enumerate(decks):
            if s != sender:
                pending += [(s, m) for m in deck.receive(message)]
    # deal card 0 to seat 1 and card 1 to seat 2, reveal card 5: every copy gets the same targets
    ... = [deck.open({0: 1, 1: 2, 5: None}) for deck in decks]   # then deliver as above
    decks[1].peek(0)                    # the face only seat 1 knows
"""

from __future__ import annotations

import enum
import hmac
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from atoll.errors import CheatDetected, MalformedInput, ProtocolViolation
from atoll.fair.deck.keys import DeckSecrets, seed_commitment
from atoll.fair.primitives import dleq, group
from atoll.fair.primitives import shuffle_proof as proof_of_shuffle
from atoll.fair.primitives.group import BASE, GroupError, Point
from atoll.fair.primitives.hashing import PROTOCOL_VERSION, hash_hex
from atoll.jsondata import JSON, canonical, clone, strict_hex
from atoll.numbering import seat_label, seats_label

#: A deck message: a JSON object (see the ``KIND_*`` constants for the fields of each kind).
Message = dict[str, Any]

#: The cards of an open round: card -> the seat it is dealt to, or None to reveal it to everybody.
Targets = Mapping[int, int | None]

KIND_SHUFFLE = "deck/shuffle"
"""``{"seed_commitment", "key": A, "cards": [Y...], "proof"}``: a seat's shuffle."""
KIND_LOCK = "deck/lock"
"""``{"keys": [K...], "cards": [V...], "proof"}``: a seat's swap of its shuffle key for card keys."""
KIND_OPEN = "deck/open"
"""``{"round", "targets": [[card, seat or null]...], "keys": [[card, k]...]}``: keys for an open round."""

_HEADER = ("type", "v", "table", "deck", "digest", "seat")


class Phase(enum.Enum):
    """Where a deck is in its life."""

    SHUFFLE = "shuffle"
    """Seats shuffle in turn, 0 first."""
    LOCK = "lock"
    """Seats swap their shuffle key for per-card keys in turn, 0 first."""
    READY = "ready"
    """Shuffled and locked: cards can be dealt and revealed."""


@dataclass(frozen=True)
class DeckSpec:
    """What every participant must agree on before a deck is built: its identity."""

    table: str
    deck: str
    faces: tuple[JSON, ...]
    seats: int
    proofs: bool = True

    def __post_init__(self) -> None:
        if not self.faces:
            raise MalformedInput(f"deck {self.deck!r} has no cards")
        if not 1 <= self.seats <= 64:
            raise MalformedInput(f"a deck is shared by 1 to 64 seats, not {self.seats}")
        canonical(list(self.faces))  # refuse faces that are not plain JSON

    @property
    def size(self) -> int:
        """The number of cards."""
        return len(self.faces)

    def digest(self) -> str:
        """The deck's identity: a hash of table, name, seat count, proof setting and the card list."""
        return hash_hex("deck/id", {"table": self.table, "deck": self.deck, "seats": self.seats,
                                    "proofs": self.proofs, "faces": list(self.faces)})

    def card_points(self) -> list[Point]:
        """The independent points ``M_j`` of the cards, in card-list order."""
        where = {"table": self.table, "deck": self.deck, "digest": self.digest()}
        return [group.hash_to_point("deck/card", {**where, "card": j}) for j in range(self.size)]


class MentalDeck:
    """One participant's copy of a mental deck: a seat (with its seed) or a spectator (``seat=None``)."""

    def __init__(self, spec: DeckSpec, seat: int | None, seed: bytes | None = None) -> None:
        if seat is not None and not 0 <= seat < spec.seats:
            raise MalformedInput(f"{seat_label(seat)} is not at a deck of {spec.seats} seats")
        if (seat is None) != (seed is None):
            raise MalformedInput("a seat needs its seed; a spectator has none")
        self.spec = spec
        self.seat = seat
        self.digest = spec.digest()
        self.log: list[Message] = []
        self.phase = Phase.SHUFFLE
        self.turn = 0
        self.round = 0
        self._secrets = None
        if seat is not None and seed is not None:
            self._secrets = DeckSecrets.derive(seed, spec.table, self.digest, seat, spec.size)
        self._seed = seed
        self._initial = spec.card_points()
        self._where = {p: j for j, p in enumerate(self._initial)}
        self._generators = proof_of_shuffle.Generators.derive(self._context("generators", None), spec.size)
        self._cards = list(self._initial)
        n = spec.seats
        self._seed_commitments: list[str | None] = [None] * n
        self._shuffle_keys: list[Point | None] = [None] * n
        self._key_commitments: list[list[Point]] = [[] for _ in range(n)]
        self._steps: list[dict[str, list[Point]]] = [{} for _ in range(n)]
        self._keys: list[dict[int, int]] = [{} for _ in range(spec.size)]
        self._holder: dict[int, int] = {}
        self._public: dict[int, JSON] = {}
        self._mine: dict[int, JSON] = {}
        self._targets: list[list[Any]] = []
        self._owing: dict[int, list[int]] = {}
        self._early: list[Message] = []
        self.pipeline = False
        """Answer a shuffle or lock before checking its proof, when this seat is next (see :meth:`settle`)."""
        self._unsettled: list[Callable[[], None]] = []

    # -- reading ------------------------------------------------------------------------------

    def waiting_for(self) -> list[int]:
        """The seats whose message the deck waits for now (for the caller's timeout and forfeit)."""
        if self.phase is not Phase.READY:
            return [self.turn]
        return sorted(self._owing)

    def round_done(self) -> bool:
        """True when no open round is waiting for keys."""
        return self.phase is Phase.READY and not self._owing

    def peek(self, card: int) -> JSON:
        """The face of ``card`` for this seat: one dealt to it, or a revealed one."""
        if card in self._public:
            return self._public[card]
        if card in self._mine:
            return self._mine[card]
        raise ProtocolViolation(f"card {card} of deck {self.spec.deck!r} has not been opened to this seat")

    def hand(self) -> dict[int, JSON]:
        """Faces of the cards dealt privately to this seat and not revealed since (card -> face)."""
        return {c: f for c, f in self._mine.items() if c not in self._public}

    def public_faces(self) -> dict[int, JSON]:
        """Faces of every revealed card (card -> face)."""
        return dict(self._public)

    def holders(self) -> dict[int, int]:
        """Which seat each privately dealt card went to (card -> seat)."""
        return dict(self._holder)

    # -- acting -------------------------------------------------------------------------------

    def start(self) -> list[Message]:
        """Begin the shuffle: seat 0 returns its shuffle message, every other participant nothing."""
        if self.log:
            raise ProtocolViolation(f"deck {self.spec.deck!r} has already started")
        return self._my_turns()

    def settle(self) -> None:
        """Check the proofs of the shuffles and locks this seat answered before checking them.

        With :attr:`pipeline` set, a seat whose turn comes next takes another seat's shuffle or lock
        once its points are checked group elements, and answers it at once; the proof is checked
        here, which the caller does as soon as the answer has left (and every other method of the deck
        does first). A proof that does not check raises :class:`~atoll.errors.CheatDetected` naming
        its author, as it would have on arrival: nothing later is taken, no card is ever opened. Why
        answering first is safe: ``docs/decisions/0006-pipelined-deck-setup.md``.
        """
        while self._unsettled:
            self._unsettled.pop(0)()

    def receive(self, message: JSON) -> list[Message]:
        """Check and apply another participant's ``message``; return this seat's messages in reply."""
        self.settle()
        sender = self._sender(message)
        if sender == self.seat:
            raise ProtocolViolation(f"{seat_label(sender)} received a message in its own name")
        self._check_header(sender, message)
        kind = message["type"]
        if kind == KIND_SHUFFLE:
            self._on_shuffle(sender, message)
        elif kind == KIND_LOCK:
            self._on_lock(sender, message)
        elif kind == KIND_OPEN:
            return self._on_open(sender, message)
        else:
            raise ProtocolViolation(f"{seat_label(sender)} sent a deck message of unknown type {kind!r}")
        self.log.append(clone(message))
        return self._my_turns()

    def open(self, targets: Targets) -> list[Message]:
        """Start an open round: ``targets`` maps a card to the seat it is dealt to, or None to reveal it.

        Every participant calls this with the same targets (they come from the game's public chance
        request); a seat returns its message with the keys it owes, if any. Faces appear through
        :meth:`peek` and :meth:`public_faces` once every key has arrived (:meth:`round_done`).
        Keys that arrived before this call are checked first: if one does not check, this raises
        :class:`~atoll.errors.CheatDetected` naming its author before this seat sends anything.
        """
        self.settle()
        if self.phase is not Phase.READY:
            raise ProtocolViolation(f"deck {self.spec.deck!r} is not shuffled and locked yet")
        if self._owing:
            raise ProtocolViolation(f"open round {self.round} of deck {self.spec.deck!r} still waits for "
                                    f"{seats_label(sorted(self._owing))}")
        normal, owing = self._plan(targets)
        self.round += 1
        self._targets, self._owing = normal, owing
        for card, target in normal:
            if target is not None:
                self._holder[card] = target
        early, self._early = self._early, []
        for message in early:
            self.receive(message)
        out: list[Message] = []
        if self.seat is not None and self.seat in owing:
            mine = self._open_message(self.round, normal, owing[self.seat])
            self._apply_keys(self.seat, mine["keys"], owing[self.seat], "open")
            del self._owing[self.seat]
            self.log.append(mine)
            out.append(mine)
        self._finish_round()
        return out

    def plan_open(self, targets: Targets) -> list[int]:
        """The seats an open round of ``targets`` would wait for; raises as :meth:`open` would, changing
        nothing (but checking what :meth:`settle` checks)."""
        self.settle()
        if self.phase is not Phase.READY:
            raise ProtocolViolation(f"deck {self.spec.deck!r} is not shuffled and locked yet")
        if self._owing:
            raise ProtocolViolation(f"open round {self.round} of deck {self.spec.deck!r} still waits for "
                                    f"{seats_label(sorted(self._owing))}")
        return sorted(self._plan(targets)[1])

    def _plan(self, targets: Targets) -> tuple[list[list[Any]], dict[int, list[int]]]:
        normal = self._normal_targets(targets)
        owing: dict[int, list[int]] = {}
        for card, target in normal:
            for seat in self._owers(card, target):
                owing.setdefault(seat, []).append(card)
        return normal, owing

    # -- shuffle and lock ---------------------------------------------------------------------

    def _my_turns(self) -> list[Message]:
        out: list[Message] = []
        while self.seat is not None and self.phase is not Phase.READY and self.turn == self.seat:
            out.append(self._shuffle() if self.phase is Phase.SHUFFLE else self._lock())
        return out

    def _shuffle(self) -> Message:
        me, secrets = self._me(), self._secret()
        assert self._seed is not None
        before = self._cards
        after = [group.mul(secrets.shuffle_key, before[j]) for j in secrets.permutation]
        commitment = seed_commitment(self.spec.table, me, self._seed)
        proof = None
        if self.spec.proofs:
            context = self._context("shuffle", me, seed_commitment=commitment)
            proof = proof_of_shuffle.prove(before, after, secrets.shuffle_key, secrets.permutation,
                                           self._generators, context, secrets.nonce_key)
        key = group.base_mul(secrets.shuffle_key)
        message = self._header(KIND_SHUFFLE) | {"seed_commitment": commitment, "key": key.hex(),
                                                "cards": [p.hex() for p in after], "proof": proof}
        self._accept_shuffle(me, commitment, key, after)
        self.log.append(message)
        return message

    def _on_shuffle(self, sender: int, message: Message) -> None:
        self._expect_turn(sender, Phase.SHUFFLE, "shuffle")
        try:
            commitment = strict_hex(message.get("seed_commitment"), 32, "seed commitment").hex()
        except MalformedInput as exc:
            raise CheatDetected(sender, f"shuffle carries no seed commitment: {exc}") from exc
        # with a proof, its verification multiplies every point, which checks it (see _elements); a
        # shuffle answered before its proof is checked has its points checked now, before any use
        ahead = self._answers_ahead(sender, Phase.SHUFFLE)
        checked = not self.spec.proofs or ahead
        key = self._point(sender, message.get("key"), "shuffle key commitment", checked=checked)
        cards = self._deck_points(sender, message.get("cards"), "shuffle", checked=checked)
        named = {"key": "shuffle key commitment", "cards": "shuffle"}
        with self._elements(sender, message, named, checked):
            if key == BASE:
                raise CheatDetected(sender, "shuffle key is 1: the cards were only permuted, "
                                            "not re-encrypted")
            if set(cards) & set(self._cards):
                raise CheatDetected(sender, "shuffle output repeats input cards: they were not re-encrypted")
            if self.spec.proofs:
                context = self._context("shuffle", sender, seed_commitment=commitment)
                before, proof, generators = self._cards, message.get("proof"), self._generators

                def check() -> None:
                    try:
                        proof_of_shuffle.verify(before, cards, key, proof, generators, context)
                    except dleq.InvalidProof as exc:
                        raise CheatDetected(sender, f"shuffle of deck {self.spec.deck!r}: {exc}") from exc

                self._check_now_or_after_answering(check, ahead)
        self._accept_shuffle(sender, commitment, key, cards)

    @contextmanager
    def _elements(self, sender: int, message: Message, fields: Mapping[str, str],
                  checked: bool) -> Iterator[None]:
        """Points of ``message`` parsed unchecked (``checked`` false) are group elements once the
        proof inside has verified; if anything inside fails, they are checked one by one first, so a
        point that is not an element is named as such (as if checked on arrival), and that comes first."""
        try:
            yield
        except CheatDetected:
            if not checked:
                for name, what in fields.items():
                    if name == "key":
                        self._point(sender, message.get(name), what)
                    else:
                        self._deck_points(sender, message.get(name), what)
            raise

    def _accept_shuffle(self, seat: int, commitment: str, key: Point, cards: list[Point]) -> None:
        self._seed_commitments[seat] = commitment
        self._shuffle_keys[seat] = key
        self._steps[seat]["shuffle_in"], self._steps[seat]["shuffle_out"] = self._cards, cards
        self._cards = cards
        self.turn += 1
        if self.turn == self.spec.seats:
            self.phase, self.turn = Phase.LOCK, 0

    def _lock(self) -> Message:
        me, secrets = self._me(), self._secret()
        inverse = group.inverse(secrets.shuffle_key)
        factors = [k * inverse % group.ORDER for k in secrets.card_keys]
        before = self._cards
        after = [group.mul(x, w) for x, w in zip(factors, before, strict=True)]
        keys = [group.base_mul(k) for k in secrets.card_keys]
        proof = None
        if self.spec.proofs:
            statements = self._lock_statements(me, before, after, keys)
            proof = dleq.prove(statements, factors, self._context("lock", me), secrets.nonce_key,
                               base2_log=secrets.shuffle_key)
        message = self._header(KIND_LOCK) | {
            "keys": [p.hex() for p in keys], "cards": [p.hex() for p in after], "proof": proof}
        self._accept_lock(me, keys, after)
        self.log.append(message)
        return message

    def _on_lock(self, sender: int, message: Message) -> None:
        self._expect_turn(sender, Phase.LOCK, "lock")
        ahead = self._answers_ahead(sender, Phase.LOCK)
        # the proof's verification multiplies every card and key (a lock answered ahead: checked now)
        checked = not self.spec.proofs or ahead
        keys = self._deck_points(sender, message.get("keys"), "card key commitments", checked=checked)
        cards = self._deck_points(sender, message.get("cards"), "lock", checked=checked)
        if self.spec.proofs:
            with self._elements(sender, message, {"keys": "card key commitments", "cards": "lock"}, checked):
                statements = self._lock_statements(sender, self._cards, cards, keys)
                proof, context = message.get("proof"), self._context("lock", sender)

                def check() -> None:
                    try:
                        dleq.verify(statements, proof, context)
                    except dleq.InvalidProof as exc:
                        raise CheatDetected(sender, f"lock of deck {self.spec.deck!r}: {exc}") from exc

                self._check_now_or_after_answering(check, ahead)
        self._accept_lock(sender, keys, cards)

    def _check_now_or_after_answering(self, check: Callable[[], None], ahead: bool) -> None:
        """Run a proof's ``check`` now, or, for a message this seat answers ahead, at :meth:`settle`."""
        if ahead:
            self._unsettled.append(check)
        else:
            check()

    def _answers_ahead(self, sender: int, phase: Phase) -> bool:
        """Whether this seat answers ``sender``'s shuffle or lock before checking its proof: only with
        :attr:`pipeline`, with proofs, and when this seat acts next (the last lock, which the deal
        follows, is always checked at once)."""
        if not (self.pipeline and self.spec.proofs and self.seat is not None):
            return False
        after = sender + 1
        if phase is Phase.SHUFFLE:
            return after % self.spec.seats == self.seat
        return after < self.spec.seats and after == self.seat

    def _lock_statements(self, seat: int, before: Sequence[Point], after: Sequence[Point],
                         keys: Sequence[Point]) -> list[dleq.Statement]:
        key = self._shuffle_keys[seat]
        assert key is not None
        return [dleq.Statement(w, v, key, k) for w, v, k in zip(before, after, keys, strict=True)]

    def _accept_lock(self, seat: int, keys: list[Point], cards: list[Point]) -> None:
        self._key_commitments[seat] = keys
        self._steps[seat]["lock_in"], self._steps[seat]["lock_out"] = self._cards, cards
        self._cards = cards
        self.turn += 1
        if self.turn == self.spec.seats:
            self.phase, self.turn = Phase.READY, 0

    def _expect_turn(self, sender: int, phase: Phase, what: str) -> None:
        done = self.phase is not Phase.SHUFFLE if phase is Phase.SHUFFLE else self.phase is Phase.READY
        if done or (self.phase is phase and sender < self.turn):
            raise CheatDetected(sender, f"sent a second {what} of deck {self.spec.deck!r} (a replay)")
        if self.phase is not phase or sender != self.turn:
            raise ProtocolViolation(f"{seat_label(sender)} sent its {what} out of turn: deck "
                                    f"{self.spec.deck!r} waits for the {self.phase.value} of "
                                    f"{seat_label(self.turn)}")

    # -- open rounds ------------------------------------------------------------------------

    def _normal_targets(self, targets: Targets) -> list[list[Any]]:
        normal: list[list[Any]] = []
        for card in sorted(targets):
            target = targets[card]
            if not isinstance(card, int) or not 0 <= card < self.spec.size:
                raise ProtocolViolation(f"deck {self.spec.deck!r} has no card {card!r}")
            if target is not None and (not isinstance(target, int) or not 0 <= target < self.spec.seats):
                raise ProtocolViolation(f"card {card} cannot go to {seat_label(target)}")
            normal.append([card, target])
        if not normal:
            raise ProtocolViolation("an open round must open at least one card")
        return normal

    def _owers(self, card: int, target: int | None) -> list[int]:
        holder = self._holder.get(card)
        if target is not None:
            if card in self._public:
                raise ProtocolViolation(f"card {card} is face up already; it cannot be dealt")
            if holder is not None and holder != target:
                raise ProtocolViolation(
                    f"card {card} was dealt to {seat_label(holder)}, not to {seat_label(target)}")
        return [s for s in range(self.spec.seats) if s != target and s not in self._keys[card]]

    def _open_message(self, round_: int, targets: list[list[Any]], cards: list[int]) -> Message:
        keys = self._secret().card_keys
        return self._header(KIND_OPEN) | {"round": round_, "targets": clone(targets),
                                          "keys": [[c, group.scalar_to_hex(keys[c])] for c in cards]}

    def _on_open(self, sender: int, message: Message) -> list[Message]:
        round_ = message.get("round")
        if not isinstance(round_, int):
            raise ProtocolViolation(f"{seat_label(sender)} sent an open message without a round number")
        if round_ < self.round:
            raise CheatDetected(sender, f"replayed its keys of open round {round_} in round {self.round}")
        if round_ > self.round:
            if round_ == self.round + 1 and not self._owing and len(self._early) < 4 * self.spec.seats:
                self._early.append(clone(message))  # another peer was told to open first
                return []
            raise ProtocolViolation(
                f"{seat_label(sender)} sent keys for open round {round_} in round {self.round}")
        if sender not in self._owing:
            raise CheatDetected(sender, f"sent keys it does not owe in open round {round_} (a replay or a "
                                        "second message)")
        if message.get("targets") != self._targets:
            raise CheatDetected(sender, f"opens other cards than the table asked in round {round_}")
        self._apply_keys(sender, message.get("keys"), self._owing[sender], "open")
        del self._owing[sender]
        self.log.append(clone(message))
        self._finish_round()
        return []

    def _apply_keys(self, sender: int, pairs: JSON, expected: list[int], what: str) -> None:
        """Check ``sender``'s published keys (exactly the ``expected`` cards) and store them."""
        if not isinstance(pairs, list) or not all(isinstance(p, list) and len(p) == 2 for p in pairs):
            raise CheatDetected(sender, f"{what} message must list [card, key] pairs")
        cards = [p[0] for p in pairs]
        if cards != expected:
            missing = [c for c in expected if c not in cards]
            if missing:
                raise CheatDetected(sender, f"withholds its key for card(s) {missing} ({what})")
            raise CheatDetected(sender, f"{what} message sends keys for cards {cards}, expected {expected}")
        checked: dict[int, int] = {}
        for card, text in pairs:
            try:
                key = group.scalar_from_hex(text)
            except GroupError as exc:
                raise CheatDetected(sender, f"key for card {card}: {exc}") from exc
            if not hmac.compare_digest(group.base_mul(key), self._key_commitments[sender][card]):
                raise CheatDetected(sender, f"wrong key for card {card}: it does not match its commitment")
            checked[card] = key
        for card, key in checked.items():
            self._keys[card][sender] = key

    def _finish_round(self) -> None:
        if self._owing:
            return
        for card, target in self._targets:
            if target is None and card not in self._public:
                self._public[card] = self._decrypt(card, self._keys[card])
            elif target is not None and target == self.seat and card not in self._mine:
                keys = dict(self._keys[card])
                keys[target] = self._secret().card_keys[card]
                self._mine[card] = self._decrypt(card, keys)

    def _decrypt(self, card: int, keys: Mapping[int, int]) -> JSON:
        combined = 1
        for seat in range(self.spec.seats):
            combined = combined * keys[seat] % group.ORDER
        point = group.mul(group.inverse(combined), self._cards[card])
        if point not in self._where:
            raise CheatDetected(None, f"card {card} of deck {self.spec.deck!r} opened to no card of the list")
        return self.spec.faces[self._where[point]]

    # -- seeds --------------------------------------------------------------------------------

    def check_seed_steps(self, seat: int, seed: bytes) -> None:
        """Re-derive ``seat``'s secrets from ``seed`` and re-check every step it took; raise CheatDetected."""
        committed = self._seed_commitments[seat]
        opened = seed_commitment(self.spec.table, seat, seed)
        if committed is not None and not hmac.compare_digest(committed, opened):
            raise CheatDetected(seat, "opened a seed that does not match its commitment")
        secrets = DeckSecrets.derive(seed, self.spec.table, self.digest, seat, self.spec.size)
        step = self._steps[seat]
        if "shuffle_out" in step:
            if self._shuffle_keys[seat] != group.base_mul(secrets.shuffle_key):
                raise CheatDetected(seat, "shuffle key commitment is not the key its seed gives")
            inputs, key = step["shuffle_in"], secrets.shuffle_key
            if step["shuffle_out"] != [group.mul(key, inputs[j]) for j in secrets.permutation]:
                raise CheatDetected(seat, "shuffle is not the one its seed gives")
        if "lock_out" in step:
            if self._key_commitments[seat] != [group.base_mul(k) for k in secrets.card_keys]:
                raise CheatDetected(seat, "card key commitments are not the keys its seed gives")
            inverse = group.inverse(secrets.shuffle_key)
            pairs = zip(secrets.card_keys, step["lock_in"], strict=True)
            again = [group.mul(k * inverse % group.ORDER, w) for k, w in pairs]
            if step["lock_out"] != again:
                raise CheatDetected(seat, "lock is not the one its seed gives")
        for card, keys in enumerate(self._keys):
            if seat in keys and keys[seat] != secrets.card_keys[card]:
                raise CheatDetected(seat, f"published key for card {card} is not the one its seed gives")

    # -- helpers --------------------------------------------------------------------------------

    def _context(self, step: str, seat: int | None, **extra: JSON) -> dict[str, JSON]:
        return {"version": PROTOCOL_VERSION, "table": self.spec.table, "deck": self.spec.deck,
                "digest": self.digest, "step": step, "seat": seat, **extra}

    def _header(self, kind: str) -> Message:
        return {"type": kind, "v": PROTOCOL_VERSION, "table": self.spec.table, "deck": self.spec.deck,
                "digest": self.digest, "seat": self._me()}

    def _sender(self, message: JSON) -> int:
        if not isinstance(message, dict) or not all(k in message for k in _HEADER):
            raise ProtocolViolation(f"not a deck message: {str(message)[:120]}")
        seat = message["seat"]
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.spec.seats:
            raise ProtocolViolation(f"deck message names no seat of this deck: {seat!r}")
        return seat

    def _check_header(self, sender: int, message: Message) -> None:
        if message["v"] != PROTOCOL_VERSION:
            raise CheatDetected(sender, f"sent a message of protocol {message['v']!r}, "
                                        f"not {PROTOCOL_VERSION!r}")
        if message["table"] != self.spec.table:
            raise CheatDetected(sender, f"replayed a message of table {message['table']!r} at table "
                                        f"{self.spec.table!r}")
        if message["deck"] != self.spec.deck:
            raise CheatDetected(sender, f"replayed a message of deck {message['deck']!r} "
                                        f"in deck {self.spec.deck!r}")
        if message["digest"] != self.digest:
            raise CheatDetected(sender, f"built deck {self.spec.deck!r} from a different card list (or seat "
                                        "count or proof setting): its deck digest differs")

    def _point(self, sender: int, text: JSON, what: str, *, checked: bool = True) -> Point:
        try:
            return group.point_from_hex(text) if checked else group.encoding_from_hex(text)
        except GroupError as exc:
            raise CheatDetected(sender, f"{what}: {exc}") from exc

    def _deck_points(self, sender: int, values: JSON, what: str, *, checked: bool = True) -> list[Point]:
        n = self.spec.size
        if not isinstance(values, list):
            raise CheatDetected(sender, f"{what} carries no card list")
        if len(values) < n:
            raise CheatDetected(sender, f"{what} drops cards: {len(values)} cards for a deck of {n}")
        if len(values) > n:
            raise CheatDetected(sender, f"{what} adds cards: {len(values)} cards for a deck of {n}")
        points = [self._point(sender, v, f"{what}, card {i}", checked=checked) for i, v in enumerate(values)]
        if len(set(points)) != n:
            raise CheatDetected(sender, f"{what} duplicates a card")
        return points

    def _me(self) -> int:
        if self.seat is None:
            raise ProtocolViolation("a spectator's copy of a deck sends no messages")
        return self.seat

    def _secret(self) -> DeckSecrets:
        if self._secrets is None:
            raise ProtocolViolation("a spectator's copy of a deck has no secrets")
        return self._secrets
