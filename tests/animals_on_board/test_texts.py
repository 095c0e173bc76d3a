"""Texts a player types, the words of the log, and the board (rules page: "Texts to type")."""

from __future__ import annotations

import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

from atoll import AmbiguousAction
from atoll.client.prompt import ActionCompleter
from atoll.engine import LocalResolver, Match
from atoll.plugins.animals_on_board.meta import HIDDEN
from tests.animals_on_board.scenario import GAME, action, settle, table, texts

THIRTEEN = ["camel1", "crocodile2", "elephant3", "fox4", "giraffe5", "gorilla1", "hippo2", "lion3",
            "monkey4", "panda5", "tiger1", "zebra2", HIDDEN]


def first_turn_of_four() -> Match:
    """A four-seat match at its first turn: one group of twelve face-up tiles and the face-down one."""
    match = Match(GAME, GAME.configure(4), LocalResolver(3))
    settle(match)
    for seat in range(4):
        match.act(seat, match.legal_actions(seat)[0])
        settle(match)
    return match


def test_a_split_names_the_smaller_side_so_texts_stay_short_in_a_group_of_thirteen() -> None:
    """All 4095 splits of thirteen tiles have their own text, none naming more than six tiles."""
    state, _ = table(seats=4, groups=[THIRTEEN], crates=[0] * 4)
    listed = texts(state)
    assert len(listed) == len(set(listed)) == 2 ** 12 - 1
    assert max(len(t.split(":")[1].split()) for t in listed) == 6
    assert max(len(t) for t in listed) <= 70  # fits a prompt line
    assert "split 1: lion3" in listed and "split 1: camel1" in listed


def test_naming_the_other_side_of_a_split_is_the_same_split() -> None:
    """The rest of the group, typed out, is an alias for the split named by its smaller side."""
    match = first_turn_of_four()
    seat = match.state["turn"]
    group = match.view(seat)["groups"][0]
    short = match.parse(seat, f"split 1: {group[3]}")
    long = match.parse(seat, "split 1: " + " ".join(t for t in group if t != group[3]))
    assert short == long


def test_take_with_only_the_group_number() -> None:
    """``take 2`` is enough to take group 2, even with a group 12 about."""
    singles = [["fox1"], ["zebra1"], ["zebra2"], ["zebra3"], ["tiger1"], ["tiger2"], ["tiger3"], ["tiger4"],
               ["tiger5"], ["panda1"], ["panda2"]]
    state, _ = table(seats=3, groups=[["lion1", "lion2"], *singles], crates=[1, 1, 1])
    match = Match(GAME, GAME.configure(3, options={"removed": ["camel", "hippo"]}), LocalResolver(0))
    match.state = state
    assert match.parse(0, "take 2") == {"take": 2}
    assert match.parse(0, "take 12") == {"take": 12}


def test_a_beginning_shared_by_several_splits_is_refused_with_them() -> None:
    """A prefix of several texts is ambiguous and says what it could be."""
    match = first_turn_of_four()
    seat = match.state["turn"]
    with pytest.raises(AmbiguousAction, match="could be any of"):
        match.parse(seat, "split 1:")


def test_completion_offers_the_splits_that_begin_with_what_is_typed() -> None:
    """The prompt's completer lists, for ``split 1: <first tile>``, the splits that name it first."""
    match = first_turn_of_four()
    seat = match.state["turn"]
    first = match.view(seat)["groups"][0][0]
    completer = ActionCompleter(lambda: list(match.texts(seat)))
    typed = f"split 1: {first} "
    offered = [c.text for c in completer.get_completions(Document(typed), CompleteEvent())]
    assert offered and all(t.startswith(typed) for t in offered)
    assert len(offered) == sum(1 for t in match.texts(seat) if t.startswith(typed))


def test_keep_take_forfeit_and_discard_read_as_the_rules_page_says() -> None:
    """The texts of the rules page: keep, take, forfeit, discard."""
    state, _ = table(seats=3, groups=[["fox5", HIDDEN], ["lion1"]], crates=[2, 0, 0])
    assert "take 1: fox5 hidden" in texts(state) and GAME.aliases(state, action(state, "take 2: lion1")) == [
        "take 2"
    ]
    state["turn"] = 1
    state["groups"] = [[h] for group in state["groups"] for h in group]
    assert texts(state) == ["forfeit"]


def test_the_log_names_what_everybody_sees_and_never_the_face_down_tile() -> None:
    """Log lines: a split with its crate, a take with the flag, the face-down tile as 'hidden'."""
    state, _ = table(seats=3, groups=[["fox5", "lion1", HIDDEN]], crates=[5, 3, 1])
    split = action(state, f"split 1: {HIDDEN}")
    assert GAME.describe_log(state, 0, split) == (
        "player 1 splits off hidden from group 1 and gives a crate back (five is the most)"
    )
    state = GAME.apply(state, split)
    take = action(state, f"take 2: {HIDDEN}")
    assert GAME.describe_log(state, 1, take) == (
        "player 2 takes hidden for 1 crate and drops out of the round, taking the start-player flag"
    )


def test_the_board_draws_for_every_seat_and_the_spectator() -> None:
    """Rendering: the groups numbered, the arks as counts, the viewer's own ark."""
    match = first_turn_of_four()
    for seat in (0, 1, None):
        text = "".join(t for _, t in GAME.render(match.view(seat)))
        assert " 1: " in text and "hidden" in text and "crate" in text
        assert ("Your ark:" in text) == (seat is not None)
