"""What chance did, in the game's own words in the log (the client's generic words otherwise)."""

from __future__ import annotations

from atoll import Pick, Reveal, Roll
from atoll.plugins.kiribati.turn import next_step
from tests.kiribati.scenario import GAME, sea


def test_a_roll_names_the_player_and_both_dice() -> None:
    state = sea(turn=1)
    state["phase"] = "roll"
    assert GAME.describe_chance(state, Roll(2, 6), {"values": [3, 5]}) == "blue rolls 3 and 5"


def test_each_random_starting_turtle_is_named_with_its_row_and_places() -> None:
    """K4: rows 3 and 4 get a random turtle each."""
    state = GAME.setup(GAME.configure(2, "family"))
    request = next_step(state).request  # type: ignore[union-attr]
    assert isinstance(request, Pick)
    assert GAME.describe_chance(state, request, {"picked": [1]}) == "row 3 starts with a turtle of 1 place"
    state = GAME.resolve(state, request, {"picked": [4]})
    assert GAME.describe_chance(state, request, {"picked": [3]}) == "row 4 starts with a turtle of 3 places"


def test_the_event_of_the_round_is_named_by_its_title() -> None:
    state = sea(variant="professional")
    state.update(phase="event", round=4)
    words = GAME.describe_chance(state, Pick(("storm", "flow")), {"picked": ["storm"]})
    assert words == "round 4: the event is Storm"


def test_the_cards_opened_at_the_end_are_named_by_player() -> None:
    state = sea(variant="family")
    state.update(phase="reveal", hands=[["k0.0", "k0.1"], ["k1.0"]])
    faces = {"k0.0": "feeding", "k0.1": "clamp", "k1.0": "shark"}
    assert GAME.describe_chance(state, Reveal(tuple(faces)), {"faces": faces}) == (
        "cards never played: red Feeding station, Clamp grip; blue Shark attack"
    )
