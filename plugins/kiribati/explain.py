"""What Kiribati says to its players about itself: the rules summary (F2), the cards, animals and
events (F3), the board's symbols (F4), what each decision is about, and how the scores were counted.
Words from the rules page, docs/rules/kiribati.md; no rule is decided here."""

from __future__ import annotations

from atoll import Action, Config, Guide, ScoreSheet, State, places_by
from atoll.plugins.kiribati.board import ROWS
from atoll.plugins.kiribati.events import TITLES as EVENT_TITLES
from atoll.plugins.kiribati.meta import (
    ANIMAL_POINTS,
    CARD_POINTS,
    CARD_TITLES,
    CHILDREN,
    COLOURS,
    FAMILY,
    PROFESSIONAL,
    animals_in_play,
)
from atoll.plugins.kiribati.render import owned_pieces
from atoll.plugins.kiribati.scoring import steps_to_go, victory_points
from atoll.scoresheet import sheet

GOAL = "Goal: bring your animals ({animals}) from the ISLAND over the turtles to the MAINLAND. {end}"
TURN = ("Your turn: use one of the two dice rolled (die 4). 1-4: a turtle of that row drifts east, "
        "pushing the one in front (turtle c2r3), or a new turtle from the supply enters the row's "
        "first place (new 3 row 1). 5: any row, or pass. 6: a turtle dives (a place less; a "
        "1-turtle goes under) or floats up, or pass. Off the east edge or under: animals swim home.")
MOVES = ("Then move each animal once, a step N, E, S or W onto a turtle with room (kagu c2r1), then done. "
         "One animal a turn may come from the island onto row 1, first; from row 4 an animal steps "
         "ashore (rabbit mainland). F3: the animals' gifts.")
CARDS = ("Cards: first everyone secretly keeps 4 of the 6 action cards; after your roll you may play one "
         "(play feeding). A card played against your animal may be answered once a round (F3).")
PRO = ("15 rounds, each opens with an event (F3). The game ends after round 15 or the round someone "
       "rescued all. Points a rescued lizard 9, kagu 8, koala 7, monkey 6, rabbit 5; an unplayed card 1-2.")

ANIMAL_GIFTS = {
    "monkey": "M. May also jump straight over one turtle onto the turtle behind it (never over open "
              "water, from the island or onto the mainland).",
    "lizard": "L. No gift; worth the most: 9 points in the professional game.",
    "kagu": "K. May stand on a 3-turtle's flooded place, so a 3-turtle carries four if one is a kagu "
            "(not when coming from the island).",
    "rabbit": "R. May also step diagonally.",
    "koala": "O. May move onto a full turtle by bumping an animal there back to the island (koala "
             "c2r1 bump red rabbit); never a koala, nor an animal holding a clamp grip.",
}
CARD_TEXTS = {
    "feeding": "Feeding station, 1 point. One of your animals may move a second time this turn. As an "
               "answer: wakes the animal a Rest break or Deep sleep was played against.",
    "rest": "Rest break, 1 point. Against another player's animal on a turtle: it and that player's "
            "other animals on the same turtle may not move in their owner's next turn.",
    "current": "Current, 1 point. Carries any turtle one place east, pushing as a die would, but never "
               "into the open sea (play current c3r2).",
    "sleep": "Deep sleep, 2 points. Like a Rest break for one animal, for its owner's next two turns.",
    "clamp": "Clamp grip, 2 points. One of your animals on a turtle clings on: nothing throws it off "
             "(dive, koala, shark, storm) until its turtle goes under. As an answer: saves the animal "
             "a Shark attack was played against.",
    "shark": "Shark attack, 2 points. Another player's animal on a turtle of rows 1-3, without a clamp "
             "grip, swims back to the island.",
}
EVENT_TEXTS = {
    "cloudy": "the whole round: resting koalas may move again, and no card has any effect on a koala.",
    "fishing_net": "the whole round: no turtle may move onto or off a net place (#).",
    "thunderstorm": "each player's rabbit and monkey swap places (not ashore, clamped or together).",
    "sunshine": "every lizard on a turtle walks one row north if there is room; from row 4 ashore.",
    "flow": "in each row the easternmost turtle drifts one place west if that place is free.",
    "storm": "every kagu on a turtle is blown back to the island (not one holding a clamp grip).",
}
TURTLE_WORDS = [
    ("turtle", "a turtle tile: large tiles show 4 places on one side and 3 on the other, small tiles 2 "
               "and 1. turtle c2r3 lets the turtle at c2r3 drift one place east."),
    ("new", "new 3 row 1: put a turtle of 3 places from the supply at the row's first place (c1)."),
    ("dive", "a turtle turns to its smaller side (4 to 3, 3 to a small 2, 2 to 1); a 1-turtle goes "
             "under. Animals that no longer fit are thrown off to the island."),
    ("float", "a turtle turns to its larger side (1 to 2, 2 to a large 3, 3 to 4)."),
    ("throw", "an over-full diving turtle: choose which animal swims back to the island."),
    ("done", "end your turn (your animals that have not moved stay where they are)."),
]


