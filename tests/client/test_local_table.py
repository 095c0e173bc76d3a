"""A local table: typed texts and refusals, saving as it goes, resuming, undo, and bad save files."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from atoll.bots.random_bot import RandomBot
from atoll.client.local import SetupError, new_local_table, resume_local_table
from atoll.client.local_table import LocalTable
from atoll.client.matching import common_part, ranked, short_form
from atoll.client.saves import latest_unfinished, list_saves, read_save
from atoll.client.source import Refused
from atoll.engine import load, replay
from atoll.errors import AtollError, CorruptSave
from atoll.registry import Registry, load_registry
from atoll.types import Knowledge, State
from tests.games import highcard


class ExplainedHighCard(highcard.HighCard):
    """High Card that says why a text is refused, as a plugin may."""

    def explain_illegal(self, state: State, seat: int, known: Knowledge, text: str) -> str | None:
        return "you hold no such card" if text.startswith("play") else None


def found() -> Registry:
    return load_registry(entry_points=False, extra=[("highcard", highcard)])


def table(path: Path | None = None, *, humans: int = 1) -> LocalTable:
    return new_local_table(found(), "highcard", seed=5, bots=["random"], save_path=path, humans=humans)


async def until_my_turn(source: LocalTable) -> asyncio.Task[None]:
    task = asyncio.ensure_future(source.run(lambda: None))
    while not (source.waiting().local or task.done()):
        await asyncio.sleep(0)
    return task


def at_first_turn(source: LocalTable) -> None:
    async def go() -> None:
        task = await until_my_turn(source)
        task.cancel()

    asyncio.run(go())


def play_out(source: LocalTable, stop_after: int | None = None) -> None:
    """Play the person's turns with the first legal text, stopping after ``stop_after`` of them."""

    async def go() -> None:
        task = asyncio.ensure_future(source.run(lambda: None))
        moves = 0
        while not task.done():
            await asyncio.sleep(0)
            waiting = source.waiting()
            if waiting.local and waiting.seat is not None:
                if stop_after is not None and moves == stop_after:
                    task.cancel()
                    return
                source.submit(waiting.seat, source.texts(waiting.seat)[0])
                moves += 1

    asyncio.run(go())


# -- typed texts ----------------------------------------------------------------------


def test_a_text_that_fits_nothing_is_refused_with_the_legal_ones() -> None:
    source = table()
    at_first_turn(source)
    with pytest.raises(Refused, match=r"'fold' is not a legal action now; legal: bet high, bet low"):
        source.submit(0, "fold")


def test_a_refusal_is_in_the_games_words_when_it_gives_them() -> None:
    source = LocalTable(ExplainedHighCard(), ExplainedHighCard().configure(2), 5, humans=[0],
                        bots={1: RandomBot(1)})
    at_first_turn(source)
    with pytest.raises(Refused, match="'play 9' is not possible now: you hold no such card"):
        source.submit(0, "play 9")


def test_a_unique_beginning_plays_its_action() -> None:
    source = table()
    at_first_turn(source)
    assert source.submit(0, "bet h") == "bet high"


def test_an_ambiguous_beginning_is_refused_naming_what_it_could_mean() -> None:
    source = table()
    at_first_turn(source)
    with pytest.raises(Refused) as refused:
        source.submit(0, "bet")
    assert refused.value.candidates == ("bet high", "bet low")


def test_a_short_form_means_the_one_text_whose_words_it_begins() -> None:
    texts = ["play 1 mouse", "play 2 meerkat", "play 1 giraffe"]
    assert short_form("play mouse", texts) == ["play 1 mouse"]
    assert short_form("pl m", texts) == ["play 1 mouse", "play 2 meerkat"]


def test_completion_ranks_beginnings_then_word_beginnings_then_letters() -> None:
    texts = ["rest", "play 1 mouse", "pass", "plan"]
    assert ranked("pl", texts) == ["play 1 mouse", "plan"]
    assert ranked("p m", texts) == ["play 1 mouse"]
    assert ranked("rt", texts) == ["rest"]  # r and t in order, in no other text


def test_tab_completes_the_beginning_the_fitting_texts_share() -> None:
    texts = ["keep feeding rest", "keep feeding sleep", "move kagu"]
    assert common_part("ke", texts) == "keep feeding "
    assert common_part("keep feeding ", texts) == "keep feeding "
    assert common_part("m", texts) == "move kagu"


def test_it_is_not_your_turn_while_a_bot_decides() -> None:
    source = table()
    with pytest.raises(Refused, match="it is not seat 1's turn"):
        source.submit(0, "bet high")


# -- saving and resuming ------------------------------------------------------------------


