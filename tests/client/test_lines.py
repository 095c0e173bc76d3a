"""The table line by line (`atoll.client.lines`), over a local table: what is printed before a move,
how a typed line is taken, and the result page at the end."""

from __future__ import annotations

import asyncio

from atoll.client.lines import Ending, LineTable
from atoll.client.local_table import LocalTable
from tests.client.test_local_table import table


def play(source: LocalTable, answer: str | None = None) -> tuple[Ending, list[str]]:
    """Play ``source`` line by line, typing the first legal text whenever asked (``answer`` first)."""
    printed: list[str] = []
    lines: asyncio.Queue[str | None] = asyncio.Queue()
    pending = [answer] if answer is not None else []

    def write(line: str) -> None:
        printed.append(line)
        if "legal: " in line:  # asked, or refused with the legal texts: the person types again
            lines.put_nowait(pending.pop(0) if pending else line.split("legal: ")[1].split(", ")[0])

    async def go() -> Ending:
        return await asyncio.wait_for(LineTable(source, write).play(lines), 60)

    return asyncio.run(go()), printed


def test_before_each_move_the_board_the_seats_the_question_and_the_legal_texts_are_printed() -> None:
    ending, printed = play(table())
    assert ending is Ending.FINISHED
    legal = printed.index(next(line for line in printed if line.startswith("legal: ")))
    assert printed[legal - 1].startswith("your turn")
    assert printed[legal - 2] == "seats: #1 seat 1 (you), #2 seat 2 (random bot)"


def test_a_text_that_fits_nothing_is_refused_in_the_games_words_and_asked_again() -> None:
    ending, printed = play(table(), answer="fold")
    assert ending is Ending.FINISHED
    assert "'fold' is not a legal action now; legal: bet high, bet low" in printed
    assert any(line.startswith("you played: bet ") for line in printed)


def test_the_game_ends_with_the_result_page_as_the_screen_prints_it() -> None:
    _, printed = play(table())
    over = next(n for n, line in enumerate(printed) if line.startswith("game over: "))
    assert printed[over + 1].startswith(("1st", "1st="))


def test_the_end_of_the_input_leaves_the_table() -> None:
    source = table()
    printed: list[str] = []
    lines: asyncio.Queue[str | None] = asyncio.Queue()
    lines.put_nowait(None)

    async def go() -> Ending:
        return await asyncio.wait_for(LineTable(source, printed.append).play(lines), 60)

    assert asyncio.run(go()) is Ending.LEFT
