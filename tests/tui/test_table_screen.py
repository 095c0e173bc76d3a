"""The table screen driven headless (pipe input, dummy output): whole games, typing, help, leaving."""

from __future__ import annotations

import asyncio
import functools
import random
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

from atoll.bots.random_bot import RandomBot
from atoll.client.local import new_local_table, rematch_table, resume_local_table
from atoll.client.local_table import LocalTable
from atoll.client.news import runs
from atoll.client.results import headline
from atoll.game import Fragments
from atoll.jsondata import JSON
from atoll.scoresheet import ScoreSheet, places_by, sheet
from atoll.tui.palette import plain
from atoll.tui.screen import Ending, TableScreen, highlight_changes
from atoll.types import Config, End, State
from tests.games import highcard
from tests.tui.driver import (
    CTRL_C,
    ENTER,
    ESCAPE,
    F2,
    F3,
    F5,
    Moves,
    SizedOutput,
    any_legal,
    drive,
    first_legal,
    headless,
    pipe,
    registry,
    start,
    wait_for,
)

GAMES = sorted(registry().games)


def table(game: str, *, seed: int = 3, save: Path | None = None, humans: int = 1, seats: int | None = None,
          variant: str | None = None) -> LocalTable:
    return new_local_table(registry(), game, seed=seed, bots=["random"], save_path=save, humans=humans,
                           seats=seats, variant=variant)


def my_turn(screen: TableScreen) -> bool:
    waiting = screen.source.waiting()
    return waiting.local and waiting.seat == screen.viewer and screen.handoff is None


@functools.cache
def shortest_variant(game: str) -> str:
    """The variant whose game (seed 3, random moves) ends soonest, so the suite stays short."""
    lengths = {}
    for variant in registry().game(game).info.variants:
        source = table(game, variant=variant)
        asyncio.run(headless(source))
        lengths[variant] = len(source.match.events)
    return min(lengths, key=lambda v: lengths[v])


@functools.cache
def shortest_seed(game: str, variant: str) -> int:
    """Of seeds 0-4, the one whose game (random moves) ends soonest: Survival's random games differ
    tenfold in length, and each move is a screen typed and drawn."""
    lengths = {}
    for seed in range(5):
        source = table(game, seed=seed, variant=variant)
        asyncio.run(headless(source))
        lengths[seed] = len(source.match.events)
    return min(lengths, key=lambda s: lengths[s])


@pytest.mark.parametrize("game", GAMES)
def test_a_game_against_bots_plays_to_the_result_screen(game: str, tmp_path: Path) -> None:
    variant = shortest_variant(game)
    source = table(game, seed=shortest_seed(game, variant), save=tmp_path / "game.jsonl", variant=variant)
    with pipe() as keys:
        screen = TableScreen(source, input=keys, output=SizedOutput(24, 80))
        result = asyncio.run(drive(screen, keys, Moves(any_legal())))
    assert result.ending is Ending.FINISHED
    assert source.results() is not None
    assert result.lines[0].startswith("game over:")
    assert f"saved to {tmp_path / 'game.jsonl'}" in result.lines


def test_a_refused_action_stays_typed_with_the_reason() -> None:
    source = table("kariba")

    async def scenario() -> tuple[str, str]:
        with pipe() as keys:
            screen = TableScreen(source, input=keys, output=SizedOutput())
            task = start(screen)
            await wait_for(lambda: my_turn(screen))
            keys.send_text("play 9 unicorn" + ENTER)
            await wait_for(lambda: screen.message)
            typed, said = screen.buffer.text, "".join(text for _, text in screen.message)
            keys.send_text(CTRL_C + "y")
            await task
        return typed, said

    typed, said = asyncio.run(scenario())
    assert typed == "play 9 unicorn"
    assert said.startswith("'play 9 unicorn' is not a legal action now; legal: play")