def rules_summary(config: Config) -> str:
    """Enough to play a first game of ``config``'s variant, on one screen."""
    animals = ", ".join(animals_in_play(config.seats, config.variant, config.options))
    end = "" if config.variant == PROFESSIONAL else "The first to rescue every animal wins at once."
    paragraphs = [GOAL.format(animals=animals, end=end).strip(), TURN, MOVES]
    if config.variant == FAMILY:
        paragraphs.append(CARDS)
    if config.variant == PROFESSIONAL:
        paragraphs.append(f"{CARDS} {PRO}")
    return "\n\n".join(paragraphs)


def glossary(config: Config) -> list[tuple[str, str]]:
    """The animals of this game, the action cards and the events of the variant, the turtle actions."""
    animals = animals_in_play(config.seats, config.variant, config.options)
    out = [(kind, ANIMAL_GIFTS[kind]) for kind in animals]
    if config.variant != CHILDREN:
        out += list(CARD_TEXTS.items())
    if config.variant == PROFESSIONAL:
        out += [(EVENT_TITLES[event].lower(), f"Event: {text}") for event, text in EVENT_TEXTS.items()]
    return out + TURTLE_WORDS


def legend(config: Config) -> list[tuple[str, str]]:
    """What the board's marks mean."""
    owners = ", ".join(f"{seat + 1} {name}" for seat, name in enumerate(COLOURS[: config.seats]))
    out = [
        ("c1 .. r4", "columns from west to east, rows from the island (r1) to the mainland (r4); a "
                     "place is named c3r2"),
        ("( )", "a turtle; each two characters inside are one place on its back"),
        ("R1", f"an animal and its owner's seat number: R1 is red's rabbit ({owners})"),
        ("M L K R O", "monkey, lizard, kagu, rabbit, koala"),
        ("__", "a free place"),
        ("~~", "a flooded place (a 3-turtle's fourth, a 1-turtle's second): only a kagu may stand "
               "there; underlined, a kagu stands on it"),
        ("·", "open water: no turtle"),
        ("|", "a diving turtle: the animals after the bar must be thrown off"),
        ("red:MK", "on the MAINLAND or ISLAND line: the animals of that colour there"),
        ("supply", "the turtle tiles not on the board"),
        ("may not move", "resting or sleeping animals, with the turns they still wait; clamped ones"),
    ]
    if config.variant == PROFESSIONAL:
        out.insert(7, ("#", "a place with the fishing net: it matters in a Fishing net round"))
    return out


