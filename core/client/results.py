"""The result of a finished game in words, for every client: who won, then every place with each
person's points broken down as the game counted them, and the tie-break used. People are named as
the seats panel names them (``red (Ann)``), never by a bare seat number."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from atoll.scoresheet import ScoreSheet, ordinal, places_by
from atoll.types import Results


def headline(results: Results, people: Sequence[str]) -> str:
    """``game over: red (Ann) wins`` (or ``... share the win``, or ``nobody wins``)."""
    who = ", ".join(people[s] for s in results.winners) or "nobody"
    verb = "wins" if len(results.winners) == 1 else ("share the win" if results.winners else "wins")
    return f"game over: {who} {verb}"


def result_lines(
    results: Results, sheet: ScoreSheet | None, people: Sequence[str], width: int = 78
) -> list[str]:
    """Every place, first place first: ``1st  red (Ann): 23 = lizard rescued 9 + kagu rescued 8``,
    wrapped to ``width``; then the tie-break. Without a sheet from the game: the scores, ranked with
    the winners first."""
    if sheet is None:
        places = _places(results)
        parts: dict[int, str] = {}
        standing: dict[int, str] = {}
        tie_break = ""
    else:
        places = sheet.places
        parts = {line.seat: " + ".join(f"{what} {points}" for what, points in line.parts)
                 for line in sheet.lines}
        standing = {line.seat: line.standing for line in sheet.lines if line.standing}
        tie_break = sheet.tie_break
    lines: list[str] = []
    rank = 1
    for place in places:
        shared = "=" if len(place) > 1 else " "
        for seat in place:
            score = results.scores[seat]
            text = f"{ordinal(rank) + shared:<5} {people[seat]}: {score} point{'' if score == 1 else 's'}"
            if parts.get(seat):
                text += f" = {parts[seat]}"
            if seat in standing:
                text += f"; {standing[seat]}"
            lines.extend(textwrap.wrap(text, width, subsequent_indent=" " * 8, break_on_hyphens=False))
        rank += len(place)
    if tie_break:
        lines.extend(textwrap.wrap(f"ties: {tie_break}", width, subsequent_indent="  "))
    return lines


def _places(results: Results) -> tuple[tuple[int, ...], ...]:
    """Places when the game gives none: the winners first, then the others by score."""
    rest = places_by(len(results.scores), lambda seat: results.scores[seat])
    others = tuple(tuple(s for s in place if s not in results.winners) for place in rest)
    return ((tuple(results.winners),) if results.winners else ()) + tuple(p for p in others if p)
