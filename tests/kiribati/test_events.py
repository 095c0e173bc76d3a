"""The professional board and its event cards: rules K37-K45."""

from __future__ import annotations

from collections import Counter
from typing import Any

from atoll import Pick, State
from atoll.bots.random_bot import RandomBot
from atoll.engine import LocalResolver, Match, run
from atoll.plugins.kiribati.events import full_deck
from tests.kiribati.scenario import GAME, act, at, riders, roll, sea, texts, with_cards


def pro(**kwargs: Any) -> State:
    """A professional position in red's die step (dice 4 4, no supply unless told)."""
    kwargs.setdefault("dice", (4, 4))
    kwargs.setdefault("supply", (0, 0))
    return sea(variant="professional", **kwargs)


def turn_event(state: State, name: str) -> State:
    """The state after the round's event card ``name`` is turned."""
    state = dict(state, phase="event")
    return GAME.resolve(state, Pick(tuple(state["events_left"])), {"picked": [name]})


def test_the_professional_board_has_the_net_in_four_places() -> None:
    """K37: the objects in the water stand on c3r1, c4r2, c2r3 and c3r4; only on the back side."""
    state = pro()
    assert GAME.view(state, 0, {})["net"] == ["c2r3", "c3r1", "c3r4", "c4r2"]
    assert GAME.view(sea(variant="family"), 0, {})["net"] == []
    assert "#" in "".join(text for _, text in GAME.render(GAME.view(state, 0, {})))


def test_twenty_event_cards_of_which_fifteen_are_drawn_one_a_round() -> None:
    """K38: the deck's composition; a public draw from the cards not drawn yet at each round's
    start; after fifteen rounds five cards were never seen."""
    assert Counter(full_deck()) == {
        "cloudy": 4,
        "fishing_net": 4,
        "thunderstorm": 3,
        "sunshine": 3,
        "flow": 3,
        "storm": 3,
    }
    match = Match(GAME, GAME.configure(2, "professional"), LocalResolver(5))
    run(match, [RandomBot(1), RandomBot(2)])
    draws = [
        e
        for e in match.events
        if e.get("request", {}).get("kind") == "pick" and e["outcome"]["picked"][0] in full_deck()
    ]
    assert len(draws) == 15
    assert sorted(draws[0]["request"]["options"]) == sorted(full_deck())
    assert [len(d["request"]["options"]) for d in draws] == list(range(20, 5, -1))
    assert [d["outcome"]["picked"][0] for d in draws] == match.state["events_seen"]
    assert Counter(match.state["events_seen"]) + Counter(match.state["events_left"]) == Counter(full_deck())
    assert match.view(0)["events_left"] == 5  # the five unused cards are never shown


def test_cloudy_wakes_the_koalas_and_keeps_cards_off_them_for_the_round() -> None:
    """K39: tired koalas are rested; no card may choose a koala; a clamp grip does not hold one."""
    state = pro(turtles={"c2r2": (2, ["blue koala", "red kagu"]), "c1r1": (4, ["blue rabbit"])})
    state["tired"] = [[1, "koala", 2], [1, "rabbit", 1]]
    state["clamp"] = [None, "koala"]
    state = turn_event(state, "cloudy")
    assert state["tired"] == [[1, "rabbit", 1]] and state["event"] == "cloudy"
    known = with_cards(state, 0, ["shark"])
    state = roll(state, 6, 6)
    assert "play shark blue koala" not in texts(state, known)
    assert "play shark blue rabbit" in texts(state, known)
    throw = act(state, "die 6", "dive c2r2", known=known)
    assert texts(throw) == ["throw blue koala", "throw red kagu"]


