"""The fairness cheats, sent over the wire by a modified peer: every honest peer catches and names it.

Each case is a real table on loopback (a host ROUTER, peer DEALERs over CURVE) with honest random-bot
peers and one seat whose fair participant (or chooser) is modified to cheat; its messages are signed
with its own keys, exactly what modified software on a player's laptop could send. The cheats are
those of the fair tests (``tests/fair``): a wrong shuffle, a wrong lock proof, a wrong decryption key,
a withheld key, keys or a chain link replayed from earlier, a wrong chain opening, a commitment opened
to another value, two commitments for one seal, a seed that does not open its steps, an illegal
sealed choice. Tables are two seats and stop at the cheat, so each costs about a set-up.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from atoll.fair.primitives import group
from atoll.fair.steps.messages import Message
from atoll.fair.steps.seat import Participant
from atoll.net.encoding import fingerprint
from atoll.table.audit import audit_log
from tests.table.harness import REGISTRY
from tests.table.wire import Tamper, cheating_participants, loopback_table, play, rewrite

CHEAT = 1
#: The turn time signed by the tables that wait for a withheld message: long enough that an honest
#: seat of a loaded machine never runs out of it, short enough for a quick test.
TURN_TIME = 3.0
OTHER_POINT = group.hash_to_point("test/other", {}).hex()
OTHER_SCALAR = group.scalar_to_hex(12345)


def replace(name: str, change: Callable[[Any], Any]) -> Callable[[dict[str, Any]], None]:
    def edit(body: dict[str, Any]) -> None:
        body[name] = change(body[name])

    return edit


def at(index: int, value: Any) -> Callable[[list[Any]], list[Any]]:
    return lambda values: [*values[:index], value, *values[index + 1 :]]


def first_key_wrong(pairs: list[list[Any]]) -> list[list[Any]]:
    return [[pairs[0][0], OTHER_SCALAR], *pairs[1:]]


def replay_deck_open() -> Tamper:
    """The seat's second open message carries the keys of its first (an earlier round)."""
    first: list[dict[str, Any]] = []

    def tamper(me: Participant, message: Message) -> list[Message]:
        body = message["body"]
        if message["kind"] != "deck" or body.get("type") != "deck/open":
            return [message]
        if not first:
            first.append(dict(body))
            return [message]
        return [dict(message, body=dict(first[0]))]

    return tamper


def replay_chain_link() -> Tamper:
    """The seat answers its second draw with the link it opened for its first."""
    first: list[str] = []

    def tamper(me: Participant, message: Message) -> list[Message]:
        if message["kind"] != "chain/open":
            return [message]
        if not first:
            first.append(message["body"]["link"])
            return [message]
        return [dict(message, body=dict(message["body"], link=first[0]))]

    return tamper


def equivocate() -> Tamper:
    """The seat signs two different commitments for its first seal; it sends the second just before
    its next protocol message, while a step is open (once the seal's step is complete, the host
    refuses any message for it as owed by nobody, so it would never reach the log)."""
    held: list[Message] = []
    done = [False]

    def tamper(me: Participant, message: Message) -> list[Message]:
        if message["kind"] == "seal/commit" and not held:
            commitments = {h: "ab" * 32 for h in message["body"]["commitments"]}
            held.append(dict(message, body={"commitments": commitments}))
            return [message]
        if held and not done[0]:
            done[0] = True
            return [held[0], message]
        return [message]

    return tamper


def open_to_another_value(body: dict[str, Any]) -> None:
    sealed = {h: dict(o, value={"other": True}) for h, o in body["sealed"].items()}
    body["sealed"] = sealed


@dataclass(frozen=True)
class Cheat:
    """A cheat over the wire: the table it happens at, the modification, and what the peers say."""

    game: str
    variant: str
    tamper: Tamper | None
    says: str
    sealing: Callable[[list[Any]], list[Any]] | None = None


def illegal(values: list[Any]) -> list[Any]:
    """A sealed choice the rules do not allow (it stays hidden until its slot opens)."""
    return [{"no such": "card"} for _ in values]


