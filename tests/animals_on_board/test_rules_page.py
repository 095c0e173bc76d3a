"""The rules page and the tests agree: every numbered rule has a scenario test that names it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "rules" / "animals-on-board.md"
TESTS = Path(__file__).resolve().parent


def rules_on_the_page() -> list[int]:
    return [int(n) for n in re.findall(r"^\*\*A(\d+) ", PAGE.read_text(encoding="utf-8"), flags=re.M)]


def rules_cited_by_tests() -> set[int]:
    cited: set[int] = set()
    for path in TESTS.glob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                cited.update(int(n) for n in re.findall(r"\bA(\d+)\b", ast.get_docstring(node) or ""))
    return cited


def rules_named_by_tests() -> set[int]:
    """Rules whose number a test's name begins with (``test_a12_...``)."""
    named: set[int] = set()
    for path in TESTS.glob("test_*.py"):
        text = path.read_text(encoding="utf-8")
        named.update(int(n) for n in re.findall(r"^def test_a(\d+)_", text, flags=re.M))
    return named


def test_the_rules_are_numbered_a1_upwards_without_gaps() -> None:
    numbers = rules_on_the_page()
    assert numbers == list(range(1, len(numbers) + 1))


def test_every_rule_has_a_scenario_test_named_after_it() -> None:
    missing = sorted(set(rules_on_the_page()) - rules_named_by_tests())
    assert not missing, f"rules without a test named test_a<N>_...: {', '.join(f'A{n}' for n in missing)}"


def test_tests_cite_only_rules_that_exist() -> None:
    unknown = sorted((rules_cited_by_tests() | rules_named_by_tests()) - set(rules_on_the_page()))
    assert not unknown, f"tests cite rules the page does not have: {unknown}"
