"""A modified host cannot get an honest seat named (docs/decisions/0020-the-host-cannot-frame-a-seat.md).

Real tables on loopback (a host ROUTER, peer DEALERs over CURVE, one spectator), the host a subclass
of the project's :class:`~atoll.table.host.Sequencer`: the one seam a modified host process would
change. The seats and the spectator are honest, unmodified peers. Whatever the host does, no honest
process names a seat, and neither does the audit of any copy of the log.
"""

from __future__ import annotations

import asyncio
import io
import json
from contextlib import AbstractAsyncContextManager, redirect_stdout
from pathlib import Path

import pytest

from atoll.net.encoding import fingerprint
from atoll.net.envelope import Envelope, Unauthenticated, open_envelope, own_envelope
from atoll.table.audit import LogAudit, audit_command, audit_log, replayed
from atoll.table.compare import find_fork
from atoll.table.frames import entry_frame
from atoll.table.host import Outgoing, Sequencer
from atoll.table.log import sequence
from atoll.table.reasons import EndReason
from atoll.table.table import Table
from atoll.wire import Kind
from tests.table.harness import REGISTRY
from tests.table.wire import WireTable, loopback_table, play

VICTIM = 1


#: The tables of 3, 4 and 5 seats the modified hosts run (dice in each; Kiribati alone seats five).
TABLES = [(3, "survival"), (4, "survival"), (5, "kiribati")]


def modified(
    game: str, seats: int, host: type[Sequencer], turn_time: float | None = None,
    host_timeout: int | None = None,
) -> AbstractAsyncContextManager[WireTable]:
    """A loopback table of ``game`` whose host is ``host``, its seats and its one spectator listening at
    standby addresses."""
    variant = "family" if game == "kiribati" else "standard"
    return loopback_table(game, seats, variant, watchers=1, turn_time=turn_time, sequencer=host, standby=True,
                          host_timeout=host_timeout)


class InstantTimeout(Sequencer):
    """A host that states a timeout of seat 1 the moment the game waits on it, once the game's set-up
    is under way, whatever its clock and the table's turn time say."""

    stated = False

    def _sequence(self, message: Envelope) -> list[Outgoing]:
        out = super()._sequence(message)
        table = self.table
        lobby = table.lobby
        if (
            not self.stated
            and lobby is not None
            and table.engine is not None
            and len(table.log.entries) >= 2 * lobby.seats + 2
            and VICTIM in table.waits_on()
            and table.timeout is None
            and not table.over()
        ):
            self.stated = True
            out += self._sequence_own(Kind.TIMEOUT, {"seat": VICTIM})
        return out


def copies(wire: WireTable) -> list[Table]:
    """Every honest copy of the log: the host's own, each seat's and the spectator's."""
    return [wire.host.table, *(peer.session.table for peer in wire.peers)]


def moved_on(table: Table, entries: int) -> bool:
    """Whether ``table`` holds a seat's ``host`` entry and at least ``entries`` entries after it, or
    the game finished under the new host."""
    taken = [e.seq for e in table.log.entries if e.message.kind == Kind.HOST]
    return bool(taken) and (table.closed or len(table.log.entries) - taken[0] > entries)


def new_host_goes_on(wire: WireTable, named: EndReason, folder: Path) -> None:
    """Every seat and spectator named the host for ``named`` (in its copy of the log), a seat hosts the
    table now and the game went on under it; no process and no audit names a seat."""
    first = wire.host.key.verify_key.encode()
    for peer in wire.peers:
        table = peer.session.table
        assert [e.reason for _, e in table.hosts_named] == [named], table.events[-5:]
        assert table.ending is None, table.ended
        assert table.log.host.encode() != first and table.lobby is not None
        assert table.log.host.encode().hex() in table.lobby.seated
        host_entry = next(e.seq for e in table.log.entries if e.message.kind == Kind.HOST)
        played = [e for e in table.log.entries[host_entry:] if e.message.kind in (Kind.MOVE, Kind.FAIR)]
        assert played or table.closed  # the game goes on: moves and draws under the new host
    no_seat_named(wire, folder)
    for report in audited_copies(wire, folder)[1:]:
        assert report.reason is named and report.cheat is not None and report.cheat.startswith("the host")
    # `atoll audit --json` of a seat's copy: exit 1, the host named, no seat
    said = io.StringIO()
    with redirect_stdout(said):
        status = audit_command(folder / "copy-1.jsonl", REGISTRY.game, fingerprint, {}, as_json=True)
    verdict = json.loads(said.getvalue())
    assert status == 1 and verdict["seat"] is None and verdict["hosts_named"], verdict


