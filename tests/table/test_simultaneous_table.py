"""Simultaneous decisions at a network table: every seat of a Sealed Bids round (tests/games/sealed_bids.py)
commits to its bid in one ``seal`` step, in any order; nobody receives another seat's bid before every
seat has committed; a bid opened to another value than its commitment names its author, live and in
the audit. In memory (tests/table/harness.py), where every frame each peer receives is kept, and at a
loopback table of processes."""

from __future__ import annotations

import contextlib
import json
import os
from collections import deque
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from atoll_tools.soak import Crash, play_through_crashes

import atoll.table.table as table_module
from atoll.fair.steps.history import StepRecord
from atoll.fair.steps.messages import Message
from atoll.fair.steps.seat import Participant
from atoll.net.encoding import fingerprint
from atoll.registry import load_registry
from atoll.table.audit import audit_log
from tests.games import sealed_bids
from tests.table.harness import Net, open_table
from tests.table.test_loopback import host

REGISTRY = load_registry(extra=[("sealed-bids", sealed_bids)])
ROOT = Path(__file__).resolve().parents[2]
SEATS = [2, 3, 4, 5]


class InOrder:
    """Delivers the host's frames first in, first out, as a connection does (the harness's own delivery
    recurses, so a peer can get a later entry before an earlier one), and keeps every frame each peer
    receives."""

    def __init__(self, net: Net) -> None:
        self.net = net
        self.frames: dict[int, list[bytes]] = {i: [] for i in range(len(net.peers))}
        self._queue: deque[tuple[bytes, bytes]] = deque()
        self._delivering = False
        net.send = self.send  # type: ignore[method-assign]

    def send(self, index: int, data: bytes) -> None:
        peer = self.net.peers[index]
        self._queue.extend(self.net.host.receive(peer.connection, peer.curve, data))
        if self._delivering:
            return
        self._delivering = True
        try:
            while self._queue:
                connection, frame = self._queue.popleft()
                to = next(i for i, p in enumerate(self.net.peers) if p.connection == connection)
                self.frames[to].append(frame)
                for reply in self.net.peers[to].session.on_frame(frame):
                    self.send(to, reply)
        finally:
            self._delivering = False


def play_rotating(net: Net) -> None:
    """Play with random bots, the seats that owe a choice asked from one seat further each time."""
    net.run(rotate=True)


def fair_messages(net: Net) -> list[tuple[str, dict[str, Any]]]:
    """Every fair message of the host's log, with the author's identity, in log order."""
    out = []
    for entry in net.host.table.log.entries:
        message = entry.message
        if message.kind == "fair":
            out.append((message.author, message.body["msg"]))
    return out


def write_log(net: Net, path: Path) -> Path:
    path.write_bytes(b"".join(e.to_bytes() + b"\n" for e in net.host.table.log.entries))
    return path


@pytest.mark.parametrize("seats", SEATS)
def test_every_seat_bids_first_in_some_round_and_the_table_ends_with_one_log_that_audits_clean(
    seats: int, tmp_path: Path
) -> None:
    net = open_table("sealed_bids", seats, "short", registry=REGISTRY)
    InOrder(net)
    play_rotating(net)
    assert all(p.table.results() is not None for p in net.peers)
    assert len({tuple(e.to_bytes() for e in p.table.log.entries) for p in net.peers}) == 1
    commits: dict[int, list[int]] = {}
    for _, msg in fair_messages(net):
        if msg["kind"] == "seal/commit":
            commits.setdefault(msg["n"], []).append(msg["seat"])
    # one seal step per round holds every seat's commitment (one round, not one step per seat) ...
    assert len(commits) == len(sealed_bids.CARDS["short"])
    assert all(sorted(order) == list(range(seats)) for order in commits.values())
    # ... and every seat was the first to commit in some round
    assert {order[0] for order in commits.values()} == set(range(seats))
    report = audit_log(write_log(net, tmp_path / "log.jsonl"), REGISTRY.game, fingerprint)
    assert report.clean, report.cheat


@pytest.mark.parametrize("seats", SEATS)
def test_no_peer_receives_anything_of_another_seats_bid_before_every_seat_has_committed(seats: int) -> None:
    net = open_table("sealed_bids", seats, "short", registry=REGISTRY)
    frames = InOrder(net).frames
    play_rotating(net)
    messages = fair_messages(net)
    commitments: dict[int, list[str]] = {}  # seal step -> every commitment in it
    slot_step: dict[str, int] = {}
    for _, msg in messages:
        if msg["kind"] == "seal/commit":
            for handle, value in msg["body"]["commitments"].items():
                commitments.setdefault(msg["n"], []).append(value)
                slot_step[handle] = msg["n"]
    # a bid can be read only with its slot's salt: where did each peer first receive each salt?
    salts = {handle: opening["salt"] for _, msg in messages if msg["kind"] in ("reveal", "seed", "leave")
             for handle, opening in msg["body"].get("sealed", {}).items()}
    assert set(slot_step) <= set(salts)
    for index, received in frames.items():
        seat = net.peers[index].table.my_seat
        for handle, step in slot_step.items():
            if handle.startswith(f"s{seat}-"):
                continue  # its own bid
            all_in = max(first(received, value) for value in commitments[step])
            assert first(received, salts[handle]) > all_in, (seat, handle)


