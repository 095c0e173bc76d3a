"""The lock one process holds on what it writes to (atoll.locks): a second taker is told who holds it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from atoll.errors import AtollError
from atoll.locks import InUse, hold


def test_a_second_taker_is_refused_naming_the_holders_pid(tmp_path: Path) -> None:
    with hold(tmp_path / "in-use.lock", "table t"), pytest.raises(InUse) as refused:
        hold(tmp_path / "in-use.lock", "table t")
    assert str(refused.value).startswith(f"table t is in use by process {os.getpid()} (atoll")


def test_a_lock_let_go_can_be_taken_again_and_names_no_holder_any_more(tmp_path: Path) -> None:
    hold(tmp_path / "in-use.lock", "table t").release()
    assert not (tmp_path / "in-use.lock.holder").exists()
    hold(tmp_path / "in-use.lock", "table t").release()


def test_a_lock_in_a_missing_folder_is_refused_and_makes_no_folder(tmp_path: Path) -> None:
    with pytest.raises(AtollError, match="is not a folder"):
        hold(tmp_path / "gone" / "in-use.lock", "table t")
    assert not (tmp_path / "gone").exists()
