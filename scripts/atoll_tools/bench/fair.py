"""``scripts/bench fair [--json]``: what the mental deck and private rolls cost each peer.

One run, 4 seats and Kariba's 64-card deck (eight of each of eight animals), all in one process,
every seat with its own copy of the deck (:class:`~atoll_tools.deck_table.DeckTable`). CPU time
(``time.process_time``) is charged to the copy whose method ran, so each figure is one peer's:

- ``setup_ms_per_peer``: the whole set-up of the slowest peer: building the deck, its own shuffle and
  lock with their proofs, checking the other three seats' shuffles and locks, and dealing five cards
  to each seat (its keys out, the others' keys checked, its own five cards read);
- ``shuffle_lock_proofs_ms_per_peer``: the part spent making its own shuffle, lock and proofs (the
  peer's set-up time less what a spectator's copy spent checking the same three seats' messages);
- ``verification_ms_per_peer``: checking the other seats' shuffles and locks (measured on the
  spectator's copy, per message);
- ``deal_ms_per_peer``: the deal of five cards to each seat;
- ``sra_ms`` and ``ec_ms``: the bare 4-seat shuffle (every seat raises every card to its key and
  permutes, no proofs) as textbook SRA with 2048-bit modular exponentiation (RFC 3526 group 14) and
  on our group, and ``ratio_vs_sra``, the first over the second.

Private rolls (dice under a cup, as in Liar's Dice): 6 seats with 5 dice each, for
:data:`CUP_ROUNDS` rounds. A round is every seat rolling its 5 dice under its cup (one ``cup/commit``
and one round of chain openings each) and the cups lifted at the end (every seat opens its 30
secrets to everyone); every seat checks every message. ``cup_round_ms_per_peer`` is the CPU time of
one round charged to the slowest peer (each seat's :class:`~atoll.fair.steps.seat.Participant` is timed
on its own calls), ``cup_round_messages`` the messages of a round. This is the step machines' own work:
at a table each message also costs the check of its seat's envelope signature (``scripts/bench net``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, TextIO, TypeVar

from atoll.chance import Reveal, Roll
from atoll.fair.deck.machine import DeckSpec, MentalDeck, Message
from atoll.fair.primitives import group
from atoll.fair.steps.history import StepRecord
from atoll.fair.steps.seat import Participant
from atoll.jsondata import JSON
from atoll_tools.deck_table import DeckTable
from atoll_tools.fair_relay import FairResolver, local_identity

SEATS = 4
#: Kariba's deck (rule K1): 64 cards, eight of each of the eight animals.
FACES: tuple[int, ...] = tuple(animal for animal in range(1, 9) for _ in range(8))
HAND = 5

#: RFC 3526, 2048-bit MODP group 14: a safe prime, the textbook SRA modulus of this size.
RFC3526_P2048 = int(
    "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD"
    "EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
    "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F"
    "83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B"
    "E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA0510"
    "15728E5A8AACAA68FFFFFFFFFFFFFFFF",
    16,
)

T = TypeVar("T")

TARGETS = {"setup_ms_per_peer": 1000.0, "ratio_vs_sra": 50.0, "cup_round_ms_per_peer": 50.0}

#: Private rolls: seats, dice under each cup, and rounds measured.
CUP_SEATS = 6
CUP_DICE = 5
CUP_ROUNDS = 5


def cpu(action: Callable[[], T]) -> tuple[T, float]:
    """Run ``action``; return its result and the CPU seconds it took."""
    start = time.process_time()
    result = action()
    return result, time.process_time() - start


class TimedTable(DeckTable):
    """A :class:`DeckTable` that charges the CPU time of every call to the copy it ran on."""

    def __init__(self, spec: DeckSpec, seeds: Sequence[bytes]) -> None:
        started = [time.process_time()]
        super().__init__(spec, seeds)
        built = time.process_time() - started[0]
        # every copy hashes the same card points and generators: charge each its share of the build
        self.cpu = [built / (SEATS + 1)] * SEATS
        self.checks: list[tuple[Message, float]] = []

    def start_all(self) -> list[tuple[int, Message]]:
        """Seat 0 begins the shuffle."""
        out: list[tuple[int, Message]] = []
        for seat, deck in enumerate(self.decks):
            messages, spent = cpu(deck.start)
            self.cpu[seat] += spent
            out += [(seat, m) for m in messages]
        return out

    def deliver(self, outgoing: Sequence[tuple[int, Message]]) -> None:
        """Deliver as :class:`DeckTable` does, timing each copy's ``receive``."""
        queue = list(outgoing)
        while queue:
            sender, message = queue.pop(0)
            self.transcript.append(message)
            for seat, deck in enumerate(self.decks):
                if seat != sender:
                    replies, spent = cpu(partial(deck.receive, message))
                    self.cpu[seat] += spent
                    queue += [(seat, r) for r in replies]
            if self.spectator is not None:
                _, spent = cpu(partial(self.spectator.receive, message))
                self.checks.append((message, spent))

    def open_timed(self, targets: dict[int, int | None]) -> None:
        """One open round on every seat's copy, timed per copy."""
        outgoing: list[tuple[int, Message]] = []
        for seat, deck in enumerate(self.decks):
            messages, spent = cpu(partial(deck.open, targets))
            self.cpu[seat] += spent
            outgoing += [(seat, m) for m in messages]
        self.deliver(outgoing)


