"""Board, pieces and set-up: rules K1-K5."""

from __future__ import annotations

from itertools import combinations

import pytest

from atoll import Chance, Decision, MalformedInput, Pick
from atoll.engine import Match
from atoll.plugins.kiribati.meta import CARDS
from atoll.testing import RiggedResolver
from tests.kiribati.scenario import GAME, at, sea


def test_rows_have_five_places_and_six_with_five_players() -> None:
    """K1: four rows of five places; six places with five players."""
    for seats, cols in ((2, 5), (3, 5), (4, 5), (5, 6)):
        state = GAME.setup(GAME.configure(seats, "family"))
        assert len(state["board"]) == 4
        assert all(len(row) == cols for row in state["board"])


def test_places_are_named_by_column_west_to_east_and_row_south_to_north() -> None:
    """K1: c1 is the west column, r1 the row next to the island."""
    state = sea(turtles={"c1r1": (4, []), "c5r4": (2, [])})
    assert state["board"][0][0]["size"] == 4  # row 1 (south), column 1 (west)
    assert state["board"][3][4]["size"] == 2  # row 4 (north), column 5 (east)
    assert at(state, "c5r4")["size"] == 2


def test_twelve_tiles_six_large_and_six_small() -> None:
    """K2: the two 4-turtles of the set-up come out of six large tiles; six small ones wait."""
    state = GAME.setup(GAME.configure(2, "family"))
    assert state["supply"] == {"large": 4, "small": 6}


@pytest.mark.parametrize(
    ("seats", "variant", "animals"),
    [
        (2, "family", ["monkey", "lizard", "kagu", "rabbit", "koala"]),
        (3, "professional", ["monkey", "lizard", "kagu", "rabbit", "koala"]),
        (4, "family", ["monkey", "kagu", "rabbit", "koala"]),
        (5, "professional", ["monkey", "kagu", "koala"]),
        (5, "children", ["lizard", "kagu", "rabbit"]),
    ],
)
def test_animals_depend_on_variant_and_seats(seats: int, variant: str, animals: list[str]) -> None:
    """K3: all five with 2-3 players, no lizard with 4, no lizard and rabbit with 5; children
    play kagu, rabbit and lizard unless they choose."""
    state = GAME.setup(GAME.configure(seats, variant))
    assert state["animals"] == animals
    assert state["island"] == [animals] * seats


def test_children_choose_their_animals() -> None:
    """K3: the children's variant takes 2-5 animals as an option."""
    state = GAME.setup(GAME.configure(3, "children", {"animals": ["koala", "monkey"]}))
    assert state["animals"] == ["monkey", "koala"]


@pytest.mark.parametrize(
    ("variant", "options", "message"),
    [
        ("children", {"animals": ["kagu"]}, "choose 2-5 animals"),
        ("children", {"animals": ["kagu", "dodo"]}, "no animal called 'dodo'"),
        ("children", {"animals": ["kagu", "kagu"]}, "names an animal twice"),
        ("children", {"animals": "kagu"}, "must be a list"),
        ("family", {"animals": ["kagu", "rabbit"]}, "children's variant only"),
        ("children", {"speed": 2}, "no option 'speed'"),
    ],
)
def test_a_bad_choice_of_animals_is_refused(variant: str, options: dict[str, object], message: str) -> None:
    """K3: a bad animals option is refused with a clear error, at configure and at setup."""
    with pytest.raises(MalformedInput, match=message):
        GAME.configure(2, variant, options)


def test_setup_puts_4_turtles_in_rows_1_and_2_and_random_ones_in_rows_3_and_4() -> None:
    """K4: 4-turtles in c1r1 and c1r2; rows 3 and 4 get a random tile and side from the supply."""
    match = Match(GAME, GAME.configure(2, "children"), RiggedResolver(picks=[3, 1]))
    first = match.step()
    assert isinstance(first, Chance) and isinstance(first.request, Pick)
    assert sorted(first.request.options) == sorted([4, 3] * 4 + [2, 1] * 6)
    match.advance()
    match.advance()
    board = match.state["board"]
    assert [board[r][0]["size"] for r in range(4)] == [4, 4, 3, 1]
    assert all(t is None for row in board for t in row[1:])
    assert match.state["supply"] == {"large": 3, "small": 5}
    assert match.state["island"] == [["lizard", "kagu", "rabbit"]] * 2


def test_red_starts() -> None:
    """K4: red, seat 0, holds the start-player marker and is first on turn."""
    match = Match(GAME, GAME.configure(3, "children"), RiggedResolver(picks=[4, 4], rolls=[2, 5]))
    for _ in range(3):
        match.advance()  # two set-up picks, then red's roll
    assert match.step() == Decision(0)
    assert GAME.seat_names(match.config) == ("red", "blue", "green")


def test_each_player_secretly_keeps_four_of_six_cards() -> None:
    """K5: a sealed choice among the fifteen sets of four, every seat at once, each set in card order."""
    match = Match(GAME, GAME.configure(2, "family"), RiggedResolver(picks=[4, 4]))
    match.advance()
    match.advance()
    assert match.step() == Decision.at_once([0, 1])
    legal = match.legal_actions(0)
    assert legal == [{"secret": list(c)} for c in combinations(CARDS, 4)]
    assert len(legal) == 15 and match.legal_actions(1) == legal
    match.act(0, {"secret": ["feeding", "current", "clamp", "shark"]})
    assert match.waiting_for() == (1,)
    match.act(1, {"secret": ["rest", "current", "sleep", "shark"]})
    hand = match.state["hands"][0]
    assert len(hand) == 4
    assert [match.known[0][h] for h in hand] == ["feeding", "current", "clamp", "shark"]
    assert not set(hand) & set(match.known[1])  # blue does not know red's cards
    assert "feeding" not in str(match.state)  # the public state holds no kept face
    assert match.state["phase"] == "roll"


def test_the_players_keep_their_cards_in_any_order() -> None:
    """K5: blue may keep before red; the game is the same as when red keeps first."""
    states = []
    for order in ((0, 1), (1, 0)):
        match = Match(GAME, GAME.configure(2, "family"), RiggedResolver(picks=[4, 4]))
        match.advance()
        match.advance()
        for seat in order:
            match.act(seat, {"secret": ["feeding", "current", "clamp", "shark"]})
        states.append(match.state)
    assert states[0] == states[1]


def test_a_set_of_cards_to_keep_is_accepted_in_any_order() -> None:
    """K5: four cards are one set whichever is named first: `keep shark clamp current feeding` keeps
    the same set as `keep feeding current clamp shark`."""
    match = Match(GAME, GAME.configure(2, "family"), RiggedResolver(picks=[4, 4]))
    match.advance()
    match.advance()
    wanted = match.parse(0, "keep feeding current clamp shark")
    assert match.parse(0, "keep shark clamp current feeding") == wanted
    assert match.parse(0, "Keep  CLAMP shark feeding current") == wanted


def test_the_children_keep_no_cards() -> None:
    """K5: action cards are for the family and professional variants only."""
    match = Match(GAME, GAME.configure(2, "children"), RiggedResolver(picks=[4, 4]))
    match.advance()
    match.advance()
    assert match.state["phase"] == "roll"