def test_tab_completes_the_part_the_fitting_actions_share() -> None:
    source = table("kariba")

    async def scenario() -> str:
        with pipe() as keys:
            screen = TableScreen(source, input=keys, output=SizedOutput())
            task = start(screen)
            await wait_for(lambda: my_turn(screen))
            keys.send_text("pl\t")
            await wait_for(lambda: screen.buffer.text not in ("", "p", "pl"))
            completed = screen.buffer.text
            keys.send_text(CTRL_C + "y")
            await task
        return completed

    assert asyncio.run(scenario()) == "play 1 "


def test_a_short_form_plays_the_one_action_it_fits() -> None:
    source = table("kariba")

    async def scenario() -> list[str]:
        with pipe() as keys:
            screen = TableScreen(source, input=keys, output=SizedOutput())
            task = start(screen)
            await wait_for(lambda: my_turn(screen))
            card = source.texts(0)[0].split()[-1]  # "play 1 mouse" -> "mouse"
            keys.send_text(f"PLAY {card}" + ENTER)
            await wait_for(lambda: any(e.get("seat") == 0 for e in source.match.events))
            keys.send_text(CTRL_C + "y")
            await task
        return [line.text for line in source.log() if line.seat == 0]

    assert len(asyncio.run(scenario())) == 1


def test_ctrl_c_asks_first_and_no_goes_on() -> None:
    source = table("kariba")

    async def scenario() -> tuple[bool, bool, Ending]:
        with pipe() as keys:
            screen = TableScreen(source, input=keys, output=SizedOutput())
            task = start(screen)
            await wait_for(lambda: my_turn(screen))
            keys.send_text(CTRL_C)
            await wait_for(lambda: screen.asking)
            asked = not task.done()
            keys.send_text("n")
            await wait_for(lambda: not screen.asking)
            still = not task.done()
            keys.send_text("\x04y")  # Ctrl-D asks too
            result = await task
        return asked, still, result.ending

    assert asyncio.run(scenario()) == (True, True, Ending.LEFT)


@pytest.mark.parametrize(("key", "heading"), [(F2, "Kariba (standard), 2 seats"),
                                              (F3, "Cards, tiles and pieces"),
                                              (F5, "Game log")])
def test_help_keys_show_the_games_texts(key: str, heading: str) -> None:
    source = table("kariba")

    async def scenario() -> tuple[str, bool]:
        with pipe() as keys:
            screen = TableScreen(source, input=keys, output=SizedOutput())
            task = start(screen)
            await wait_for(lambda: my_turn(screen))
            keys.send_text(key)
            await wait_for(lambda: screen.overlay is not None)
            assert screen.overlay is not None
            shown = "".join(text for _, text in screen.overlay())
            keys.send_text(ESCAPE)
            await wait_for(lambda: screen.overlay is None)
            keys.send_text(CTRL_C + "y")
            await task
        return shown, True

    shown, closed = asyncio.run(scenario())
    assert shown.startswith(heading) and closed


def test_undo_takes_back_your_latest_move_against_bots() -> None:
    source = table("kariba")

    async def scenario() -> tuple[int, int]:
        with pipe() as keys:
            screen = TableScreen(source, input=keys, output=SizedOutput())
            task = start(screen)
            await wait_for(lambda: my_turn(screen))
            before = len(source.match.events)
            keys.send_text(source.texts(0)[0] + ENTER)
            await wait_for(lambda: len(source.match.events) > before + 1 and my_turn(screen))
            keys.send_text("undo" + ENTER)
            await wait_for(lambda: len(source.match.events) == before)
            after = len(source.match.events)
            keys.send_text(CTRL_C + "y")
            await task
        return before, after

    before, after = asyncio.run(scenario())
    assert before == after


def test_hot_seat_hides_the_previous_hand_until_the_next_player_takes_the_keyboard() -> None:
    source = table("kariba", humans=2)
    seen: list[tuple[int | None, int]] = []

    def moves(source: LocalTable, screen: TableScreen) -> str | None:
        if screen.handoff is not None:
            seen.append((screen.handoff, screen.viewer))
            if len(seen) >= 2:
                return CTRL_C + "y"
            return ENTER
        return first_legal(source, screen)

    with pipe() as keys:
        screen = TableScreen(source, input=keys, output=SizedOutput())
        result = asyncio.run(drive(screen, keys, Moves(moves)))
    assert result.ending is Ending.LEFT
    assert seen[0] == (1, 0)  # seat 1 is to move while seat 0's hand would still show
    assert seen[1] == (0, 1)