def audited_copies(wire: WireTable, folder: Path) -> list[LogAudit]:
    """Each copy written to a file and audited as ``atoll audit`` does."""
    reports = []
    for index, table in enumerate(copies(wire)):
        path = folder / f"copy-{index}.jsonl"
        path.write_text("".join(e.to_bytes().decode() + "\n" for e in table.log.entries))
        reports.append(audit_log(path, REGISTRY.game, fingerprint))
    return reports


def no_seat_named(wire: WireTable, folder: Path) -> None:
    """No honest process names a seat (no cheat, no forfeit), and no audit of any copy does."""
    for table in copies(wire):
        assert all(event.blame is None for event in table.events), table.ended
        ending = table.ending
        assert ending is None or ending.reason not in (EndReason.CHEAT, EndReason.FORFEIT), ending.text
    for report in audited_copies(wire, folder):
        assert report.blame is None and report.reason not in (EndReason.CHEAT, EndReason.FORFEIT)


@pytest.mark.parametrize(("seats", "game"), TABLES)
@pytest.mark.parametrize("turn_time", [None, 30.0], ids=["no-turn-time", "turn-time-30s"])
def test_a_host_that_states_an_instant_timeout_is_named_and_the_next_seat_hosts_the_game_on(
    seats: int, game: str, turn_time: float | None, tmp_path: Path
) -> None:
    async def run() -> None:
        async with modified(game, seats, InstantTimeout, turn_time) as wire:
            until = lambda: all(moved_on(p.session.table, 2 * seats) for p in wire.peers)  # noqa: E731
            await asyncio.wait_for(play(wire, until=until, following=True), 60)
            assert isinstance(wire.host, InstantTimeout) and wire.host.stated
            new_host_goes_on(wire, EndReason.HOST_TIMED, tmp_path)

    asyncio.run(run())


def test_a_named_host_no_seat_can_take_over_from_ends_the_game_naming_it(tmp_path: Path) -> None:
    async def run() -> None:
        async with loopback_table("survival", 3, "standard", watchers=1, sequencer=InstantTimeout) as wire:
            await asyncio.wait_for(play(wire, until=lambda: all(t.over() for t in copies(wire))), 60)
            assert isinstance(wire.host, InstantTimeout) and wire.host.stated
            for table in copies(wire):
                assert table.ending is not None and table.ending.reason is EndReason.HOST_TIMED, table.ended
            no_seat_named(wire, tmp_path)
            for report in audited_copies(wire, tmp_path):
                assert report.reason is EndReason.HOST_TIMED
                assert report.cheat is not None and report.cheat.startswith("the host stated a timeout")

    asyncio.run(run())


class Dropping(Sequencer):
    """A host that never sequences the messages of seat 1 that :meth:`drops` picks (it answers seat 1's
    heartbeats as ever, so seat 1 does not look gone); its clock and turn time are honest."""

    dropped = 0

    def drops(self, message: Envelope) -> bool:
        return False

    def receive(self, connection: bytes, curve_key: bytes, data: bytes) -> list[Outgoing]:
        lobby = self.table.lobby
        try:
            message = open_envelope(data)
        except Unauthenticated:
            return super().receive(connection, curve_key, data)
        victim = lobby.seated[VICTIM] if lobby is not None and len(lobby.seated) > VICTIM else None
        if message.author == victim and message.kind in (Kind.MOVE, Kind.FAIR) and self.drops(message):
            self.dropped += 1
            return []
        return super().receive(connection, curve_key, data)


