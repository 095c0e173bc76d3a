"""``scripts/bench cli [--json]``: CPU time of ``atoll --help`` and ``atoll games`` against a bare Python.

Each command runs as its own process, several times in turn; its CPU time (user + system, read
from the kernel's accounting of the finished child) is taken as the median over the runs, so a
busy neighbour on the machine moves the figures less than wall time would. The target of issue 16
is under 0.25 CPU-s for each ``atoll`` command, the interpreter's own start included.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from atoll.jsondata import JSON

#: CPU seconds within which each measured ``atoll`` command must start (issue 16).
TARGET = 0.25


def atoll_program() -> list[str]:
    """The ``atoll`` console script next to this Python (as a user runs it), else ``python -m``."""
    script = Path(sys.executable).parent / "atoll"
    if script.exists():
        return [str(script)]
    found = shutil.which("atoll")
    return [found] if found else [sys.executable, "-m", "atoll.cli.main"]


def commands() -> dict[str, list[str]]:
    """The commands measured, by label; the first is the baseline."""
    atoll = atoll_program()
    return {
        "python -c pass": [sys.executable, "-c", "pass"],
        "atoll --help": [*atoll, "--help"],
        "atoll games": [*atoll, "games"],
        "atoll games --json": [*atoll, "games", "--json"],
    }


def cpu_seconds(argv: Sequence[str]) -> float:
    """User + system CPU seconds the process ``argv`` took; raises if it fails."""
    # wait4 rather than subprocess.run: it hands back this child's own resource usage.
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise RuntimeError(f"`{' '.join(argv)}` exited {process.returncode}; run it to see why")
    return usage.ru_utime + usage.ru_stime


def bench(runs: int) -> dict[str, JSON]:
    """Median CPU seconds of each command over ``runs`` runs taken in turn, and the verdict."""
    measured = commands()
    samples: dict[str, list[float]] = {label: [] for label in measured}
    for _ in range(runs):
        for label, argv in measured.items():  # interleaved, so a slow moment hits every command
            samples[label].append(cpu_seconds(argv))
    baseline = statistics.median(samples["python -c pass"])
    rows: dict[str, JSON] = {}
    for label, values in samples.items():
        median = statistics.median(values)
        row: dict[str, JSON] = {
            "cpu_s": round(median, 4), "min_cpu_s": round(min(values), 4),
            "over_python_s": round(median - baseline, 4),
        }
        if label != "python -c pass":
            row["meets_target"] = median < TARGET
        rows[label] = row
    return {"runs": runs, "target_cpu_s": TARGET, "commands": rows}


def table(figures: dict[str, JSON]) -> str:
    """The figures as a text table."""
    head = f"{'command':<22} {'CPU s':>8} {'min':>8} {'- python':>9}  target"
    lines = [head, "-" * len(head)]
    rows = figures["commands"]
    assert isinstance(rows, dict)
    for label, row in rows.items():
        assert isinstance(row, dict)
        meets = row.get("meets_target")
        verdict = "(baseline)" if meets is None else f"< {TARGET} ok" if meets else f"over {TARGET}!"
        figures_text = f"{row['cpu_s']:>8.3f} {row['min_cpu_s']:>8.3f} {row['over_python_s']:>9.3f}"
        lines.append(f"{label:<22} {figures_text}  {verdict}")
    lines.append(f"CPU s: median user+system CPU seconds over {figures['runs']} runs of each command, "
                 "taken in turn; - python: beyond `python -c pass`.")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print a table (or one JSON object)."""
    parser = argparse.ArgumentParser(prog="scripts/bench cli", description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--runs", type=int, default=15, help="runs of each command (default 15)")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error(f"--runs must be at least 1, not {args.runs}")
    try:
        figures = bench(args.runs)
    except RuntimeError as exc:
        print(f"bench cli: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(figures, indent=2) if args.json else table(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
