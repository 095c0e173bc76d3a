"""A game's plugin that fails at a table is named, and nobody is blamed; only what a seat signed wrong
names a seat (issue 25 point 2, issue 24 point 4; ``docs/decisions/0015-faults-are-not-cheats.md``)."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from atoll import Action, GameInfo
from atoll.net.encoding import fingerprint
from atoll.registry import load_registry
from atoll.table.audit import audit_log
from atoll.table.reasons import Ending, EndReason
from atoll.table.table import Table
from tests.games import faulty
from tests.table.harness import Net, open_table
from tests.table.wire import loopback_table, play

REGISTRY = load_registry(extra=[("faulty-games", faulty)], limit=1.0)


def write_log(table: Table, path: Path) -> Path:
    """A peer's log, as it would have written it to disk."""
    path.write_bytes(b"".join(entry.to_bytes() + b"\n" for entry in table.log.entries))
    return path


def endings(net: Net, reason: EndReason) -> list[Ending]:
    """How each seated peer's table ended, each checked to have ended for ``reason``."""
    found = [peer.table.ending for peer in net.peers]
    for ending, peer in zip(found, net.peers, strict=True):
        assert ending is not None and ending.reason is reason, peer.table.ended
    return [e for e in found if e is not None]


def assert_nobody_blamed(net: Net) -> None:
    for table in [net.host.table, *(p.table for p in net.peers)]:
        assert all(event.blame is None for event in table.events), [e.text for e in table.events]
        assert not any("cheat" in event.text.lower() for event in table.events)


@pytest.mark.parametrize("method", ["setup", "next", "apply", "resolve"])
def test_a_plugin_raising_in_the_rules_every_peer_runs_stops_the_table_naming_it_and_blaming_nobody(
    method: str, tmp_path: Path
) -> None:
    net = open_table(faulty.raising_name(method), 3, "quick" if method == "setup" else "standard",
                     registry=REGISTRY)
    net.run()
    for ending in endings(net, EndReason.PLUGIN_FAULT):
        assert f"the game {faulty.raising_name(method)!r} (from tests) in {method} failed" in ending.text
        assert "nobody is to blame" in ending.text and ending.seat is None
    assert_nobody_blamed(net)
    report = audit_log(write_log(net.peers[0].table, tmp_path / "log.jsonl"), REGISTRY.game, fingerprint)
    assert report.cheat is None and report.reason is EndReason.PLUGIN_FAULT and report.blame is None


def test_a_plugin_failing_on_the_movers_machine_makes_that_seat_leave_saying_why() -> None:
    # only the seat to move asks what it may do: its machine cannot go on, so it leaves, naming the
    # plugin in its signed leave; the table ends with no result and nobody is blamed
    method = "legal_actions"
    net = open_table(faulty.raising_name(method), 3, registry=REGISTRY)
    net.run()
    for ending in endings(net, EndReason.LEFT):
        assert f"the game {faulty.raising_name(method)!r}" in ending.text
        assert "nobody is to blame" in ending.text
    assert_nobody_blamed(net)


def test_a_plugin_looping_in_legal_actions_is_stopped_at_its_time_limit_and_its_seat_leaves() -> None:
    net = open_table("loops_in_legal_actions", 2, registry=REGISTRY)
    net.run()
    for ending in endings(net, EndReason.LEFT):
        assert "ran past its time limit of 1 s and was stopped" in ending.text
    assert_nobody_blamed(net)


@pytest.mark.parametrize("method", ["describe", "view", "render"])
def test_a_plugin_whose_words_or_drawing_fail_still_plays_the_game_to_its_end(method: str) -> None:
    # the table's rules never need them (a screen says the plugin failed, see tests/test_faults.py)
    net = open_table(faulty.raising_name(method), 2, registry=REGISTRY)
    net.run()
    assert all(p.table.closed and p.table.ending is None for p in net.peers)


class _Sideways(faulty.Refusing):
    """The cheater's modified copy: its own rules let it bet "sideways"."""

    info = GameInfo("refuses_revealed_bets", "Refuses revealed bets", 2, 4, ("standard", "picky"))

    def legal_actions(self, state: Any, seat: int, known: Mapping[str, Any]) -> list[Action]:
        if state["phase"] == "bet" and seat == state["turn"]:
            return [{"secret": ["sideways"]}]
        return super().legal_actions(state, seat, known)