class DropsOneDieOpening(Dropping):
    """Drops seat 1's first opening of a draw (the one it would veto once it has seen the others)."""

    def drops(self, message: Envelope) -> bool:
        inner = message.body.get("msg")
        return self.dropped == 0 and isinstance(inner, dict) and inner.get("kind") == "chain/open"


class SwallowsOneSeat(Dropping):
    """Drops every move and protocol message of seat 1 once the game has begun."""

    def drops(self, message: Envelope) -> bool:
        return self.table.engine is not None and len(self.table.log.entries) >= 3 * (VICTIM + 4)


def brought(table: Table) -> int:
    """How many of seat 1's messages this copy took in from refusals (the host had not sequenced them)."""
    refusals = [e.message for e in table.log.entries if e.message.kind == Kind.REFUSE]
    return sum(len(m.body.get("owed", [])) for m in refusals)


#: The turn time of the tables whose host withholds: short, so the test is quick; honest random bots
#: answer well within it (the host states a timeout a second after it).
WITHHOLDING_TURN_TIME = 2.0


@pytest.mark.parametrize(
    ("seats", "game", "variant"),
    [(3, "survival", "standard"), (4, "survival", "standard"), (5, "kiribati", "family")],
)
@pytest.mark.parametrize("host", [DropsOneDieOpening, SwallowsOneSeat], ids=["drops-a-die-opening",
                                                                            "swallows-one-seat"])
def test_a_host_that_withholds_a_seats_messages_gets_it_named_by_nobody_and_the_game_goes_on(
    seats: int, game: str, variant: str, host: type[Dropping], tmp_path: Path
) -> None:
    async def run() -> None:
        async with loopback_table(game, seats, variant, watchers=1, turn_time=WITHHOLDING_TURN_TIME,
                                  sequencer=host, standby=True) as wire:
            wanted = 1 if host is DropsOneDieOpening else 2

            def enough() -> bool:
                tables = copies(wire)
                return all(t.over() for t in tables) or all(brought(t) >= wanted for t in tables)

            await asyncio.wait_for(play(wire, until=enough), 90)
            assert isinstance(wire.host, Dropping) and wire.host.dropped >= 1
            for table in copies(wire):
                assert brought(table) >= wanted, table.ended  # the seats asked seat 1 and brought its part
                assert table.ending is None or table.ending.reason is not EndReason.ABORTED, table.ended
            no_seat_named(wire, tmp_path)

    asyncio.run(run())


class StarvesOneSeat(Sequencer):
    """A host that, once the game has begun, sends seat 1 no entry (it answers seat 1's heartbeats as
    ever, so seat 1 does not look gone, and sequences what it sends); its clock and turn time are honest."""

    starved = 0

    def _starving(self, frames: list[Outgoing]) -> list[Outgoing]:
        table, lobby = self.table, self.table.lobby
        if table.engine is None or lobby is None or len(table.log.entries) < 3 * (VICTIM + 4):
            return frames
        victim = {c for c, who in self.connections.items() if who == lobby.seated[VICTIM]}
        kept = [(c, data) for c, data in frames
                if c not in victim or not data.startswith((b'{"entry":', b'{"entries":'))]
        self.starved += len(frames) - len(kept)
        return kept

    def receive(self, connection: bytes, curve_key: bytes, data: bytes) -> list[Outgoing]:
        return self._starving(super().receive(connection, curve_key, data))

    def _sequence(self, message: Envelope) -> list[Outgoing]:
        emit = self.emit
        if emit is not None and not getattr(emit, "starving", False):
            def starving(frames: list[Outgoing]) -> None:
                emit(self._starving(frames))

            starving.starving = True  # type: ignore[attr-defined]
            self.emit = starving
        return self._starving(super()._sequence(message))