def decision_prompt(state: State, seat: int) -> str | None:
    """What ``seat`` decides now, in one line."""
    phase = state["phase"]
    if phase == "keep":
        return "keep 4 of your 6 action cards; F3 or cards explains"
    if phase == "die":
        first, second = state["dice"]
        return f"die {first} or {second}? 1-4: that row, 5: any row, 6: dive or float"
    if phase == "turtle":
        return _turtle_prompt(int(state["die"]))
    if phase == "throw":
        return f"{state['throw']['at']} dives: throw an animal off (to the island)"
    if phase == "animals":
        extra = " (one twice)" if state["extra"] else ""
        return f"move animals, each once{extra}, then done"
    if phase == "answer":
        pending = state["pending"]
        card = pending["card"]
        answer = "clamp" if card == "shark" else "feeding"
        kind = pending["target"][1]
        return f"{COLOURS[pending['by']]}'s {card} on your {kind}: answer {answer} or pass"
    return None


def action_help(state: State, action: Action) -> str | None:
    """For a set of cards to keep, the four cards' full names; else the glossary speaks."""
    if "secret" in action:
        return ", ".join(CARD_TITLES[card] for card in action["secret"])
    return None


def _turtle_prompt(die: int) -> str:
    if die <= ROWS:
        return f"die {die}: a row-{die} turtle drifts east, or new one at c1r{die}"
    if die == ROWS + 1:
        return "die 5: any row's turtle drifts east, a new one, or pass"
    return "die 6: a turtle dives or floats up, or pass"


def score_sheet(state: State) -> ScoreSheet:
    """K28 (children, family): animals rescued, the first to rescue all wins; the others placed by
    animals rescued, then steps to go (our decision). K47-K48 (professional): points, then tie-breaks."""
    seats = range(state["seats"])
    finished = state["finished"]

    def standing(seat: int) -> str:
        if seat in finished:
            return f"rescued every animal, {_nth(finished.index(seat))}"
        steps = steps_to_go(state, seat)
        return f"{steps} step{'' if steps == 1 else 's'} to go"

    def rank(seat: int) -> tuple[int, int, int]:
        if seat in finished:
            return 1, -finished.index(seat), 0
        return 0, 0, -steps_to_go(state, seat)

    standings = [standing(s) for s in seats]
    if state["variant"] != PROFESSIONAL:
        parts = [[(f"animals rescued ({', '.join(state['mainland'][s]) or 'none'})",
                   len(state["mainland"][s]))] for s in seats]
        places = places_by(state["seats"], lambda s: (*rank(s)[:2], len(state["mainland"][s]), rank(s)[2]))
        return sheet(parts, places, "the first to rescue every animal wins; the others are placed by "
                     "animals rescued, then by the fewest steps still to go", standings)
    parts = [_points(state, s) for s in seats]
    places = places_by(state["seats"], lambda s: (victory_points(state, s), *rank(s)))
    return sheet(parts, places, "on equal points, whoever rescued every animal (the first to do so), "
                 "else the fewest steps still to go (5 - row for each animal; 5 from the island); "
                 "still equal: shared", standings)


def _points(state: State, seat: int) -> list[tuple[str, int]]:
    parts = [(f"{kind} rescued", ANIMAL_POINTS[kind]) for kind in state["mainland"][seat]]
    opened = state["opened"]
    parts += [(f"{CARD_TITLES[opened[h]]} kept", CARD_POINTS[opened[h]])
              for h in state["hands"][seat] if h in opened]
    return parts or [("nothing rescued", 0)]


def _nth(index: int) -> str:
    return ("first", "second", "third", "fourth", "fifth")[index]


class KiribatiGuide(Guide):
    """Kiribati's texts for its players: the functions of this module."""

    rules_summary = staticmethod(rules_summary)
    glossary = staticmethod(glossary)
    legend = staticmethod(legend)
    decision_prompt = staticmethod(decision_prompt)
    action_help = staticmethod(action_help)
    score_sheet = staticmethod(score_sheet)
    owned_pieces = staticmethod(owned_pieces)