def test_cloudy_gives_no_koala_a_second_move_from_a_feeding_station() -> None:
    """K39: the cards have no effect on koalas in a Cloudy round, Feeding station included."""
    turtles = {"c1r1": (4, ["red koala", "red kagu"]), "c1r2": (4, []), "c1r3": (4, [])}
    state = turn_event(pro(turtles=turtles), "cloudy")
    known = with_cards(state, 0, ["feeding"])
    state = act(roll(state, 4, 4), "die 4", "koala c1r2", "kagu c1r2", "play feeding", known=known)
    assert [t for t in texts(state, known) if t.startswith("koala")] == []
    assert "kagu c1r3" in texts(state, known)
    calm = pro(turtles=turtles)  # no event yet
    with_cards(calm, 0, ["feeding"])
    calm = act(calm, "die 4", "koala c1r2", "play feeding", known=known)
    assert "koala c1r3" in texts(calm, known)


def test_cloudy_keeps_a_current_off_every_turtle_carrying_a_koala() -> None:
    """K39 (our decision): a Current may not carry a koala in a Cloudy round, on the turtle it is
    played on nor on one that turtle would push."""
    turtles = {"c1r1": (4, ["blue koala"]), "c3r2": (4, ["red kagu"]), "c4r2": (2, ["blue koala"]),
               "c1r3": (4, [])}
    state = turn_event(pro(turtles=turtles), "cloudy")
    known = with_cards(state, 0, ["current"])
    plays = [t for t in texts(roll(state, 4, 4), known) if t.startswith("play")]
    assert plays == ["play current c1r3"]
    calm = pro(turtles=turtles)  # no event yet
    with_cards(calm, 0, ["current"])
    assert len([t for t in texts(calm, known) if t.startswith("play")]) == 4


def test_cloudy_ends_with_the_round() -> None:
    """K39: Cloudy lasts one round."""
    state = turn_event(pro(turtles={"c2r2": (2, ["blue koala"])}, turn=1), "cloudy")
    state = dict(state, phase="die", turn=1, dice=[4, 4])
    state = act(state, "die 4")
    assert state["event"] is None and state["phase"] == "event"


def test_the_fishing_net_stops_turtles_onto_and_off_its_places() -> None:
    """K40: no turtle moves onto or off a net place, nor pushes another across one."""
    # c3r1 stands on the net; c3r2 would drift onto c4r2's net, and c2r2 would push it there
    turtles = {"c3r1": (4, []), "c2r2": (4, []), "c3r2": (2, []), "c1r4": (4, []), "c5r3": (1, [])}
    state = turn_event(pro(turtles=turtles, supply=(0, 0)), "fishing_net")
    state = roll(state, 5, 5)
    assert texts(act(state, "die 5")) == ["pass", "turtle c1r4", "turtle c5r3"]
    calm = roll(turn_event(pro(turtles=turtles, supply=(0, 0)), "storm"), 5, 5)
    assert "turtle c3r1" in texts(act(calm, "die 5"))


def test_the_fishing_net_stops_a_current_too() -> None:
    """K40 with K32: a current does not carry a turtle onto a net place."""
    state = turn_event(
        pro(turtles={"c2r1": (4, ["red kagu"]), "c1r3": (4, []), "c1r4": (4, [])}), "fishing_net"
    )
    known = with_cards(state, 0, ["current"])
    state = roll(state, 4, 4)
    assert [t for t in texts(state, known) if t.startswith("play")] == ["play current c1r4"]


def test_thunderstorm_swaps_each_players_rabbit_and_monkey() -> None:
    """K41: a rabbit on a turtle and a monkey on the island swap; clamped or rescued pairs stay."""
    state = pro(
        turtles={"c2r2": (4, ["red rabbit", "blue monkey"]), "c3r3": (4, ["blue rabbit"]), "c1r1": (4, [])},
        mainland=["green monkey"],
        seats=3,
    )
    state = turn_event(state, "thunderstorm")
    assert riders(state, "c2r2") == ["red monkey", "blue rabbit"]  # red's pair, then blue's
    assert riders(state, "c3r3") == ["blue monkey"]
    assert state["island"][0] == ["lizard", "kagu", "rabbit", "koala"]
    assert state["mainland"][2] == ["monkey"] and "rabbit" in state["island"][2]


