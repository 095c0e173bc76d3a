"""Pieces and set-up (rules A1-A7)."""

from __future__ import annotations

import pytest

from atoll import JSON, MalformedInput, Pick
from atoll.engine import LocalResolver, Match
from atoll.plugins.animals_on_board.meta import SPECIES
from atoll.testing import RiggedResolver
from tests.animals_on_board.scenario import GAME, LEFT_OUT, seat_to_move, settle, start


def test_a1_twelve_species_of_five_tiles_numbered_one_to_five() -> None:
    """A1: four seats play every tile: twelve species, each numbered 1-5."""
    state = GAME.setup(GAME.configure(4))
    assert state["species"] == list(SPECIES) and len(SPECIES) == 12
    step = GAME.next(state)
    faces = step.request.faces  # type: ignore[union-attr]
    assert len(faces) == 60
    assert {f for f in faces if f.startswith("lion")} == {"lion1", "lion2", "lion3", "lion4", "lion5"}


@pytest.mark.parametrize(("seats", "left_out"), [(2, 4), (3, 2)])
def test_a2_chance_leaves_species_out_openly_with_fewer_seats(seats: int, left_out: int) -> None:
    """A2: without the host's choice, a public draw leaves out two species (3 seats) or four (2)."""
    picks = ["zebra", "fox", "lion", "panda"][:left_out]
    match = Match(GAME, GAME.configure(seats), RiggedResolver(picks=picks))
    request = match.advance()
    assert isinstance(request, Pick) and request.count == left_out
    assert match.state["removed"] == sorted(picks, key=SPECIES.index)
    assert len(GAME.next(match.state).request.faces) == 5 * (12 - left_out)  # type: ignore[union-attr]


def test_a2_the_host_may_choose_the_species_left_out() -> None:
    """A2: the option ``removed`` names the species left out; no chance is spent on it."""
    state = GAME.setup(GAME.configure(3, options={"removed": ["tiger", "camel"]}))
    assert state["phase"] == "shuffle" and state["removed"] == ["camel", "tiger"]
    assert "tiger" not in state["species"] and len(state["species"]) == 10


@pytest.mark.parametrize(
    "removed",
    [["camel"], ["camel", "camel"], ["camel", "unicorn"], "camel"],
    ids=["one", "twice", "unknown", "text"],
)
def test_a2_a_wrong_choice_of_species_is_refused_with_the_reason(removed: JSON) -> None:
    """A2: exactly as many different, real species as the seat count leaves out."""
    with pytest.raises(MalformedInput, match=r"species|removed"):
        GAME.configure(3, options={"removed": removed})


def test_a3_every_player_starts_with_one_crate_of_twenty() -> None:
    """A3: one crate each, the rest in the general supply."""
    state = GAME.setup(GAME.configure(4))
    assert state["crates"] == [1, 1, 1, 1] and state["supply"] == 16


def test_a4_seat_0_starts_the_first_round() -> None:
    """A4: seat 0 holds the start-player flag and moves first in round 1."""
    match = start([["lion1", "lion2", "lion3"], ["fox1", "fox2", "fox3"]], keep=["lion1", "fox1"])
    assert match.state["start"] == 0 and seat_to_move(match) == 0


def test_a5_each_player_draws_three_tiles_only_they_see() -> None:
    """A5: three tiles dealt to each player, known to that player alone."""
    match = start([["lion1", "lion2", "lion3"], ["fox1", "fox2", "fox3"], ["zebra5", "tiger4", "panda1"]])
    assert match.view(0)["hand"] == ["lion1", "lion2", "lion3"]
    assert match.view(2)["hand"] == ["panda1", "tiger4", "zebra5"]
    assert set(match.known[1].values()) == {"fox1", "fox2", "fox3"}
    assert match.view(None)["hand"] == []


def test_a6_the_kept_tile_is_a_sealed_choice_of_every_player_before_any_is_shown() -> None:
    """A6: each seat seals its choice in turn; nothing is shown until all have chosen."""
    match = start([["lion1", "lion2", "lion3"], ["fox1", "fox2", "fox3"]])
    assert match.step().secret  # type: ignore[union-attr]
    assert sorted(match.texts(0)) == ["keep lion1", "keep lion2", "keep lion3"]
    match.act(0, match.parse(0, "keep lion2"))
    settle(match)
    assert match.step().secret and seat_to_move(match) == 1  # type: ignore[union-attr]
    assert match.state["public"] == {} and match.state["groups"] == []
    assert match.events[-1] == {"seat": 0, "sealed": ["s0-0.0", "s0-0.1"]}
    match.act(1, match.parse(1, "keep fox3"))
    settle(match)
    assert match.view(0)["ark"] == ["lion2"] and match.view(1)["ark"] == ["fox3"]
    assert match.view(1)["ark_sizes"] == [1, 1]


def test_a7_the_other_two_tiles_go_face_up_into_one_group() -> None:
    """A7: the tiles not kept form the first group, face up, with the round's fill (A8)."""
    match = start([["lion1", "lion2", "lion3"], ["fox1", "fox2", "fox3"]], keep=["lion2", "fox3"])
    group = match.view(None)["groups"][0]
    assert {"lion1", "lion3", "fox1", "fox2"} <= set(group)
    assert "lion2" not in group and "fox3" not in group


def test_a_game_set_up_by_chance_reaches_the_first_turn() -> None:
    """A2-A8 through the engine with chance choosing everything: the first round begins."""
    match = Match(GAME, GAME.configure(3), LocalResolver(4))
    settle(match)
    for seat in range(3):
        match.act(seat, match.legal_actions(seat)[0])
        settle(match)
    assert match.state["phase"] == "play" and match.state["round"] == 1
    assert len(match.state["removed"]) == 2 and LEFT_OUT[3] != []
