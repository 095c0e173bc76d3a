"""Chance requests and boundary values: JSON round trips and refusal of impossible ones."""

from __future__ import annotations

import pytest

from atoll.chance import Deal, Pick, Reveal, Roll, Shuffle, request_from_json
from atoll.errors import IllegalAction, MalformedInput
from atoll.game import Game
from atoll.jsondata import clone, roundtrip, same
from atoll.types import Config, GameInfo, Results

REQUESTS = [
    Roll(2, 6),
    Pick(("storm", "flow", "storm"), 2),
    Shuffle("deck", (1, 2, 3)),
    Deal(((0, ("deck.0",)), (1, ("deck.1", "deck.2")))),
    Reveal(("deck.0", "s1-0.0")),
]


@pytest.mark.parametrize("request_", REQUESTS, ids=lambda r: r.kind.value)
def test_a_request_survives_json(request_: object) -> None:
    data = roundtrip(request_.to_json())  # type: ignore[attr-defined]
    assert request_from_json(data) == request_


@pytest.mark.parametrize(
    "data", [{"kind": "roll"}, {"kind": "teleport"}, None, {"kind": "deal", "to": 3}]
)
def test_a_malformed_request_is_refused(data: object) -> None:
    with pytest.raises(MalformedInput):
        request_from_json(data)


def test_impossible_requests_cannot_be_made() -> None:
    with pytest.raises(ValueError):
        Roll(0, 6)
    with pytest.raises(ValueError):
        Pick(("a",), 2)
    with pytest.raises(ValueError):
        Shuffle("my.deck", (1,))
    with pytest.raises(ValueError):
        Deal(((0, ()),))


def test_shuffled_cards_are_named_by_pile_and_position() -> None:
    assert Shuffle("tiles", ("a", "b")).handles() == ["tiles.0", "tiles.1"]


def test_a_config_survives_json() -> None:
    config = Config(3, "family", {"animals": ["kagu"]})
    assert Config.from_json(roundtrip(config.to_json())) == config


def test_results_survive_json() -> None:
    results = Results((3, 5), (1,))
    assert Results.from_json(roundtrip(results.to_json())) == results


def test_a_game_name_must_be_a_lower_case_identifier() -> None:
    with pytest.raises(ValueError, match="lower-case identifier"):
        GameInfo("High Card", "High Card", 2, 4)


def test_the_default_variant_is_the_first() -> None:
    assert GameInfo("x", "X", 2, 4, ("a", "b")).default_variant == "a"


def test_configure_refuses_a_seat_count_out_of_range(highcard: Game) -> None:
    with pytest.raises(IllegalAction, match="takes 2-4 seats, not 5"):
        highcard.configure(5)


def test_configure_refuses_an_unknown_variant(highcard: Game) -> None:
    with pytest.raises(IllegalAction, match="choose one of standard, quick"):
        highcard.configure(2, "turbo")


def test_clone_is_deep() -> None:
    original = {"a": [1, {"b": [2]}]}
    copy = clone(original)
    copy["a"][1]["b"].append(3)
    assert original == {"a": [1, {"b": [2]}]}


def test_same_json_tells_types_apart_as_a_peer_would() -> None:
    assert same({"do": "die", "value": 1}, {"value": 1, "do": "die"})
    assert not same({"do": "die", "value": True}, {"do": "die", "value": 1})
    assert not same([1.0], [1])
    assert not same({"a": [1, 2]}, {"a": [1, 2, 3]})
    assert not same({"a": 1}, {"a": 1, "b": None})
