"""Seats are numbered one way wherever a person reads or types one: from 1, as the seat bar marks them
(issue 30: the text said seat 0 while the seat bar said 1). Code, logs and JSON keep the index from 0."""

from __future__ import annotations

import argparse

import pytest

from atoll import seat_label
from atoll.cli.cmd_audit import _expectation
from atoll.cli.main import build_parser
from atoll.numbering import seats_label
from atoll.tui.palette import Look
from tests.games.highcard import HighCard


def test_the_seat_of_index_0_is_read_as_seat_1() -> None:
    assert seat_label(0) == "seat 1"
    assert seats_label([0, 2]) == "seats 1, 3"
    assert seats_label([1]) == "seat 2"


def test_a_seat_a_peer_named_wrongly_is_quoted_as_it_came() -> None:
    assert seat_label("x") == "seat 'x'"
    assert seat_label(None) == "seat None"


def test_a_game_without_seat_names_names_its_seats_as_the_seat_bar_numbers_them() -> None:
    game = HighCard()
    names = game.seat_names(game.configure(3))
    marks = [Look().symbol(seat) for seat in range(3)]
    assert names == ["seat 1", "seat 2", "seat 3"]
    assert [mark[-1] for mark in marks] == ["1", "2", "3"]


def test_the_default_log_line_names_the_seat_as_people_read_it() -> None:
    game = HighCard()
    state = game.setup(game.configure(2))
    state["phase"] = "bet"
    assert game.describe_log(state, 0, {"secret": ["high"]}) == "seat 1: bet high"


def test_atoll_play_seat_counts_from_1() -> None:
    parse = build_parser(["play"]).parse_args
    assert parse(["play", "kariba", "--seat", "1"]).seat == 0
    assert parse(["play", "kariba"]).seat == 0


def test_atoll_play_refuses_seat_0(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        build_parser(["play"]).parse_args(["play", "kariba", "--seat", "0"])
    assert "a seat is a number from 1 (the first seat), not '0'" in capsys.readouterr().err


def test_atoll_audit_expect_counts_seats_from_1_as_audit_lists_them() -> None:
    assert _expectation("1=k3qz-7rma") == (0, "k3qz-7rma")
    with pytest.raises(argparse.ArgumentTypeError, match="seats counted from 1"):
        _expectation("0=k3qz-7rma")