@pytest.mark.parametrize(("seats", "game"), TABLES)
def test_a_host_that_sends_a_seat_no_entries_gets_it_named_by_nobody_and_the_game_goes_on(
    seats: int, game: str, tmp_path: Path
) -> None:
    async def run() -> None:
        async with modified(game, seats, StarvesOneSeat, WITHHOLDING_TURN_TIME) as wire:
            def played_on(table: Table) -> bool:
                """Seat 1 was given the entries (a refusal says it was behind) and played on after them."""
                given = [e.seq for e in table.log.entries if e.message.kind == Kind.REFUSE
                         and "behind" in e.message.body]
                lobby = table.lobby
                after = table.log.entries[given[0]:] if given and lobby is not None else []
                return any(e.message.author == lobby.seated[VICTIM] for e in after if lobby is not None)

            await asyncio.wait_for(play(wire, until=lambda: all(played_on(t) for t in copies(wire))), 90)
            assert isinstance(wire.host, StarvesOneSeat) and wire.host.starved >= 1
            for table in copies(wire):
                assert played_on(table), table.ended
                assert table.ending is None or table.ending.reason is not EndReason.ABORTED, table.ended
            no_seat_named(wire, tmp_path)

    asyncio.run(run())


#: The host timeout of the tables whose host withholds with no turn time: short, so the test is quick,
#: and longer than two heartbeats (a live host answers one every two seconds).
WITHHOLDING_HOST_TIMEOUT = 4


@pytest.mark.parametrize(("seats", "game"), TABLES)
def test_a_host_that_swallows_a_seat_at_a_table_without_turn_time_is_replaced_and_the_game_goes_on(
    seats: int, game: str, tmp_path: Path
) -> None:
    async def run() -> None:
        async with modified(game, seats, SwallowsOneSeat, host_timeout=WITHHOLDING_HOST_TIMEOUT) as wire:
            until = lambda: all(moved_on(p.session.table, 2 * seats) for p in wire.peers)  # noqa: E731
            await asyncio.wait_for(play(wire, until=until, following=True), 90)
            assert isinstance(wire.host, SwallowsOneSeat) and wire.host.dropped >= 1
            victim = next(p for p in wire.peers if p.session.table.my_seat == VICTIM).key.verify_key
            for peer in wire.peers:
                table = peer.session.table
                (replaced,) = table.hosts_replaced  # every seat and the spectator: replaced, nobody named
                assert "the host had not sequenced a message of seat 2" in replaced[1], replaced
                assert not table.hosts_named and table.ending is None, table.ended
                # what the old host swallowed is in the log, after the new host's entry
                assert any(e.message.author == victim.encode().hex() for e in table.log.entries[replaced[0]:])
            no_seat_named(wire, tmp_path)
            for report in audited_copies(wire, tmp_path)[1:]:
                assert report.cheat is None and report.hosts_replaced

    asyncio.run(run())


class ForksOneSeat(Sequencer):
    """A host that, once the game is under way, signs for seat 1 another entry than the one it gives
    everyone else at one position (a message of its own), then goes on with the others' history."""

    forked_at: int | None = None

    def _sequence(self, message: Envelope) -> list[Outgoing]:
        table, lobby, emit = self.table, self.table.lobby, self.emit
        if self.forked_at is None and lobby is not None and table.engine is not None \
                and len(table.log.entries) >= 2 * lobby.seats + 4 and emit is not None:
            seq = self.forked_at = len(table.log.entries)
            victim = {c for c, who in self.connections.items() if who == lobby.seated[VICTIM]}
            another = own_envelope(table.compose(Kind.WATCH, {"name": "another history"}))
            fake = entry_frame(sequence(self.key, table.id, seq, table.log.head, another).to_bytes())

            def forking(frames: list[Outgoing]) -> None:
                self.emit = emit
                emit([(c, fake if c in victim else data) for c, data in frames])

            self.emit = forking
        return super()._sequence(message)


