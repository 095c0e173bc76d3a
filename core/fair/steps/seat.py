"""One seat's side of the fair protocols: its secrets, and the messages it sends for each step.

A :class:`Participant` holds a seat's secret seed (from which its hash chains, commitment salts and
deck keys all derive), its sealed values and the card faces it privately knows. It signs nothing:
at a table the seat's identity signs the envelope each message travels in. It keeps its own
:class:`~atoll.fair.steps.record.Record` and checks every message it receives. It is a pure state
machine: :meth:`begin` (a step is announced) and :meth:`receive` (a message arrived) return the
messages it sends; no clock, no socket.

On a network each peer runs one Participant, for its own seat, and nothing else:

1. derive each step from the game log (the engine is deterministic; :mod:`atoll.fair.steps.announce` turns a
   chance request, a sealed decision, a shown card, a departure or the end into its announcement)
   and call :meth:`begin`; broadcast what it returns;
2. pass every message that arrives to :meth:`receive` and broadcast what it returns: drop the
   message on :class:`~atoll.fair.steps.messages.MalformedMessage` or another
   :class:`~atoll.errors.ProtocolViolation` (keep an early one for later); stop the table on
   :class:`~atoll.errors.CheatDetected`, which names the seat;
3. when :meth:`Record.complete <atoll.fair.steps.record.Record.complete>` holds, read the step's
   outcome from ``record.result`` and go on; if the deadline passes first, the table's timeout
   names one of ``record.late()`` (:mod:`atoll.table.table`: the other seats witness it there).

The seat's own messages for a step are all derived from the record (``record.seen``, its secrets
and the announcement); nothing it sends depends on a clock or on the order others' messages came in.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from atoll.chance import Roll, request_from_json
from atoll.errors import ProtocolViolation
from atoll.fair.primitives.commitments import SealBox
from atoll.fair.primitives.hashing import hash_bytes
from atoll.fair.primitives.randomness import CHAIN_LENGTH, HashChain, position
from atoll.fair.steps.history import StepRecord
from atoll.fair.steps.messages import Message, make
from atoll.fair.steps.record import SEED_SIZE, Record
from atoll.jsondata import JSON
from atoll.numbering import seat_label
from atoll.wire import Step


def derive_seed(master: bytes, table: str, seat: int) -> bytes:
    """The protocol seed a seat opens at the end, derived from its master secret."""
    return hash_bytes("seat/seed", {"table": table, "seat": seat, "master": master.hex()}, SEED_SIZE)


class Participant:
    """One seat at a fair table: answers each step with its messages and checks everyone else's."""

    def __init__(self, seat: int, table: str, seats: int, master: bytes,
                 chain_length: int = CHAIN_LENGTH, *, identities: Sequence[bytes]) -> None:
        """Seat ``seat`` of ``table``; ``master`` is fresh for this table (never reused: the seed it
        gives is opened at the end). ``identities`` are every seat's long-term identity key (bound
        into the history every message names).
        """
        if len(master) < 32:
            raise ValueError("a seat's master secret needs at least 32 bytes")
        self.seat = seat
        self.table = table
        self._seed = derive_seed(master, table, seat)
        self.record = Record(table, seats, chain_length, identities=identities, seat=seat, seed=self._seed)
        self._chains: dict[int, HashChain] = {}
        self._box = SealBox(self._seed, table, seat)
        self._pending_seal: dict[str, JSON] = {}
        self.known: dict[str, JSON] = {}
        """Handle -> face for what this seat privately knows (its sealed values and dealt cards)."""
        # What this seat does when each step is announced (every step is in atoll.wire): the kind and
        # body of its message, or None when it sends nothing of its own (the deck's outbox may).
        self._acts: dict[str, Callable[[StepRecord], tuple[str, dict[str, Any]] | None]] = {
            Step.SETUP: self._act_setup, Step.CHAIN: self._act_chain, Step.DRAW: self._act_draw,
            Step.CUP: self._act_cup, Step.SEAL: self._act_seal, Step.PROVE: self._act_prove,
            Step.REVEAL: self._act_reveal, Step.SHUFFLE: self._act_shuffle, Step.DEAL: self._act_deal,
            Step.FINISH: self._act_finish,
        }

    # -- the state machine --------------------------------------------------------

    def begin(self, step: StepRecord) -> list[Message]:
        """Step ``step`` is announced: check it and return this seat's messages for it."""
        self.record.begin(step)
        if self.seat in self.record.left:
            self.record.deck.outbox.clear()
            return []
        body = self._acts[step["step"]](step)
        out = [self._message(step, *body)] if body is not None else []
        return out + self._drain()

    def receive(self, message: JSON) -> list[Message]:
        """A message arrived: check it (raises on a cheat) and return what this seat sends in reply."""
        self.record.receive(message)
        return self._drain()

    def _drain(self) -> list[Message]:
        """The deck messages this seat's deck copies produced; note the cards it has learnt."""
        outbox, self.record.deck.outbox = self.record.deck.outbox, []
        if self.record.complete():
            self.known.update(self.record.deck.hand())
            self.known.update(self.record.cups.hand())
        return [self._message(self.record.step, "deck", body) for body in outbox]

    def _message(self, step: StepRecord, kind: str, body: Mapping[str, JSON]) -> Message:
        return make(self.table, step["n"], step["step"], self.seat, kind, self.record.seen, body)

    # -- inputs from this seat's own player ------------------------------------------

    def prepare_seal(self, handles: Sequence[str], values: Sequence[JSON]) -> None:
        """Values this seat's player sealed; committed to in the next ``seal`` step."""
        if len(handles) != len(values):
            raise ProtocolViolation(f"{len(handles)} handles for {len(values)} sealed values")
        self._pending_seal = dict(zip(handles, values, strict=True))

    # -- what this seat sends in each step ---------------------------------------------

    def _act_setup(self, step: StepRecord) -> tuple[str, dict[str, JSON]]:
        return "hello", {"head": self._chain(0).head}

    def _chain(self, epoch: int) -> HashChain:
        if epoch not in self._chains:
            length = self.record.chains.length
            self._chains = {epoch: HashChain(self._seed, self.table, self.seat, epoch, length)}
        return self._chains[epoch]

    def _act_chain(self, step: StepRecord) -> tuple[str, dict[str, JSON]]:
        return "chain/head", {"head": self._chain(self.record.epochs).head}

    def _act_draw(self, step: StepRecord) -> tuple[str, dict[str, JSON]]:
        epoch, index = position(self.record.draws, self.record.chains.length)
        return "chain/open", {"draw": self.record.draws, "request": step["request"],
                              "link": self._chain(epoch).link(index)}

    def _act_cup(self, step: StepRecord) -> tuple[str, dict[str, JSON]] | None:
        request = request_from_json(step["request"])
        if not isinstance(request, Roll) or request.to != self.seat:
            return None
        return "cup/commit", {"commitments": self.record.cups.commitments_for(request)}

    def seal_now(self, handles: Sequence[str], values: Sequence[JSON]) -> Message:
        """This seat's part of a simultaneous decision, chosen while its ``seal`` step is open: the
        ``seal/commit`` to send at once (the step waits for every deciding seat, in any order)."""
        step = self.record.step
        if step.get("step") != Step.SEAL or "seats" not in step or (self.seat, "seal/commit") \
                not in self.record.owed():
            raise ProtocolViolation(f"{seat_label(self.seat)} is not to seal a choice now")
        self.prepare_seal(handles, values)
        body = self._commit(list(handles))
        return self._message(step, "seal/commit", body)

    def _commit(self, handles: list[str]) -> dict[str, JSON]:
        """Commit to the prepared values under ``handles`` (each in its own slot)."""
        if sorted(self._pending_seal) != sorted(handles):
            raise ProtocolViolation(f"{seat_label(self.seat)} was given no values to seal in {handles}")
        commitments = {h: self._box.seal(h, self._pending_seal[h]) for h in handles}
        self.known.update(self._pending_seal)
        self._pending_seal = {}
        return {"commitments": commitments}

    def _act_seal(self, step: StepRecord) -> tuple[str, dict[str, JSON]] | None:
        if "seats" in step:
            return None  # a simultaneous decision: each seat commits when it has chosen (seal_now)
        if step["seat"] != self.seat:
            return None
        return "seal/commit", self._commit(step["handles"])

    def _act_prove(self, step: StepRecord) -> tuple[str, dict[str, JSON]] | None:
        if step["seat"] != self.seat:
            return None
        opened = self.record.commitments.opened()
        closed = [h for h in sorted(step["claims"]) if self._box.has(h) and h not in opened]
        return "prove", {"sealed": {h: self._box.opening(h) for h in closed},
                         "dice": dict(self.record.cups.openings(sorted(step["claims"])))}

    def _act_reveal(self, step: StepRecord) -> tuple[str, dict[str, JSON]] | None:
        if (self.seat, "reveal") not in self.record.owed():
            return None
        opened = self.record.commitments.opened()
        sealed = {h: self._box.opening(h) for h in step["handles"] if self._box.has(h) and h not in opened}
        return "reveal", {"sealed": sealed, "dice": dict(self.record.cups.openings(step["handles"]))}

    def _act_shuffle(self, step: StepRecord) -> None:
        return None  # the deck copy already queued this seat's shuffle if it goes first

    def _act_deal(self, step: StepRecord) -> None:
        return None  # the deck copy already queued this seat's keys for the dealt cards



    def _act_finish(self, step: StepRecord) -> tuple[str, dict[str, Any]]:
        return "seed", {"seed": self._seed.hex(), "values": self._box.values()}