def test_the_game_is_saved_after_each_move_and_replays(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    source = table(path)
    play_out(source, stop_after=1)
    saved = load(path)
    assert saved.results is None
    assert len(saved.events) == len(source.match.events)
    assert replay(highcard.HighCard(), saved).state == source.match.state


def test_a_resumed_game_is_where_it_stopped_and_can_finish(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    source = table(path)
    play_out(source, stop_after=1)
    resumed = resume_local_table(found(), path)
    assert resumed.match.state == source.match.state
    assert [line.text for line in resumed.log()] == [line.text for line in source.log()]
    play_out(resumed)
    assert resumed.results() is not None
    assert read_save(path).finished


def test_a_finished_game_is_not_resumed_but_replayed(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    play_out(table(path))
    with pytest.raises(SetupError, match="is finished; watch it with: atoll replay"):
        resume_local_table(found(), path)


def test_an_edited_chance_outcome_is_named_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    play_out(table(path), stop_after=1)
    lines = path.read_text().splitlines()
    number = next(n for n, line in enumerate(lines, 1) if '"handles"' in line)
    shuffled = json.loads(lines[number - 1])
    shuffled["outcome"]["handles"].reverse()
    lines[number - 1] = json.dumps(shuffled)
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(CorruptSave, match=f"game.jsonl:{number}: the recorded chance differs"):
        resume_local_table(found(), path)


def test_the_newest_unfinished_save_is_the_one_to_resume(tmp_path: Path) -> None:
    env = {"ATOLL_HOME": str(tmp_path / "atoll")}
    games = tmp_path / "atoll" / "games"
    games.mkdir(parents=True)
    play_out(table(games / "a.jsonl"))
    play_out(table(games / "b.jsonl"), stop_after=1)
    saves, problems = list_saves(env)
    assert sorted((s.path.name, s.finished) for s in saves) == [("a.jsonl", True), ("b.jsonl", False)]
    assert problems == []
    assert latest_unfinished(env) == games / "b.jsonl"


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b"\x00\x01\x02binary\n", r"game.jsonl:1: binary data, not a saved game"),
        (b'{"format": "atoll-game"}\n\xff\xfe\n', r"game.jsonl:2: not UTF-8 text"),
        (b"", r"game.jsonl is empty"),
        (b'{"format": "atoll-game", "version": 1}\n{"seat": 0', r"game.jsonl:2: the file is cut short"),
        (b"not json\n", r"game.jsonl:1: not JSON"),
    ],
    ids=["binary", "not-utf8", "empty", "truncated", "not-json"],
)
def test_a_bad_save_gets_one_line_naming_the_problem_and_its_line(
    content: bytes, problem: str, tmp_path: Path
) -> None:
    path = tmp_path / "game.jsonl"
    path.write_bytes(content)
    with pytest.raises(CorruptSave, match=problem):
        read_save(path)


def test_a_save_path_that_cannot_be_written_is_told_before_the_game(tmp_path: Path) -> None:
    source = table(tmp_path / "missing-folder" / "game.jsonl")
    with pytest.raises(AtollError, match=r"cannot write .*missing-folder"):
        source.autosave()


# -- undo and hot-seat ------------------------------------------------------------------


def test_undo_takes_back_your_latest_move_and_the_bots_after_it() -> None:
    source = table()
    play_out(source, stop_after=1)  # the bet is made and the bot has answered it
    assert source.waiting().local
    last_own = max(n for n, event in enumerate(source.match.events) if event.get("seat") == 0)
    assert any(event.get("seat") == 1 for event in source.match.events[last_own:])
    assert source.can_undo(0)
    source.undo(0)
    assert len(source.match.events) == last_own
    assert source.log()[-1].text == "seat 1 took back a move"


def test_nothing_to_undo_before_your_first_move() -> None:
    source = table()
    at_first_turn(source)
    assert not source.can_undo(0)
    with pytest.raises(Refused, match="nothing to undo"):
        source.undo(0)


def test_a_sealed_choice_reads_in_full_only_for_its_chooser() -> None:
    source = table(humans=2)
    at_first_turn(source)
    source.submit(0, "bet high")
    line = source.log()[-1]
    assert line.seen_by(0) == "seat 1: made a secret choice (bet high; only you know it)"
    assert line.seen_by(1) == "seat 1: made a secret choice"
    assert line.seen_by(None) == "seat 1: made a secret choice"


def test_chance_that_shows_a_card_to_the_person_is_told_in_their_own_words() -> None:
    kariba = new_local_table(load_registry(), "kariba", seed=3, bots=["random"])
    play_out(kariba, stop_after=1)
    draw = next(line for line in kariba.log() if line.seen_by(None) == "player 1 draws a card from the pile")
    assert draw.seen_by(0).startswith("you draw a")
    assert draw.seen_by(1) == "player 1 draws a card from the pile"
