"""``scripts/bench fair [--json]``: what the mental deck and private rolls cost each peer at a table.

One run, 4 seats and Kariba's 64-card deck (eight of each of eight animals), played at a real table in
memory (:mod:`atoll_tools.asked`): a host sequencer and each seat's own
:class:`~atoll.table.table.Table`, so every fair message is sealed in its seat's envelope (an Ed25519
signature), sequenced and hash-chained by the host, and checked by every peer, as on the network.
CPU time (``time.process_time``) is charged to the peer whose table ran (:attr:`Net.cpu
<atoll_tools.memory_table.Net.cpu>`), so each figure is one peer's:

- ``setup_ms_per_peer``: the deck's whole set-up for the slowest peer (its own shuffle and lock with
  their proofs, checking the other three seats' shuffles and locks, the envelopes and the log) and
  dealing five cards to each seat (its keys out, the others' keys checked, its own five cards read);
- ``verification_ms_per_peer``: checking three seats' shuffles and locks: three quarters of what a
  spectator's table spent checking all four seats' (it makes no proof of its own);
- ``shuffle_lock_proofs_ms_per_peer``: the rest of the slowest peer's set-up (less its deal): making
  its own shuffle, lock and proofs, and signing them;
- ``deal_ms_per_peer``: the deal of five cards to each seat;
- ``host_setup_ms``: what the host spent sequencing the set-up and the deal (it checks every
  envelope and keeps its own record, with no secret);
- ``sra_ms`` and ``ec_ms``: the bare 4-seat shuffle (every seat raises every card to its key and
  permutes, no proofs) as textbook SRA with 2048-bit modular exponentiation (RFC 3526 group 14) and
  on our group, and ``ratio_vs_sra``, the first over the second: the baseline measured in this run.

Private rolls (dice under a cup, as in Liar's Dice): 6 seats with 5 dice each, for
:data:`CUP_ROUNDS` rounds. A round is every seat rolling its 5 dice under its cup (one ``cup/commit``
and one round of chain openings each) and the cups lifted at the end (every seat opens its 30
secrets to everyone); every peer checks every message and its envelope. ``cup_round_ms_per_peer`` is
the CPU time of one round charged to the slowest peer, ``cup_round_messages`` the signed fair
messages of a round (the moves that ask for each step come on top: ``cup_round_entries``).
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
from typing import Any, TextIO, TypeVar

from atoll.chance import Deal, Reveal, Roll, Shuffle
from atoll.fair.primitives import group
from atoll.wire import Kind
from atoll_tools.asked import AskedTable, asked_table

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


def spent(played: AskedTable, before: dict[int, float]) -> dict[int, float]:
    """CPU seconds each peer (the host under ``-1``) spent since ``before``."""
    return {who: total - before.get(who, 0.0) for who, total in played.net.cpu.items()}


def measure_deck(masters: Sequence[bytes]) -> dict[str, float]:
    """Set up the deck for 4 seats at a table and deal five cards each; per-peer CPU figures in ms."""
    played = asked_table(SEATS, watchers=1, masters=masters)
    watcher = SEATS
    before = dict(played.net.cpu)
    handles = played.resolve(Shuffle("deck", FACES)).outcome["handles"]
    setup = spent(played, before)
    before = dict(played.net.cpu)
    dealt = played.resolve(Deal(tuple((s, tuple(handles[s * HAND:(s + 1) * HAND])) for s in range(SEATS))))
    deal = spent(played, before)
    for seat in range(SEATS):
        assert sorted(dealt.privately[seat]) == sorted(handles[seat * HAND:(seat + 1) * HAND])
    total = {seat: setup[seat] + deal[seat] for seat in range(SEATS)}
    slowest = max(range(SEATS), key=total.__getitem__)
    verify = setup[watcher] * (SEATS - 1) / SEATS
    return {
        "setup_ms_per_peer": 1e3 * total[slowest],
        "shuffle_lock_proofs_ms_per_peer": 1e3 * (setup[slowest] - verify),
        "verification_ms_per_peer": 1e3 * verify,
        "deal_ms_per_peer": 1e3 * deal[slowest],
        "setup_ms_mean_per_peer": 1e3 * sum(total.values()) / SEATS,
        "host_setup_ms": 1e3 * (setup[-1] + deal[-1]),
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


def measure_cups(masters: Sequence[bytes]) -> dict[str, float]:
    """:data:`CUP_ROUNDS` rounds of Liar's Dice chance at 6 seats x 5 dice at a table; per-peer CPU in ms."""
    played = asked_table(CUP_SEATS, masters=masters)
    log = played.net.host.table.log
    before, entries = dict(played.net.cpu), len(log.entries)
    for round_ in range(CUP_ROUNDS):
        cups = [Roll(CUP_DICE, 6, to=seat, cup=f"r{round_}s{seat}") for seat in range(CUP_SEATS)]
        for cup in cups:
            assert set(played.resolve(cup).privately) == {cup.to}
        lifted = played.resolve(Reveal(tuple(h for cup in cups for h in cup.handles())))
        assert len(lifted.outcome["faces"]) == CUP_SEATS * CUP_DICE
    used = spent(played, before)
    seats = [used[seat] for seat in range(CUP_SEATS)]
    added = log.entries[entries:]
    return {
        "cup_round_ms_per_peer": 1e3 * max(seats) / CUP_ROUNDS,
        "cup_round_ms_mean_per_peer": 1e3 * sum(seats) / CUP_SEATS / CUP_ROUNDS,
        "cup_round_messages": sum(1 for e in added if e.message.kind == Kind.FAIR) / CUP_ROUNDS,
        "cup_round_entries": len(added) / CUP_ROUNDS,
    }


def run_bench(seed: int | None = None) -> dict[str, Any]:
    """Every measurement of this suite, as one JSON-able object."""
    rng = random.Random(seed) if seed is not None else random.SystemRandom()
    seeds = [rng.randbytes(32) if seed is not None else os.urandom(32) for _ in range(SEATS)]  # masters
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
    print(f"  the host, sequencing it   {result['host_setup_ms']:9.1f}", file=out)
    print(f"bare 4-seat shuffle, no proofs: textbook SRA 2048-bit {result['sra_ms']:.1f} ms, "
          f"ristretto255 {result['ec_ms']:.1f} ms", file=out)
    print(f"  ratio {result['ratio_vs_sra']:.0f}x   (target >= {TARGETS['ratio_vs_sra']:.0f}x)", file=out)
    print(f"  our whole set-up with proofs is {result['setup_with_proofs_vs_bare_sra_per_peer']:.1f}x faster "
          "per peer than the bare SRA shuffle", file=out)
    print(f"private rolls: {result['cup_seats']} seats x {result['cup_dice']} dice under cups, a round "
          "(every cup rolled, then all lifted), CPU ms per peer (the slowest peer)", file=out)
    print(f"  one round                 {result['cup_round_ms_per_peer']:9.1f}   (target < "
          f"{TARGETS['cup_round_ms_per_peer']:.0f}; mean peer {result['cup_round_ms_mean_per_peer']:.1f}, "
          f"{result['cup_round_messages']:.0f} signed fair messages in "
          f"{result['cup_round_entries']:.0f} entries)",
          file=out)
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
