"""The public record of a fair table: every step and message, checked as it arrives.

Every peer keeps one (inside its :class:`~atoll.fair.steps.seat.Participant`) and the audit builds one
from a saved transcript; both run exactly this code, so what a live peer refuses the audit refuses
too. A step is announced with :meth:`Record.begin` (every peer derives the same steps from the
game log); messages are fed to :meth:`Record.receive`. When :meth:`Record.complete` says every owed
message is in, :attr:`Record.result` holds the step's public outcome.

What :meth:`Record.receive` raises, and what the caller does with it:

* :class:`~atoll.fair.steps.messages.MalformedMessage`: bad encoding, unknown field, another table, a
  seat that is not at the table. Drop the message; nobody is blamed.
* :class:`~atoll.errors.CheatDetected` naming a seat: content that seat wrote is wrong (a bad link,
  proof, key, opening or claim), or the seat wrote two different messages for one slot
  (equivocation). Stop the table.

A message here carries no signature: the caller says who wrote it. At a table that is the seat whose
identity signed the envelope around it (the table checks that before anything reads the message, and
refuses a message in another seat's name), so a seat is named only for what its identity signed.
* :class:`~atoll.fair.steps.messages.NotForThisStep` and other :class:`~atoll.errors.ProtocolViolation`:
  a valid message that is a replay, a duplicate, early, or out of turn. Drop it (or keep it for
  later); nobody is blamed.
* Anything else (a ``KeyError``, ``TypeError`` ...) is a bug of atoll's own, never a verdict: it
  passes through, and the table stops naming the failing module and blaming nobody. Only the
  explicit checks above name a seat.

Why one module of over 500 lines: each step's handler checks a message against the record's state
and changes that state only after every check passed; keeping the handlers beside the one table that
finds them keeps each check next to the state it guards.

Every check runs before the record changes, so a refused message or step leaves it as it was.

Steps (``step`` field of the announcement) and the messages they wait for (a ``deck`` message
carries a :mod:`atoll.fair.deck.machine` message as its body and is owed under its type and pile):

==========  ==============================================  ===================================
step        announcement fields                             messages owed
==========  ==============================================  ===================================
setup       (none)                                          ``hello`` from every seat
chain       ``epoch``                                       ``chain/head`` from each active seat
cup         ``request`` (a private roll)                    ``cup/commit`` from the cup's owner
draw        ``draw``, ``request``                           ``chain/open`` from each active seat
seal        ``seat``, ``handles``                           ``seal/commit`` from that seat
seal        ``seats``, ``first`` (simultaneous)             ``seal/commit`` from each, any order
prove       ``seat``, ``claims`` (handle -> face)           ``prove`` from that seat, its deck keys
reveal      ``handles``                                     ``reveal`` (sealed, dice), deck keys (cards)
shuffle     ``pile``, ``faces``                             deck shuffle, then lock, seat by seat
deal        ``to`` (``[seat, [handles]]`` pairs)            deck keys of every seat but receivers
finish      (none)                                          ``seed`` from each active seat
==========  ==============================================  ===================================
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from atoll.chance import Pick, Roll, request_from_json
from atoll.errors import CheatDetected, MalformedInput, ProtocolViolation
from atoll.fair.deck.record import DeckRecord, message_label
from atoll.fair.primitives.commitments import CommitmentBook, commitment, salt_for
from atoll.fair.primitives.content import hex_bytes, same
from atoll.fair.primitives.randomness import (
    CHAIN_LENGTH,
    ChainBook,
    HashChain,
    draw_outcome,
    joint_seed,
    position,
)
from atoll.fair.steps.cups import CupBook
from atoll.fair.steps.history import StepRecord, genesis, step_head, step_seen
from atoll.fair.steps.messages import Message, NotForThisStep, content_digest, parse_covered
from atoll.jsondata import JSON, canonical
from atoll.jsondata import same as same_json
from atoll.net.encoding import PUBLIC_KEY_SIZE
from atoll.numbering import seat_label, seats_label
from atoll.wire import FairKind, Step

#: Bytes of a seat's secret seed, opened at the end.
SEED_SIZE = 32

#: Most values one seat seals in one decision (a move's ``sealed`` count is held to the same).
MAX_SEALED = 64

#: The body fields each message kind must carry (checked before its handler reads them: a signed body
#: without one is its seat's fault; a handler that fails on a body that has them is atoll's).
#: (A hello and a deck message check their fields in full themselves.)
_BODY_FIELDS: dict[str, tuple[str, ...]] = {
    FairKind.CHAIN_HEAD: ("head",),
    FairKind.CUP_COMMIT: ("commitments",),
    FairKind.SEAL_COMMIT: ("commitments",),
    FairKind.PROVE: ("sealed",),
    FairKind.REVEAL: ("sealed",),
    FairKind.SEED: ("seed", "values"),
}


class Record:
    """Everything public about one fair table, and the checks every message must pass."""

    def __init__(self, table: str, seats: int, chain_length: int = CHAIN_LENGTH, *,
                 identities: Sequence[bytes], seat: int | None = None, seed: bytes | None = None) -> None:
        """A record of ``table`` whose seats have the long-term ``identities`` (32-byte Ed25519 keys);
        ``seat`` and ``seed`` make it that seat's own (its deck copies can act)."""
        if seats < 1:
            raise ValueError(f"a table needs at least one seat, not {seats}")
        if len(identities) != seats or any(len(k) != PUBLIC_KEY_SIZE for k in identities):
            raise ValueError(f"one {PUBLIC_KEY_SIZE}-byte identity key per seat is needed, for {seats} seats")
        self.table = table
        self.seats = seats
        self.identities = [bytes(k) for k in identities]
        self.chains = ChainBook(table, seats, chain_length)
        self.commitments = CommitmentBook(table)
        self.deck = DeckRecord(table, seats, seat, seed)
        self.cups = CupBook(table, seat, seed)
        self.greeted: set[int] = set()
        """The seats whose ``hello`` is in."""
        self.left: dict[int, int] = {}
        """Seat -> the step it left the table at."""
        self.seeds: dict[int, bytes] = {}
        self.finished = False
        """True once the seeds are open: no step follows."""
        self.cheat: CheatDetected | None = None
        """The first cheat caught: the table stops there, and no step follows."""
        self.sealed: list[tuple[int, list[str]]] = []
        """Each sealed decision: the deciding seat and its slots, in order."""
        self.n = -1
        self.step: StepRecord = {}
        self.result: dict[str, JSON] | None = None
        self.draws = 0
        self.epochs = 0
        self.seen = genesis(table, seats, chain_length, self.identities)
        """What every message of the current step must carry as ``seen``."""
        self._digests: list[str] = []
        self._owed: list[tuple[int, str]] = []
        self._previous: str | None = None
        self._in_turn = False
        self._got: dict[tuple[int, str], Message] = {}
        self._commit_step: dict[str, int] = {}
        self._signed: dict[tuple[int, int], str] = {}
        self._signed_slots: dict[tuple[int, int, str], str] = {}
        # What starts each step, what each message kind does, and what ends a step (a step with no
        # finisher has an empty result). Every step and kind is in atoll.wire.
        self._starters: dict[str, Callable[[StepRecord], None]] = {
            Step.SETUP: self._begin_setup, Step.CHAIN: self._begin_chain, Step.CUP: self._begin_cup,
            Step.DRAW: self._begin_draw, Step.SEAL: self._begin_seal, Step.PROVE: self._begin_prove,
            Step.REVEAL: self._begin_reveal, Step.SHUFFLE: self._begin_shuffle, Step.DEAL: self._begin_deal,
            Step.FINISH: self._begin_finish,
        }
        self._handlers: dict[str, Callable[[int, dict[str, Any]], None]] = {
            FairKind.HELLO: self._on_hello, FairKind.CHAIN_HEAD: self._on_chain_head,
            FairKind.CHAIN_OPEN: self._on_chain_open, FairKind.SEAL_COMMIT: self._on_seal_commit,
            FairKind.CUP_COMMIT: self._on_cup_commit, FairKind.PROVE: self._on_prove,
            FairKind.REVEAL: self._on_reveal, FairKind.DECK: self._on_deck,
            FairKind.SEED: self._on_seed,
        }
        self._finishers: dict[str, Callable[[], dict[str, JSON]]] = {
            Step.SEAL: self._end_seal, Step.DRAW: self._end_draw, Step.PROVE: self._end_prove,
            Step.REVEAL: self._end_reveal,
            Step.SHUFFLE: self._end_shuffle, Step.FINISH: self._end_finish,
        }

    # -- who is at the table ------------------------------------------------------

    def active(self) -> list[int]:
        """The seats still taking part (not left), in seat order."""
        return [s for s in range(self.seats) if s not in self.left]

    def drop(self, seat: int) -> None:
        """``seat`` is gone without a word, its secrets with it, and the table goes on without it: from
        now on it owes nothing, the current step included (a draw is drawn from the other seats' links
        alone), and it opens no seed at the end. Refused (:class:`ProtocolViolation`, nothing changes)
        where something under its secrets would stay shut: a pile of cards (every card is under every
        seat's key), a sealed slot or a die of its not yet open. Every peer drops the seat at the same
        place in the log (the table decides it), so every record goes on alike."""
        if seat not in self.active():
            raise ProtocolViolation(f"{seat_label(seat)} is not at the table")
        if self.deck.decks:
            raise ProtocolViolation(f"{seat_label(seat)} holds a key to every card")
        if self.commitments.closed(seat) or self.cups.closed(seat):
            raise ProtocolViolation(f"{seat_label(seat)} holds sealed values or dice that would never open")
        open_step = self.n >= 0 and bool(self._owed)
        self.left[seat] = self.n
        self._owed = [(s, kind) for s, kind in self._owed if s != seat]
        if open_step and not self._owed:
            self._finish_step()

    @property
    def head(self) -> str:
        """The head of the history so far: every step, the current one with the messages in so far."""
        return self.seen if self.n < 0 else step_head(self.seen, self._digests)

    def stopped(self) -> bool:
        """Whether the table takes no more steps (finished, or a cheat caught)."""
        return self.finished or self.cheat is not None

    # -- steps ------------------------------------------------------------------------

    def begin(self, step: StepRecord) -> None:
        """Start the next step; raises :class:`ProtocolViolation` (changing nothing) if it may not start."""
        if self.finished:
            raise ProtocolViolation("the game is over and every seed is open: no step can follow")
        if self.cheat is not None:
            raise ProtocolViolation(f"the table stopped when a cheat was caught ({self.cheat}); "
                                    "it takes no more steps")
        if self.n >= 0 and not self.complete():
            missing = ", ".join(str(s) for s, _ in self._owed)
            name = self.step.get("step")
            raise ProtocolViolation(f"step {self.n} ({name}) still waits for {seats_label(missing)}")
        if not isinstance(step, dict) or step.get("n") != self.n + 1 or not isinstance(step.get("step"), str):
            raise ProtocolViolation(f"step {self.n + 1} expected, got announcement {str(step)[:120]}")
        name = step["step"]
        starter = self._starters.get(name)
        if starter is None:
            raise ProtocolViolation(f"unknown protocol step {name!r}")
        if name != Step.SETUP and not self.greeted:
            raise ProtocolViolation("the table has not been set up")
        try:
            canonical(step)
        except MalformedInput as exc:
            raise ProtocolViolation(f"step announcement is not plain JSON: {exc}") from exc
        before = (self.n, self.step, self.result, self._got, self._in_turn, self._owed, self._previous,
                  self.seen, self._digests)
        self.seen, self._previous = step_seen(self.head, step), self.step.get("step")
        self.n, self.step, self.result = step["n"], step, None
        self._got, self._in_turn, self._owed, self._digests = {}, False, [], []
        try:
            starter(step)
        except Exception:  # a refused step leaves the record as it was, ready for another
            (self.n, self.step, self.result, self._got, self._in_turn, self._owed, self._previous,
             self.seen, self._digests) = before
            raise

    def owed(self) -> list[tuple[int, str]]:
        """The (seat, message kind) pairs the current step still waits for."""
        return list(self._owed)

    def late(self) -> list[int]:
        """The seats a timeout of the current step may name: every owing seat, or in a step taken in
        turn, the one whose turn it is."""
        return [self._owed[0][0]] if self._in_turn and self._owed else sorted({s for s, _ in self._owed})

    def complete(self) -> bool:
        """Whether every message of the current step is in."""
        return not self._owed

    def _owe(self, seats: list[int], kind: str, *, in_turn: bool = False,
             more: list[tuple[int, str]] | None = None) -> None:
        self._owed = [(s, kind) for s in seats] + list(more or [])
        self._in_turn = in_turn
        if not self._owed:
            self._finish_step()

    # -- messages ---------------------------------------------------------------------

    def settle(self) -> None:
        """Check the proofs this seat answered before checking them (a pipelined shuffle or lock, see
        :meth:`MentalDeck.settle <atoll.fair.deck.machine.MentalDeck.settle>`); one that does not check stops
        the table as on arrival (:class:`~atoll.errors.CheatDetected` naming its author)."""
        try:
            self.deck.settle()
        except CheatDetected as exc:
            self.cheat = exc
            raise

    def receive(self, message: JSON) -> Message:
        """Check ``message`` for the current step and fold it in; returns it.

        See the module docstring for what each exception means and what the caller does.
        """
        msg, covered = parse_covered(message, table=self.table, seats=self.seats)
        seat, kind = msg["seat"], msg["kind"]
        if seat not in self.greeted and kind != FairKind.HELLO:
            raise ProtocolViolation(
                f"a {kind!r} message in {seat_label(seat)}'s name, which has not said hello")
        try:
            return self._take(msg, content_digest(msg, covered))
        except CheatDetected as exc:
            self.cheat = exc  # whatever a seat wrote wrong stops the table
            raise

    def _take(self, msg: Message, digest: str) -> Message:
        """Fold in an authenticated message whose :func:`~atoll.fair.steps.messages.content_digest` is
        ``digest`` (see :meth:`receive`)."""
        seat, kind, n = msg["seat"], msg["kind"], msg["n"]
        what = message_label(msg["body"]) if kind == FairKind.DECK else kind
        self._check_consistent(seat, n, msg["seen"], what, digest)
        if n != self.n or msg["step"] != self.step.get("step") or not same(msg["seen"], self.seen):
            raise NotForThisStep(f"{seat_label(seat)}'s {what!r} message is for step {n} ({msg['step']}) of "
                                 "another "
                                 f"history than this table's step {self.n} ({self.step.get('step')}): "
                                 "dropped")
        if (seat, what) in self._got:
            raise ProtocolViolation(f"{seat_label(seat)}'s {what!r} message of step {self.n} arrived twice")
        if (seat, what) not in self._owed:
            raise ProtocolViolation(
                f"{seat_label(seat)} sent {what!r} in step {self.n}, which owes it nothing")
        if self._in_turn and self._owed[0] != (seat, what):
            raise ProtocolViolation(f"{seat_label(seat)} sent {what!r} out of turn; "
                                    f"{seat_label(self._owed[0][0])} is to send")
        body = msg["body"]
        missing = [name for name in _BODY_FIELDS.get(kind, ()) if name not in body]
        if missing:
            raise CheatDetected(seat, f"sent a malformed {what!r} message: it has no {', '.join(missing)}")
        # only explicit checks name the seat: anything else a handler raises is a bug of atoll's own,
        # which stops the table blaming nobody (docs/decisions/0015-faults-are-not-cheats.md)
        try:
            self._handlers[kind](seat, body)
        except MalformedInput as exc:  # a parser's verdict on what the seat signed
            raise CheatDetected(seat, f"sent a malformed {what!r} message: {exc}") from exc
        self._got[(seat, what)] = msg
        self._digests.append(digest)
        self._owed.remove((seat, what))
        if not self._owed:
            self._finish_step()
        return msg

    def _check_consistent(self, seat: int, n: int, seen: str, what: str, digest: str) -> None:
        """Equivocation: two validly signed messages of one seat that cannot both be true.

        One step number has one history (``seen``) and one message per slot.
        """
        earlier_seen = self._signed.get((seat, n))
        if earlier_seen is not None and not same(earlier_seen, seen):
            raise CheatDetected(seat, f"signed two different histories for step {n} (equivocation)")
        earlier = self._signed_slots.get((seat, n, what))
        if earlier is not None and not same(earlier, digest):
            raise CheatDetected(seat, f"signed two different {what!r} messages for step {n} (equivocation)")
        self._signed[(seat, n)] = seen
        self._signed_slots[(seat, n, what)] = digest

    def _finish_step(self) -> None:
        finisher = self._finishers.get(self.step["step"])
        self.result = finisher() if finisher is not None else {}

    # -- setup ------------------------------------------------------------------------

    def _begin_setup(self, step: StepRecord) -> None:
        if self.n != 0:
            raise ProtocolViolation("setup must be the first step")
        self._owe(list(range(self.seats)), "hello")

    def _on_hello(self, seat: int, body: dict[str, Any]) -> None:
        if set(body) != {"head"}:
            raise CheatDetected(seat, f"said hello with fields {sorted(body)}, not just head")
        self.chains.commit(seat, 0, body["head"])
        self._commit_step_of_head(seat, 0)
        self.greeted.add(seat)

    def _commit_step_of_head(self, seat: int, epoch: int) -> None:
        self._commit_step[f"chain:{seat}:{epoch}"] = self.n

    # -- joint randomness ---------------------------------------------------------------

    def _begin_chain(self, step: StepRecord) -> None:
        if step.get("epoch") != self.epochs + 1:
            raise ProtocolViolation(f"chain epoch {self.epochs + 1} expected, not {step.get('epoch')!r}")
        self.epochs += 1
        self._owe(self.active(), "chain/head")

    def _on_chain_head(self, seat: int, body: dict[str, Any]) -> None:
        self.chains.commit(seat, self.epochs, body["head"])
        self._commit_step_of_head(seat, self.epochs)

    def _begin_cup(self, step: StepRecord) -> None:
        request = request_from_json(step.get("request"))
        if not isinstance(request, Roll) or request.to is None:
            raise ProtocolViolation(f"a cup step answers a private roll, not {step.get('request')!r}")
        if request.to not in self.active():
            raise ProtocolViolation(
                f"cannot roll under {seat_label(request.to)}'s cup: it is not at the table")
        taken = [h for h in request.handles() if self.deck.has(h) or self.commitments.owner(h) is not None]
        self.cups.check_new(request, taken)
        self._owe([request.to], "cup/commit")

    def _on_cup_commit(self, seat: int, body: dict[str, Any]) -> None:
        request = request_from_json(self.step["request"])
        assert isinstance(request, Roll)
        self.cups.commit(seat, request, body["commitments"], self.n)

    def _begin_draw(self, step: StepRecord) -> None:
        request = request_from_json(step.get("request"))
        if not isinstance(request, Roll | Pick):
            raise ProtocolViolation(f"a draw answers a roll or a pick, not {request.kind.value}")
        if isinstance(request, Roll) and request.to is not None and (
                self._previous != "cup" or self.cups.pending != request.cup):
            # the owner's commitments must be in before any link of the draw is opened
            raise ProtocolViolation(f"the draw of cup {request.cup!r} must follow its owner's commitment")
        if step.get("draw") != self.draws + 1:
            raise ProtocolViolation(f"draw {self.draws + 1} expected, not {step.get('draw')!r}")
        epoch, _ = position(self.draws + 1, self.chains.length)
        if epoch > self.epochs:
            raise ProtocolViolation(f"draw {self.draws + 1} needs chain epoch {epoch}, not committed yet")
        self.draws += 1
        self._openings: dict[int, str] = {}
        self._owe(self.active(), "chain/open")

    def _on_chain_open(self, seat: int, body: dict[str, Any]) -> None:
        link = self.chains.check(seat, self.draws, body.get("link"))
        request = self.step["request"]
        if body.get("draw") != self.draws or not same_json(body.get("request"), request):
            raise CheatDetected(seat, f"opened its link for draw {body.get('draw')!r} of request "
                                      f"{body.get('request')!r}, not draw {self.draws} of {request}")
        self._openings[seat] = link

    def _end_draw(self) -> dict[str, JSON]:
        request = request_from_json(self.step["request"])
        assert isinstance(request, Roll | Pick)
        openings = [self._openings.get(s) for s in range(self.seats)]
        seed = joint_seed(self.table, self.draws, self.step["request"], openings)
        if isinstance(request, Roll) and request.to is not None:
            self.cups.drawn(request, self.draws, seed)
            return {"handles": request.handles()}
        return draw_outcome(request, seed)

    # -- sealed choices ---------------------------------------------------------------

    def _begin_seal(self, step: StepRecord) -> None:
        if "seats" in step:
            self._begin_seal_together(step)
            return
        seat, handles = step.get("seat"), step.get("handles")
        if seat not in self.active() or not isinstance(handles, list) or not handles:
            raise ProtocolViolation(f"bad seal step {str(step)[:120]}")
        self._owe([seat], "seal/commit")

    def _begin_seal_together(self, step: StepRecord) -> None:
        """A simultaneous decision: every seat of ``seats`` commits, in any order, each as soon as it has
        chosen; the seat at place ``k`` of ``seats`` seals slots ``s<seat>-<first + k>.<i>``."""
        seats, first = step.get("seats"), step.get("first")
        active = self.active()
        seats = seats if isinstance(seats, list) else []
        named = bool(seats) and all(type(s) is int and s in active for s in seats)
        if (not named or seats != sorted(set(seats)) or type(first) is not int or first < 0
                or set(step) != {"n", "step", "seats", "first"}):
            raise ProtocolViolation(f"bad seal step {str(step)[:120]}")
        self._owe(list(seats), "seal/commit")

    def _end_seal(self) -> dict[str, JSON]:
        """A simultaneous decision's slots, by seat (each seat chose how many values it sealed)."""
        if "seats" not in self.step:
            return {}
        mine = {seat: handles for seat, handles in self.sealed[-len(self.step["seats"]):]}
        return {"handles": {str(seat): list(mine[seat]) for seat in self.step["seats"]}}

    def _on_seal_commit(self, seat: int, body: dict[str, Any]) -> None:
        commitments = body["commitments"]
        if "seats" in self.step:
            place = self.step["first"] + self.step["seats"].index(seat)
            count = len(commitments) if isinstance(commitments, dict) else 0
            handles = [f"s{seat}-{place}.{i}" for i in range(count)]
            if not 1 <= count <= MAX_SEALED:
                raise CheatDetected(seat, f"committed to {count} slots; 1-{MAX_SEALED} expected")
        else:
            handles = self.step["handles"]
        if not isinstance(commitments, dict) or sorted(commitments) != sorted(handles):
            raise CheatDetected(seat, f"committed to slots {sorted(commitments)}, not to {handles}")
        for handle in handles:
            self.commitments.record(seat, handle, commitments[handle])
            self._commit_step[handle] = self.n
        self.sealed.append((seat, list(handles)))

    def _open_slots(self, seat: int, openings: JSON, slots: list[str]) -> dict[str, JSON]:
        if not isinstance(openings, dict) or sorted(openings) != sorted(slots):
            raise CheatDetected(seat, f"opened slots {sorted(openings or {})}, not {sorted(slots)}")
        for slot in slots:
            opening = openings[slot]
            if not isinstance(opening, dict) or set(opening) != {"salt", "value"}:
                raise CheatDetected(seat, f"opened slot {slot!r} with {str(opening)[:80]}, "
                                          "not a salt and a value")
        return {slot: self.commitments.open(seat, slot, openings[slot]["salt"], openings[slot]["value"])
                for slot in slots}

    # -- showing hidden things ---------------------------------------------------------

    def _split(self, handles: list[str]) -> tuple[dict[int, list[str]], list[str]]:
        """Sealed slots and dice by owner, and cards."""
        sealed: dict[int, list[str]] = {}
        cards = []
        for handle in handles:
            owner = self.commitments.owner(handle)
            if owner is None and self.cups.has(handle):
                owner = self.cups.owner(handle)
            if owner is not None:
                sealed.setdefault(owner, []).append(handle)
            elif self.deck.has(handle):
                cards.append(handle)
            else:
                raise ProtocolViolation(f"{handle!r} is no sealed slot, die or card of this table")
        return sealed, cards

    def _open_own(self, seat: int, body: dict[str, Any], handles: list[str]) -> dict[str, JSON]:
        """Check ``seat``'s openings of its sealed slots and dice among ``handles`` not opened yet."""
        shown = {**self.commitments.opened(), **self.cups.opened()}
        closed = [h for h in handles if h not in shown]
        slots = [h for h in closed if self.commitments.owner(h) == seat]
        dice = [h for h in closed if self.cups.has(h) and self.cups.owner(h) == seat]
        opened = self._open_slots(seat, body["sealed"], slots)
        opened.update(self.cups.open(seat, body.get("dice", {}), dice))
        return opened

    def _shown(self) -> dict[str, JSON]:
        """Every opened sealed value and die."""
        return {**self.commitments.opened(), **self.cups.opened()}

    def _begin_prove(self, step: StepRecord) -> None:
        seat, claims = step.get("seat"), step.get("claims")
        if seat not in self.active() or not isinstance(claims, dict) or not claims:
            raise ProtocolViolation(f"bad prove step {str(step)[:120]}")
        sealed, cards = self._split(sorted(claims))
        for owner in sealed:
            if owner != seat:
                raise ProtocolViolation(
                    f"{seat_label(seat)} claims slots {sealed[owner]}, sealed by {seat_label(owner)}")
        strangers = [h for h in cards if self.deck.holder(h) != seat]
        if strangers:
            raise ProtocolViolation(
                f"{seat_label(seat)} claims cards {strangers}, which were not dealt to it")
        self._proved: dict[str, JSON] = {}
        targets: dict[str, int | None] = {h: None for h in cards}
        if any(s != seat for s, _ in self.deck.plan_open(targets)):
            raise ProtocolViolation(f"showing {cards} would need keys of seats other than {seat}")
        more = self.deck.begin_open(targets) if targets else []
        # the claiming seat always signs: its ``prove`` message vouches for the claims it answers
        self._owe([seat], "prove", more=more)

    def _on_prove(self, seat: int, body: dict[str, Any]) -> None:
        self._proved.update(self._open_own(seat, body, sorted(self.step["claims"])))

    def _end_prove(self) -> dict[str, JSON]:
        seat, claims = self.step["seat"], self.step["claims"]
        sealed, cards = self._split(sorted(claims))
        shown = self._shown()
        faces = {h: shown[h] for h in sealed.get(seat, [])}
        faces.update(self.deck.public_faces(cards))
        for handle, face in sorted(claims.items()):
            if canonical(faces[handle]) != canonical(face):
                raise CheatDetected(seat, f"claims {handle!r} shows {face!r}; it opens to {faces[handle]!r}")
        return {"faces": faces}

    def _begin_reveal(self, step: StepRecord) -> None:
        handles = step.get("handles")
        if not isinstance(handles, list) or not handles:
            raise ProtocolViolation(f"bad reveal step {str(step)[:120]}")
        sealed, cards = self._split(handles)
        opened = self._shown()
        owing = sorted(s for s, slots in sealed.items() if any(h not in opened for h in slots))
        gone = [s for s in owing if s in self.left]
        if gone:
            raise ProtocolViolation(f"{seats_label(gone)} left and cannot open their sealed slots")
        more = self.deck.begin_open({h: None for h in cards}) if cards else []
        self._owe(owing, "reveal", more=more)

    def _on_reveal(self, seat: int, body: dict[str, Any]) -> None:
        self._open_own(seat, body, self.step["handles"])

    def _end_reveal(self) -> dict[str, JSON]:
        _, cards = self._split(self.step["handles"])
        faces = self._shown()
        faces.update(self.deck.public_faces(cards))
        return {"faces": {h: faces[h] for h in self.step["handles"]}}

    # -- the mental deck ---------------------------------------------------------------

    def _begin_shuffle(self, step: StepRecord) -> None:
        pile, faces = step.get("pile"), step.get("faces")
        if not isinstance(pile, str) or not isinstance(faces, list):
            raise ProtocolViolation(f"bad shuffle step {str(step)[:120]}")
        if self.left:
            raise ProtocolViolation(
                f"pile {pile!r} cannot be shuffled after {seats_label(sorted(self.left))} left")
        if pile in self.cups.cups:
            raise ProtocolViolation(f"pile {pile!r} has the name of a cup rolled at this table")
        self._owe([], "", in_turn=True, more=self.deck.begin_shuffle(pile, faces, self.n))

    def _on_deck(self, seat: int, body: dict[str, Any]) -> None:
        self.deck.receive(seat, body)

    def _end_shuffle(self) -> dict[str, JSON]:
        size = len(self.step["faces"])
        return {"handles": [f"{self.step['pile']}.{i}" for i in range(size)]}

    def _begin_deal(self, step: StepRecord) -> None:
        to = step.get("to")
        if not isinstance(to, list) or not to:
            raise ProtocolViolation(f"bad deal step {str(step)[:120]}")
        targets: dict[str, int | None] = {}
        for seat, handles in to:
            if seat not in self.active():
                raise ProtocolViolation(f"cannot deal to {seat_label(seat)}: it is not at the table")
            for handle in handles:
                if handle in targets:
                    raise ProtocolViolation(f"card {handle!r} is dealt twice in one deal")
                targets[str(handle)] = int(seat)
        self._owe([], "", more=self.deck.begin_open(targets))

    # -- the end ---------------------------------------------------------------------

    def _begin_finish(self, step: StepRecord) -> None:
        self._finish: dict[int, tuple[bytes, dict[str, JSON]]] = {}
        self._owe(self.active(), "seed")

    def _on_seed(self, seat: int, body: dict[str, Any]) -> None:
        seed = hex_bytes(seat, body["seed"], SEED_SIZE, "seed")
        values = body["values"]
        if not isinstance(values, dict):
            raise CheatDetected(seat, "opened its sealed values as something other than an object")
        self._finish[seat] = (seed, values)

    def _end_finish(self) -> dict[str, JSON]:
        """Check every seat's whole history against its opened seed; blame the earliest bad step."""
        problems: list[tuple[int, int, str]] = []
        for seat, (seed, values) in sorted(self._finish.items()):
            problems.extend((n, seat, what) for n, what in self._seed_problems(seat, seed, values))
            self.seeds[seat] = seed
        if problems:
            n, seat, what = min(problems)
            raise CheatDetected(seat, f"step {n} does not follow from its opened seed: {what}")
        self.finished = True
        return {}

    def _seed_problems(self, seat: int, seed: bytes, values: Mapping[str, JSON]) -> list[tuple[int, str]]:
        problems = []
        for epoch in range(self.epochs + 1):
            head = self.chains.head(seat, epoch)
            if head is None:
                continue
            if not same(HashChain(seed, self.table, seat, epoch, self.chains.length).head, head):
                problems.append((self._commit_step[f"chain:{seat}:{epoch}"], f"chain head of epoch {epoch}"))
        opened = self.commitments.opened()
        mine = [s for s in opened if self.commitments.owner(s) == seat]
        for slot in [*self.commitments.closed(seat), *mine]:
            if slot not in opened and slot not in values:
                problems.append((self.n, f"did not open sealed slot {slot!r}"))
                continue
            value = opened[slot] if slot in opened else values[slot]
            expected = commitment(self.table, seat, slot, salt_for(seed, self.table, seat, slot), value)
            if not same(expected, self.commitments.committed(slot) or ""):
                problems.append((self._commit_step[slot], f"commitment to slot {slot!r}"))
        problems.extend(self.deck.seed_problems(seat, seed))
        problems.extend(self.cups.seed_problems(seat, seed))
        return problems

    def sealed_values(self) -> dict[str, JSON]:
        """Every sealed value, once the game has finished (opened during play or with the seeds)."""
        values = self.commitments.opened()
        for _, (_, opened) in sorted(getattr(self, "_finish", {}).items()):
            values.update({k: v for k, v in opened.items() if k not in values})
        return values