@pytest.mark.parametrize(("seats", "game"), TABLES)
def test_a_host_that_shows_one_seat_a_fork_is_named_by_every_peer_and_the_next_seat_hosts_the_game_on(
    seats: int, game: str, tmp_path: Path
) -> None:
    async def run() -> None:
        async with modified(game, seats, ForksOneSeat, WITHHOLDING_TURN_TIME) as wire:
            until = lambda: all(moved_on(p.session.table, 2 * seats) for p in wire.peers)  # noqa: E731
            await asyncio.wait_for(play(wire, until=until, following=True), 90)
            assert isinstance(wire.host, ForksOneSeat) and wire.host.forked_at is not None
            new_host_goes_on(wire, EndReason.HOST_EQUIVOCATED, tmp_path)
            # the spectator was shown the two signatures directly, and checked them, before it moved
            spectator = next(p.session.table for p in wire.peers if p.session.role == "watch")
            assert any(e.text.startswith(EndReason.HOST_EQUIVOCATED.value) for e in spectator.events)
            # the seat shown the fork set its forked entries aside; what it held then, beside any other
            # seat's copy, is the evidence `atoll audit LOG1 LOG2` prints, naming the host
            victim = next(p for p in wire.peers if p.table.my_seat == VICTIM)  # seats: first come
            assert victim.session.table is not victim.table
            other = wire.host.table
            paths = []
            for name, table in (("victim", victim.table), ("other", other)):
                paths.append(tmp_path / f"{name}.jsonl")
                paths[-1].write_text("".join(e.to_bytes().decode() + "\n" for e in table.log.entries))
            fork = find_fork([(path, replayed(path, REGISTRY.game)[1]) for path in paths])
            assert fork is not None and fork.seq == wire.host.forked_at
            assert fork.host == wire.host.key.verify_key.encode().hex()

    asyncio.run(run())


class ReplaysAnOldMessage(Sequencer):
    """A host that, once the game is under way, signs an old message of seat 1 (already in the log)
    into the next position and sends it to everyone, before the entry that really goes there."""

    replayed_at: int | None = None

    def _sequence(self, message: Envelope) -> list[Outgoing]:
        table, lobby, emit = self.table, self.table.lobby, self.emit
        if self.replayed_at is None and lobby is not None and table.engine is not None \
                and len(table.log.entries) >= 2 * lobby.seats + 6 and emit is not None:
            old = next(e.message for e in table.log.entries if e.message.author == lobby.seated[VICTIM])
            seq = self.replayed_at = len(table.log.entries)
            replay = entry_frame(sequence(self.key, table.id, seq, table.log.head, old).to_bytes())
            emit([(connection, replay) for connection in self.recipients()])
        return super()._sequence(message)


@pytest.mark.parametrize(("seats", "game"), TABLES)
def test_a_host_that_re_sequences_an_old_message_is_named_by_every_peer_and_the_next_seat_hosts_the_game_on(
    seats: int, game: str, tmp_path: Path
) -> None:
    async def run() -> None:
        async with modified(game, seats, ReplaysAnOldMessage) as wire:
            until = lambda: all(moved_on(p.session.table, 2 * seats) for p in wire.peers)  # noqa: E731
            await asyncio.wait_for(play(wire, until=until, following=True), 90)
            assert isinstance(wire.host, ReplaysAnOldMessage) and wire.host.replayed_at is not None
            # two entries the host signed for one position, the replay refused: that is its proof
            new_host_goes_on(wire, EndReason.HOST_EQUIVOCATED, tmp_path)
            for peer in wire.peers:  # no message twice in any copy
                held = [(e.message.author, e.message.n) for e in peer.session.table.log.entries]
                assert len(set(held)) == len(held)

    asyncio.run(run())
