"""Action cards in the family and professional variants: rules K29-K36."""

from __future__ import annotations

from typing import Any

from atoll import Knowledge, State
from tests.kiribati.scenario import act, moves, riders, roll, sea, texts, with_cards


def family(**kwargs: Any) -> State:
    """A family position in red's die step; unless told, dice 4 4, no turtle in row 4 and an empty
    supply, so that the die does nothing."""
    kwargs.setdefault("dice", (4, 4))
    kwargs.setdefault("supply", (0, 0))
    return sea(variant="family", **kwargs)


def plays(state: State, known: Knowledge) -> list[str]:
    return [t for t in texts(state, known) if t.startswith("play")]


def test_a_card_may_be_played_at_any_step_of_your_own_turn() -> None:
    """K29: while choosing the die, before the turtle action, and during the animal step."""
    state = family(turtles={"c1r1": (4, ["red kagu"]), "c1r2": (4, [])}, dice=(1, 4))
    known = with_cards(state, 0, ["feeding"])
    assert "play feeding" in texts(state, known)
    turtle = act(state, "die 1", known=known)
    assert turtle["phase"] == "turtle" and "play feeding" in texts(turtle, known)
    animals = act(state, "die 4", known=known)
    assert animals["phase"] == "animals" and "play feeding" in texts(animals, known)


def test_only_one_card_on_your_own_turn() -> None:
    """K29: after a card on your turn, no second one that turn."""
    state = family(turtles={"c1r1": (4, ["red kagu"]), "c1r2": (4, [])})
    known = with_cards(state, 0, ["feeding", "current"])
    state = act(state, "play feeding", known=known)
    assert plays(state, known) == []
    assert state["hands"][0] == ["k0.1"] and state["played"][0] == ["feeding"]


def test_a_played_card_lies_face_up() -> None:
    """K29: the card is shown and stays on its player's discard pile."""
    state = family(turtles={"c1r1": (4, ["red kagu"])})
    known = with_cards(state, 0, ["feeding"])
    after = act(state, "play feeding", known=known)
    assert after["played"] == [["feeding"], []]
    assert after["hands"][0] == []


def test_the_children_play_without_cards() -> None:
    """K29: no action cards in the children's variant."""
    state = sea(turtles={"c1r1": (4, ["red kagu"])}, dice=(4, 4))
    known = with_cards(state, 0, ["feeding"])
    assert plays(state, known) == []


def test_feeding_station_lets_one_animal_move_a_second_time() -> None:
    """K30: after the card, an animal that has moved may move once more."""
    state = family(turtles={"c1r1": (4, ["red kagu"]), "c1r2": (4, []), "c1r3": (4, [])})
    known = with_cards(state, 0, ["feeding"])
    state = act(state, "die 4", "play feeding", "kagu c1r2", known=known)
    assert moves(state, "kagu") == ["kagu c1r1", "kagu c1r3"]
    state = act(state, "kagu c1r3", known=known)
    assert riders(state, "c1r3") == ["red kagu"]
    assert state["turn"] == 1  # nothing left to do: the turn passed


def test_rest_break_keeps_an_animal_still_for_its_owners_next_turn() -> None:
    """K31: the animal may not move during its owner's next turn, and then may again."""
    state = family(turtles={"c1r1": (4, ["blue kagu"]), "c1r2": (4, []), "c2r2": (4, ["red kagu"])})
    known = with_cards(state, 0, ["rest"])
    state = act(state, "die 4", "play rest blue kagu", known=known)
    assert state["tired"] == [[1, "kagu", 1]]
    state = act(state, "done")
    blue = act(roll(state, 4, 4), "die 4")
    assert blue["turn"] == 1 and moves(blue, "kagu") == []
    red = act(roll(act(blue, "done"), 4, 4), "die 4", "done")
    blue = act(roll(red, 4, 4), "die 4")
    assert moves(blue, "kagu") == ["kagu c1r2", "kagu island"]


