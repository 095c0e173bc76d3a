"""`atoll audit` on a table's log, the one signed record of a game: each verdict and its exit status.

A seat is named (exit 1) only for content its identity signed in the log; a game that stopped with
nobody to blame is exit 3; a file that is not a table log, a saved local game or a fair game saved by
an earlier atoll among them, is one line and exit 2.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from atoll.bots.random_bot import RandomBot
from atoll.engine import LocalResolver, Match, run, save
from atoll.net.encoding import fingerprint
from atoll.table.audit import audit_log
from tests.table.harness import REGISTRY, Net, open_table
from tests.table.wire import cheating_participants, rewrite


def written(net: Net, path: Path) -> Path:
    """The host's copy of the log, as every peer keeps it on disk."""
    path.write_bytes(b"".join(entry.to_bytes() + b"\n" for entry in net.host.table.log.entries))
    return path


def audit(path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "ATOLL_HOME": str(path.parent / "home"), "HOME": str(path.parent)}
    return subprocess.run([sys.executable, "-m", "atoll.cli.main", "audit", str(path), *args],
                          capture_output=True, text=True, timeout=120, env=env)


def test_a_seat_whose_signed_opening_does_not_check_is_named_by_every_peer_and_by_the_audit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    net = open_table("kiribati", 2, "children")
    cheat = net.peers[1]
    cheating_participants(monkeypatch, cheat.table, rewrite("chain/open", lambda b: b.update(link="ab" * 32)))
    net.run()
    seat = cheat.table.my_seat
    honest = net.peers[0].table
    assert honest.ended is not None and honest.ended.startswith(f"seat {seat + 1} cheated")
    report = audit_log(written(net, tmp_path / "log.jsonl"), REGISTRY.game, fingerprint)
    assert report.blame == seat and report.cheat is not None
    done = audit(tmp_path / "log.jsonl")
    assert done.returncode == 1, done.stderr
    assert f"seat {seat + 1} cheated" in done.stderr and "Traceback" not in done.stderr


def test_a_game_aborted_at_a_timeout_nobody_can_be_named_for_audits_as_exit_three(tmp_path: Path) -> None:
    net = open_table("kariba", 2, turn_time=10.0)
    for i, peer in enumerate(net.peers):
        net.send(i, peer.session.hello())
    net.tick(0.0)
    net.tick(11.0)  # the turn time and the host's margin
    assert net.host.table.ended is not None and net.host.table.ended.startswith("aborted")
    done = audit(written(net, tmp_path / "log.jsonl"), "--json")
    assert done.returncode == 3, done.stdout + done.stderr
    verdict = json.loads(done.stdout)
    assert verdict["ok"] is False and verdict["seat"] is None


def test_a_clean_game_at_an_in_memory_table_audits_clean(tmp_path: Path) -> None:
    net = open_table("kariba", 3)
    net.run()
    done = audit(written(net, tmp_path / "log.jsonl"), "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout)["ok"] is True


def test_a_saved_local_game_is_one_line_naming_what_it_is(tmp_path: Path) -> None:
    game = REGISTRY.game("kariba")
    match = Match(game, game.configure(2), LocalResolver(2))
    run(match, [RandomBot(0), RandomBot(1)])
    save(match, tmp_path / "local.jsonl", seed=2, faces={})
    done = audit(tmp_path / "local.jsonl")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1
    assert "saved local game" in done.stderr and "atoll replay" in done.stderr


def test_a_fair_game_saved_by_an_earlier_atoll_is_one_line_naming_that_format(tmp_path: Path) -> None:
    old = tmp_path / "old-fair.jsonl"
    old.write_text(json.dumps({"format": "atoll-game", "version": 1, "game": "kariba"}) + "\n"
                   + json.dumps({"fair": {"format": "atoll-fair-transcript", "version": 2}}) + "\n")
    done = audit(old)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "earlier atoll" in done.stderr and "log.jsonl" in done.stderr


def test_a_binary_file_is_one_line_and_exit_two(tmp_path: Path) -> None:
    junk = tmp_path / "junk.bin"
    junk.write_bytes(bytes(range(256)) * 4)
    done = audit(junk)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
