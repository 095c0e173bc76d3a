"""What Survival of the Fittest says to its players about itself: the rules summary (F2), the
animals and obstacles (F3), what each decision is about, and how the scores were counted. Words
from the rules page, docs/rules/survival.md; no rule is decided here (the legend is render's)."""

from __future__ import annotations

from atoll import Config, Guide, ScoreSheet, State, places_by
from atoll.plugins.survival.meta import ANIMALS, COLOURS, OBSTACLES, POINTS, PREDATORS
from atoll.plugins.survival.render import legend as board_legend
from atoll.plugins.survival.render import owned_pieces
from atoll.plugins.survival.turn import ranking_key
from atoll.scoresheet import sheet

RULES = [
    "Goal: your predator hunts the others' prey while your own five prey stay alive. A prey caught "
    "scores its points for the hunter (impala 1, warthog 2, zebra 3, kudu 4, buffalo 5). When only "
    "one player has prey left, the game ends and they add their own prey's points. Most points wins.",
    "First the prey are placed one at a time on free places (place zebra d4).",
    "A turn: the two dice are rolled; give one to your predator and the other to your prey "
    "(predator 5 prey 2). The predator moves exactly its number of steps, one step at a time to a "
    "neighbouring place (predator e5); the prey share the other die, any prey any number of steps "
    "(zebra d4). A step goes to a free neighbour: no obstacle, no token (a predator may step onto "
    "another player's prey and catch it), and no place your tokens touched this turn.",
    "Doubles: both get the number, and you must lay a movable obstacle (obstacle 2 at d5 turn 1), "
    "or move one once all four lie.",
    "Out of prey, you are out, keeping your points. Equal points: who kept prey longer is ahead.",
]


def rules_summary(config: Config) -> str:
    """Enough to play a first game, on one screen."""
    return "\n\n".join(RULES)


def glossary(config: Config) -> list[tuple[str, str]]:
    """The prey and their points, the predators, the movable obstacles, and the words of a move."""
    out = [(animal, f"a prey worth {POINTS[animal]} point{'' if POINTS[animal] == 1 else 's'} to the "
                    "predator that catches it, and to its owner if it survives to the end")
           for animal in ANIMALS]
    predators = ", ".join(f"{COLOURS[s]}'s {PREDATORS[s]}" for s in range(config.seats))
    out.append(("predator", f"your hunter ({predators}; they differ only in name): moves exactly "
                            "the number of its die and catches another player's prey by stepping "
                            "onto it"))
    out.append(("prey", "prey 2: the die your five prey share; any prey, any number of steps"))
    names = {1: "that place and the one to its right", 2: "a line of three centred on it",
             3: "a triangle: it, the right one and the down-right one",
             4: "a bend: it, its right and down-left neighbours"}
    out += [(f"obstacle {n}", f"the {title}: {names[n]}; turn N turns it by N sixths of a circle "
                              f"(0-{turns - 1})")
            for n, (title, _, turns) in OBSTACLES.items()]
    out.append(("obstacle", "laid on a double (obstacle 2 at d5 turn 1), moved on a double once all "
                            "four lie; no token may enter its places"))
    out.append(("place", "place zebra d4: put one of your prey on a free place before the hunt"))
    return out


def legend(config: Config) -> list[tuple[str, str]]:
    """The board's marks (S22)."""
    return board_legend(config.seats)


def decision_prompt(state: State, seat: int) -> str | None:
    """What ``seat`` decides now, in one line."""
    phase = state["phase"]
    if phase == "place":
        count = len(state["unplaced"][seat])
        return f"place a prey on a free place ({count} left to place)"
    if phase == "assign":
        first, second = state["dice"]
        return f"split the dice {first}, {second}: one to the {PREDATORS[seat]}, one to prey"
    if phase == "move":
        due = "; lay an obstacle" if state["obstacle_due"] else ""
        return f"steps left: {PREDATORS[seat]} {state['predator_left']}, prey {state['prey_left']}{due}"
    return None


def score_sheet(state: State) -> ScoreSheet:
    """S17-S19: the prey each predator caught, the survivors' own prey, and places by points, then by
    who kept prey longer."""
    seats = state["seats"]
    parts: list[list[tuple[str, int]]] = []
    for seat in range(seats):
        caught = [(f"{COLOURS[owner]}'s {animal}", POINTS[animal]) for owner, animal in state["caught"][seat]]
        kept = ([(f"own {animal}", POINTS[animal]) for animal in state["prey"][seat]]
                if state["phase"] == "over" and state["out"][seat] is None else [])
        parts.append(caught + kept or [("nothing caught", 0)])
    standings = [("kept prey to the end" if state["out"][seat] is None
                  else f"out of prey in turn {state['out'][seat]}") for seat in range(seats)]
    places = places_by(seats, lambda seat: ranking_key(state, seat))
    return sheet(parts, places, "on equal points, whoever kept prey longer places higher; out of prey "
                 "in the same turn: shared", standings)


class SurvivalGuide(Guide):
    """Survival of the Fittest's texts for its players: the functions of this module."""

    rules_summary = staticmethod(rules_summary)
    glossary = staticmethod(glossary)
    legend = staticmethod(legend)
    decision_prompt = staticmethod(decision_prompt)
    score_sheet = staticmethod(score_sheet)
    owned_pieces = staticmethod(owned_pieces)