def test_current_carries_a_turtle_east_as_a_die_would_but_never_into_the_open_sea() -> None:
    """K32: a turtle drifts one place east and pushes the ones in front, but a current that would
    carry a turtle (itself or one it pushes) into the open sea cannot be played there."""
    state = family(turtles={"c3r1": (4, ["red kagu"]), "c4r1": (2, ["blue rabbit"]), "c1r2": (4, []),
                            "c5r2": (2, ["blue koala"])})
    known = with_cards(state, 0, ["current"])
    assert plays(state, known) == ["play current c1r2", "play current c3r1", "play current c4r1"]
    after = act(state, "play current c3r1", known=known)
    assert riders(after, "c4r1") == ["red kagu"] and riders(after, "c5r1") == ["blue rabbit"]
    assert plays(after, known) == []  # one card a turn; and c3r1 now would push c5r1 off


def test_deep_sleep_keeps_an_animal_still_for_its_owners_next_two_turns() -> None:
    """K33: the animal sleeps through two turns of its owner."""
    state = family(turtles={"c1r1": (4, ["blue kagu"]), "c1r2": (4, []), "c2r2": (4, ["red kagu"])})
    known = with_cards(state, 0, ["sleep"])
    state = act(state, "die 4", "play sleep blue kagu", known=known)
    for _ in range(2):
        state = act(state, "done")  # red's turn ends
        state = act(roll(state, 4, 4), "die 4")
        assert state["turn"] == 1 and moves(state, "kagu") == []
        state = act(roll(act(state, "done"), 4, 4), "die 4")
    state = act(state, "done")
    state = act(roll(state, 4, 4), "die 4")
    assert moves(state, "kagu") == ["kagu c1r2", "kagu island"]


def test_clamp_grip_holds_an_animal_against_shark_koala_and_dive() -> None:
    """K34: the clamped animal cannot be attacked by a shark, displaced by a koala or thrown off."""
    state = family(turtles={"c1r1": (2, ["red kagu", "blue rabbit"]), "c1r2": (4, ["blue koala"])}, turn=0)
    known = with_cards(state, 0, ["clamp"])
    state = act(state, "play clamp kagu", known=known)
    assert state["clamp"] == ["kagu", None]
    blue_known = with_cards(state, 1, ["shark"])
    state.update(turn=1, phase="animals", carded=False)  # blue's animal step
    assert "play shark red kagu" not in texts(state, blue_known)
    assert "koala c1r1 bump red kagu" not in texts(state, blue_known)
    assert "koala c1r1 bump blue rabbit" in texts(state, blue_known)
    state.update(phase="die", dice=[6, 6])
    state = act(state, "die 6", "dive c1r1", known=blue_known)
    assert state["phase"] == "throw" and texts(state) == ["throw blue rabbit"]


def test_clamp_grip_ends_when_the_animal_moves_on() -> None:
    """K34: the grip lasts until the animal leaves its turtle."""
    state = family(turtles={"c1r1": (4, ["red kagu"]), "c1r2": (4, []), "c3r3": (4, ["red lizard"])})
    known = with_cards(state, 0, ["clamp"])
    state = act(state, "die 4", "play clamp kagu", "kagu c1r2", known=known)
    assert state["clamp"] == [None, None]


def test_clamp_grip_does_not_hold_a_turtle_in_the_open_sea() -> None:
    """K34 (our decision): when its turtle drifts into the open sea, the clamped animal swims home like
    the others, as it would when the turtle finally dives."""
    state = family(turtles={"c5r1": (4, ["red kagu"])}, dice=(1, 1))
    state["clamp"] = ["kagu", None]
    after = act(state, "die 1", "turtle c5r1")
    assert "kagu" in after["island"][0] and after["clamp"] == [None, None]


def test_shark_attack_sends_an_animal_back_to_the_island() -> None:
    """K35: the animal is frightened off its turtle and swims home."""
    state = family(turtles={"c2r3": (4, ["blue rabbit", "red kagu"])})
    known = with_cards(state, 0, ["shark"])
    assert plays(state, known) == ["play shark blue rabbit"]
    after = act(state, "play shark blue rabbit", known=known)
    assert riders(after, "c2r3") == ["red kagu"]
    assert "rabbit" in after["island"][1]


