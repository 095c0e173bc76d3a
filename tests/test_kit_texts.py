"""The kit's checks of a game's own texts: owners told apart without colour, a score sheet that agrees
with the results, and well-formed help texts. Each passes the built-in games and fails a game broken
on purpose."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from atoll import JSON, Config, Guide, ScoreSheet, State
from atoll.plugins.survival.game import Survival
from atoll.plugins.survival.meta import INITIALS
from atoll.registry import load_registry
from atoll.scoresheet import ScoreLine
from atoll.testing import ConformanceError, check_owner_marks, check_score_sheet, check_texts, play
from tests.games.highcard import HighCard

GAMES = load_registry()
#: The most seats of each built-in game, in a variant with every kind of owned piece.
CROWDED = [("animals_on_board", "standard", 4), ("kariba", "experienced", 4), ("kiribati", "family", 5),
           ("kiribati", "professional", 5), ("survival", "standard", 4)]


@pytest.mark.parametrize(("name", "variant", "seats"), CROWDED, ids=[f"{n}-{v}" for n, v, _ in CROWDED])
def test_every_built_in_board_tells_owners_apart_without_colour(name: str, variant: str, seats: int) -> None:
    game = GAMES.game(name)
    check_owner_marks(play(game, game.configure(seats, variant), 1))


class LetterOnlyGuide(Guide):
    """Prey known by the animal's letter alone: ``z`` for every player's zebra."""

    def owned_pieces(self, view: Mapping[str, JSON]) -> Sequence[tuple[int, str]]:
        return [(seat, INITIALS[animal]) for seat, prey in enumerate(view["prey"]) for animal in prey]


class AnimalLetterOnly(Survival):
    """Survival as if its prey showed the animal's letter alone."""

    guide = LetterOnlyGuide()


def test_a_board_that_draws_two_owners_pieces_alike_fails() -> None:
    with pytest.raises(ConformanceError, match=r"\[owner-marks\].*pieces alike, as '[a-z]'"):
        check_owner_marks(play(AnimalLetterOnly(), Survival().configure(2), 0))


class PhantomGuide(Guide):
    """Declares a piece that is on no board."""

    def owned_pieces(self, view: Mapping[str, JSON]) -> Sequence[tuple[int, str]]:
        return [(0, "Q9")]


class ClaimsAPieceItDoesNotDraw(Survival):
    """Survival declaring a piece that is on no board."""

    guide = PhantomGuide()


def test_a_declared_piece_missing_from_the_board_fails() -> None:
    with pytest.raises(ConformanceError, match=r"\[owner-marks\].*does not show 'Q9'"):
        check_owner_marks(play(ClaimsAPieceItDoesNotDraw(), Survival().configure(2), 0))


class MiscountedHighCard(HighCard):
    """High Card whose score sheet gives every seat one point too many and forgets the last seat."""

    def score_sheet(self, state: State) -> ScoreSheet:
        scores = [len(hand) for hand in state["hands"]]
        lines = tuple(ScoreLine(seat, (("cards", score + 99),)) for seat, score in enumerate(scores))
        return ScoreSheet(lines, ((0,),), "none")


def test_a_score_sheet_that_does_not_add_up_to_the_results_fails() -> None:
    with pytest.raises(ConformanceError, match=r"\[score-sheet\].*parts add up to .*do not list every seat"):
        check_score_sheet(play(MiscountedHighCard(), HighCard().configure(2), 0))


class WordyHighCard(HighCard):
    """High Card whose status-line prompt runs past the end of an 80-column line."""

    def decision_prompt(self, state: State, seat: int) -> str | None:
        return "bet high or low, then play a card, and the highest card wins the whole pot of chips"

    def glossary(self, config: Config) -> Sequence[tuple[str, str]]:
        return [("high", "a bet on 4-6")]


def test_a_decision_prompt_longer_than_the_status_line_fails() -> None:
    with pytest.raises(ConformanceError, match=r"\[texts\].*at most 56 characters"):
        check_texts(play(WordyHighCard(), HighCard().configure(2), 0))


class TwiceNamedHighCard(HighCard):
    """High Card whose glossary names one card twice."""

    def glossary(self, config: Config) -> Sequence[tuple[str, str]]:
        return [("high", "a bet on 4-6"), ("high", "the better card")]


def test_a_glossary_that_names_a_card_twice_fails() -> None:
    with pytest.raises(ConformanceError, match=r"\[texts\] .*glossary names 'high' more than once"):
        check_texts(play(TwiceNamedHighCard(), HighCard().configure(2), 0))


@pytest.mark.parametrize("name", sorted(GAMES.games))
def test_every_built_in_game_says_what_each_decision_is_in_one_short_line(name: str) -> None:
    game = GAMES.game(name)
    for variant in game.info.variants:
        check_texts(play(game, game.configure(game.info.max_seats, variant), 2))