def test_a_revealed_value_the_plugin_refuses_is_judged_against_the_seat_that_sealed_it(
    tmp_path: Path,
) -> None:
    # seat 0 seals a bet the rules do not allow; the plugin's own resolve refuses it when the bets are
    # revealed. Every seed is opened and the referee names seat 0, who signed it: never the seat whose
    # message happened to complete the reveal
    net = open_table("refuses_revealed_bets", 3, registry=REGISTRY)
    cheater = net.peers[0].table
    cheater.games = lambda name: _Sideways()

    net.run()
    for peer in net.peers[1:]:
        ending = peer.table.ending
        assert ending is not None and ending.reason is EndReason.CHEAT, peer.table.ended
        assert ending.seat == 0 and "'sideways'" in ending.text
        assert [e.blame for e in peer.table.events if e.blame is not None] == [0]
    report = audit_log(write_log(net.peers[1].table, tmp_path / "log.jsonl"), REGISTRY.game, fingerprint)
    assert report.blame == 0 and report.cheat is not None and report.reason is EndReason.CHEAT


def test_a_plugin_that_refuses_a_revealed_value_its_own_rules_allowed_is_at_fault_and_nobody_is_blamed(
    tmp_path: Path,
) -> None:
    net = open_table("refuses_revealed_bets", 3, "picky", registry=REGISTRY)
    net.run()
    for ending in endings(net, EndReason.PLUGIN_FAULT):
        assert "in resolve" in ending.text and "refused the outcome" in ending.text
    assert_nobody_blamed(net)
    report = audit_log(write_log(net.peers[2].table, tmp_path / "log.jsonl"), REGISTRY.game, fingerprint)
    assert report.cheat is None and report.reason is EndReason.PLUGIN_FAULT


def test_a_fair_handler_that_fails_is_atolls_own_fault_and_names_nobody(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a deliberately broken handler: before, any KeyError under a handler was called the author's cheat
    from atoll.fair.steps.record import Record

    def broken(self: Record, seat: int, body: dict[str, Any]) -> None:
        raise KeyError("a bug of atoll's own")

    monkeypatch.setattr(Record, "_on_chain_open", broken)
    net = open_table("kiribati", 3, "professional", registry=REGISTRY)
    net.run()
    for ending in endings(net, EndReason.ATOLL_FAULT):
        assert "atoll.fair.steps.record" in ending.text and "nobody is to blame" in ending.text
    assert_nobody_blamed(net)
    assert len({p.table.log.head for p in net.peers}) == 1  # every log kept, and alike


def test_a_signed_message_missing_a_field_is_still_its_authors_cheat() -> None:
    # the explicit check the catch-all gave way to: a seat that signs its seed's opening without the
    # values of its sealed choices signed something malformed
    net = open_table("kiribati", 3, "professional", registry=REGISTRY)
    cheat = net.peers[1].table
    honest_send = cheat._send_fair

    def without_values(message: dict[str, Any]) -> None:
        if message.get("kind") == "seed":  # its seat's identity signs the envelope that carries it
            message = dict(message, body={k: v for k, v in message["body"].items() if k != "values"})
        honest_send(message)

    cheat._send_fair = without_values  # type: ignore[method-assign]
    net.run()
    for peer in (net.peers[0], net.peers[2]):
        assert peer.table.ending is not None and peer.table.ending.reason is EndReason.CHEAT
        assert peer.table.ending.seat == 1 and "has no values" in peer.table.ending.text



@pytest.mark.parametrize("game", [faulty.raising_name("legal_actions"), "loops_in_legal_actions",
                                  faulty.raising_name("apply")])
def test_at_a_loopback_table_a_failing_plugin_ends_the_game_for_everyone_naming_it(game: str) -> None:
    async def run() -> None:
        async with loopback_table(game, 3, registry=REGISTRY) as wire:
            await asyncio.wait_for(play(wire), 60)
            stopped = (EndReason.LEFT, EndReason.PLUGIN_FAULT)  # its seat left saying why; everyone failed
            for table in [wire.host.table, *(p.table for p in wire.peers)]:
                assert table.ending is not None and table.ending.reason in stopped
                assert f"the game {game!r}" in table.ending.text and "nobody is to blame" in table.ending.text
                assert all(event.blame is None for event in table.events)
            assert len(wire.heads()) == 1

    asyncio.run(run())