def test_hot_seat_sums_up_for_each_person_what_happened_since_their_own_move() -> None:
    source = table("kariba", humans=2, seats=3)  # player 1 and player 2 at the keyboard, a bot at player 3
    panes: list[tuple[int | None, str]] = []

    def moves(source: LocalTable, screen: TableScreen) -> str | None:
        if screen.handoff is not None:
            return ENTER
        panes.append((screen.viewer, plain(screen._log_text())))
        if len(panes) == 3:
            return CTRL_C + "y"
        return first_legal(source, screen)

    with pipe() as keys:
        screen = TableScreen(source, input=keys, output=SizedOutput())
        asyncio.run(drive(screen, keys, Moves(moves)))
    (first, _), (second, before_second), (again, back_to_first) = panes
    assert (first, second, again) == (0, 1, 0)
    assert "so far:" in before_second and "player 1: plays " in before_second  # player 2 has not moved yet
    since = back_to_first.split("since your last move:\n")[1]
    # what chance showed player 1 after their move, then the others' turns
    whose = [line.split(":")[0] for line in since.strip().split("\n")]
    assert whose[:3] == ["player 1", "player 2", "player 3"], since


def test_hot_seat_draws_no_board_while_the_keyboard_is_handed_over() -> None:
    source = table("kariba", humans=2)

    async def scenario() -> str:
        with pipe() as keys:
            screen = TableScreen(source, input=keys, output=SizedOutput())
            task = start(screen)
            await wait_for(lambda: my_turn(screen))
            keys.send_text(source.texts(0)[0] + ENTER)
            await wait_for(lambda: screen.handoff == 1)
            await asyncio.sleep(0.05)
            shown = screen.app.layout.container  # the body in front of the player now
            text = "".join(text for _, text in screen._handoff_text())
            keys.send_text(CTRL_C + "y")
            await task
            assert shown is not None
        return text

    text = asyncio.run(scenario())
    assert "Pass the keyboard to" in text and "hidden" in text


def test_a_game_left_midway_resumes_where_it_stopped_and_finishes(tmp_path: Path) -> None:
    path = tmp_path / "kariba.jsonl"
    source = table("kariba", save=path)

    async def leave_after_three_moves() -> tuple[int, str]:
        with pipe() as keys:
            screen = TableScreen(source, input=keys, output=SizedOutput())
            task = start(screen)
            for _ in range(3):
                await wait_for(lambda: my_turn(screen))
                count = len(source.match.events)
                keys.send_text(source.texts(0)[0] + ENTER)
                await wait_for(lambda count=count: len(source.match.events) > count)  # type: ignore[misc]
            await wait_for(lambda: my_turn(screen))
            keys.send_text(CTRL_C + "y")
            await task
        from atoll.jsondata import digest

        return len(source.match.events), digest(source.match.state)

    events, state = asyncio.run(leave_after_three_moves())
    resumed = resume_local_table(registry(), path)
    from atoll.jsondata import digest

    assert (len(resumed.match.events), digest(resumed.match.state)) == (events, state)
    with pipe() as keys:
        screen = TableScreen(resumed, input=keys, output=SizedOutput())
        result = asyncio.run(drive(screen, keys, Moves(first_legal)))
    assert result.ending is Ending.FINISHED


def test_the_roomy_layout_is_used_on_a_large_terminal() -> None:
    source = table("kariba")
    with pipe() as keys:
        assert TableScreen(source, input=keys, output=SizedOutput(40, 120))._roomy()
        assert not TableScreen(source, input=keys, output=SizedOutput(24, 80))._roomy()


def test_the_seats_line_of_five_seats_fits_80_columns_and_keeps_every_mark() -> None:
    source = table("kiribati", variant="family", seats=5)
    with pipe() as keys:
        screen = TableScreen(source, input=keys, output=SizedOutput(24, 80))
        line = plain(screen._seats_line()).rstrip()
    assert len(line) < 80, line
    assert all(screen.look.symbol(seat) in line for seat in range(5)), line
    assert "(you)" in line