def test_thunderstorm_does_not_move_a_clamped_animal() -> None:
    """K41 with K34: a pair with a clamp grip stays put."""
    state = pro(turtles={"c2r2": (4, ["red rabbit"])})
    state["clamp"] = ["rabbit", None]
    state = turn_event(state, "thunderstorm")
    assert riders(state, "c2r2") == ["red rabbit"]


def test_sunshine_walks_every_lizard_one_turtle_north() -> None:
    """K42: lizards walk north onto a turtle with room; one arriving in row 4 goes on to the mainland."""
    state = pro(
        turtles={
            "c1r1": (4, ["red lizard"]),
            "c1r2": (4, []),
            "c2r3": (4, ["blue lizard"]),
            "c2r4": (1, []),
        },
    )
    state = turn_event(state, "sunshine")
    assert riders(state, "c1r1") == [] and riders(state, "c1r2") == ["red lizard"]
    assert state["mainland"][1] == ["lizard"]  # from row 3 through row 4 to the mainland
    assert riders(state, "c2r3") == [] and riders(state, "c2r4") == []
    assert state["mainland"][0] == []


def test_sunshine_rescues_a_lizard_from_row_4() -> None:
    """K42: a lizard in row 4 goes on to the mainland."""
    state = turn_event(pro(turtles={"c5r4": (1, ["red lizard"])}), "sunshine")
    assert state["mainland"][0] == ["lizard"] and riders(state, "c5r4") == []


def test_sunshine_needs_room_on_the_turtle_ahead() -> None:
    """K42: a full turtle ahead, or open water, keeps the lizard where it is."""
    state = pro(
        turtles={"c1r1": (4, ["red lizard"]), "c1r2": (1, ["blue kagu"]), "c3r1": (4, ["blue lizard"])}
    )
    after = turn_event(state, "sunshine")
    assert riders(after, "c1r1") == ["red lizard"] and riders(after, "c3r1") == ["blue lizard"]


def test_flow_moves_each_rows_easternmost_turtle_one_place_west() -> None:
    """K43: the easternmost turtle moves west if the place is free; column 1 stays; no pushing."""
    state = pro(
        turtles={
            "c2r1": (4, []),
            "c5r1": (2, ["red kagu"]),
            "c1r2": (4, []),
            "c3r3": (3, []),
            "c4r3": (1, []),
        }
    )
    after = turn_event(state, "flow")
    assert riders(after, "c4r1") == ["red kagu"] and at(after, "c5r1") is None
    assert at(after, "c1r2")["size"] == 4
    assert at(after, "c4r3")["size"] == 1 and at(after, "c3r3")["size"] == 3


def test_storm_blows_every_kagu_back_to_the_island() -> None:
    """K44: every kagu on a turtle goes home, except one holding a clamp grip."""
    state = pro(turtles={"c2r2": (4, ["red kagu", "blue rabbit"]), "c3r4": (2, ["blue kagu"])})
    state["clamp"] = [None, "kagu"]
    after = turn_event(state, "storm")
    assert riders(after, "c2r2") == ["blue rabbit"] and "kagu" in after["island"][0]
    assert riders(after, "c3r4") == ["blue kagu"]


def test_an_event_can_turn_out_to_do_nothing() -> None:
    """K45: a Storm with no kagu afloat, and Sunshine with no lizards (four or five players) and
    Thunderstorm with no rabbits (five players), whose cards stay in the deck, change nothing."""
    state = pro(turtles={"c2r2": (4, ["red rabbit"])})
    after = turn_event(state, "storm")
    assert after["board"] == state["board"] and after["island"] == state["island"]
    assert after["events_seen"] == ["storm"] and len(after["events_left"]) == 19
    five = sea(variant="professional", seats=5, turtles={"c2r2": (4, ["red monkey"])}, supply=(0, 0))
    assert sorted(five["events_left"]) == sorted(full_deck())
    for name in ("sunshine", "thunderstorm"):
        after = turn_event(five, name)
        assert after["board"] == five["board"] and after["island"] == five["island"]
