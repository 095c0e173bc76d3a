"""The result screen explains itself, in every built-in game: each person's points broken down as the
rulebook counts them add up to the score shown, every place is listed (not only the winner's), the
tie-break is named, and people are named, never a bare seat number."""

from __future__ import annotations

import asyncio
import re

import pytest

from atoll.client.local import new_local_table
from atoll.client.local_table import LocalTable
from atoll.tui.palette import plain
from atoll.tui.screen import TableScreen
from tests.tui.driver import SizedOutput, headless, pipe, registry

#: One configuration a game, with three seats where the game has places beyond second.
CASES = [("kariba", "standard", 3), ("kiribati", "family", 2), ("kiribati", "professional", 3),
         ("animals_on_board", "standard", 3), ("survival", "standard", 3)]
#: A place line: ``2nd=  blue (random bot): 12 points = lizard rescued 9 + ...; 4 steps to go``.
PLACE = re.compile(r"^ (\d+)(?:st|nd|rd|th)=?\s+(.+?): (\d+) points?(?: = (.*?))?(?:; ([^;+]*))?$")


def played_out(game: str, variant: str, seats: int) -> LocalTable:
    """A game played to its end: Ann at seat 0 (random legal moves), random bots elsewhere."""
    source = new_local_table(registry(), game, seed=2, seats=seats, variant=variant, bots=["random"],
                             names={0: "Ann"})
    asyncio.run(headless(source, seed=2))
    return source


def places(shown: str) -> list[tuple[int, str, int, str]]:
    """Each place line of the result page, its wrapped lines joined: place, who, points, breakdown."""
    lines: list[str] = []
    for line in shown.split("\n"):
        if line.startswith(" " * 9) and lines:
            lines[-1] += " " + line.strip()
        else:
            lines.append(line)
    found = []
    for line in lines:
        matched = PLACE.match(line)
        if matched:
            found.append((int(matched[1]), matched[2], int(matched[3]), matched[4] or ""))
    return found


@pytest.mark.parametrize(("game", "variant", "seats"), CASES, ids=[f"{g}-{v}" for g, v, _ in CASES])
def test_the_result_page_adds_up_every_persons_points_and_lists_every_place(
    game: str, variant: str, seats: int
) -> None:
    source = played_out(game, variant, seats)
    results = source.results()
    assert results is not None
    with pipe() as keys:
        screen = TableScreen(source, input=keys, output=SizedOutput(24, 80))
        shown = plain(screen._results_text())
    people = [f"{line.name} ({line.who})" for line in source.seats()]
    listed = places(shown)
    assert sorted(who for _, who, _, _ in listed) == sorted(people), shown  # every place, each person once
    for place, who, points, breakdown in listed:
        seat = people.index(who)
        assert points == results.scores[seat], shown
        parts = [int(part.split()[-1]) for part in breakdown.split(" + ")]
        assert sum(parts) == points, f"{who}: {breakdown} does not add up to {points}\n{shown}"
        better = [p for p, w, _, _ in listed if results.scores[people.index(w)] > points]
        assert all(p < place for p in better), shown  # more points, a better place
    assert [who for place, who, _, _ in listed if place == 1] == [people[s] for s in results.winners]
    assert "Ann" in shown and "ties: " in shown
    assert not re.search(r"\bseat \d", shown), shown  # people, never a seat number
    assert len(shown.rstrip("\n").split("\n")) <= 20, shown  # the page fits 80x24 above the prompt
