"""Simultaneous decisions on the local resolver: every seat seals at once, in any order, seeing nothing
of the others' choices until all have chosen (Sealed Bids, tests/games/sealed_bids.py, rule 3)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from atoll.bots.random_bot import RandomBot
from atoll.bots.search import SearchBot
from atoll.engine import LocalResolver, Match, load, replay, run, save
from atoll.engine.loop import observe
from atoll.errors import CheatDetected, ProtocolViolation
from atoll.jsondata import canonical
from atoll.types import Chance, Decision
from tests.games.sealed_bids import SealedBids

SEATS = [2, 3, 4, 5]


def seen(match: Match, seat: int) -> str:
    """Everything ``seat``'s observation holds, as canonical JSON (the game object aside)."""
    o = observe(match, seat)
    ledger = o.ledger
    return canonical({"state": o.state, "known": dict(o.known), "legal": o.legal, "secret": o.secret,
                      "public": ledger.public, "seals": [[s.seat, list(s.handles)] for s in ledger.seals],
                      "holders": {h: sorted(s) for h, s in ledger.holders.items()}})


def at_bidding(seats: int, seed: int = 1) -> Match:
    """A short game of ``seats`` seats at its first simultaneous bid."""
    game = SealedBids()
    match = Match(game, game.configure(seats, "short"), LocalResolver(seed))
    while not isinstance(match.step(), Decision):
        match.advance()
    return match


def test_a_decision_of_several_seats_is_sealed_and_names_them_in_order() -> None:
    step = Decision.at_once([2, 0, 1])
    assert (step.seat, step.seats, step.secret, step.simultaneous) == (0, (0, 1, 2), True, True)
    with pytest.raises(ValueError, match="secretly"):
        Decision(0, False, (0, 1))
    assert Decision(1).deciders == (1,) and not Decision(1).simultaneous


@pytest.mark.parametrize("seats", SEATS)
def test_every_seat_may_choose_first_and_the_game_is_the_same_whatever_the_order(seats: int) -> None:
    outcomes = set()
    for order in itertools.islice(itertools.permutations(range(seats)), 0, None, 7 if seats > 3 else 1):
        match = at_bidding(seats)
        assert match.waiting_for() == tuple(range(seats))
        for seat in order:
            match.act(seat, {"secret": [seat + 1]})
        match.advance()  # the bids are shown
        outcomes.add(canonical({"state": match.state, "events": match.events}))
    assert len(outcomes) == 1


@pytest.mark.parametrize("seats", SEATS)
def test_no_seat_sees_anything_of_another_seats_bid_before_every_seat_has_bid(seats: int) -> None:
    match = at_bidding(seats)
    before = {seat: seen(match, seat) for seat in range(seats)}
    views = {seat: canonical(match.view(seat)) for seat in range(seats)}
    for seat in range(seats - 1):
        match.act(seat, {"secret": [seat + 1]})
        for other in range(seat + 1, seats):
            assert seen(match, other) == before[other]
            assert canonical(match.view(other)) == views[other]
            assert match.known[other] == {}
        assert match.events == [] or all("sealed" not in e for e in match.events)
        assert match.ledger.seals == []


def test_the_game_receives_every_seats_handles_in_seat_order_once_the_last_seat_has_chosen() -> None:
    match = at_bidding(3)
    match.act(2, {"secret": [3]})
    match.act(0, {"secret": [1]})
    assert match.state["bids"] == [None, None, None]
    match.act(1, {"secret": [2]})
    assert match.state["bids"] == ["s0-0.0", "s1-1.0", "s2-2.0"]
    sealed = [e for e in match.events if "sealed" in e]
    assert [(e["seat"], e["sealed"], e["at_once"]) for e in sealed] == [
        (0, ["s0-0.0"], True), (1, ["s1-1.0"], True), (2, ["s2-2.0"], True)]
    assert isinstance(match.step(), Chance)


def test_a_seat_that_has_chosen_may_not_choose_again_and_a_seat_not_deciding_may_not_choose() -> None:
    match = at_bidding(3)
    match.act(1, {"secret": [2]})
    with pytest.raises(ProtocolViolation, match="already chosen"):
        match.act(1, {"secret": [3]})
    assert match.legal_actions(1) == []
    assert match.step().seat == 0 and match.waiting_for() == (0, 2)


@pytest.mark.parametrize("seats", SEATS)
def test_random_and_search_bots_play_sealed_bids_to_the_end(seats: int) -> None:
    game = SealedBids()
    match = Match(game, game.configure(seats, "short"), LocalResolver(seats))
    bots = [SearchBot(s, iterations=30) if s == 0 else RandomBot(s) for s in range(seats)]
    end = run(match, bots)
    assert len(end.results.scores) == seats


def test_the_search_bot_bids_the_same_whatever_the_seats_before_it_sealed() -> None:
    chosen = set()
    for bids in ([1, 2], [5, 4], [3, 3]):
        match = at_bidding(3, seed=4)
        for seat, bid in enumerate(bids):
            match.act(seat, {"secret": [bid]})
        chosen.add(canonical(SearchBot(7, iterations=60).choose(observe(match, 2))))
    assert len(chosen) == 1


def test_a_saved_game_of_simultaneous_bids_replays_and_an_illegal_bid_names_its_seat(tmp_path: Path) -> None:
    game = SealedBids()
    match = Match(game, game.configure(3, "short"), LocalResolver(5))
    run(match, [RandomBot(s) for s in range(3)])
    path = tmp_path / "bids.jsonl"
    assert isinstance(match.resolver, LocalResolver)
    save(match, path, seed=5, faces=match.resolver.faces())
    saved = load(path)
    assert replay(game, saved).state == match.state
    faces = dict(saved.faces)
    faces["s1-1.0"] = 99  # seat 1's first bid opened to a card it never held
    with pytest.raises(CheatDetected) as caught:
        replay(game, saved, faces)
    assert caught.value.seat == 1
