"""What an author writes type-checks under mypy --strict as written: ``render`` takes its view typed
like the state, so no ``isinstance`` check is needed to please mypy (issue 30)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

PLUGIN = '''
from collections.abc import Mapping

from atoll import JSON, Fragments, Game, Request, Reveal, State


class Raj(Game):
    def render(self, view: State) -> Fragments:
        prize: int = view["prize"]
        bids: list[int] = view["bids"]
        return [("bold", f"prize {prize}: "), ("", " ".join(str(bid) for bid in bids) + "\\n")]

    def describe_chance_after(
        self, state: State, request: Request, outcome: Mapping[str, JSON], after: State
    ) -> str | None:
        if not isinstance(request, Reveal):
            return None
        return f"{after['names'][after['taker']]} takes the {state['prize']}"


class Mapped(Game):
    def render(self, view: Mapping[str, JSON]) -> Fragments:
        return [("", f"{view['prize']}\\n")]
'''


def test_render_taking_the_state_type_and_the_chance_words_after_pass_strict_mypy(tmp_path: Path) -> None:
    (tmp_path / "raj.py").write_text(PLUGIN)
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "cache"), "raj.py"],
        capture_output=True, text=True, cwd=tmp_path, timeout=120,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
