"""Tables under fire: bot peers and a host as processes on loopback, killed with SIGKILL and resumed.

:func:`play_through_crashes` runs one game: a headless ``atoll host`` and one ``atoll join --bot``
process per seat, each with its own ``ATOLL_HOME``. At the log lengths a :class:`Crash` names, it
kills a process (SIGKILL: no clean-up of any kind) and, unless told otherwise, starts it again with
``--resume`` after a pause. When every process has exited, it compares the logs of every peer and
the host and audits one. ``scripts/soak`` runs many such games at random; the suite runs a few.
Everything stays on 127.0.0.1 and nothing is announced.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from atoll.app.ports import free_pair

#: Seconds a game may take, kills and restarts included, before it counts as stuck.
GAME_TIMEOUT_S = 300.0


@dataclass(frozen=True)
class Crash:
    """Kill ``who`` (``"host"`` or a seat's index) once the host's log holds ``at`` entries; start it
    again with ``--resume`` after ``pause`` seconds unless ``restart`` is false."""

    who: str | int
    at: int
    pause: float = 0.5
    restart: bool = True
    frozen: bool = False
    """Pause the process (SIGSTOP) for ``pause`` seconds and let it go on (SIGCONT) instead: a host
    frozen past the host timeout is taken over from while it lives (docs/decisions/0028)."""


@dataclass
class Outcome:
    """What happened to one game."""

    game: str
    seats: int
    kills: int = 0
    freezes: int = 0
    resumes: int = 0
    migrations: int = 0
    late_hosts: int = 0
    problems: list[str] = field(default_factory=list)
    entries: int = 0

    @property
    def ok(self) -> bool:
        """Whether the game finished with identical logs that audit clean."""
        return not self.problems


class Process:
    """One ``atoll`` command in its own data directory, restartable with ``--resume``."""

    def __init__(self, home: Path, args: Sequence[str], resume: Sequence[str]) -> None:
        self.home = home
        self.args = list(args)
        self.resume_args = list(resume)
        self.process: subprocess.Popen[bytes] | None = None
        self.output = home / "output.txt"

    def start(self, *, resume: bool = False) -> None:
        """Start the command (or its ``--resume`` form)."""
        self.home.mkdir(parents=True, exist_ok=True)
        env = dict(os.environ, ATOLL_HOME=str(self.home))
        command = [sys.executable, "-m", "atoll.cli.main", *(self.resume_args if resume else self.args)]
        with self.output.open("ab") as out:
            out.write(f"$ {' '.join(command)}\n".encode())
            out.flush()
            self.process = subprocess.Popen(
                command, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT
            )

    def kill(self) -> None:
        """SIGKILL: the process gets no chance to tidy up."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def signal(self, number: int) -> None:
        """Send signal ``number`` (SIGSTOP, SIGCONT) to the process, if it runs."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(number)

    def running(self) -> bool:
        """Whether the process is alive."""
        return self.process is not None and self.process.poll() is None

    def returncode(self) -> int | None:
        """The exit status, once it has exited."""
        return None if self.process is None else self.process.poll()

    def logs(self) -> list[Path]:
        """The table logs under this data directory (its own and, for a host, none of the bots')."""
        return sorted((self.home / "tables").glob("*/log.jsonl"))


def free_port_pair() -> int:
    """A port P on 127.0.0.1 with P+1 free too (the table and its key service)."""
    port = free_pair("127.0.0.1")
    if port is None:
        raise RuntimeError("no two free ports in a row on 127.0.0.1")
    return port


def _lines(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except OSError:
        return 0


def play_through_crashes(
    workdir: Path,
    game: str,
    seats: int,
    crashes: Sequence[Crash],
    *,
    variant: str | None = None,
    bot: str = "random",
    timeout: float = GAME_TIMEOUT_S,
    host_timeout: int = 6,
) -> Outcome:
    """Play one game through ``crashes``; every process is stopped before this returns."""
    outcome = Outcome(game, seats)
    port = free_port_pair()
    variant_args = ["--variant", variant] if variant else []
    host = Process(
        workdir / "host",
        [
            "host",
            game,
            *variant_args,
            "--seats",
            str(seats),
            "--headless",
            "--bind",
            "127.0.0.1",
            "--port",
            str(port),
            "--no-announce",
            "--quiet",
            "--host-timeout",
            str(host_timeout),
        ],
        ["host", "--resume", "--quiet"],
    )
    peers = [
        Process(
            workdir / f"seat{index}",
            ["join", "--address", f"127.0.0.1:{port}", "--bot", bot, "--name", f"bot {index}", "--quiet"],
            ["join", "--resume", "--quiet"],
        )
        for index in range(seats)
    ]
    everyone = [host, *peers]
    pending = sorted(crashes, key=lambda crash: crash.at)
    restarts: list[tuple[float, Process]] = []
    thaws: list[tuple[float, Process]] = []
    gone: list[Process] = []  # killed for good: their logs stop where they died
    try:
        host.start()
        time.sleep(0.3)
        for peer in peers:
            peer.start()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            length = max((_lines(log) for process in everyone for log in process.logs()), default=0)
            while pending and length >= pending[0].at:
                crash = pending.pop(0)
                target = host if crash.who == "host" else peers[int(crash.who)]
                if crash.frozen and target.running() and all(target is not t for _, t in thaws):
                    target.signal(signal.SIGSTOP)
                    outcome.freezes += 1
                    thaws.append((time.monotonic() + crash.pause, target))
                elif target.running() and not crash.frozen:
                    target.kill()
                    outcome.kills += 1
                    if crash.restart:
                        restarts.append((time.monotonic() + crash.pause, target))
                    else:
                        gone.append(target)
            for when, target in list(thaws):
                if time.monotonic() >= when:
                    thaws.remove((when, target))
                    target.signal(signal.SIGCONT)
            for when, target in list(restarts):
                if time.monotonic() >= when:
                    restarts.remove((when, target))
                    target.start(resume=True)
                    outcome.resumes += 1
            if not restarts and not thaws and not any(process.running() for process in everyone):
                break
            time.sleep(0.05)
        else:
            outcome.problems.append(f"the game did not finish within {timeout:g} s")
    finally:
        for process in everyone:
            process.kill()
    if came_back_too_late(host, peers):
        # the table moved on without it and ended before it was back: nobody was left to answer it
        # (`atoll host --resume` says so and exits 1); its log must still be where the others' begin
        gone.append(host)
        outcome.late_hosts += 1
    finished = [process for process in everyone if process not in gone]
    for process in finished:
        if process.returncode() not in (0, None):
            code = process.returncode()
            outcome.problems.append(f"{process.home.name} exited {code} (see {process.output})")
    logs = [log for process in finished for log in process.logs()]
    if len(logs) != len(finished):
        outcome.problems.append(f"{len(logs)} logs for {len(finished)} processes that finished")
    elif len({log.read_bytes() for log in logs}) != 1:
        sizes = ", ".join(f"{log}: {_lines(log)}" for log in logs)
        outcome.problems.append(f"the peers' logs differ: {sizes}")
    final = logs[0].read_text().splitlines() if logs else []
    moved = _take_over(final)
    for process in gone:  # a process killed for good wrote where the others' logs begin, up to the
        for log in process.logs():  # take-over (its last entries may never have left the machine)
            if log.read_text().splitlines()[:moved] != final[: min(moved, _lines(log))]:
                outcome.problems.append(f"{log} is not where the final log begins")
    if logs:
        outcome.migrations = sum(1 for line in logs[0].read_text().splitlines() if '"kind":"host"' in line)
        outcome.entries = _lines(logs[0])
        # `atoll audit` in a process of its own: the same code as the game's processes ran
        audit = subprocess.run(
            [sys.executable, "-m", "atoll.cli.main", "audit", "--json", str(logs[0])],
            capture_output=True,
            text=True,
            timeout=600,
        )
        if audit.returncode != 0:
            said = (audit.stdout.strip() or audit.stderr.strip())[-300:]
            outcome.problems.append(f"`atoll audit` exits {audit.returncode}: {said}")
    return outcome


def _take_over(lines: Sequence[str]) -> int:
    """The index of the first take-over entry in a log's lines (their count if there is none)."""
    return next((i for i, line in enumerate(lines) if '"kind":"host"' in line), len(lines))


def came_back_too_late(host: Process, peers: Sequence[Process]) -> bool:
    """Whether the host gave up (exit 1) on a table that another seat took over while it was away.

    Only then is its exit status no failure: the peers' logs hold a take-over, and the host's own log is
    where theirs begin, or agrees with theirs up to the take-over (its entries after it lose to the
    take-over: docs/decisions/0028).
    """
    if host.returncode() != 1:
        return False
    theirs = [log for peer in peers if peer.returncode() == 0 for log in peer.logs()]
    if not theirs:
        return False
    final = theirs[0].read_text().splitlines()
    moved = _take_over(final)

    def behind(log: Path) -> bool:
        # where the others' log begins (it joined the moved table as a peer, and stopped), or agreeing
        # with it up to the take-over: entries it sequenced after that lose to the take-over (0028)
        lines = log.read_text().splitlines()
        return lines == final[: len(lines)] or lines[:moved] == final[: min(moved, len(lines))]

    return moved < len(final) and all(behind(log) for log in host.logs())


def random_crashes(
    rng: random.Random, seats: int, *, length: int, kills: int, freezes: int = 0, host_timeout: int = 6
) -> list[Crash]:
    """``kills`` crashes of random processes at random points of a game about ``length`` entries long,
    and ``freezes`` pauses of its host (SIGSTOP) for one to two host timeouts."""
    crashes = [
        Crash(
            rng.choice(["host", *range(seats)]),
            rng.randrange(seats + 2, max(seats + 3, length)),
            pause=rng.uniform(0.0, 2.0),
        )
        for _ in range(kills)
    ]
    return crashes + [
        Crash("host", rng.randrange(seats + 2, max(seats + 3, length)),
              pause=rng.uniform(host_timeout, 2.0 * host_timeout), frozen=True)
        for _ in range(freezes)
    ]


#: One game in this many loses its host for good (the others resume it).
LOST_HOST_EVERY = 10

#: Games and the variant that keeps a random game short enough for a soak.
SOAK_GAMES = {"kariba": None, "kiribati": "professional", "animals_on_board": None, "survival": None}


def soak(
    workdir: Path,
    seat_range: Callable[[str], tuple[int, int]],
    *,
    count: int,
    seed: int,
    kills: int,
    say: Callable[[str], None],
    only: Sequence[str] = (),
    freezes: int = 0,
) -> list[Outcome]:
    """Play ``count`` random games of the built-in games with ``kills`` random SIGKILLs each, and
    ``freezes`` pauses of the host past the host timeout."""
    rng = random.Random(seed)
    outcomes = []
    for index in range(count):
        game = rng.choice(sorted(only or SOAK_GAMES))
        low, high = seat_range(game)
        seats = rng.randint(low, min(high, 4))
        crashes = random_crashes(rng, seats, length=150, kills=kills, freezes=freezes)
        if index % LOST_HOST_EVERY == 0:  # a host that never comes back: the next seat takes over
            crashes = [c for c in crashes if c.who != "host"]
            crashes.append(Crash("host", rng.randrange(seats + 4, 120), restart=False))
        started = time.monotonic()
        outcome = play_through_crashes(
            workdir / f"game{index:03d}", game, seats, crashes, variant=SOAK_GAMES[game]
        )
        outcomes.append(outcome)
        verdict = "ok" if outcome.ok else "FAILED: " + "; ".join(outcome.problems)
        late = ", its host back too late" if outcome.late_hosts else ""
        frozen = f"{outcome.freezes} freezes, " if freezes else ""  # the line scripts read, unchanged
        say(
            f"game {index + 1}/{count}: {game}, {seats} seats, {outcome.entries} entries, "
            f"{outcome.kills} kills, {frozen}{outcome.resumes} resumes, {outcome.migrations} migrations"
            f"{late}, {time.monotonic() - started:.0f} s: {verdict}"
        )
    return outcomes


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main(argv: Sequence[str] | None = None) -> int:
    """``scripts/soak``: many games through random crashes; a summary; non-zero on any failure."""
    import argparse
    import shutil
    import tempfile

    from atoll.registry import load_registry

    parser = argparse.ArgumentParser(
        prog="scripts/soak",
        description="Play random built-in games on loopback, SIGKILL peers and the host at random moments, "
        "resume them, and check that every game finishes with identical logs that audit clean.",
    )
    parser.add_argument("--games", type=int, default=100, help="how many games (default: 100)")
    parser.add_argument("--seed", type=int, default=1, help="the seed of the random choices (default: 1)")
    parser.add_argument("--kills", type=int, default=3, help="SIGKILLs a game (default: 3)")
    parser.add_argument(
        "--freezes", type=int, default=0,
        help="pauses of the host a game (SIGSTOP for one to two host timeouts, then SIGCONT; default: 0)",
    )
    parser.add_argument(
        "--game",
        action="append",
        choices=sorted(SOAK_GAMES),
        help="play only this game (repeatable; default: every built-in game)",
    )
    parser.add_argument(
        "--workdir", type=Path, help="keep every game's files here (default: a temporary folder)"
    )
    args = parser.parse_args(argv)
    # a SIGTERM ends the soak like Ctrl-C: every process it started is stopped on the way out
    signal.signal(signal.SIGTERM, _interrupt)
    if args.games < 1 or args.kills < 0 or args.freezes < 0:
        parser.error("--games is at least 1, --kills and --freezes at least 0")
    found = load_registry()

    def seat_range(game: str) -> tuple[int, int]:
        info = found.game(game).info
        return info.min_seats, info.max_seats

    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="atoll-soak-"))
    workdir.mkdir(parents=True, exist_ok=True)
    outcomes = soak(
        workdir,
        seat_range,
        count=args.games,
        seed=args.seed,
        kills=args.kills,
        say=lambda line: print(line, flush=True),
        only=args.game or (),
        freezes=args.freezes,
    )
    failures = [o for o in outcomes if not o.ok]
    print(
        f"soak: {len(outcomes)} games, {sum(o.kills for o in outcomes)} kills, "
        + (f"{sum(o.freezes for o in outcomes)} freezes, " if args.freezes else "")  # else as before
        + f"{sum(o.resumes for o in outcomes)} resumes, {sum(o.migrations for o in outcomes)} migrations, "
        f"{sum(o.late_hosts for o in outcomes)} hosts back too late, {len(failures)} failures"
    )
    if failures:
        print(f"the failed games' files are under {workdir}")
    elif args.workdir is None:
        shutil.rmtree(workdir, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
