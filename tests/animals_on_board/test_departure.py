"""Departure and scoring (rules A22-A27)."""

from __future__ import annotations

import pytest

from atoll import IllegalAction, Reveal
from atoll.plugins.animals_on_board import scoring
from tests.animals_on_board.scenario import GAME, act, table, texts


def departed(arks: list[list[str]], crates: list[int]) -> dict:  # type: ignore[type-arg]
    """A game at its end: the arks given, every tile shown (A22), pairs gone and cuts pending."""
    state, _ = table(seats=len(arks), groups=[["camel1"]], arks=arks, crates=crates)
    state["phase"] = "depart"
    request = GAME.next(state).request  # type: ignore[union-attr]
    assert isinstance(request, Reveal)
    faces = {h: f for seat_known in _known(state, arks) for h, f in seat_known.items()}
    return GAME.resolve(state, request, {"faces": {h: faces[h] for h in request.handles}})


def _known(state: dict, arks: list[list[str]]) -> list[dict[str, str]]:  # type: ignore[type-arg]
    return [dict(zip(state["arks"][seat], ark, strict=True)) for seat, ark in enumerate(arks)]


def test_a22_at_departure_every_ark_is_shown_to_everybody() -> None:
    """A22: the arks' unseen tiles are revealed; the spectator's board shows every ark."""
    state = departed([["lion1", "fox2"], ["tiger3"]], [0, 0])
    assert GAME.view(state, None, {})["arks"] == [["fox2", "lion1"], ["tiger3"]]


def test_a23_species_held_exactly_twice_go_back_to_the_box() -> None:
    """A23: two lions are lost; three foxes and one tiger stay."""
    state = departed([["lion1", "lion5", "fox1", "fox2", "fox3", "tiger4"], ["zebra1"]], [0, 0])
    view = GAME.view(state, None, {})
    assert view["arks"][0] == ["fox1", "fox2", "fox3", "tiger4"]
    assert view["discarded"][0] == ["lion1", "lion5"]


ELEVEN = ["lion1", "lion2", "lion3", "lion4", "fox1", "fox2", "fox3", "tiger4", "zebra5", "panda2",
          "crocodile3"]


def test_a24_an_ark_over_ten_is_cut_to_ten_by_its_owner() -> None:
    """A24: eleven tiles after the pairs: the owner chooses which one goes."""
    state = departed([ELEVEN, ["zebra1"]], [0, 0])
    assert state["phase"] == "cut" and state["turn"] == 0
    options = texts(state)
    assert "discard lion1" in options and "discard tiger4" in options
    state = act(state, "discard panda2")
    assert state["phase"] == "over" and len(state["arks"][0]) == 10


def test_a24_a_cut_never_leaves_a_species_at_exactly_two() -> None:
    """A24: taking a fox from three would leave a pair, so no single fox may go; all three may not
    go either with one tile to cut."""
    state = departed([ELEVEN, ["zebra1"]], [0, 0])
    assert not any(t.startswith("discard fox") for t in texts(state))
    with pytest.raises(IllegalAction, match="no species at exactly two"):
        GAME.apply(state, {"discard": [h for h in state["arks"][0] if state["public"][h] == "fox2"]})


def test_a24_arks_are_cut_one_after_another_in_seat_order() -> None:
    """A24: seats 0 and 1 both hold eleven; seat 0 cuts first, then seat 1."""
    other = ["giraffe1", "giraffe2", "giraffe3", "tiger1", "tiger2", "tiger3", "elephant1", "elephant2",
             "elephant3", "panda4", "crocodile5"]
    state = departed([ELEVEN, other], [0, 0])
    assert state["turn"] == 0
    state = act(state, "discard panda2")
    assert state["phase"] == "cut" and state["turn"] == 1
    state = act(state, "discard crocodile5")
    assert state["phase"] == "over"


def test_a25_singles_score_their_number_herds_five_each_and_crates_one() -> None:
    """A25: lion4 single 4, three foxes 15, tiger1 single 1, and 3 crates: 23."""
    state = departed([["lion4", "fox1", "fox2", "fox3", "tiger1"], ["zebra2"]], [3, 0])
    assert scoring.score(state, 0) == 23 and scoring.score(state, 1) == 2


def test_a26_the_most_points_win() -> None:
    """A26: the higher score wins alone."""
    state = departed([["lion4"], ["zebra2"]], [0, 0])
    results = GAME.next(state).results  # type: ignore[union-attr]
    assert results.scores == (4, 2) and results.winners == (0,)


def test_a26_a_tie_goes_to_more_species_then_is_shared() -> None:
    """A26: 5 points each: two species beat one; equal species counts share the win."""
    state = departed([["lion5"], ["zebra2", "tiger3"], ["fox4", "panda1"]], [0, 0, 0])
    results = GAME.next(state).results  # type: ignore[union-attr]
    assert results.scores == (5, 5, 5) and results.winners == (1, 2)


def test_a27_the_rulebooks_example_scores_44() -> None:
    """A27: Nina's eleven animals and two crates: elephants lost, 4 + 3 + 15 + 20 + 2 = 44."""
    nina = ["elephant2", "elephant4", "crocodile4", "tiger3", "giraffe1", "giraffe2", "giraffe5",
            "panda1", "panda2", "panda3", "panda4"]
    state = departed([nina, ["zebra1"]], [2, 0])
    assert state["phase"] == "over"
    assert GAME.view(state, None, {})["discarded"][0] == ["elephant2", "elephant4"]
    assert scoring.score(state, 0) == 44
