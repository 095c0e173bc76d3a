"""What any browser's page is checked against: the snapshots a keyless copy of the table shows after
each entry of the log (as ``atoll audit`` replays it), shared by the Chromium and Firefox tests."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

from atoll_tools.big_screen import Party

from atoll.net.encoding import canonical_bytes, strict_hex
from atoll.net.envelope import open_envelope
from atoll.table.log import read_log
from atoll.table.table import Table
from atoll.web.styles import to_html
from atoll.web.view import TablePage
from tests.table.harness import REGISTRY

#: The longest a bot game may take to finish on a loaded machine, in seconds.
GAME_S = 240.0


def replayed(log: Path, boards: set[str] | None = None) -> list[dict[str, Any]]:
    """What a spectator that holds no secret at all may be shown after each entry of ``log``: the
    snapshot of a keyless copy of the table, taken in entry by entry (as ``atoll audit`` does).
    ``boards`` collects the game's own rendering of ``view(None)`` after each entry, as HTML."""
    entries = read_log(log)
    first = open_envelope(canonical_bytes(entries[0]["msg"]))
    table = Table(first.table, strict_hex(first.author, 32, "host key"), None, REGISTRY.game)
    page = TablePage(table, lambda: ())
    shown: list[dict[str, Any]] = []

    def take(data: dict[str, Any]) -> None:
        table.receive(data)
        shown.append(dict(page.snapshot()))
        engine = table.engine
        if boards is not None and engine is not None:
            boards.add(to_html(engine.match.game.render(engine.match.view(None))))

    table.take_stored(entries, take)
    return shown


def the_log(party: Party) -> Path:
    """The host's copy of the table's log."""
    logs = sorted((party.home / "host").rglob("log.jsonl"))
    assert logs
    return logs[0]  # the host's copy (every copy is the same: tests/table/test_loopback.py)




def the_page_showed(
    party: Party, *, board: str, seats: str, result: str, updates: int, reloaded: bool
) -> None:
    """The page (its texts as the browser drew them) showed the final board, every seat's player and
    name, at least three updates without reloading, and the result with its whole breakdown."""
    final = replayed(the_log(party))[-1]
    drawn = html.unescape(re.sub(r"<[^>]+>", "", final["board"]))
    assert board.strip() == drawn.strip()
    for seat in final["seats"]:
        assert seat["who"] in seats and seat["name"] in seats
    assert updates >= 3 and not reloaded
    assert final["result"] is not None and final["result"]["headline"] in result
    assert all(line in result for line in final["result"]["lines"])
