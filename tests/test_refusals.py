"""Bad arguments and keys as a user meets them: one line that says what to do, exit 2, no traceback,
and nothing left behind (issue 25)."""

from __future__ import annotations

import socket
from pathlib import Path

from tests.commands import Ran, env_for, run

HOST = ["host", "kariba", "--headless", "--no-announce", "--bind", "127.0.0.1", "--quiet"]


def _refused(ran: Ran) -> str:
    assert ran.status == 2, ran.output
    told = ran.output.strip()
    assert len(told.splitlines()) == 1 and "Traceback" not in told, told
    return told


def test_a_port_in_use_is_one_line_that_suggests_a_free_port_and_leaves_no_table_to_resume(
    tmp_path: Path,
) -> None:
    env = env_for(tmp_path)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        told = _refused(run([*HOST, "--port", str(port)], env))
    assert f"port {port} on 127.0.0.1 is in use" in told and "choose another: --port " in told
    assert not list((tmp_path / "home" / "tables").glob("*"))
    assert "no unfinished table that this machine hosted" in _refused(run(["host", "--resume"], env))


def test_a_player_name_over_32_characters_is_refused_with_the_limit(tmp_path: Path) -> None:
    told = _refused(run([*HOST, "--player", "x" * 40], env_for(tmp_path)))
    assert "is 40 characters long; give one of at most 32" in told


def test_a_blank_name_is_refused_for_a_seat_and_for_a_table(tmp_path: Path) -> None:
    env = env_for(tmp_path)
    seat = run(["join", "--address", "127.0.0.1:9", "--name", "   "], env)
    assert "display name is empty" in _refused(seat)
    assert "table name (--name) is empty" in _refused(run([*HOST, "--name", "   "], env))
    assert not list((tmp_path / "home" / "tables").glob("*"))


def test_a_blank_or_long_name_is_refused_for_a_local_game_before_it_starts(tmp_path: Path) -> None:
    env = env_for(tmp_path)
    assert "your name (--name) is empty" in _refused(run(["play", "kariba", "--name", "  "], env))
    assert "give one of at most 32" in _refused(run(["play", "kariba", "--name", "y" * 33], env))
    assert not list(tmp_path.rglob("*.jsonl"))


def test_an_identity_key_others_may_read_is_refused_with_the_command_that_mends_it(tmp_path: Path) -> None:
    env = env_for(tmp_path)
    _refused(run([*HOST, "--name", "   "], env))  # makes the identity, then refuses the name
    key = tmp_path / "home" / "identity.key"
    key.chmod(0o644)
    told = _refused(run(["join", "--resume"], env))
    assert f"may be read by other users (mode 644): run 'chmod 600 {key}'" in told