def test_the_log_pane_breaks_long_lines_between_words() -> None:
    source = table("animals_on_board", seats=4)
    asyncio.run(headless(source))
    with pipe() as keys:
        screen = TableScreen(source, input=keys, output=SizedOutput(24, 80))
        shown = plain(screen._log_text()).rstrip("\n").split("\n")
    assert max(len(line) for line in shown) <= 80
    results = source.results()
    assert results is not None
    names = [line.name for line in source.seats()]
    said = [run.line(names) for run in runs(source.log(), names, 0)]
    said.append(headline(results, screen._people()))
    words = [word for line in said for word in line.split()]
    assert [word for line in shown for word in line.split()][-30:] == words[-30:]  # no word cut in two


def test_the_log_pane_sums_up_what_happened_since_your_last_move_a_line_a_seat() -> None:
    source = table("kiribati", variant="family", seats=4)

    async def scenario() -> list[str]:
        with pipe() as keys:
            screen = TableScreen(source, input=keys, output=SizedOutput(24, 80))
            task = start(screen)
            await wait_for(lambda: my_turn(screen))
            keys.send_text(source.texts(0)[0] + ENTER)  # the secret choice of cards
            await wait_for(lambda: my_turn(screen) and "1-4: that row" in source.waiting().text)
            shown = plain(screen._log_text()).rstrip("\n").split("\n")
            keys.send_text(CTRL_C + "y")
            await task
        return shown

    shown = asyncio.run(scenario())
    since = shown.index("since your last move:")
    # K5 is one simultaneous decision: every seat's choice is logged, in seat order, once all are in
    assert [line.split(":")[0] for line in shown[since + 1:]] == ["red", "blue", "green", "yellow", "red"]
    assert shown[since + 2] == "blue: made a secret choice"
    assert shown[-1].startswith("red: rolls ")


@pytest.mark.parametrize(("game", "variant", "seats"), [
    ("kariba", "experienced", 4),
    ("kiribati", "children", 5), ("kiribati", "family", 5), ("kiribati", "professional", 5),
    ("animals_on_board", "standard", 2), ("animals_on_board", "standard", 4), ("survival", "standard", 4),
])
def test_the_whole_board_fits_80_by_24_on_every_turn(game: str, variant: str, seats: int) -> None:
    source = table(game, variant=variant, seats=seats, seed=1)
    rng = random.Random(1)
    with pipe() as keys:
        screen = TableScreen(source, input=keys, output=SizedOutput(24, 80))

        def assert_fits() -> None:
            screen._memo_stamp = None  # the board as drawn now
            lines = screen._board_lines()
            assert max(len(line) for line in lines) < 80, "\n".join(lines)
            assert screen._compact_board_height().preferred == len(lines), "\n".join(lines)

        async def play() -> None:
            task = asyncio.ensure_future(source.run(lambda: None))
            while not task.done():
                await asyncio.sleep(0)
                waiting = source.waiting()
                if waiting.local and waiting.seat is not None:
                    assert_fits()
                    source.submit(waiting.seat, rng.choice(list(source.texts(waiting.seat))))
            assert_fits()  # the result screen's board: every ark shown, with its points

        asyncio.run(play())


class GlossaryHighCard(highcard.HighCard):
    """High Card with a glossary, as a plugin gives one."""

    def glossary(self, config: Config) -> Sequence[tuple[str, str]]:
        return [("high", "you win the pot if your card is the higher one")]


def test_the_action_being_typed_shows_what_its_cards_do() -> None:
    game = GlossaryHighCard()
    source = LocalTable(game, game.configure(2), 5, humans=[0], bots={1: RandomBot(1)})

    async def scenario() -> str:
        with pipe() as keys:
            screen = TableScreen(source, input=keys, output=SizedOutput())
            task = start(screen)
            await wait_for(lambda: my_turn(screen))
            keys.send_text("bet high")
            await wait_for(lambda: screen.buffer.text == "bet high")
            hint = "".join(text for _, text in screen._hint())
            keys.send_text(CTRL_C + "y")
            await task
        return hint

    assert asyncio.run(scenario()) == "bet high: high: you win the pot if your card is the higher one"


