"""``py scripts\\test.py [PYTEST ARGS]`` (Windows) or ``python3 scripts/test.py``: what ``scripts/test`` does,
with no shell. Makes .venv if needed, installs atoll with the dev extras, runs the linters, the
type check and the whole test suite on every core (extra arguments go to pytest).
"""

from __future__ import annotations

import os
import subprocess
import sys

from _system import ensure_system_packages
from _venv import ROOT, ensure_venv, venv_program


def main(args: list[str]) -> int:
    """Install if needed, then check; returns the first failing step's status, else pytest's."""
    python = ensure_venv("dev")
    steps = [
        ("ruff", [str(venv_program("ruff")), "check", "."], {}),
        # mypy finds atoll where Python does (the strict editable install) and the tools in scripts/
        ("mypy (core, net, plugins)", [str(venv_program("mypy")), "-p", "atoll", "-p", "atoll_tools"],
         {"MYPYPATH": str(ROOT / "scripts")}),
    ]
    for name, command, env in steps:
        print(f"== {name}", file=sys.stderr, flush=True)
        done = subprocess.run(command, cwd=ROOT, env={**os.environ, **env})
        if done.returncode != 0:
            return done.returncode
    ensure_system_packages()
    print("== pytest", file=sys.stderr, flush=True)
    # -n auto: two workers per core (tests/conftest.py: most tests wait on processes and timeouts);
    # worksteal keeps them all busy when a few tests are long
    # --durations: the slowest tests are named in every run, so the suite's time is watched
    pytest = [str(python), "-m", "pytest", "-n", "auto", "--dist", "worksteal", "--durations=15"]
    return subprocess.run([*pytest, *args], cwd=ROOT).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
