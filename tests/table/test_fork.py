"""A host that shows one seat another history than the others (a fork of the log under its signature):
the seat that finds it shows the others the two signatures directly and every seat names the host,
never a seat; `atoll audit LOG1 LOG2 ...` prints the same evidence from two copies (exit 1), and
copies that agree are audited as one."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from atoll.net.envelope import own_envelope
from atoll.table.log import BadEntry, sequence
from atoll.table.reasons import EndReason
from atoll.table.table import Table
from atoll.wire import Kind
from tests.table.harness import REGISTRY, Net, open_table
from tests.table.test_survive import play_until_a_seat_owes_a_move, start

VICTIM = 1


def audit(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "ATOLL_HOME": str(home / "home"), "HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "atoll.cli.main", "audit", *args],
                          capture_output=True, text=True, timeout=120, env=env)


def copy_of(net: Net, index: int | None, path: Path) -> Path:
    """Peer ``index``'s copy of the log (``None``: the host's), as it keeps it on disk."""
    table = net.host.table if index is None else net.peers[index].table
    path.write_bytes(b"".join(entry.to_bytes() + b"\n" for entry in table.log.entries))
    return path


def forked(net: Net, victim: int = VICTIM) -> int:
    """The host signs, for ``victim`` only, another entry at the next position than the one it gives
    the others (a message of its own): two histories under its signature. Returns that position."""
    host = net.host.table
    seq = len(host.log.entries)
    message = own_envelope(host.compose(Kind.WATCH, {"name": "another history"}))
    other = sequence(net.host.key, host.id, seq, host.log.head, message)
    net.peers[victim].table.receive(other.to_json())
    return seq


def test_two_copies_forked_by_the_host_name_the_host_with_both_signed_entries(tmp_path: Path) -> None:
    net = open_table("kariba", 3)
    start(net)
    play_until_a_seat_owes_a_move(net)
    seq = forked(net)
    net.relay = lambda index, data: None if index == VICTIM else data  # the others go on
    net.deliver(net.host.local(net.host.table.compose(Kind.WATCH, {"name": "this history"})))
    theirs = copy_of(net, VICTIM, tmp_path / "seat1.jsonl")
    ours = copy_of(net, 0, tmp_path / "seat0.jsonl")
    done = audit(tmp_path, str(ours), str(theirs))
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"signed two different histories at entry {seq}" in done.stderr
    assert str(ours) in done.stderr and str(theirs) in done.stderr and "Traceback" not in done.stderr
    verdict = json.loads(audit(tmp_path, str(ours), str(theirs), "--json").stdout)
    assert verdict["outcome"] == "host equivocated" and verdict["fork"]["seq"] == seq
    assert {c["file"] for c in verdict["fork"]["copies"]} == {str(ours), str(theirs)}
    alone = audit(tmp_path, str(theirs), "--json")  # each copy alone names no seat
    assert json.loads(alone.stdout)["seat"] is None


def test_copies_that_agree_are_audited_as_one_log(tmp_path: Path) -> None:
    net = open_table("kariba", 3)
    net.run()
    copies = [str(copy_of(net, i, tmp_path / f"seat{i}.jsonl")) for i in range(3)]
    done = audit(tmp_path, *copies)
    assert done.returncode == 0, done.stdout + done.stderr


def test_logs_of_two_different_tables_are_not_copies_of_one(tmp_path: Path) -> None:
    first, second = open_table("kariba", 2), open_table("kariba", 2)
    start(first)
    start(second)
    done = audit(tmp_path, str(copy_of(first, None, tmp_path / "a.jsonl")),
                 str(copy_of(second, None, tmp_path / "b.jsonl")))
    assert done.returncode == 2 and "2 different tables" in done.stderr


def test_the_seat_shown_a_fork_shows_the_others_and_every_seat_names_the_host() -> None:
    net = open_table("kariba", 3)
    start(net)
    late = play_until_a_seat_owes_a_move(net)
    forked(net, (late + 1) % 3)
    # the host goes on with the others' history, and sends it to seat 1 too
    net.deliver(net.host.local(net.host.table.compose(Kind.WATCH, {"name": "this history"})))
    engine = net.peers[late].table.engine
    assert engine is not None
    net.send(late, net.peers[late].table.move(engine.match.legal_actions(late)[0]))
    for peer in net.peers:
        ending = peer.table.ending
        assert ending is not None and ending.reason is EndReason.HOST_EQUIVOCATED, peer.table.ended
        assert ending.seat is None and all(event.blame is None for event in peer.table.events)


def test_the_seat_shown_a_fork_sets_its_forked_entries_aside_on_disk_and_takes_the_others_history(
    tmp_path: Path,
) -> None:
    net = open_table("kariba", 3)
    start(net)
    play_until_a_seat_owes_a_move(net)
    seq = forked(net)
    net.deliver(net.host.local(net.host.table.compose(Kind.WATCH, {"name": "this history"})))
    shown = net.peers[VICTIM]
    path = tmp_path / "log.jsonl"
    kept = Table(shown.table.id, net.host.key.verify_key.encode(), shown.key, REGISTRY.game, log_path=path,
                 master=shown.table.master)
    for entry in shown.table.log.entries:  # its copy on disk, the forked entry last
        kept.receive(entry.to_json())
    written = kept.compose(Kind.CHAT, {"text": "a number used before the fork is set aside"})
    fresh = kept.set_aside(seq)
    assert len(fresh.log.entries) == seq and len(path.read_text().splitlines()) == seq
    aside = path.with_name("log.jsonl.damaged-1").read_text().splitlines()
    assert len(aside) == 1 and json.loads(aside[0])["seq"] == seq  # moved beside the log, not deleted
    # its message numbers go on: it never signs two messages under one number
    assert own_envelope(fresh.compose(Kind.CHAT, {"text": "next"})).n > own_envelope(written).n
    fresh.receive(net.host.table.log.entries[seq].to_json())  # the history every other copy holds
    assert fresh.log.head == net.host.table.log.entries[seq].head
    fresh.log.close()


def under_way() -> tuple[Net, Table, int]:
    """A Kariba table of three waiting on a seat's move: the net, the host's table, its next position."""
    net = open_table("kariba", 3)
    start(net)
    play_until_a_seat_owes_a_move(net)
    return net, net.host.table, len(net.host.table.log.entries)


def test_a_host_that_signs_a_repeated_message_and_then_another_entry_at_that_position_is_named() -> None:
    net, host, seq = under_way()
    old = next(e.message for e in host.log.entries if e.message.author == net.peers[VICTIM].table.me)
    replay = sequence(net.host.key, host.id, seq, host.log.head, old).to_json()
    for peer in net.peers:  # every copy refuses the repeat, and keeps the host's signature on it
        with pytest.raises(BadEntry, match="repeats message"):
            peer.table.receive(replay)
    net.deliver(net.host.local(host.compose(Kind.WATCH, {"name": "the entry really placed there"})))
    for peer in net.peers:
        ending = peer.table.ending
        assert ending is not None and ending.reason is EndReason.HOST_EQUIVOCATED, peer.table.ended
        assert ending.seat is None and all(event.blame is None for event in peer.table.events)
        assert len(peer.table.log.entries) == seq  # nothing taken from the host after its two entries


def test_an_entry_without_the_hosts_signature_and_then_the_hosts_entry_there_names_nobody() -> None:
    net, host, seq = under_way()
    placed = net.host.local(host.compose(Kind.WATCH, {"name": "placed once"}))
    entry = host.log.entries[seq].to_json()
    wrong = {**entry, "host": "00" * 64}  # a signature the host never made: no proof of anything
    with pytest.raises(BadEntry):
        net.peers[0].table.receive(wrong)
    net.deliver(placed)
    assert all(peer.table.ending is None and len(peer.table.log.entries) == seq + 1 for peer in net.peers)
