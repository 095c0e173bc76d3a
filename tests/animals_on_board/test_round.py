"""A round: filling up, turns, splitting, taking, dropping out and the end of a round (rules A8-A19)."""

from __future__ import annotations

import pytest

from atoll import Deal, IllegalAction, Reveal
from atoll.plugins.animals_on_board.meta import HIDDEN
from tests.animals_on_board.scenario import (
    GAME,
    act,
    centre,
    full_group,
    play,
    seat_to_move,
    settle,
    start,
    table,
    texts,
)

HANDS = [["lion1", "lion2", "lion3"], ["fox1", "fox2", "fox3"], ["zebra1", "zebra2", "zebra3"]]


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_a8_a_round_starts_with_one_group_of_face_up_tiles_and_one_face_down(seats: int) -> None:
    """A8: 8 / 10 / 12 face-up tiles and one face-down tile, in one group."""
    hands = [["lion1", "lion2", "lion3"], ["fox1", "fox2", "fox3"], ["zebra1", "zebra2", "zebra3"],
             ["tiger1", "tiger2", "tiger3"]][:seats]
    match = start(hands, keep=[hand[0] for hand in hands])
    groups = match.view(None)["groups"]
    assert len(groups) == 1
    assert groups[0].count(HIDDEN) == 1 and len(groups[0]) == full_group(seats) + 1


def test_a8_the_fill_is_revealed_and_the_face_down_tile_is_not() -> None:
    """A8: the new face-up tiles are a public reveal; the face-down tile stays a bare handle."""
    match = start(HANDS[:2], then=["tiger1", "tiger2", "tiger3", "tiger4", "panda5"])
    for seat in range(2):
        match.act(seat, match.legal_actions(seat)[0])
        settle(match)
    fill = [e["request"] for e in match.events if e.get("request", {}).get("kind") == "reveal"][-1]
    assert fill["handles"] == ["tiles.6", "tiles.7", "tiles.8", "tiles.9"]
    assert match.state["hidden"] == "tiles.10" and "tiles.10" not in match.state["public"]
    assert all("tiles.10" not in known for known in match.known)


def test_a8_the_last_rounds_face_down_tile_stays_and_no_second_one_comes() -> None:
    """A8: a face-down tile left in the centre stays; the group is filled with face-up tiles only."""
    state, _ = table(seats=2, groups=[["lion1"], ["fox2", HIDDEN]], arks=[["zebra1"], ["tiger2"]],
                     crates=[1, 2], turn=1, out=[0])
    state = act(state, "take 1: lion1")  # seat 1 takes the last face-up single; it is the final turn
    assert state["phase"] == "fill" and state["round"] == 3
    request = GAME.next(state).request  # type: ignore[union-attr]
    assert isinstance(request, Reveal) and len(request.handles) == full_group(2) - 1
    state = GAME.resolve(state, request, {"faces": dict(zip(request.handles, ["panda1", "panda2", "panda3",
                                                                              "panda4", "panda5", "tiger1",
                                                                              "tiger3"], strict=True))})
    assert centre(state)[0].count(HIDDEN) == 1 and len(centre(state)[0]) == full_group(2) + 1


def test_a9_the_start_player_moves_first_then_clockwise_skipping_those_out() -> None:
    """A9: seat 2 holds the flag; after it seat 0, then seat 2 again, as seat 1 has dropped out."""
    state, _ = table(seats=3, groups=[["lion1", "lion2", "fox1", "fox2"]], turn=2, start=2, out=[1],
                     crates=[1, 0, 1])
    state = act(state, "split 1: lion2")
    assert state["turn"] == 0
    state = act(state, "split 1: lion1")
    assert state["turn"] == 2


def test_a10_a_turn_is_one_split_or_one_take() -> None:
    """A10: the legal actions are splits and takes, and one of them ends the turn."""
    state, _ = table(seats=3, groups=[["lion1", "lion2"], ["fox1"]], crates=[1, 1, 1])
    assert texts(state) == ["split 1: lion2", "take 2: fox1"]
    assert act(state, "split 1: lion2")["turn"] == 1


def test_a11_a_split_makes_two_groups_and_leaves_the_others_alone() -> None:
    """A11: the group keeps the part with its first tile; the other part becomes the last group."""
    state, _ = table(seats=3, groups=[["camel1", "fox2", "lion3", "zebra4"], ["tiger5", "tiger1"]])
    state = act(state, "split 1: lion3 zebra4")
    assert centre(state) == [["camel1", "fox2"], ["tiger5", "tiger1"], ["lion3", "zebra4"]]


def test_a11_every_division_of_a_group_is_offered_once() -> None:
    """A11: a group of four can be split seven ways (2**3 - 1); a single tile cannot be split."""
    state, _ = table(seats=3, groups=[["camel1", "fox2", "lion3", "zebra4"], ["tiger5"]], crates=[0, 0, 0])
    assert len(texts(state)) == 7


def test_a12_a_split_earns_a_crate_from_the_supply() -> None:
    """A12: one crate from the general supply to the player who split."""
    state, _ = table(seats=3, groups=[["lion1", "lion2"]], crates=[2, 1, 1])
    after = act(state, "split 1: lion2")
    assert after["crates"][0] == 3 and after["supply"] == state["supply"] - 1


def test_a12_a_sixth_crate_sends_the_player_back_to_four() -> None:
    """A12: holding five, a split returns one crate to the supply instead of taking one."""
    state, _ = table(seats=3, groups=[["lion1", "lion2"]], crates=[5, 1, 1])
    after = act(state, "split 1: lion2")
    assert after["crates"][0] == 4 and after["supply"] == state["supply"] + 1


