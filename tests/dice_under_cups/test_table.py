"""Dice Under Cups at a network table without sockets: a host and peers wired by function calls
(tests/table/harness.py), every peer with its own secrets; and cheating owners of a cup, caught."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from nacl.signing import SigningKey

import atoll.authoring.examples.dice_under_cups as plugin
from atoll.net.encoding import fingerprint
from atoll.registry import Registry, load_registry
from atoll.table.audit import audit_log
from atoll.table.host import Sequencer
from atoll.table.peer import PeerSession
from atoll.table.table import Table
from tests.table.harness import Net, Peer

#: The installed games and the example, registered as a host registers an extra plugin.
REGISTRY: Registry = load_registry(extra=[("dice_under_cups", plugin)])
GAME = "dice_under_cups"


def open_cups_table(
    seats: int, variant: str = "short", *, watchers: int = 0, turn_time: float | None = None
) -> Net:
    """A headless host and ``seats`` seated peers (plus spectators) of Dice Under Cups, every table on
    the net's clock; ``turn_time`` is signed in the ``open`` entry."""
    host_key = SigningKey(os.urandom(32))
    host = Sequencer.open(f"cups-{os.urandom(6).hex()}", host_key, REGISTRY.game, game=GAME, variant=variant,
                          seats=seats, name="cups table", pin=REGISTRY.pin(GAME), turn_time=turn_time)
    peers: list[Peer] = []
    net = Net(host, peers)
    host.table.clock = net.clock
    for i in range(seats + watchers):
        key = SigningKey(os.urandom(32))
        table = Table(host.table.id, host_key.verify_key.encode(), key, REGISTRY.game, clock=net.clock)
        role = "sit" if i < seats else "watch"
        peers.append(Peer(key, PeerSession(table, role, f"p{i}", REGISTRY.installed_pin), f"c{i}".encode()))
    return net


def audit(net: Net, tmp_path: Path) -> Any:
    path = tmp_path / "log.jsonl"
    path.write_text("".join(json.dumps(e.to_json()) + "\n" for e in net.host.table.log.entries))
    return audit_log(path, REGISTRY.game, fingerprint)


def test_a_table_plays_to_the_end_with_identical_logs_that_audit_clean(tmp_path: Path) -> None:
    net = open_cups_table(3, watchers=1)
    net.run()
    heads = {p.table.log.head for p in net.peers} | {net.host.table.log.head}
    assert len(heads) == 1
    assert all(p.table.results() is not None for p in net.peers)
    report = audit(net, tmp_path)
    assert report.clean, report.cheat


def test_at_a_table_each_peer_knows_only_the_dice_under_its_own_cup() -> None:
    net = open_cups_table(3, watchers=1)
    seen: list[dict[str, Any]] = []

    def first_bid_known(index: int, data: bytes) -> bytes:
        engines = [p.table.engine for p in net.peers]
        if not seen and all(e is not None and e.match.state["phase"] == "bid" for e in engines):
            seen.extend(dict(e.match.known[s]) for s, e in enumerate(engines[:3]) if e is not None)
            seen.append({"watcher": [dict(k) for k in engines[3].match.known]})  # type: ignore[union-attr]
        return data

    net.relay = first_bid_known
    net.run()
    cups = [k for k in seen[:3]]
    assert all(len(k) == 2 for k in cups)
    assert len({h.split(".")[0] for k in cups for h in k}) == 3  # each seat knows its own cup only
    assert seen[3] == {"watcher": [{}, {}, {}]}


def _cheat(net: Net, seat: int, kind: str, change: Any) -> None:
    """Peer ``seat`` runs modified software: it rewrites the body of its ``kind`` messages and signs them."""
    table = net.peers[seat].table
    honest = table._send_fair

    def send(message: dict[str, Any]) -> None:
        body = message.get("body")
        if message.get("kind") == kind and isinstance(body, dict):
            engine = table.engine
            assert engine is not None and engine.resolver.me is not None
            changed = change(dict(body))
            if changed is None:
                return  # withheld
            message = dict(message, body=changed)
        honest(message)

    table._send_fair = send  # type: ignore[method-assign]


def _named_by_everyone(net: Net, seat: int) -> None:
    for peer in net.peers:
        ended = peer.table.ended
        assert ended is not None and f"seat {seat + 1} cheated" in ended, ended  # people read seats from 1
        assert any(event.blame == seat for event in peer.table.events)


def test_a_wrong_opening_when_the_cups_are_lifted_is_caught_and_named_by_everyone() -> None:
    net = open_cups_table(3)

    def wrong(body: dict[str, Any]) -> dict[str, Any]:
        return dict(body, dice={h: "ab" * 32 for h in body["dice"]})

    _cheat(net, 1, "reveal", wrong)
    net.run()
    _named_by_everyone(net, 1)


def test_a_replayed_secret_is_caught_and_named_by_everyone() -> None:
    # seat 2 opens a die of this round with a secret it showed for another die: caught at once
    net = open_cups_table(3)
    opened: dict[str, str] = {}

    def replay(body: dict[str, Any]) -> dict[str, Any]:
        dice = dict(body["dice"])
        if opened:
            handle = sorted(dice)[0]
            dice[handle] = next(iter(opened.values()))
        opened.update(body["dice"])
        return dict(body, dice=dice)

    _cheat(net, 2, "reveal", replay)
    net.run()
    _named_by_everyone(net, 2)
    assert any("replayed secret" in (p.table.ended or "") for p in net.peers)


def test_a_withheld_opening_when_the_cups_are_lifted_forfeits_the_owner_after_the_turn_time() -> None:
    net = open_cups_table(3, turn_time=30.0)
    _cheat(net, 1, "reveal", lambda body: None)
    with pytest.raises(AssertionError, match="stuck"):  # nobody owes a move: seat 1's openings are owed
        net.run()
    assert all(p.table.ended is None and p.table.results() is None for p in net.peers)
    net.tick(0.0)
    net.tick(31.0)  # the turn time and the host's margin
    for peer in net.peers:
        assert peer.table.ended is not None
        assert peer.table.ended.startswith("seat 2 forfeits"), peer.table.ended
        assert all(event.blame is None for event in peer.table.events)  # late is not a cheat
        assert peer.table.ending is not None and peer.table.ending.seat == 1
