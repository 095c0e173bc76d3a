"""A peer's own log read back: a line that is not an entry is named, and a damaged tail is moved
aside, never deleted (docs/decisions/0016-bad-files-and-locks.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from atoll.net.encoding import parse_json
from atoll.table.log import UnreadableLine, read_log, set_aside_from

LINES = [b'{"seq":0}', b'{"seq":1}', b'{"seq":2}', b'{"seq":3}']


def _log(tmp_path: Path, lines: list[bytes]) -> Path:
    path = tmp_path / "log.jsonl"
    path.write_bytes(b"".join(line + b"\n" for line in lines))
    return path


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        (b'{"seq":\xff}', "not UTF-8 text"),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        (b'{"seq":' + b"9" * 5000 + b"}", "not JSON this program can read"),
        (b"[1, 2]", "an entry is a JSON object"),
    ],
)
def test_a_line_that_is_not_an_entry_is_named_with_its_file_and_number(
    tmp_path: Path, line: bytes, problem: str
) -> None:
    path = _log(tmp_path, [*LINES[:2], line, *LINES[3:]])
    with pytest.raises(UnreadableLine) as damaged:
        read_log(path)
    assert damaged.value.line == 3 and problem in str(damaged.value) and str(path) in str(damaged.value)


def test_a_damaged_tail_moves_aside_whole_and_the_log_keeps_the_lines_before_it(tmp_path: Path) -> None:
    path = _log(tmp_path, LINES)
    aside = set_aside_from(path, 3)
    assert aside.name == "log.jsonl.damaged-1"
    assert path.read_bytes() == b'{"seq":0}\n{"seq":1}\n'
    assert aside.read_bytes() == b'{"seq":2}\n{"seq":3}\n'


def test_a_second_damaged_tail_never_overwrites_the_first(tmp_path: Path) -> None:
    path = _log(tmp_path, LINES)
    first = set_aside_from(path, 4)
    second = set_aside_from(path, 2)
    assert (first.name, second.name) == ("log.jsonl.damaged-1", "log.jsonl.damaged-2")
    assert first.read_bytes() == b'{"seq":3}\n' and second.read_bytes() == b'{"seq":1}\n{"seq":2}\n'


def test_a_save_refuses_a_number_that_is_not_an_integer() -> None:
    with pytest.raises(ValueError, match="numbers are integers, not '1e999'"):
        parse_json(b'{"seat":1e999}', integers=True)
