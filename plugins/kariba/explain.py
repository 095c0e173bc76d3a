"""What Kariba says to its players about itself: the rules summary (F2), the animals (F3), the
board's marks (F4), what each decision is about, and how the scores were counted. Words from the
rules page, docs/rules/kariba.md; no rule is decided here."""

from __future__ import annotations

from atoll import Config, Guide, ScoreSheet, State, places_by
from atoll.plugins.kariba import rules
from atoll.plugins.kariba.texts import name
from atoll.scoresheet import sheet

RULES = [
    "Goal: win the most cards. The animals come to drink at the waterhole; a crowd of one animal "
    "chases the next weaker animal away, and whoever caused the chase wins the cards chased.",
    "Your turn: play one or more cards of one animal from your hand of five (play 2 giraffe); they "
    "go to that animal's place at the waterhole. If the place now holds 3 or more cards, your "
    "animal chases the closest weaker animal there (the highest number below it with cards; empty "
    "places are skipped) and you win all of its cards. Your own cards stay. Joining a crowd of 3 "
    "or more chases again.",
    "Only the mouse (1) frightens the elephant (8), and chases nothing else. Then you draw back up to "
    "five cards. Once the pile is empty nobody draws; the game ends when "
    "a player has played the last card of their hand. Most cards won wins; equal players share.",
]
EXPERIENCED = ("Experienced: three cards lie face up beside the pile. Draw one card at a time, the "
               "pile's top card (draw pile) or a face-up one (take zebra), until you hold five.")


def rules_summary(config: Config) -> str:
    """Enough to play a first game of the variant, on one screen."""
    return "\n\n".join([*RULES, *([EXPERIENCED] if config.variant == "experienced" else [])])


def glossary(config: Config) -> list[tuple[str, str]]:
    """The eight animals, weakest first, and what a crowd of each chases; the words of a turn."""
    out = [(name(rules.MOUSE), f"1, the weakest; eight cards. A crowd of mice chases only the "
                               f"{name(rules.ELEPHANT)}.")]
    for animal in rules.ANIMALS[1:]:
        weaker = "any weaker animal, the strongest there first"
        if animal == rules.ELEPHANT:
            weaker += " (but the mice chase elephants)"
        out.append((name(animal), f"{animal}; eight cards. A crowd chases {weaker}."))
    out.append(("play", "play 2 giraffe: put two giraffes from your hand at the waterhole"))
    if config.variant == "experienced":
        out.append(("draw", "draw pile: take the top card of the draw pile"))
        out.append(("take", "take zebra: take the face-up zebra beside the pile"))
    return out


def legend(config: Config) -> list[tuple[str, str]]:
    """What the board shows."""
    out = [
        ("1 mouse .. 8 elephant", "the waterhole's eight places, weakest first"),
        ("#", "one card at that place; the number after the bars counts them"),
        ("Draw pile", "the cards left to draw"),
        ("player 1: 5 in hand", "each player's cards in hand and cards won (the score)"),
        ("<- to play", "whose turn it is"),
        ("Your hand", "your cards, which only you see"),
    ]
    if config.variant == "experienced":
        out.insert(3, ("Face-up", "the face-up cards beside the pile, anyone may take one"))
        out.insert(5, ("holds face-up", "face-up cards a player took and still holds: everyone saw them"))
    return out


def decision_prompt(state: State, seat: int) -> str | None:
    """What ``seat`` decides now, in one line."""
    if state["phase"] == "play":
        return "play cards of one animal; 3+ there chase the next weaker"
    if state["phase"] == "draw":
        return "draw to five: the pile (draw pile) or a face-up card"
    return None


def score_sheet(state: State) -> ScoreSheet:
    """K14: one point a card won; the most cards win, equal players share."""
    won = state["won"]
    parts = [[("cards won", int(count))] for count in won]
    return sheet(parts, places_by(state["seats"], lambda seat: won[seat]),
                 "equal cards won share the place (the win too)")


class KaribaGuide(Guide):
    """Kariba's texts for its players: the functions of this module."""

    rules_summary = staticmethod(rules_summary)
    glossary = staticmethod(glossary)
    legend = staticmethod(legend)
    decision_prompt = staticmethod(decision_prompt)
    score_sheet = staticmethod(score_sheet)