def test_no_shark_attack_in_row_4() -> None:
    """K35 (our decision): the shark does not reach the mainland's shallows: no animal in row 4."""
    state = family(turtles={"c2r4": (4, ["blue lizard"]), "c2r3": (4, ["blue rabbit"])})
    known = with_cards(state, 0, ["shark"])
    assert plays(state, known) == ["play shark blue rabbit"]


def test_rest_break_rests_every_animal_of_its_owner_on_that_turtle() -> None:
    """K31 (our decision): a Rest break rests the animal and every other animal of the same player on
    its turtle, for their owner's next turn; the other players' animals there move on."""
    aboard = ["blue kagu", "blue rabbit", "red kagu"]
    state = family(turtles={"c1r1": (4, aboard), "c1r2": (4, ["blue monkey"])})
    known = with_cards(state, 0, ["rest"])
    after = act(state, "play rest blue kagu", known=known)
    assert after["tired"] == [[1, "kagu", 1], [1, "rabbit", 1]]


def test_the_owner_of_the_target_may_answer_or_pass() -> None:
    """K36: a card against blue's animal asks blue first; a pass lets it strike."""
    state = family(turtles={"c2r3": (4, ["blue rabbit", "red kagu"])})
    known = with_cards(state, 0, ["shark"])
    blue = with_cards(state, 1, ["current"])
    state = act(state, "play shark blue rabbit", known=known)
    assert state["phase"] == "answer"
    assert texts(state, blue) == ["pass"]  # blue is asked though no card of blue's answers a shark
    after = act(state, "pass")
    assert "rabbit" in after["island"][1] and after["phase"] == "die" and after["turn"] == 0


def test_clamp_grip_answers_a_shark_attack() -> None:
    """K36: blue's clamp grip saves the rabbit; the shark has no effect."""
    state = family(turtles={"c2r3": (4, ["blue rabbit", "red kagu"])})
    known = with_cards(state, 0, ["shark"])
    blue = with_cards(state, 1, ["clamp", "feeding"])
    state = act(state, "play shark blue rabbit", known=known)
    assert texts(state, blue) == ["answer clamp", "pass"]
    after = act(state, "answer clamp", known=blue)
    assert riders(after, "c2r3") == ["blue rabbit", "red kagu"]
    assert after["clamp"] == [None, "rabbit"] and after["played"] == [["shark"], ["clamp"]]
    assert after["answered"] == [1]


def test_feeding_station_answers_a_rest_break() -> None:
    """K36 with K30: food wakes the animal; the rest break has no effect."""
    state = family(turtles={"c2r3": (4, ["blue rabbit"])})
    known = with_cards(state, 0, ["rest"])
    blue = with_cards(state, 1, ["feeding", "clamp"])
    state = act(state, "play rest blue rabbit", known=known)
    assert texts(state, blue) == ["answer feeding", "pass"]
    after = act(state, "answer feeding", known=blue)
    assert after["tired"] == [] and after["played"] == [["rest"], ["feeding"]]


def test_no_answer_without_a_card_in_hand() -> None:
    """K36: an owner with no kept card left is not asked."""
    state = family(turtles={"c2r3": (4, ["blue rabbit"])})
    known = with_cards(state, 0, ["sleep"])
    after = act(state, "play sleep blue rabbit", known=known)
    assert after["phase"] == "die" and after["tired"] == [[1, "rabbit", 2]]


def test_one_answer_a_round() -> None:
    """K36: a player who answered this round is not asked again until the next round."""
    state = family(seats=3, turtles={"c2r3": (4, ["blue rabbit"])}, turn=2)
    known = with_cards(state, 2, ["shark"])
    with_cards(state, 1, ["feeding", "clamp"])
    state["answered"] = [1]
    after = act(state, "play shark blue rabbit", known=known)
    assert after["phase"] == "die" and "rabbit" in after["island"][1]


def test_answers_are_forgotten_at_the_end_of_the_round() -> None:
    """K36: the round ends after the last player's turn; then everybody may answer again."""
    state = family(seats=2, turtles={"c2r3": (4, ["blue rabbit"])}, turn=1)
    state["answered"] = [0]
    after = act(state, "die 4")
    assert after["turn"] == 0 and after["answered"] == [] and after["round"] == 2
