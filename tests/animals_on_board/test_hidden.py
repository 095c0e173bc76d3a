"""What is hidden: arks, the kept tile and the face-down tile (rules A20, A21)."""

from __future__ import annotations

from atoll import Deal
from atoll.bots.random_bot import RandomBot
from atoll.engine import LocalResolver, Match, run
from atoll.plugins.animals_on_board.meta import HIDDEN
from tests.animals_on_board.scenario import GAME, play, seat_to_move, settle, start, table
from tests.fair.helpers import played_through

HANDS = [["lion1", "lion2", "lion3"], ["fox1", "fox2", "fox3"]]


def test_a20_the_others_see_an_arks_size_and_crates_but_not_its_tiles() -> None:
    """A20: seat 0 sees its own ark; seat 1 and a spectator see only how many tiles it holds."""
    state, known = table(seats=2, groups=[["zebra1", "zebra2"]], arks=[["lion1", "fox2"], ["tiger3"]],
                         crates=[2, 3])
    mine = GAME.view(state, 0, known[0])
    theirs = GAME.view(state, 1, known[1])
    assert mine["ark"] == ["fox2", "lion1"] and theirs["ark"] == ["tiger3"]
    assert theirs["ark_sizes"] == [2, 1] and theirs["crates"] == [2, 3]
    assert "lion1" not in str(theirs) and "lion1" not in str(GAME.view(state, None, {}))


def test_a20_a_group_taken_face_up_is_named_in_the_log_but_not_on_the_board() -> None:
    """A20: everybody saw the tiles go, so the log names them; the board shows the taker's count only."""
    state, _ = table(seats=2, groups=[["zebra1", "zebra2"], ["fox1"]], crates=[2, 1])
    line = GAME.describe_log(state, 0, {"take": 1})
    assert line.startswith("player 1 takes zebra1 zebra2 for 2 crates")
    after = GAME.apply(state, {"take": 1})
    assert "zebra1" not in str(GAME.view(after, 1, {})) and GAME.view(after, 1, {})["ark_sizes"] == [2, 0]


def test_a21_every_hidden_tile_goes_through_shuffle_deal_and_reveal() -> None:
    """A21: a whole game's chance is a shuffle, deals to single seats and public reveals, and the
    kept tiles are sealed choices; the public state never holds a face that was not revealed."""
    match = Match(GAME, GAME.configure(3), LocalResolver(11))
    run(match, [RandomBot(seat) for seat in range(3)])
    kinds = [e["request"]["kind"] for e in match.events if "request" in e]
    assert kinds.count("shuffle") == 1 and {"deal", "reveal", "pick"} >= set(kinds) - {"shuffle"}
    assert sum(1 for e in match.events if "sealed" in e) == 3
    revealed: set[str] = set()
    for event in match.events:
        if "request" in event and event["request"]["kind"] == "reveal":
            revealed.update(h for h in event["outcome"]["faces"] if h.startswith("tiles."))
    assert set(match.state["public"]) <= revealed


def test_a21_nobody_knows_the_face_down_tile_until_it_is_taken() -> None:
    """A21: no seat knows the face-down tile in the centre; after the take, only the taker does."""
    match = start(HANDS, then=["tiger1", "tiger2", "tiger3", "tiger4", "panda5"], keep=["lion1", "fox1"])
    hidden = match.state["hidden"]
    assert all(hidden not in known for known in match.known)
    play(match, f"split 1: {HIDDEN}")
    seat = seat_to_move(match)
    step = GAME.next(GAME.apply(match.state, match.parse(seat, "take 2")))
    assert step.request == Deal(((seat, (hidden,)),))  # type: ignore[union-attr]
    match.act(seat, match.parse(seat, "take 2"))
    settle(match)
    assert hidden in match.known[seat] and hidden not in match.known[1 - seat]


def test_a21_the_kept_tiles_are_opened_as_handles_never_as_faces_before_departure() -> None:
    """A21: opening the sealed choices tells which tile went onto each ark, not what it is."""
    match = start(HANDS)
    for seat in range(2):
        match.act(seat, match.legal_actions(seat)[0])
        settle(match)
    opened = next(e for e in match.events if e.get("request", {}).get("handles") == ["s0-0.0", "s1-1.0"])
    kept = sorted(opened["outcome"]["faces"].values())
    assert kept == sorted(match.state["arks"][0] + match.state["arks"][1])
    assert all(h not in match.state["public"] for ark in match.state["arks"] for h in ark)


def test_a21_a_whole_game_runs_on_the_mental_deck_and_re_checks() -> None:
    """A21: at a fair table every tile goes through the mental deck (the 50 tiles of three seats
    shuffled by every seat, dealt and revealed by their keys; each seat's kept tile and its face
    sealed, two seals a seat), the game plays to its end, and its record re-checks in full."""
    _, record = played_through("animals_on_board", [RandomBot(seat) for seat in range(3)])
    assert (record.seats, record.deck.card_count(), len(record.sealed_values())) == (3, 50, 6)


def test_a19_tiles_beyond_ten_lie_face_up_for_everybody_to_see() -> None:
    """A19: "place any tiles in excess of this number face up on the table in front of you": seat 0
    takes four tiles onto an ark of eight; two of the zebras lie face up, seen by seat 1 and a
    spectator on the board, while the face-down tile stays hidden on the ark (our decision)."""
    eight = ["lion1", "lion2", "fox1", "fox2", "fox3", "tiger1", "tiger2", "panda1"]
    state, known = table(seats=2, groups=[["zebra1", "zebra2", "zebra3", HIDDEN], ["elephant1"]],
                         arks=[eight], crates=[5, 1])
    after = GAME.apply(state, {"take": 1})
    for seat, knows in ((1, known[1]), (None, {})):
        seen = GAME.view(after, seat, knows)
        assert seen["ark_sizes"][0] == 12
        assert len(seen["face_up"][0]) == 2 and set(seen["face_up"][0]) < {"zebra1", "zebra2", "zebra3"}
        assert seen["face_up"][1] == [] and "lion1" not in str(seen)
        board = "".join(text for _, text in GAME.render(seen))
        assert "face up: " + " ".join(seen["face_up"][0]) in board
