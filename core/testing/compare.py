"""How the checks compare plain JSON values, and quote them in their error messages."""

from __future__ import annotations

from atoll.errors import AtollError
from atoll.jsondata import JSON, canonical


def differ(a: JSON, b: JSON) -> bool:
    """Whether two pieces of plain JSON differ (compared as Python compares them: much faster than
    hashing their encodings, at the price of taking ``1`` and ``True`` for the same)."""
    return bool(a != b)


def difference(a: object, b: object, path: str = "") -> str:
    """The first place where ``a`` and ``b`` differ, as ``at [path]: a vs b``."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=repr):
            if key not in b:
                return f"at {path}[{key!r}]: {short(a[key])} vs nothing"
            if key not in a:
                return f"at {path}[{key!r}]: nothing vs {short(b[key])}"
            if a[key] != b[key] or type(a[key]) is not type(b[key]):
                return difference(a[key], b[key], f"{path}[{key!r}]")
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y or type(x) is not type(y):
                return difference(x, y, f"{path}[{i}]")
    return f"at {path or 'top'}: {short(a)} vs {short(b)}"


def short(value: object, limit: int = 100) -> str:
    """``value`` as canonical JSON (``repr`` when it is not JSON), cut to ``limit`` characters."""
    try:
        text = canonical(value)
    except AtollError:
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