class Watched(LocalTable):
    """A table seen by a spectator: nobody at this terminal holds a seat."""

    def humans(self) -> Sequence[int]:
        return []


def test_a_spectator_sees_the_public_board_and_cannot_move() -> None:
    game = registry().game("kariba")
    source = Watched(game, game.configure(2), 5, humans=[0], bots={1: RandomBot(1)})
    with pipe() as keys:
        screen = TableScreen(source, input=keys, output=SizedOutput())
        assert screen.viewer is None
        assert screen._board() == screen.look.recolour(source.board(None))
        assert screen._prompt_text() == [("class:prompt.waiting", "watching> ")]
        assert screen._legal_texts() == []


class BrokenDrawing(highcard.HighCard):
    """High Card whose drawing fails, as a plugin's bug might."""

    def render(self, view: Mapping[str, JSON]) -> Fragments:
        raise KeyError("hand")


def test_a_board_the_game_cannot_draw_is_named_and_the_table_stays() -> None:
    game = BrokenDrawing()
    source = LocalTable(game, game.configure(2), 5, humans=[0], bots={1: RandomBot(1)})
    with pipe() as keys:
        screen = TableScreen(source, input=keys, output=SizedOutput())
        shown = "".join(text for _, text in screen._board())
    assert shown == "highcard could not draw its board: KeyError: 'hand'\n"


class CountedHighCard(highcard.HighCard):
    """High Card that says how it counted the scores."""

    def score_sheet(self, state: State) -> ScoreSheet:
        end = highcard.HighCard().next(state)
        assert isinstance(end, End)
        scores = end.results.scores
        parts = [[("the card played", score)] for score in scores]
        return sheet(parts, places_by(2, lambda seat: scores[seat]), "the higher card wins the pot")


def test_the_result_screen_says_how_the_scores_were_counted_and_offers_a_rematch() -> None:
    game = CountedHighCard()
    source = LocalTable(game, game.configure(2), 5, humans=[0], bots={1: RandomBot(1)}, names={0: "Ann"})
    shown: list[str] = []

    def moves(table: LocalTable, screen: TableScreen) -> str | None:
        if table.waiting().over:
            shown.append("".join(text for _, text in screen._results_text()))
            return "r"
        return first_legal(table, screen)

    with pipe() as keys:
        screen = TableScreen(source, input=keys, output=SizedOutput())
        result = asyncio.run(drive(screen, keys, Moves(moves)))
    assert result.ending is Ending.REMATCH
    assert "game over:" in shown[0] and "seat 1 (Ann): " in shown[0] and "= the card played " in shown[0]
    assert "ties: the higher card wins the pot" in shown[0]
    assert "ties: the higher card wins the pot" in result.lines


def test_a_rematch_seats_the_same_people_and_bots_with_new_chance() -> None:
    source = new_local_table(registry(), "kariba", seed=3, seats=3, bots=["random"], names={0: "Ann"})
    again = rematch_table(registry(), source, seed=4, save_path=None)
    assert (again.game, again.config, again.seed) == (source.game, source.config, 4)
    who = [(line.name, line.who) for line in again.seats()]
    assert who == [("player 1", "Ann"), ("player 2", "random bot"), ("player 3", "random bot")]


def test_the_board_lines_changed_since_your_move_are_marked() -> None:
    board = [("bold", "Waterhole\n"), ("", "  1 mouse  # 1\n"), ("fg:#d55e00", "  2 zebra\n")]
    marked = highlight_changes(board, ["Waterhole", "  1 mouse    0", "  2 zebra", ""])
    assert marked == [("bold", "Waterhole"), ("", "\n"), (" class:changed", "  1 mouse  # 1"), ("", "\n"),
                      ("fg:#d55e00", "  2 zebra"), ("", "\n")]
