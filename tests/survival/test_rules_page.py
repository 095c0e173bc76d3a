"""The rules page and the tests agree: every numbered rule has a scenario test that names it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "rules" / "survival.md"
TESTS = Path(__file__).resolve().parent


def rules_on_the_page() -> list[int]:
    return [int(n) for n in re.findall(r"^\*\*S(\d+) ", PAGE.read_text(encoding="utf-8"), flags=re.M)]


def rules_cited_by_tests() -> set[int]:
    cited: set[int] = set()
    for path in TESTS.glob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_s"):
                cited.update(int(n) for n in re.findall(r"\bS(\d+)\b", ast.get_docstring(node) or ""))
    return cited


def test_the_rules_are_numbered_s1_upwards_without_gaps() -> None:
    numbers = rules_on_the_page()
    assert numbers and numbers == list(range(1, len(numbers) + 1))


def test_every_rule_has_a_scenario_test_named_after_it() -> None:
    missing = sorted(set(rules_on_the_page()) - rules_cited_by_tests())
    assert not missing, f"rules without a test: {', '.join(f'S{n}' for n in missing)}"


def test_tests_cite_only_rules_that_exist() -> None:
    unknown = sorted(rules_cited_by_tests() - set(rules_on_the_page()))
    assert not unknown, f"tests cite rules the page does not have: {unknown}"