CHEATS = {
    "shuffle-substitutes-a-card": Cheat(
        "kariba",
        "standard",
        rewrite("deck", replace("cards", at(2, OTHER_POINT)), deck="deck/shuffle"),
        "not a re-keyed permutation",
    ),
    "lock-with-a-wrong-key-commitment": Cheat(
        "kariba",
        "standard",
        rewrite("deck", replace("keys", at(0, OTHER_POINT)), deck="deck/lock"),
        "lock of deck 'deck': Chaum–Pedersen proof does not check",
    ),
    "wrong-decryption-key": Cheat(
        "kariba", "standard", rewrite("deck", replace("keys", first_key_wrong), deck="deck/open"), "wrong key"
    ),
    "withheld-decryption-key": Cheat(
        "kariba", "standard", rewrite("deck", replace("keys", lambda k: k[1:]), deck="deck/open"), "withholds"
    ),
    "keys-replayed-from-an-earlier-round": Cheat(
        "kariba", "standard", replay_deck_open(), "replayed its keys"
    ),
    "wrong-chain-opening": Cheat(
        "kiribati", "professional", rewrite("chain/open", replace("link", lambda _: "ab" * 32)), "link"
    ),
    "chain-link-replayed-from-an-earlier-draw": Cheat(
        "kiribati", "professional", replay_chain_link(), "does not hash to its link"
    ),
    "commitment-opened-to-another-value": Cheat(
        "kiribati", "professional", rewrite("prove", open_to_another_value), "not what it committed to"
    ),
    "two-commitments-for-one-seal": Cheat("kiribati", "professional", equivocate(), "equivocation"),
    "seed-that-does-not-open-its-steps": Cheat(
        "kiribati",
        "professional",
        rewrite("seed", replace("seed", lambda _: "cd" * 32)),
        "does not follow from its opened seed",
    ),
    "illegal-sealed-choice": Cheat("kiribati", "professional", None, "opens to", sealing=illegal),
}


@pytest.mark.parametrize("name", sorted(CHEATS))
def test_a_cheat_sent_over_the_wire_is_caught_and_its_seat_named_by_every_honest_peer_and_the_audit(
    name: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    cheat = CHEATS[name]

    async def run() -> None:
        async with loopback_table(cheat.game, 2, cheat.variant, watchers=1) as wire:
            cheating_participants(monkeypatch, wire.peers[CHEAT].table, cheat.tamper, sealing=cheat.sealing)
            await asyncio.wait_for(play(wire, honest=[0, 2]), 120)
            seat = wire.peers[CHEAT].table.my_seat  # seats go in the order the sits reached the host
            honest = [wire.peers[0], wire.peers[2]]  # the other seat and a spectator
            for table in [wire.host.table, *(p.table for p in honest)]:
                assert table.ended is not None and table.ended.startswith(f"seat {seat + 1} cheated"), (
                    table is wire.host.table,
                    table.events[-3:],
                )
                assert cheat.says in table.ended
                assert any(event.blame == seat for event in table.events)
            assert len(wire.heads(honest)) == 1
            # the audit reads the same verdict from the log alone
            log = tmp_path / "log.jsonl"
            log.write_bytes(b"".join(e.to_bytes() + b"\n" for e in wire.host.table.log.entries))
            report = audit_log(log, REGISTRY.game, fingerprint)
            assert report.blame == seat and report.cheat is not None and cheat.says in report.cheat

    asyncio.run(run())


@pytest.mark.parametrize(
    ("seats", "outcome"),
    [(2, "aborted, not attributable"), (3, "forfeits")],
)
def test_an_opening_withheld_over_the_wire_waits_for_that_seat_then_ends_as_the_turn_time_rules(
    seats: int, outcome: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Silence is not signed evidence: the table waits, every honest peer knowing for whom, until the
    # host's turn time passes; then the host states a timeout and the other seats witness it. Two
    # witnesses make it a forfeit naming the seat; one (at two seats) aborts the table, blaming nobody.
    def withhold(me: Participant, message: Message) -> list[Message]:
        return [] if message["kind"] == "chain/open" else [message]

    async def run() -> None:
        async with loopback_table("kiribati", seats, "professional", watchers=1, turn_time=TURN_TIME) as wire:
            cheater = wire.peers[CHEAT]
            cheating_participants(monkeypatch, cheater.table, withhold)
            honest = [p for p in wire.peers if p is not cheater]
            tables = [wire.host.table, *(p.table for p in honest)]
            waited: list[bool] = []

            def stalled_then_timed_out() -> bool:
                seat = cheater.table.my_seat
                engines = [t.engine for t in tables]
                if not waited and (
                    seat is not None
                    and all(e is not None and e.waiting().owed == (seat,) for e in engines)
                    and len({len(t.log.entries) for t in tables}) == 1
                ):
                    assert all(t.ended is None for t in tables)
                    waited.append(True)
                return all(t.over() for t in tables)

            await asyncio.wait_for(
                play(wire, honest=[p.index for p in honest], until=stalled_then_timed_out), 90
            )
            seat = cheater.table.my_seat
            assert waited
            for table in tables:
                assert table.ended is not None and outcome in table.ended, table.ended
                # silence is a timeout, never a cheat: nobody is blamed; a forfeit names the late seat
                assert all(event.blame is None for event in table.events)
                assert table.ending is not None and table.ending.seat == seat
            assert len(wire.heads(honest)) == 1

    asyncio.run(run())