def test_a13_the_supply_is_empty_only_when_four_players_hold_five_and_then_nobody_is_owed_a_crate() -> None:
    """A13: with all twenty crates held, the player who splits gives one back; it never runs short."""
    state, _ = table(seats=4, groups=[["lion1", "lion2"]], crates=[5, 5, 5, 5])
    assert state["supply"] == 0
    after = act(state, "split 1: lion2")
    assert after["crates"] == [4, 5, 5, 5] and after["supply"] == 1


def test_a14_taking_a_group_costs_a_crate_a_tile() -> None:
    """A14: the crates go back to the supply and the tiles onto the ark."""
    state, _ = table(seats=3, groups=[["lion1", "lion2"], ["fox1"]], crates=[3, 1, 1])
    after = act(state, "take 1: lion1 lion2")
    assert after["crates"][0] == 1 and after["supply"] == state["supply"] + 2
    assert len(after["arks"][0]) == 2 and centre(after) == [["fox1"]]


def test_a14_a_group_the_player_cannot_pay_for_is_not_offered_and_is_refused() -> None:
    """A14: two tiles cost two crates; with one the take is not legal."""
    state, _ = table(seats=3, groups=[["lion1", "lion2"], ["fox1"]], crates=[1, 1, 1])
    assert "take 1: lion1 lion2" not in texts(state)
    with pytest.raises(IllegalAction, match="cost 2 crates"):
        GAME.apply(state, {"take": 1})


def test_a15_taking_drops_the_player_out_and_the_first_out_takes_the_flag() -> None:
    """A15: seat 1 takes first and gets the flag; seat 2 takes later and does not."""
    state, _ = table(seats=3, groups=[["lion1", "lion2", "lion3"], ["fox1"], ["zebra1"]], crates=[1, 1, 1],
                     turn=1)
    state = act(state, "take 2: fox1")
    assert state["out"] == [False, True, False] and state["start"] == 1 and state["turn"] == 2
    state = act(state, "take 2: zebra1")
    assert state["start"] == 1


def test_a16_the_face_down_tile_is_dealt_to_its_taker_only() -> None:
    """A16: taking the group with the face-down tile deals it to the taker; nobody else learns it."""
    match = start(HANDS[:2], then=["tiger1", "tiger2", "tiger3", "tiger4", "panda5"], keep=["lion1", "fox1"])
    hidden = match.state["hidden"]
    # split the face-down tile off on its own, then take it
    play(match, f"split 1: {HIDDEN}")
    assert centre(match.state)[-1] == [HIDDEN]
    seat = seat_to_move(match)
    match.act(seat, match.parse(seat, "take 2"))
    assert isinstance(GAME.next(match.state).request, Deal)  # type: ignore[union-attr]
    settle(match)
    assert match.known[seat][hidden] == "panda5"
    assert hidden not in match.known[1 - seat] and hidden not in match.state["public"]
    assert "panda5" in match.view(seat)["ark"]


def test_a17_a_take_is_compulsory_when_no_group_can_be_split() -> None:
    """A17: all groups are single tiles: only takes are legal."""
    state, _ = table(seats=3, groups=[["lion1"], ["fox1"]], crates=[1, 1, 1])
    assert texts(state) == ["take 1: lion1", "take 2: fox1"]


def test_a17_a_player_who_can_do_neither_forfeits_and_stays_in_the_round() -> None:
    """A17: no group to split and no crate to pay: the only action is to forfeit the turn."""
    state, _ = table(seats=3, groups=[["lion1"], ["fox1"]], crates=[0, 1, 1])
    assert texts(state) == ["forfeit"]
    after = act(state, "forfeit")
    assert after["turn"] == 1 and after["out"] == [False, False, False]
    with pytest.raises(IllegalAction, match="cannot forfeit"):
        GAME.apply(after, {"forfeit": True})


def test_a18_the_last_player_left_gets_one_final_turn_and_the_round_ends() -> None:
    """A18: seat 1 drops out, leaving seat 2 alone; it splits once, and a new round starts."""
    state, _ = table(seats=3, groups=[["lion1", "lion2", "lion3"], ["fox1"]], crates=[1, 1, 1],
                     turn=1, out=[0], start=0)
    state = act(state, "take 2: fox1")
    assert state["turn"] == 2 and state["final"]
    state = act(state, "split 1: lion3")
    assert state["round"] == 3 and not state["final"] and state["out"] == [False, False, False]


def test_a19_a_full_ark_ends_the_game_after_its_round() -> None:
    """A19: seat 0 reaches ten tiles; the round goes on to its end, then the arks depart."""
    nine = ["lion1", "lion2", "lion3", "fox1", "fox2", "fox3", "zebra1", "zebra2", "zebra3"]
    state, _ = table(seats=3, groups=[["tiger1"], ["tiger2", "tiger3"]], arks=[nine, [], []],
                     crates=[1, 2, 2])
    state = act(state, "take 1: tiger1")
    assert len(state["arks"][0]) == 10 and state["phase"] == "play" and state["turn"] == 1
    assert "its ark is full (10 tiles)" in GAME.describe_log(*table(
        seats=3, groups=[["tiger1"]], arks=[nine, [], []])[:1], 0, {"take": 1})
    state = act(state, "take 1: tiger2 tiger3")
    assert state["final"] and state["turn"] == 2
    state = act(state, "forfeit")
    assert state["phase"] == "depart"


def test_a19_without_a_full_ark_a_new_round_begins() -> None:
    """A19: the round ends with nobody at ten: the centre is pushed together and filled up (A8)."""
    state, _ = table(seats=2, groups=[["lion1"], ["fox1", "fox2"]], crates=[1, 1], turn=1, out=[0])
    state = act(state, "split 2: fox2")
    assert state["phase"] == "fill" and centre(state) == [["fox1", "fox2", "lion1"]]
