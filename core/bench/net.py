"""``scripts/bench net``: tables over ZeroMQ on loopback, against a bare signed relay timed in the same run.

For 2-5 peers: the time from a move being sent to every peer having applied it, a roll by commit-reveal
(from its step's start at the first peer to its end at the last), Kariba's deck set-up (from the last
seat taken to the first decision at every peer), and the floor: a host ROUTER relaying one signed
message to N DEALER peers that check it and acknowledge. Every peer runs in this one process and
event loop, so the figures include all peers' work done one after another: an upper bound for peers
on separate machines.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

from nacl.signing import SigningKey

from atoll.net.envelope import open_envelope, seal
from atoll.net.transport import HostSocket, PeerSocket, curve_keys
from atoll.registry import Registry, load_registry
from atoll.table.host import Sequencer
from atoll.table.peer import PeerSession, bot_chooser, run_peer
from atoll.table.resolver import NetResolver
from atoll.table.serve import run_host
from atoll.table.table import Table


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


async def table_timings(
    registry: Registry, game: str, peers: int, variant: str | None = None
) -> dict[str, Any]:
    """Play one game of ``game`` with ``peers`` random bot peers over loopback; its timings."""
    host_key = SigningKey.generate()
    info = registry.game(game).info
    host = Sequencer.open(
        f"bench-{os.urandom(8).hex()}",
        host_key,
        registry.game,
        game=game,
        variant=variant or info.default_variant,
        seats=peers,
        name="bench",
    )
    socket = HostSocket(curve_keys(host_key), host.admit)
    port = socket.bind("127.0.0.1", None)
    sent: dict[tuple[str, int], float] = {}
    applied: dict[tuple[str, int], list[float]] = {}
    step_start: dict[int, float] = {}
    step_end: dict[int, dict[int, float]] = {}
    draws: set[int] = set()
    started: list[float] = []
    first_decision: dict[int, float] = {}
    tables: list[Table] = []

    def watch(table: Table) -> None:
        receive = table.receive

        def timed(data: dict[str, Any]) -> Any:
            entry = receive(data)
            now = time.perf_counter()
            message = entry.message
            if message.kind == "move":
                applied.setdefault((message.author, message.n), []).append(now)
            engine = table.engine
            if engine is not None:
                if not started:
                    started.append(now)
                record = engine.resolver.record
                if record.complete():
                    step_end.setdefault(record.n, {}).setdefault(id(table), now)
                if engine.waiting().seat is not None:
                    first_decision.setdefault(id(table), now)
            return entry

        table.receive = timed  # type: ignore[method-assign]
        compose = table.move

        def move(action: dict[str, Any]) -> bytes:
            data = compose(action)
            message = open_envelope(data)
            sent[(message.author, message.n)] = time.perf_counter()
            return data

        table.move = move  # type: ignore[method-assign]

    begin = NetResolver._begin

    def timed_begin(self: NetResolver, fields: dict[str, Any]) -> None:
        n = self.record.n + 1
        step_start.setdefault(n, time.perf_counter())
        if fields.get("step") == "draw":
            draws.add(n)
        begin(self, fields)

    NetResolver._begin = timed_begin  # type: ignore[method-assign]

    async def peer(index: int) -> None:
        key = SigningKey.generate()
        table = Table(host.table.id, host_key.verify_key.encode(), key, registry.game)
        watch(table)
        tables.append(table)
        link = PeerSocket(key, curve_keys(host_key)[0])
        link.connect("127.0.0.1", port)
        made: list[Callable[..., Any]] = []

        async def choose(observation: Any) -> Any:
            if not made:
                made.append(
                    bot_chooser(registry.bot("random", game).make(observation.game, observation.seat, index))
                )
            return await made[0](observation)

        try:
            await run_peer(PeerSession(table, "sit", f"p{index}"), link, choose)
        finally:
            link.close()

    try:
        serving = asyncio.create_task(run_host(host, socket, grace=1.0))
        await asyncio.gather(*(peer(i) for i in range(peers)))
        await serving
    finally:
        NetResolver._begin = begin  # type: ignore[method-assign]
        socket.close()
    moves = [(max(applied[k]) - t) * 1000 for k, t in sent.items() if len(applied.get(k, [])) == peers]
    rolls = [
        (max(step_end[n].values()) - step_start[n]) * 1000 for n in draws if len(step_end.get(n, {})) >= peers
    ]
    setup = (
        (max(first_decision.values()) - started[0]) * 1000
        if len(first_decision) == peers and started
        else None
    )
    return {"moves": moves, "rolls": rolls, "setup_ms": setup}


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; print a table, or one JSON object keyed by peer count."""
    parser = argparse.ArgumentParser(prog="scripts/bench net", description=__doc__)
    parser.add_argument("--json", action="store_true", help="print one JSON object keyed by peer count")
    parser.add_argument("--rounds", type=int, default=200, help="relay rounds per peer count (default 200)")
    args = parser.parse_args(argv)
    registry = load_registry()
    out: dict[str, dict[str, Any]] = {}
    for peers in (2, 3, 4, 5):
        floor = asyncio.run(relay_floor(peers, args.rounds))
        play = asyncio.run(table_timings(registry, "kiribati", peers, "professional"))
        row: dict[str, Any] = {
            "relay_floor_p50_ms": statistics.median(floor),
            "relay_floor_p99_ms": _percentile(floor, 0.99),
            "move_p50_ms": statistics.median(play["moves"]),
            "move_p99_ms": _percentile(play["moves"], 0.99),
            "roll_p50_ms": statistics.median(play["rolls"]) if play["rolls"] else None,
            "moves_measured": len(play["moves"]),
            "rolls_measured": len(play["rolls"]),
        }
        row["move_vs_floor"] = row["move_p50_ms"] / row["relay_floor_p50_ms"]
        if peers <= 4:
            row["kariba_setup_ms"] = asyncio.run(table_timings(registry, "kariba", peers))["setup_ms"]
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