def first(frames: Sequence[bytes], text: str) -> int:
    """The index of the first frame holding ``text``."""
    return next(i for i, frame in enumerate(frames) if text.encode() in frame)


class OpensAnotherBid(Participant):
    """A seat whose software opens its first bid as another value than the one it committed to."""

    def begin(self, step: StepRecord) -> list[Message]:
        out = super().begin(step)
        for message in out:
            if message["kind"] == "reveal" and message["body"]["sealed"]:
                sealed = {h: dict(o, value=o["value"] % 5 + 1) for h, o in message["body"]["sealed"].items()}
                message["body"] = dict(message["body"], sealed=sealed)
        return out


@pytest.mark.parametrize("cheat", [0, 1, 2])
def test_a_bid_opened_to_another_value_names_its_author_at_every_peer_and_in_the_audit(
    cheat: int, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    net = open_table("sealed_bids", 3, "short", registry=REGISTRY)
    InOrder(net)
    cheater = net.peers[cheat].table

    def participant(seat: int, table_id: str, seats: int, master: bytes, *args: Any, **kw: Any
                    ) -> Participant:
        kind = OpensAnotherBid if master == cheater.master else Participant
        return kind(seat, table_id, seats, master, *args, **kw)

    monkeypatch.setattr(table_module, "Participant", participant)
    with contextlib.suppress(AssertionError):  # the table stops at the cheat: nobody owes a move
        play_rotating(net)
    seat = cheater.my_seat
    for peer in net.peers:
        ended = peer.table.ended
        assert ended is not None and ended.startswith(f"seat {seat + 1} cheated"), ended
        assert "not what it committed to" in ended
    report = audit_log(write_log(net, tmp_path / "log.jsonl"), REGISTRY.game, fingerprint)
    assert report.blame == seat


def install(site: Path) -> None:
    """Sealed Bids installed as the ``sealed-bids`` distribution under ``site``, as pip would."""
    info = site / "sealed_bids-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: sealed-bids\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[atoll.games]\nsealed_bids = fake_sealed_bids\n")
    source = "from tests.games.sealed_bids import atoll_games  # noqa: F401\n"
    (site / "fake_sealed_bids.py").write_text(source)


@pytest.mark.parametrize("seats", [2, 5])
def test_bot_processes_bid_at_once_at_a_loopback_table_and_end_with_identical_logs_that_audit_clean(
    seats: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = tmp_path / "site"
    install(site)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(site), str(ROOT)]))
    monkeypatch.setenv("HOME", str(tmp_path))
    done = host(tmp_path / "home", "sealed_bids", "--variant", "short", "--seats", str(seats), "--bots",
                str(seats), "--bot-kind", "random")
    assert done.returncode == 0, done.stderr[-2000:]
    logs = sorted((tmp_path / "home").rglob("log.jsonl"))
    assert len(logs) == seats + 1  # the host's copy and one per bot process
    assert len({log.read_bytes() for log in logs}) == 1
    steps: dict[int, set[int]] = {}
    for line in logs[0].read_text().splitlines():
        body = json.loads(line).get("msg", {}).get("body", {})
        msg = body.get("msg") if isinstance(body, dict) else None
        if isinstance(msg, dict) and msg.get("kind") == "seal/commit":
            steps.setdefault(msg["n"], set()).add(msg["seat"])
    assert steps and all(seen == set(range(seats)) for seen in steps.values())
    report = audit_log(logs[0], REGISTRY.game, fingerprint)
    assert report.clean, report.cheat


def test_kiribati_players_keep_their_cards_in_one_seal_step_at_a_table(tmp_path: Path) -> None:
    """K5: every player keeps four of six cards at once, committing in any order."""
    net = open_table("kiribati", 3, "professional", registry=REGISTRY)
    InOrder(net)
    play_rotating(net)
    assert len({tuple(e.to_bytes() for e in p.table.log.entries) for p in net.peers}) == 1
    commits = [msg for _, msg in fair_messages(net) if msg["kind"] == "seal/commit"]
    assert len({msg["n"] for msg in commits}) == 1 and sorted(msg["seat"] for msg in commits) == [0, 1, 2]
    report = audit_log(write_log(net, tmp_path / "log.jsonl"), REGISTRY.game, fingerprint)
    assert report.clean, report.cheat


def test_seats_killed_mid_round_resume_seal_their_bids_again_and_the_game_finishes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A seat whose bid went out before it was killed seals it again from its sealed.jsonl; one killed
    before it bid bids on resuming. Bot processes, SIGKILL, ``atoll join --resume``."""
    site = tmp_path / "site"
    install(site)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(site), str(ROOT)]))
    monkeypatch.setenv("HOME", str(tmp_path))
    crashes = [Crash(1, 18, pause=0.3), Crash(2, 28, pause=0.3)]
    outcome = play_through_crashes(tmp_path / "soak", "sealed_bids", 3, crashes, variant="short", timeout=240)
    assert outcome.ok, outcome.problems
    assert outcome.kills == 2 and outcome.resumes == 2
