"""Small operations on styled text (``(style, text)`` fragments) that the screens share."""

from __future__ import annotations

from atoll.game import Fragments
from atoll.tui.palette import plain


def drop_lines(fragments: Fragments, count: int) -> Fragments:
    """``fragments`` without their first ``count`` lines."""
    out: Fragments = []
    dropped = 0
    for style, text in fragments:
        if dropped >= count:
            out.append((style, text))
            continue
        parts = text.split("\n")
        for index in range(len(parts)):
            if dropped >= count:
                out.append((style, "\n".join(parts[index:])))
                break
            if index < len(parts) - 1:
                dropped += 1
    return out


def highlight_changes(board: Fragments, before: list[str]) -> Fragments:
    """``board`` with each line that differs from the same line of ``before`` marked (``class:changed``):
    what the others did since the player's latest move, at a glance."""
    lines = plain(board).split("\n")
    changed = {n for n, line in enumerate(lines) if n >= len(before) or before[n] != line}
    out: Fragments = []
    row = 0
    for style, text in board:
        parts = text.split("\n")
        for index, part in enumerate(parts):
            if part:
                out.append((f"{style} class:changed" if row in changed else style, part))
            if index < len(parts) - 1:
                out.append(("", "\n"))
                row += 1
    return out
