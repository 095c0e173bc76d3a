"""A peer's sealed values on disk: kept before its sealed move leaves, readable after a restart, private
to its owner, and a line torn by a crash (never sent) skipped."""

from __future__ import annotations

import stat
import sys
from pathlib import Path

import pytest

from atoll.app.store import SealedFile


def test_values_kept_are_held_again_after_a_restart(tmp_path: Path) -> None:
    kept = SealedFile(tmp_path / "sealed.jsonl")
    kept.keep(12, ["low"])
    kept.keep(30, [3, 5])
    assert SealedFile(tmp_path / "sealed.jsonl").held() == {12: ["low"], 30: [3, 5]}


def test_a_peer_that_sealed_nothing_holds_nothing(tmp_path: Path) -> None:
    assert SealedFile(tmp_path / "sealed.jsonl").held() == {}


def test_a_line_torn_by_a_crash_is_skipped(tmp_path: Path) -> None:
    path = tmp_path / "sealed.jsonl"
    SealedFile(path).keep(4, ["high"])
    with path.open("ab") as torn:
        torn.write(b'{"at": 9, "val')
    assert SealedFile(path).held() == {4: ["high"]}


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX file modes")
def test_only_its_owner_may_read_the_file(tmp_path: Path) -> None:
    path = tmp_path / "sealed.jsonl"
    SealedFile(path).keep(1, ["x"])
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
