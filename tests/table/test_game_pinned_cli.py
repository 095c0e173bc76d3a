"""Two laptops with different builds of one game (issue 25): the real ``atoll`` commands on loopback,
one of them under an install whose Kariba has one rule changed. It is turned away at the door in one
line, exits 2 and blames nobody; the game goes on with another peer; and ``atoll audit`` under the
changed install says that its game differs instead of judging the log by other rules."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from atoll.pin import atoll_version, code_digest
from tests.conftest import ROOT
from tests.table.harness import REGISTRY

#: The package the changed copy of Kariba is installed as, beside atoll.
COPY = "kariba_house_rules"


def changed_install(site: Path) -> Path:
    """A site folder that, first on ``PYTHONPATH``, makes this machine another laptop: atoll 0.1.0 as
    installed, but with a Kariba whose places chase at four cards, not three (K6), registered under
    the same entry-point name. Its ``atoll`` metadata comes first on the path, so the ``atoll.games``
    entry points are read from it (the first distribution of a name wins, as in any environment)."""
    package = site / COPY
    shutil.copytree(ROOT / "plugins" / "kariba", package, ignore=shutil.ignore_patterns("__pycache__"))
    for source in package.glob("*.py"):
        source.write_text(source.read_text().replace("atoll.plugins.kariba", COPY))
    rules = package / "rules.py"
    assert "CHASE_AT = 3\n" in rules.read_text()
    rules.write_text(rules.read_text().replace("CHASE_AT = 3\n", "CHASE_AT = 4\n"))
    info = site / f"atoll-{atoll_version()}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: atoll\nVersion: {atoll_version()}\n")
    games = {name: f"atoll.plugins.{name}" for name in REGISTRY.games if name != "kariba"}
    lines = [f"{name} = {module}" for name, module in {**games, "kariba": COPY}.items()]
    (info / "entry_points.txt").write_text("[atoll.games]\n" + "\n".join(lines) + "\n")
    return package


def env(home: Path, site: Path | None = None) -> dict[str, str]:
    """The environment of one laptop: its own ATOLL_HOME and HOME, and the changed install if given."""
    values = dict(os.environ, ATOLL_HOME=str(home), HOME=str(home))
    values.pop("PYTHONPATH", None)
    if site is not None:
        values["PYTHONPATH"] = str(site)
    return values


def atoll(*args: str, environ: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run an ``atoll`` command on one laptop to its end."""
    return subprocess.run(
        [sys.executable, "-m", "atoll.cli.main", *args],
        env=environ, cwd=cwd, capture_output=True, text=True, timeout=120,
    )


def free_ports() -> int:
    """A loopback port free now, with the next one free too (the host's key service listens there)."""
    while True:
        with socket.socket() as table, socket.socket() as keys:
            table.bind(("127.0.0.1", 0))
            port = table.getsockname()[1]
            try:
                keys.bind(("127.0.0.1", port + 1))
            except (OSError, OverflowError):  # in use, or past the last port
                continue
            return int(port)


@pytest.fixture
def host(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """``atoll host kariba`` for two seats on loopback, headless, one seat taken by its bot; its
    process and the address it prints. Stopped with its bots however the test ends."""
    home = tmp_path / "host"
    command = [sys.executable, "-m", "atoll.cli.main", "host", "kariba", "--seats", "2", "--bots", "1",
               "--bot-kind", "random", "--headless", "--bind", "127.0.0.1", "--no-announce",
               "--port", str(free_ports())]
    process = subprocess.Popen(command, env=env(home), cwd=tmp_path, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        address = None
        assert process.stdout is not None
        for line in process.stdout:
            if line.startswith("atoll join --address "):
                address = line.rsplit(" ", 1)[-1].strip()
                break
        assert address is not None, process.stderr.read() if process.stderr else ""
        yield process, address
    finally:
        if process.poll() is None:
            os.killpg(process.pid, 9)  # the host and the bot it started
        process.wait()


def test_a_peer_with_a_changed_copy_of_the_game_is_refused_at_the_door_and_the_audit_says_the_game_differs(
    tmp_path: Path, host: tuple[subprocess.Popen[str], str]
) -> None:
    process, address = host
    site = tmp_path / "site"
    copy = changed_install(site)
    ours, theirs = REGISTRY.pin("kariba").digest, code_digest((str(copy),))
    changed_home = tmp_path / "changed"

    refused = atoll("join", "--address", address, "--bot", "random", "--quiet",
                    environ=env(changed_home, site), cwd=tmp_path)
    assert refused.returncode == 2, refused.stderr
    assert refused.stderr.splitlines() == [
        f"atoll join: this table plays kariba from atoll {atoll_version()} (code {ours[:12]}); this machine "
        f"has kariba from atoll {atoll_version()} (code {theirs[:12]}): the same version with other code "
        f"(one copy was changed), so install the host's copy of atoll {atoll_version()}"
    ]
    assert not (changed_home / "tables").exists()  # turned back before anything was written

    joined = atoll("join", "--address", address, "--bot", "random", "--quiet", environ=env(tmp_path / "same"),
                   cwd=tmp_path)
    assert joined.returncode == 0, joined.stderr
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err[-2000:]
    assert "cheat" not in (out + err).lower() and "forfeit" not in (out + err).lower()  # nobody blamed

    log = next((tmp_path / "host" / "tables").glob("*/log.jsonl"))
    same = atoll("audit", str(log), environ=env(tmp_path / "same"), cwd=tmp_path)
    assert same.returncode == 0, same.stderr
    assert f"  game build: atoll {atoll_version()} (code {ours[:12]})" in same.stdout

    other = atoll("audit", str(log), environ=env(changed_home, site), cwd=tmp_path)
    assert other.returncode == 2, other.stdout + other.stderr
    assert f"  installed here: atoll {atoll_version()} (code {theirs[:12]})" in other.stderr
    assert "the game installed here differs from the table's" in other.stderr
    assert "Under this install " in other.stderr  # what it would have said, as unreliable
    assert "a verdict by other rules than the table's, so it is unreliable and blames nobody" in other.stderr
    assert "Traceback" not in other.stderr
