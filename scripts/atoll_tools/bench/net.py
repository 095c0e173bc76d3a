"""``scripts/bench net``: tables over ZeroMQ on loopback, against a bare signed relay timed in the same run.

For 2-5 peers: the time from a move being sent to every peer having applied it, a roll by commit-reveal
(from its step's start at the first peer to its end at the last), Kariba's deck set-up (from the last
seat taken to the first decision at every peer), and the floor: a host ROUTER relaying one signed
message to N DEALER peers that check it and acknowledge.

By default each peer is a process of its own, as at a LAN party (the host stays in this one); peers
time what they see on the machine-wide monotonic clock and hand their timings back when the game
ends. Here every process shares this machine's cores, so with more peers than cores the figures
include waiting for a core. ``--inline`` runs every peer in this one process and event loop instead:
all peers' work is done one after another, an upper bound for peers on separate machines.

What peers on machines of their own would see is estimated from CPU time, which other work on this
machine does not inflate (with ``--cpu``, which reads each peer's CPU clock at every entry; see
:data:`CPU_CLOCK` for why only then): ``roll_critical_cpu_ms`` is the slowest peer's work on a roll
(median over rolls) and ``kariba_setup_critical_cpu_ms`` the slowest peer's work on each set-up entry,
summed along the set-up's chain of shuffles, locks and deals; network hops come on top (a fraction of a
millisecond each on a LAN). What this machine can do at best is bounded by the work of every process
together over its cores: ``roll_cpu_total_ms`` (every peer's and the host's work taking in the entries
of a roll, median over rolls; with ``--cpu``) and ``kariba_setup_cpu_total_ms`` (every process's CPU
over the set-up, threads included), each also divided by the core count (``..._cpu_floor_ms``): no
schedule of these processes on these cores is faster.

``peer_cpu_us_per_entry`` is a peer process's CPU (every thread) per entry over the game, and
``peer_waits_per_entry`` how often per entry it gave up its core to wait for the next frame (each a
wake-up, and on shared cores a cold cache): the median over the peers.

A peer answers a deck's shuffle or lock before it checks that proof when its turn comes next
(``docs/decisions/0006-pipelined-deck-setup.md``): that check runs after the entry is taken, so it is
not counted in ``kariba_setup_critical_cpu_ms`` (on machines of their own it is off the chain), but
it is in every total.

``--durable`` has every peer and the host write its log as a real table does (``log.jsonl``, each
entry fsynced before it is acted on, in a temporary directory): the figures then include the disk.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from nacl.signing import SigningKey

from atoll.app.follow import standby_address
from atoll.app.peer_loop import bot_chooser, run_peer
from atoll.app.serve import run_host
from atoll.app.store import SealedFile
from atoll.net.envelope import open_envelope, seal
from atoll.net.transport import HostSocket, PeerSocket, curve_keys, curve_public
from atoll.registry import Registry, load_registry
from atoll.table.host import Sequencer
from atoll.table.peer import PeerSession
from atoll.table.resolver import NetResolver
from atoll.table.table import Table
from atoll_tools.memory_table import open_host

#: Why the CPU time of each entry is only read with ``--cpu``: on this virtual machine, under load, a
#: reading of a thread's CPU clock (a system call that takes the scheduler's lock) was seen to cost
#: hundreds of microseconds, on the path from an entry to the answer it asks for (py-spy: 13% of a
#: peer's busy time, two readings an entry), which delays what the run times. Figures that need it
#: (``roll_critical_cpu_ms``, ``roll_cpu_total_ms``, ``kariba_setup_critical_cpu_ms``) come from a
#: run with ``--cpu``; the process's CPU clock is read a few times a game in every run.
CPU_CLOCK = "--cpu"


def _no_clock() -> float:
    return 0.0


def _waits() -> float:
    """How many times this process has given up its core to wait (voluntary context switches, all
    threads): each costs a wake-up, and on shared cores the caches the next process left behind."""
    return float(resource.getrusage(resource.RUSAGE_SELF).ru_nvcsw)


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


async def relay_floor(peers: int, rounds: int) -> list[float]:
    """Milliseconds for the host to relay one signed message to every peer and hear each acknowledge."""
    host_key = SigningKey.generate()
    keys = [SigningKey.generate() for _ in range(peers)]
    host = HostSocket(curve_keys(host_key), lambda _key: True)
    port = host.bind("127.0.0.1", None)
    sockets = [PeerSocket(key, curve_keys(host_key)[0]) for key in keys]
    times: list[float] = []
    try:
        connections = []
        for index, socket in enumerate(sockets):
            socket.connect("127.0.0.1", port)
            await socket.send(seal(keys[index], v="bench", kind="sync", table="t", n=0, seen={}, body={}))
            connection, _, _ = await host.recv()
            connections.append(connection)
        for n in range(rounds):
            start = time.perf_counter()
            message = seal(host_key, v="bench", kind="move", table="t", n=n, seen={}, body={"at": n})
            for connection in connections:
                host.send(connection, message)

            async def answer(index: int, socket: PeerSocket, n: int = n) -> None:
                open_envelope(await socket.recv())
                await socket.send(
                    seal(keys[index], v="bench", kind="ack", table="t", n=n + 1, seen={}, body={})
                )

            await asyncio.gather(*(answer(i, s) for i, s in enumerate(sockets)))
            for _ in range(peers):
                open_envelope((await host.recv())[2])
            times.append((time.perf_counter() - start) * 1000)
    finally:
        for socket in sockets:
            socket.close()
        host.close()
    return times


@dataclass
class Timings:
    """What one peer saw, on the machine-wide monotonic clock (``time.perf_counter``, in seconds).

    ``sent`` and ``applied`` are keyed by ``"author:n"`` of a move; ``step_start`` and ``draws`` hold
    when each protocol step began and which steps were draws (a roll); ``step_end`` when each step was
    complete here; ``started`` when this peer's game began, ``first_decision`` when it first waited
    for a decision. ``cpu`` holds this process's CPU seconds (``time.process_time``) at ``started``,
    at ``first_decision`` and at the game's end, with ``entries`` the entries taken after ``started``:
    what a peer needs of its own machine, whatever else shares this one's cores. ``setup_cpu`` holds
    the CPU milliseconds this peer's main thread spent on each entry from ``started`` to
    ``first_decision`` (checking it, answering it: a shuffle, a lock, keys, and whatever else it did
    until the next entry came); ``step_cpu`` the same summed per protocol step (the entry that opens a
    step counts towards it).
    """

    sent: dict[str, float] = field(default_factory=dict)
    applied: dict[str, float] = field(default_factory=dict)
    step_start: dict[int, float] = field(default_factory=dict)
    draws: set[int] = field(default_factory=set)
    step_end: dict[int, float] = field(default_factory=dict)
    started: float | None = None
    first_decision: float | None = None
    cpu: dict[str, float] = field(default_factory=dict)
    entries: int = 0
    setup_cpu: dict[int, float] = field(default_factory=dict)
    step_cpu: dict[int, float] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """These timings as JSON (step numbers as text keys)."""
        return {
            "sent": self.sent,
            "applied": self.applied,
            "step_start": {str(n): t for n, t in self.step_start.items()},
            "draws": sorted(self.draws),
            "step_end": {str(n): t for n, t in self.step_end.items()},
            "started": self.started,
            "first_decision": self.first_decision,
            "cpu": self.cpu,
            "entries": self.entries,
            "setup_cpu": {str(n): t for n, t in self.setup_cpu.items()},
            "step_cpu": {str(n): t for n, t in self.step_cpu.items()},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Timings:
        """Timings written by :meth:`to_json` (in a peer process)."""
        return cls(
            dict(data["sent"]),
            dict(data["applied"]),
            {int(n): t for n, t in data["step_start"].items()},
            set(data["draws"]),
            {int(n): t for n, t in data["step_end"].items()},
            data["started"],
            data["first_decision"],
            dict(data["cpu"]),
            data["entries"],
            {int(n): t for n, t in data["setup_cpu"].items()},
            {int(n): t for n, t in data["step_cpu"].items()},
        )


def watch(table: Table, timings: Timings, *, cpu: bool = False) -> None:
    """Record into ``timings`` when ``table`` sends and applies moves and completes protocol steps;
    with ``cpu``, also the CPU time its thread spends taking in each entry (see :data:`CPU_CLOCK`)."""
    receive = table.receive
    clock = time.thread_time if cpu else _no_clock

    def timed(data: dict[str, Any], **options: Any) -> Any:
        thread_cpu = clock()
        entry = receive(data, **options)
        now = time.perf_counter()
        message = entry.message
        if message.kind == "move":
            timings.applied.setdefault(f"{message.author}:{message.n}", now)
        engine = table.engine
        if engine is not None:
            if timings.started is None:
                timings.started = now
                timings.cpu["started"] = time.process_time()
                timings.cpu["waits_started"] = _waits()
            timings.entries += 1
            record = engine.resolver.record
            if cpu:
                spent = (clock() - thread_cpu) * 1000
                if timings.first_decision is None:
                    timings.setup_cpu[entry.seq] = spent
                timings.step_cpu[record.n] = timings.step_cpu.get(record.n, 0.0) + spent
            if record.complete():
                timings.step_end.setdefault(record.n, now)
            if timings.first_decision is None and engine.waiting().seat is not None:
                timings.first_decision = now
                timings.cpu["decided"] = time.process_time()
        return entry

    table.receive = timed  # type: ignore[method-assign]
    compose = table.move

    def move(action: dict[str, Any]) -> bytes:
        data = compose(action)
        now = time.perf_counter()
        # this peer sealed it a moment ago: read back without checking its own signature again, which
        # would add an Ed25519 check per move to the run that the table itself does not do
        message = table.log.sealed(data) or open_envelope(data)
        timings.sent[f"{message.author}:{message.n}"] = now
        return data

    table.move = move  # type: ignore[method-assign]


@dataclass
class HostTimings:
    """What the host spent: ``step_cpu`` the CPU milliseconds of its thread on the messages it took
    during each protocol step; ``cpu`` its process's CPU seconds when the game began and when it first
    waited for a decision (as :class:`Timings` has them for a peer)."""

    step_cpu: dict[int, float] = field(default_factory=dict)
    cpu: dict[str, float] = field(default_factory=dict)


def watch_host(host: Sequencer, timings: HostTimings, *, cpu: bool = False) -> None:
    """Record into ``timings`` what ``host`` spends on each message it takes (as :func:`watch`)."""
    receive = host.receive
    clock = time.thread_time if cpu else _no_clock

    def timed(connection: bytes, curve_key: bytes, data: bytes) -> Any:
        thread_cpu = clock()
        out = receive(connection, curve_key, data)
        engine = host.table.engine
        if engine is not None:
            if cpu:
                n = engine.resolver.record.n
                timings.step_cpu[n] = timings.step_cpu.get(n, 0.0) + (clock() - thread_cpu) * 1000
            # read once: on shared cores a reading of the process's CPU clock can cost a
            # millisecond, on the host's path to every entry (``setdefault`` would read it each time)
            if "started" not in timings.cpu:
                timings.cpu["started"] = time.process_time()
            if "decided" not in timings.cpu and engine.waiting().seat is not None:
                timings.cpu["decided"] = time.process_time()
        return out

    host.receive = timed  # type: ignore[method-assign]


@contextmanager
def steps_timed(timings: Timings) -> Iterator[None]:
    """While inside, note in ``timings`` when each protocol step begins (the first peer to begin it)."""
    begin = NetResolver._begin

    def timed_begin(self: NetResolver, fields: dict[str, Any]) -> None:
        n = self.record.n + 1
        timings.step_start.setdefault(n, time.perf_counter())
        if fields.get("step") == "draw":
            timings.draws.add(n)
        begin(self, fields)

    NetResolver._begin = timed_begin  # type: ignore[method-assign]
    try:
        yield
    finally:
        NetResolver._begin = begin  # type: ignore[method-assign]


def merge(peers: list[Timings], host: HostTimings, *, processes: bool, cpu: bool) -> dict[str, Any]:
    """The figures of one game from every peer's timings and the host's: moves and rolls (ms) and the
    set-up (ms); ``processes``: each peer ran in a process of its own (else their CPU clocks are one);
    ``cpu``: the CPU time of each entry was read."""
    count = len(peers)
    sent = {k: t for p in peers for k, t in p.sent.items()}
    moves = []
    for key, at in sent.items():
        applied = [p.applied[key] for p in peers if key in p.applied]
        if len(applied) == count:
            moves.append((max(applied) - at) * 1000)
    starts: dict[int, float] = {}
    for p in peers:
        for n, t in p.step_start.items():
            starts[n] = min(t, starts.get(n, t))
    draws = set().union(*(p.draws for p in peers))
    rolls = []
    for n in sorted(draws):
        ends = [p.step_end[n] for p in peers if n in p.step_end]
        if len(ends) == count and n in starts:
            rolls.append((max(ends) - starts[n]) * 1000)
    began = [p.started for p in peers if p.started is not None]
    decided = [p.first_decision for p in peers if p.first_decision is not None]
    setup = (max(decided) - min(began)) * 1000 if began and len(decided) == count else None
    setup_cpu = [(p.cpu["decided"] - p.cpu["started"]) * 1000 for p in peers if "decided" in p.cpu]
    per_entry = [(p.cpu["last"] - p.cpu["started"]) * 1e6 / (p.entries - 1) for p in peers if p.entries > 1]
    waits = [
        (p.cpu["waits_last"] - p.cpu["waits_started"]) / (p.entries - 1)
        for p in peers
        if p.entries > 1 and "waits_last" in p.cpu
    ]
    # The set-up is a chain: each seat shuffles (then locks) after checking the seat before it. With
    # every peer on a machine of its own, it takes about the slowest peer's work on each entry, summed.
    critical = None
    if cpu and len(decided) == count:
        seqs = set().union(*(p.setup_cpu for p in peers))
        critical = sum(max(p.setup_cpu.get(q, 0.0) for p in peers) for q in seqs)
    # A roll: every peer checks each seat's opening; on machines of their own, the slowest peer's work
    roll_cpu = [max(p.step_cpu.get(n, 0.0) for p in peers) for n in sorted(draws) if cpu]
    # all the work of a roll, every peer's and the host's: over this machine's cores, a bound
    roll_total = [
        sum(p.step_cpu.get(n, 0.0) for p in peers) + host.step_cpu.get(n, 0.0) for n in sorted(draws) if cpu
    ]
    setup_total = None
    if processes and len(setup_cpu) == count and {"started", "decided"} <= set(host.cpu):
        setup_total = sum(setup_cpu) + (host.cpu["decided"] - host.cpu["started"]) * 1000
    return {
        "moves": moves,
        "rolls": rolls,
        "roll_cpu_ms": statistics.median(roll_cpu) if roll_cpu else None,
        "roll_cpu_total_ms": statistics.median(roll_total) if roll_total else None,
        "setup_cpu_total_ms": setup_total,
        "setup_ms": setup,
        "setup_critical_cpu_ms": critical,
        "setup_cpu_ms": max(setup_cpu) if setup_cpu else None,
        "cpu_us_per_entry": statistics.median(per_entry) if per_entry else None,
        "waits_per_entry": statistics.median(waits) if waits else None,
    }


def _open_host(
    registry: Registry, game: str, peers: int, variant: str | None, home: Path | None
) -> tuple[Sequencer, SigningKey]:
    table_id = f"bench-{os.urandom(8).hex()}"
    return open_host(registry, game, peers, variant, table_id=table_id, name="bench",
                     **_files(home, table_id, "host"))


def _files(home: Path | None, table_id: str, who: str) -> dict[str, Any]:
    """Where ``who`` keeps its log and sealed values under ``home`` (nothing on disk without one)."""
    if home is None:
        return {}
    folder = home / who / table_id
    folder.mkdir(parents=True, mode=0o700)
    return {"log_path": folder / "log.jsonl", "sealed": SealedFile(folder / "sealed.jsonl")}


async def _play_peer(
    registry: Registry,
    game: str,
    table_id: str,
    host_key: bytes,
    port: int,
    index: int,
    timings: Timings,
    home: Path | None = None,
    cpu: bool = False,
    standby: bool = False,
) -> None:
    """One random-bot peer of a benchmark table, timed into ``timings`` (its log under ``home``, if
    given; with ``cpu``, the CPU time of each entry; with ``standby``, it names a standby address and
    listens there for the other seats while it plays, as a seat at a real table does)."""
    key = SigningKey.generate()
    table = Table(table_id, host_key, key, registry.game, **_files(home, table_id, f"peer-{index}"))
    watch(table, timings, cpu=cpu)
    link = PeerSocket(key, curve_public(host_key))
    link.connect("127.0.0.1", port)
    made: list[Callable[..., Any]] = []

    async def choose(observation: Any) -> Any:
        if not made:
            made.append(
                bot_chooser(registry.bot("random", game).make(observation.game, observation.seat, index))
            )
        return await made[0](observation)

    try:
        session = PeerSession(table, "sit", f"p{index}", registry.installed_pin)
        session.standby = standby_address("127.0.0.1", port) if standby else None
        await run_peer(session, link, choose)
        # read once at the end: with the transport's threads busy, each reading of the process's CPU
        # clock can cost a millisecond here, so it is never read per entry
        timings.cpu["last"] = time.process_time()
        timings.cpu["waits_last"] = _waits()
    finally:
        link.close()
        table.log.close()


async def table_timings(
    registry: Registry,
    game: str,
    peers: int,
    variant: str | None = None,
    home: Path | None = None,
    cpu: bool = False,
    standby: bool = False,
) -> dict[str, Any]:
    """Play one game of ``game`` with ``peers`` random bot peers in this process and event loop."""
    host, host_key = _open_host(registry, game, peers, variant, home)
    host_timings = HostTimings()
    watch_host(host, host_timings, cpu=cpu)
    socket = HostSocket(curve_keys(host_key), host.admit)
    port = socket.bind("127.0.0.1", None)
    shared = Timings()  # one process: the step starts are shared; each peer has its own record
    timings = [Timings(step_start=shared.step_start, draws=shared.draws) for _ in range(peers)]
    public = host_key.verify_key.encode()
    try:
        with steps_timed(shared):
            serving = asyncio.create_task(run_host(host, socket, grace=1.0))
            await asyncio.gather(
                *(
                    _play_peer(registry, game, host.table.id, public, port, i, timings[i], home, cpu, standby)
                    for i in range(peers)
                )
            )
            await serving
    finally:
        socket.close()
        host.table.log.close()
    return merge(timings, host_timings, processes=False, cpu=cpu)


async def process_timings(
    registry: Registry,
    game: str,
    peers: int,
    variant: str | None = None,
    home: Path | None = None,
    cpu: bool = False,
    standby: bool = False,
) -> dict[str, Any]:
    """Play one game of ``game`` with each of ``peers`` random bot peers in a process of its own (as at
    a LAN party, on this machine's cores), the host in this one; the peers' timings merged."""
    host, host_key = _open_host(registry, game, peers, variant, home)
    host_timings = HostTimings()
    watch_host(host, host_timings, cpu=cpu)
    socket = HostSocket(curve_keys(host_key), host.admit)
    port = socket.bind("127.0.0.1", None)
    processes: list[asyncio.subprocess.Process] = []
    try:
        for index in range(peers):
            config = {
                "game": game,
                "table": host.table.id,
                "host_key": host_key.verify_key.encode().hex(),
                "port": port,
                "index": index,
                "home": None if home is None else str(home),
                "cpu": cpu,
                "standby": standby,
            }
            processes.append(
                await asyncio.create_subprocess_exec(
                    sys.executable,
                    "-m",
                    "atoll_tools.bench.net",
                    "--peer",
                    json.dumps(config),
                    stdout=asyncio.subprocess.PIPE,
                )
            )
        serving = asyncio.create_task(run_host(host, socket, grace=5.0))
        outputs = await asyncio.gather(*(p.communicate() for p in processes))
        await serving
        if any(p.returncode != 0 for p in processes):
            raise RuntimeError(f"a peer process failed (exit codes {[p.returncode for p in processes]})")
    finally:
        for process in processes:
            if process.returncode is None:
                process.kill()
                await process.wait()
        socket.close()
        host.table.log.close()
    return merge(
        [Timings.from_json(json.loads(out)) for out, _ in outputs], host_timings, processes=True, cpu=cpu
    )


def peer_main(config: dict[str, Any]) -> int:
    """A peer process of :func:`process_timings`: play, then print this peer's timings as JSON."""
    timings = Timings()
    with steps_timed(timings):
        asyncio.run(
            _play_peer(
                load_registry(),
                config["game"],
                config["table"],
                bytes.fromhex(config["host_key"]),
                config["port"],
                config["index"],
                timings,
                None if config.get("home") is None else Path(config["home"]),
                bool(config.get("cpu")),
                bool(config.get("standby")),
            )
        )
    print(json.dumps(timings.to_json()))
    return 0


async def relay_floor_processes(peers: int, rounds: int) -> list[float]:
    """:func:`relay_floor` with each peer in a process of its own (see :func:`relay_peer_main`)."""
    host_key = SigningKey.generate()
    host = HostSocket(curve_keys(host_key), lambda _key: True)
    port = host.bind("127.0.0.1", None)
    processes: list[asyncio.subprocess.Process] = []
    times: list[float] = []
    try:
        config = json.dumps({"host_key": host_key.verify_key.encode().hex(), "port": port})
        for _ in range(peers):
            processes.append(
                await asyncio.create_subprocess_exec(
                    sys.executable, "-m", "atoll_tools.bench.net", "--relay-peer", config
                )
            )
        connections = [(await host.recv())[0] for _ in range(peers)]
        for n in range(rounds + 1):
            last = n == rounds
            start = time.perf_counter()
            message = seal(
                host_key, v="bench", kind="stop" if last else "move", table="t", n=n, seen={}, body={"at": n}
            )
            for connection in connections:
                host.send(connection, message)
            if last:
                break
            for _ in range(peers):
                open_envelope((await host.recv())[2])
            times.append((time.perf_counter() - start) * 1000)
        await asyncio.gather(*(p.wait() for p in processes))
    finally:
        for process in processes:
            if process.returncode is None:
                process.kill()
                await process.wait()
        host.close()
    return times


def relay_peer_main(config: dict[str, Any]) -> int:
    """A peer process of :func:`relay_floor_processes`: check each relayed message and acknowledge it."""

    async def run() -> None:
        key = SigningKey.generate()
        host_key = bytes.fromhex(config["host_key"])
        socket = PeerSocket(key, curve_public(host_key))
        try:
            socket.connect("127.0.0.1", config["port"])
            await socket.send(seal(key, v="bench", kind="sync", table="t", n=0, seen={}, body={}))
            n = 1
            while True:
                message = open_envelope(await socket.recv())
                if message.kind == "stop":
                    return
                await socket.send(seal(key, v="bench", kind="ack", table="t", n=n, seen={}, body={}))
                n += 1
        finally:
            socket.close()

    asyncio.run(run())
    return 0


def _per_core(total: float | None, cores: int) -> float | None:
    """``total`` CPU milliseconds spread evenly over ``cores``: the least wall time they can take."""
    return None if total is None else total / cores


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; print a table, or one JSON object keyed by peer count."""
    parser = argparse.ArgumentParser(prog="scripts/bench net", description=__doc__)
    parser.add_argument("--json", action="store_true", help="print one JSON object keyed by peer count")
    parser.add_argument("--rounds", type=int, default=200, help="relay rounds per peer count (default 200)")
    parser.add_argument(
        "--inline",
        action="store_true",
        help="run every peer in this one process (default: each peer a process, as at a LAN party)",
    )
    parser.add_argument("--peers", default="2,3,4,5", help="peer counts to measure (default 2,3,4,5)")
    parser.add_argument(
        CPU_CLOCK,
        action="store_true",
        help="also read each peer's CPU clock at every entry (per-step CPU figures; see CPU_CLOCK)",
    )
    parser.add_argument(
        "--durable",
        action="store_true",
        help="every peer and the host write their logs (each entry fsynced before it is acted on), "
        "as at a real table, in a temporary directory",
    )
    parser.add_argument(
        "--standby",
        action="store_true",
        help="every peer names a standby address and listens there for the other seats while it plays "
        "(the direct links of decision 0020, idle while nobody is accused)",
    )
    parser.add_argument("--peer", help=argparse.SUPPRESS)  # internal: run as one peer process
    parser.add_argument("--relay-peer", help=argparse.SUPPRESS)  # internal: one relay-floor peer
    args = parser.parse_args(argv)
    if args.peer is not None:
        return peer_main(json.loads(args.peer))
    if args.relay_peer is not None:
        return relay_peer_main(json.loads(args.relay_peer))
    with tempfile.TemporaryDirectory(prefix="atoll-bench-") as temporary:
        return _measure(args, Path(temporary) if args.durable else None)


def _measure(args: argparse.Namespace, home: Path | None) -> int:
    registry = load_registry()
    game_timings = table_timings if args.inline else process_timings
    floor_timings = relay_floor if args.inline else relay_floor_processes
    cores = len(os.sched_getaffinity(0))
    out: dict[str, dict[str, Any]] = {}
    for peers in (int(p) for p in args.peers.split(",")):
        load = os.getloadavg()[0]  # other work on this machine's cores skews every figure
        floor = asyncio.run(floor_timings(peers, args.rounds))
        play = asyncio.run(
            game_timings(registry, "kiribati", peers, "professional", home, args.cpu, args.standby)
        )
        row: dict[str, Any] = {
            "relay_floor_p50_ms": statistics.median(floor),
            "relay_floor_p99_ms": _percentile(floor, 0.99),
            "move_p50_ms": statistics.median(play["moves"]),
            "move_p99_ms": _percentile(play["moves"], 0.99),
            "roll_p50_ms": statistics.median(play["rolls"]) if play["rolls"] else None,
            "roll_p99_ms": _percentile(play["rolls"], 0.99) if play["rolls"] else None,
            "roll_critical_cpu_ms": play["roll_cpu_ms"],
            "roll_cpu_total_ms": play["roll_cpu_total_ms"],
            "roll_cpu_floor_ms": _per_core(play["roll_cpu_total_ms"], cores),
            "peer_cpu_us_per_entry": play["cpu_us_per_entry"],
            "peer_waits_per_entry": play["waits_per_entry"],
            "moves_measured": len(play["moves"]),
            "rolls_measured": len(play["rolls"]),
            "peers_in": "one process" if args.inline else "a process each",
            "standby": "each peer listens at a standby address" if args.standby else "none",
            "logs": "fsynced per entry" if home is not None else "none (memory only)",
            "cores": cores,
            "load_average_1min": load,
        }
        row["move_vs_floor"] = row["move_p50_ms"] / row["relay_floor_p50_ms"]
        if peers <= 4:
            setup = asyncio.run(game_timings(registry, "kariba", peers, None, home, args.cpu))
            row["kariba_setup_ms"] = setup["setup_ms"]
            row["kariba_setup_cpu_ms_per_peer"] = setup["setup_cpu_ms"]
            row["kariba_setup_critical_cpu_ms"] = setup["setup_critical_cpu_ms"]
            row["kariba_setup_cpu_total_ms"] = setup["setup_cpu_total_ms"]
            row["kariba_setup_cpu_floor_ms"] = _per_core(setup["setup_cpu_total_ms"], cores)
        out[str(peers)] = row
        if not args.json:
            print(
                f"{peers} peers: "
                + ", ".join(f"{k} {v:.2f}" if isinstance(v, float) else f"{k} {v}" for k, v in row.items()),
                flush=True,
            )
    if args.json:
        print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
