"""What Animals on Board says to its players about itself: the rules summary (F2), the species and
tiles (F3), the board's marks (F4), what each decision is about, and how the scores were counted.
Words from the rules page, docs/rules/animals-on-board.md; no rule is decided here."""

from __future__ import annotations

from collections import Counter

from atoll import Config, Guide, ScoreSheet, State, places_by
from atoll.plugins.animals_on_board.meta import FACE_UP, FULL, HERD_POINTS, MOST_CRATES, SPECIES, species_of
from atoll.plugins.animals_on_board.scoring import species_on_board
from atoll.scoresheet import sheet


def rules_summary(config: Config) -> str:
    """Enough to play a first game, on one screen."""
    return "\n\n".join([
        "Goal: the most points when the arks depart. Each species comes as five tiles numbered 1 to "
        "5. On your ark, a species held once scores its number, three or more (a herd) score 5 each, "
        "and a species held exactly twice is lost (Noah claims every pair). Each crate left scores 1.",
        "Set-up: you draw three tiles, keep one face down on your ark (keep lion3, a secret choice) "
        "and the other two go to the centre.",
        f"A round: the centre is filled up to {FACE_UP[config.seats]} face-up tiles and one "
        "face-down tile, in one group. On your turn do one thing: split a group of two or more "
        "tiles into two groups (split 1: lion3 zebra1) and take a food crate, at most "
        f"{MOST_CRATES}; or take a whole group onto your ark (take 2), paying one crate for each "
        "tile, and sit out the rest of the round. The first to take a group starts the next round. "
        "When only one player is left, they have one last turn.",
        f"The end: after a round in which an ark reached {FULL} tiles, the arks depart: pairs are "
        f"lost, an ark over {FULL} is cut to {FULL} by its owner, and the points are counted. Equal "
        "points: more different species on the ark wins; then the win is shared.",
    ])


def glossary(config: Config) -> list[tuple[str, str]]:
    """The tiles, the crates, and the words of a turn."""
    return [
        ("tiles", f"{len(SPECIES)} species ({', '.join(SPECIES)}) of five tiles each, numbered 1 to "
                  "5; with fewer than four players some species are left out (shown on the board)"),
        ("single", "the only tile of its species on an ark: scores its number"),
        ("herd", f"three or more tiles of a species on an ark: each scores {HERD_POINTS}"),
        ("pair", "exactly two tiles of a species on an ark: both are lost at departure"),
        ("hidden", "the face-down tile in the centre: whoever takes its group looks at it"),
        ("crate", f"a food crate: earned by a split (at most {MOST_CRATES}), paid one per tile "
                  "to take a group, 1 point each at the end"),
        ("keep", "keep lion3: the tile you put face down on your ark at the start"),
        ("split", "split 1: lion3 zebra1: these tiles of group 1 become one group, the rest the "
                  "other; you take a crate"),
        ("take", "take 2: pay a crate a tile for group 2, put it on your ark, sit out the round"),
        ("forfeit", "when you can neither split nor take: skip your turn, stay in the round"),
        ("discard", f"at departure: the tiles that leave an ark over {FULL} (no species may be left "
                    "with exactly two)"),
    ]


def legend(config: Config) -> list[tuple[str, str]]:
    """What the board shows."""
    return [
        ("lion3", "a tile: the species and its number (1 a baby to 5 the oldest)"),
        ("1: ...", "a group in the centre, by its number (type it: take 1)"),
        ("hidden", "the face-down tile"),
        ("left out", "the species not in this game"),
        ("player 1: 3 tiles", "each player's tiles on the ark (only the owner sees them) and crates"),
        ("start player", "holds the flag: moves first this round"),
        ("out of the round", "took a group this round and waits for the next"),
        ("<- to move", "whose turn it is"),
        ("Your ark", "your own tiles, which only you see until departure"),
        ("ark: ... lost:", "at departure: each ark, and the tiles it lost (pairs, cut tiles)"),
    ]


def decision_prompt(state: State, seat: int) -> str | None:
    """What ``seat`` decides now, in one line."""
    phase = state["phase"]
    if phase == "keep":
        return "keep 1 of your 3 tiles face down on your ark"
    if phase == "play":
        return "split a group (+1 crate) or take one (1 crate a tile)"
    if phase == "cut":
        extra = len(state["arks"][seat]) - FULL
        return f"{extra} tile{'' if extra == 1 else 's'} too many on your ark: discard them"
    return None


def score_sheet(state: State) -> ScoreSheet:
    """A25-A26: singles score their number, herd animals 5 each, crates 1 each; ties by species."""
    public = state["public"]
    parts: list[list[tuple[str, int]]] = []
    kinds: list[int] = []
    for seat in range(state["seats"]):
        tiles = [public[h] for h in state["arks"][seat]]
        counts = Counter(species_of(t) for t in tiles)
        seat_parts = [(f"single {t}", int(t[-1])) for t in tiles if counts[species_of(t)] == 1]
        for species in sorted(s for s, n in counts.items() if n >= 3):
            seat_parts.append((f"herd of {counts[species]} {species}", HERD_POINTS * counts[species]))
        crates = int(state["crates"][seat])
        seat_parts.append((f"{crates} crate{'' if crates == 1 else 's'}", crates))
        parts.append(seat_parts)
        kinds.append(species_on_board(tiles))
    scores = [sum(points for _, points in seat_parts) for seat_parts in parts]
    places = places_by(state["seats"], lambda seat: (scores[seat], kinds[seat]))
    return sheet(parts, places, "on equal points, more different species on the ark; then shared",
                 [f"{count} species on board" for count in kinds])


class AnimalsOnBoardGuide(Guide):
    """Animals on Board's texts for its players: the functions of this module."""

    rules_summary = staticmethod(rules_summary)
    glossary = staticmethod(glossary)
    legend = staticmethod(legend)
    decision_prompt = staticmethod(decision_prompt)
    score_sheet = staticmethod(score_sheet)
