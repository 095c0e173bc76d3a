"""What a player types and sees: step texts, aliases, the log, the hex board and reach (rules S20-S23)."""

from __future__ import annotations

import pytest

from atoll import AmbiguousAction, Roll, State
from atoll.engine import Match
from atoll.plugins.survival.meta import ANIMALS
from atoll.plugins.survival.texts import describe_chance
from atoll.testing import RiggedResolver
from tests.survival.scenario import GAME, act, position, roll, texts
from tests.survival.test_turn import BASE


def match_at(state: State) -> Match:
    """A match standing at ``state``, to type texts as the client does."""
    match = Match(GAME, GAME.configure(state["seats"]), RiggedResolver())
    match.state = state
    return match


def test_s20_a_path_is_typed_one_step_at_a_time() -> None:
    """S20: the legal list of a move holds single steps: six at most for the predator and for each prey."""
    state = act(roll(position(BASE), 6, 5), "predator 6 prey 5")
    steps = texts(state)
    assert [t for t in steps if t.startswith("predator ")] == [
        "predator c7", "predator c8", "predator d7", "predator d9", "predator e8", "predator e9"]
    assert len(steps) <= 6 + 6 * 5


def test_s20_a_step_may_be_typed_as_its_place_or_with_the_predators_name() -> None:
    """S20: ``d7`` and ``lion d7`` are the predator's step when no prey can go there."""
    match = match_at(act(roll(position(BASE), 2, 1), "predator 2 prey 1"))
    assert match.parse(0, "d7") == {"do": "step", "token": "predator", "to": "d7"}
    assert match.parse(0, "lion d7") == {"do": "step", "token": "predator", "to": "d7"}
    assert match.parse(0, "zebra c") == {"do": "step", "token": "zebra", "to": "c2"}


def test_s20_a_place_two_tokens_could_step_to_is_refused_as_ambiguous() -> None:
    """S20: ``a3`` could be the impala's step or the zebra's: the parser names both."""
    state = act(roll(position({**BASE, "b2": "red zebra"}), 1, 2), "predator 1 prey 2")
    state = dict(state, prey=[{"impala": "a2", "zebra": "b3"}, state["prey"][1]])
    state["at"] = {**{p: v for p, v in state["at"].items() if p != "b2"}, "b3": [0, "zebra"]}
    with pytest.raises(AmbiguousAction, match="impala a3, zebra a3"):
        match_at(state).parse(0, "a3")


def test_s20_the_dice_may_be_given_either_way_round() -> None:
    """S20: ``prey 2 predator 5`` is ``predator 5 prey 2``."""
    match = match_at(roll(position(BASE), 5, 2))
    assert match.parse(0, "prey 2 predator 5") == {"do": "assign", "predator": 5}


def test_s21_the_log_names_rolls_catches_and_the_whole_path() -> None:
    """S21: ``red rolls 3 and 5``; the last step of the predator's move shows its path."""
    state = position({**BASE, "d6": "blue buffalo"})
    assert describe_chance(state, {"values": [3, 5]}) == "red rolls 3 and 5"
    assert "doubles, red must lay an obstacle" in str(describe_chance(state, {"values": [2, 2]}))
    state = act(roll(state, 3, 1), "predator 3 prey 1", "predator d7")
    line = GAME.describe_log(state, 0, {"do": "step", "token": "predator", "to": "d6"})
    assert line == "red's lion steps to d6 and catches blue's buffalo (5)"
    state = act(state, "predator d6")
    line = GAME.describe_log(state, 0, {"do": "step", "token": "predator", "to": "d5"})
    assert line == "red's lion steps to d5; path 3: d8 d7 d6 d5"
    assert GAME.describe_chance(state, Roll(2, 6), {"values": [1, 1]}) is None  # not a rolling moment


def test_s21_the_log_names_the_seat_drawn_to_start() -> None:
    """S21, S2: the draw is logged by colour; the screen says the draw is on until it is made."""
    state = GAME.setup(GAME.configure(3))
    assert GAME.describe_chance(state, Roll(1, 3), {"values": [2]}) == (
        "blue is drawn to start: blue places the first prey and moves first")
    assert "drawing who starts" in "".join(text for _, text in GAME.render(GAME.view(state, None, {})))


def test_s22_the_board_is_drawn_as_hexagons_with_owners_readable_without_colour() -> None:
    """S22: every token shows its owner's letter: ``*R*`` red's predator, ``Rz`` red's zebra."""
    state = position({**BASE, "d7": "blue buffalo"}, obstacles={1: ("f4", 0)})
    drawing = "".join(text for _, text in GAME.render(GAME.view(state, 0, {})))
    for cell in ("|*R*|", "|Ri |", "|Rz |", "|*B*|", "|Bz |", "|Bk |", "|Bb |", "|###|", "|=1=|", "|e5 |"):
        assert cell in drawing, cell
    rows = [line for line in drawing.splitlines() if line.strip().startswith("|")]
    assert len(rows) == 11 and rows[5].count("|") == 12
    # each row half a hexagon off the next, so a place touches two above and two below
    assert rows[4].index("|") == rows[5].index("|") + 2 == rows[6].index("|")


FOUR_CROWDED = {
    "a1": "red predator", "f1": "blue predator", "k11": "green predator", "f11": "yellow predator",
    **{p: f"red {a}" for p, a in zip(("b2", "c2", "d2", "e2", "b3"), ANIMALS, strict=True)},
    **{p: f"blue {a}" for p, a in zip(("g2", "g3", "h4", "g4", "f4"), ANIMALS, strict=True)},
    **{p: f"green {a}" for p, a in zip(("j10", "i10", "h10", "j8", "h8"), ANIMALS, strict=True)},
    **{p: f"yellow {a}" for p, a in zip(("e10", "d9", "e8", "f10", "d8"), ANIMALS, strict=True)},
}


def test_s22_the_whole_board_fits_an_80x24_terminal() -> None:
    """S22: four players on the move with every list of reach: at most 79 columns and 20 lines, so
    the table screen shows the whole board at 80x24 with its status and prompt."""
    state = act(roll(position(FOUR_CROWDED, seats=4), 6, 6), "predator b1")
    for seat in (None, 0, 1, 2, 3):
        lines = "".join(text for _, text in GAME.render(GAME.view(state, seat, {}))).rstrip("\n").split("\n")
        assert len(lines) <= 20
        assert max(len(line) for line in lines) <= 79
        assert sum("can reach:" in line for line in lines) == 6


def test_s22_the_legend_names_every_mark() -> None:
    """S22: the legend (F4) says what ``*R*``, ``Rz``, ``###`` and ``=N=`` mean."""
    marks = dict(GAME.legend(GAME.configure(4)))
    assert {"*R*", "Rz", "###", "=N="} <= set(marks)
    assert "wild dog" in marks["*R*"] and "b buffalo 5" in marks["Rz"]


def test_s23_the_places_a_token_can_reach_are_shown() -> None:
    """S23: while moving, the view lists where each token can still get to and the board marks the
    predator's places."""
    state = act(roll(position(BASE), 1, 2), "predator 1 prey 2")
    reach = GAME.view(state, 0, {})["reach"]
    assert sorted(reach["predator"]) == ["c7", "c8", "d7", "d9", "e8", "e9"]
    assert sorted(reach["impala"]) == ["a1", "a3", "a4", "b1", "b3", "b4", "c4"]
    drawing = "".join(text for _, text in GAME.render(GAME.view(state, 1, {})))
    assert "lion can reach: c7 d7 c8 e8 d9 e9" in drawing