def measure_deck(seeds: Sequence[bytes]) -> dict[str, float]:
    """Set up the deck for 4 seats and deal five cards each; per-peer CPU figures in ms."""
    table = TimedTable(DeckSpec("bench-table", "deck", FACES, SEATS), seeds)
    table.deliver(table.start_all())
    assert all(isinstance(d, MentalDeck) and d.round_done() for d in table.decks)
    after_setup = list(table.cpu)
    verify = [0.0] * SEATS  # what checking the other seats' shuffle and lock messages costs, per peer
    for message, spent in table.checks:
        for seat in range(SEATS):
            if seat != message["seat"]:
                verify[seat] += spent
    table.open_timed({card: card // HAND for card in range(HAND * SEATS)})
    deal = [total - before for total, before in zip(table.cpu, after_setup, strict=True)]
    for seat, deck in enumerate(table.decks):
        assert sorted(deck.hand()) == list(range(seat * HAND, (seat + 1) * HAND))
    slowest = max(range(SEATS), key=lambda s: table.cpu[s])
    return {
        "setup_ms_per_peer": 1e3 * table.cpu[slowest],
        "shuffle_lock_proofs_ms_per_peer": 1e3 * (after_setup[slowest] - verify[slowest]),
        "verification_ms_per_peer": 1e3 * verify[slowest],
        "deal_ms_per_peer": 1e3 * deal[slowest],
        "setup_ms_mean_per_peer": 1e3 * sum(table.cpu) / SEATS,
    }


def bare_shuffles(rng: random.Random) -> dict[str, float]:
    """The bare 4-seat shuffle of 64 cards, as textbook SRA mod a 2048-bit prime and on our group."""
    n, p = len(FACES), RFC3526_P2048
    # cards as quadratic residues (squares), the textbook way to keep SRA from leaking a bit per card
    wide = [int.from_bytes(hashlib.sha512(b"card%d" % i).digest() * 4, "big") for i in range(n)]
    cards = [pow(w % p, 2, p) for w in wide]
    keys: list[int] = []
    while len(keys) < SEATS:  # SRA keys must be invertible mod p - 1 = 2q: odd and not q
        k = rng.randrange(3, p - 1) | 1
        if k != (p - 1) // 2:
            keys.append(k)
    perms = [rng.sample(range(n), n) for _ in range(SEATS)]

    def sra() -> list[int]:
        deck = cards
        for key, perm in zip(keys, perms, strict=True):
            deck = [pow(deck[j], key, p) for j in perm]
        return deck

    points = [group.hash_to_point("bench/card", {"i": i}) for i in range(n)]
    scalars = [group.scalar_from_bytes(os.urandom(64)) for _ in range(SEATS)]

    def ec() -> list[bytes]:
        deck = points
        for key, perm in zip(scalars, perms, strict=True):
            deck = [group.mul(key, deck[j]) for j in perm]
        return deck

    _, sra_s = cpu(sra)
    _, ec_s = cpu(ec)
    return {"sra_ms": 1e3 * sra_s, "ec_ms": 1e3 * ec_s, "ratio_vs_sra": sra_s / ec_s}


class TimedParticipant(Participant):
    """A seat whose own work (beginning steps, checking and answering messages) is charged to it."""

    cpu = 0.0

    def begin(self, step: StepRecord) -> list[Any]:
        """Time :meth:`Participant.begin`."""
        out, spent = cpu(partial(super().begin, step))
        self.cpu += spent
        return out

    def receive(self, message: JSON) -> list[Any]:
        """Time :meth:`Participant.receive`."""
        out, spent = cpu(partial(super().receive, message))
        self.cpu += spent
        return out


def measure_cups(masters: Sequence[bytes]) -> dict[str, float]:
    """:data:`CUP_ROUNDS` rounds of Liar's Dice chance at 6 seats x 5 dice; per-peer CPU in ms."""
    keys = [local_identity(m) for m in masters]
    public = [k.verify_key.encode() for k in keys]
    seats = [TimedParticipant(s, "bench-cups", CUP_SEATS, masters[s], identities=public)
             for s in range(CUP_SEATS)]
    resolver = FairResolver(CUP_SEATS, "bench-cups", participants=seats)
    before = [s.cpu for s in seats]
    messages = len(resolver.entries)
    for round_ in range(CUP_ROUNDS):
        cups = [Roll(CUP_DICE, 6, to=seat, cup=f"r{round_}s{seat}") for seat in range(CUP_SEATS)]
        for cup in cups:
            assert set(resolver.resolve(cup).privately) == {cup.to}
        lifted = resolver.resolve(Reveal(tuple(h for cup in cups for h in cup.handles())))
        assert len(lifted.outcome["faces"]) == CUP_SEATS * CUP_DICE
    spent = [s.cpu - b for s, b in zip(seats, before, strict=True)]
    entries = resolver.entries[messages:]
    return {
        "cup_round_ms_per_peer": 1e3 * max(spent) / CUP_ROUNDS,
        "cup_round_ms_mean_per_peer": 1e3 * sum(spent) / CUP_SEATS / CUP_ROUNDS,
        "cup_round_messages": sum(1 for e in entries if "msg" in e) / CUP_ROUNDS,
    }


def run_bench(seed: int | None = None) -> dict[str, Any]:
    """Every measurement of this suite, as one JSON-able object."""
    rng = random.Random(seed) if seed is not None else random.SystemRandom()
    seeds = [rng.randbytes(32) if seed is not None else os.urandom(32) for _ in range(SEATS)]
    result: dict[str, Any] = {"seats": SEATS, "cards": len(FACES), "dealt_per_seat": HAND}
    result.update(measure_deck(seeds))
    result.update(bare_shuffles(rng if seed is not None else random.Random(os.urandom(16))))
    result.update(cup_seats=CUP_SEATS, cup_dice=CUP_DICE)
    result.update(measure_cups([rng.randbytes(32) if seed is not None else os.urandom(32)
                                for _ in range(CUP_SEATS)]))
    result["sra_ms_per_peer"] = result["sra_ms"] / SEATS
    result["setup_with_proofs_vs_bare_sra_per_peer"] = result["sra_ms_per_peer"] / result["setup_ms_per_peer"]
    result["targets"] = {"setup_ms_per_peer_below": TARGETS["setup_ms_per_peer"],
                         "ratio_vs_sra_at_least": TARGETS["ratio_vs_sra"],
                         "cup_round_ms_per_peer_below": TARGETS["cup_round_ms_per_peer"]}
    result["meets_targets"] = (result["setup_ms_per_peer"] < TARGETS["setup_ms_per_peer"]
                               and result["ratio_vs_sra"] >= TARGETS["ratio_vs_sra"]
                               and result["cup_round_ms_per_peer"] < TARGETS["cup_round_ms_per_peer"])
    return {k: round(v, 2) if isinstance(v, float) else v for k, v in result.items()}


def report(result: dict[str, Any], out: TextIO) -> None:
    """Print ``result`` for people."""
    print(f"mental deck: {result['seats']} seats, {result['cards']} cards, "
          "CPU ms per peer (the slowest peer)", file=out)
    print(f"  shuffle + lock + proofs   {result['shuffle_lock_proofs_ms_per_peer']:9.1f}", file=out)
    print(f"  verification (3 seats)    {result['verification_ms_per_peer']:9.1f}", file=out)
    print(f"  deal {result['dealt_per_seat']} cards to each seat {result['deal_ms_per_peer']:9.1f}", file=out)
    print(f"  whole set-up              {result['setup_ms_per_peer']:9.1f}   (target < "
          f"{TARGETS['setup_ms_per_peer']:.0f})", file=out)
    print(f"bare 4-seat shuffle, no proofs: textbook SRA 2048-bit {result['sra_ms']:.1f} ms, "
          f"ristretto255 {result['ec_ms']:.1f} ms", file=out)
    print(f"  ratio {result['ratio_vs_sra']:.0f}x   (target >= {TARGETS['ratio_vs_sra']:.0f}x)", file=out)
    print(f"  our whole set-up with proofs is {result['setup_with_proofs_vs_bare_sra_per_peer']:.1f}x faster "
          "per peer than the bare SRA shuffle", file=out)
    print(f"private rolls: {result['cup_seats']} seats x {result['cup_dice']} dice under cups, a round "
          "(every cup rolled, then all lifted), CPU ms per peer (the slowest peer)", file=out)
    print(f"  one round                 {result['cup_round_ms_per_peer']:9.1f}   (target < "
          f"{TARGETS['cup_round_ms_per_peer']:.0f}; mean peer {result['cup_round_ms_mean_per_peer']:.1f}, "
          f"{result['cup_round_messages']:.0f} signed messages)", file=out)
    print("meets targets" if result["meets_targets"] else "MISSES a target", file=out)


def main(argv: Sequence[str] | None = None, out: TextIO = sys.stdout) -> int:
    """Entry point of ``python -m atoll_tools.bench.fair``."""
    parser = argparse.ArgumentParser(prog="scripts/bench fair", description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--seed", type=int, default=None, help="fix the seats' seeds (default: fresh)")
    args = parser.parse_args(argv)
    result = run_bench(args.seed)
    if args.json:
        print(json.dumps(result, sort_keys=True), file=out)
    else:
        report(result, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
