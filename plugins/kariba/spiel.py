"""Kariba for learning algorithms: stable action ids and fixed-shape tensors (OpenSpiel's bridge uses them).

Action ids (:data:`ID_COUNT` of them): playing ``count`` cards of ``animal`` is
``(animal - 1) * 5 + count - 1`` (0-39), drawing from the pile is 40, taking the
face-up ``animal`` is ``40 + animal`` (41-48). Which copies of an animal a play shows
does not change its id: nobody else can tell them apart.

Tensors: numbers in ``[0, 1]`` seen from the seat itself, the other seats following
in turn order, so a learnt policy fits every seat.
"""

from __future__ import annotations

from collections.abc import Sequence

from atoll import Action, Config, IllegalAction, Knowledge, State, Tensors
from atoll.plugins.kariba import rules
from atoll.tensors import LogEntry

ANIMALS = len(rules.ANIMALS)
#: The first id of a draw (ids below are plays).
DRAW_PILE = ANIMALS * rules.HAND_SIZE
#: How many action ids there are: every play, the pile, every face-up animal.
ID_COUNT = DRAW_PILE + 1 + ANIMALS
#: Cards in the game, and of each animal.
CARDS = len(rules.FACES)
PER_ANIMAL = CARDS // ANIMALS


def action_id(state: State, action: Action) -> int:
    """The stable id of a legal Kariba action in ``state`` (see the module's docstring)."""
    handles = action.get("play")
    if isinstance(handles, list) and handles:
        # a legal play shows one animal: its first card is face up, or among the cards it reveals
        animal = action["reveal"].get(handles[0], state["public"].get(handles[0]))
        if not isinstance(animal, int):
            raise IllegalAction(f"not a Kariba play: {action!r}")
        return (animal - 1) * rules.HAND_SIZE + len(handles) - 1
    if action == {"draw": "pile"}:
        return DRAW_PILE
    handle = action.get("take")
    animal = state["public"].get(handle) if isinstance(handle, str) else None
    if not isinstance(animal, int):
        raise IllegalAction(f"not a Kariba action: {action!r}")
    return DRAW_PILE + animal


class KaribaTensors(Tensors):
    """Kariba's observation (what a seat sees now) and information state (that, and the cards played)."""

    def __init__(self, config: Config) -> None:
        self.seats = config.seats

    def observation_shape(self) -> tuple[int, ...]:
        """Hand, waterhole, face-up row and the others' face-up cards in hand (per animal); hand sizes,
        cards won, whose turn (per seat); the pile; the phase (play or draw)."""
        return (ANIMALS * (3 + self.seats - 1) + 3 * self.seats + 1 + 2,)

    def observation(self, state: State, seat: int, known: Knowledge) -> list[float]:
        """What ``seat`` sees now, scaled to ``[0, 1]``."""
        public = state["public"]
        order = [(seat + i) % self.seats for i in range(self.seats)]
        own = [0.0] * ANIMALS
        for handle in state["hands"][seat]:
            face = rules.face_of(state, handle, known)
            if face is not None:
                own[face - 1] += 1 / rules.HAND_SIZE
        out = own
        out += [count / PER_ANIMAL for count in state["hole"]]
        out += _per_animal([public[h] for h in state["row"]], rules.ROW_SIZE)
        for other in order[1:]:
            out += _per_animal([public[h] for h in state["hands"][other] if h in public], rules.HAND_SIZE)
        out += [len(state["hands"][s]) / rules.HAND_SIZE for s in order]
        out += [state["won"][s] / CARDS for s in order]
        out += [1.0 if s == state["turn"] else 0.0 for s in order]
        out.append(rules.pile_size(state) / CARDS)
        out += [float(state["phase"] == "play"), float(state["phase"] == "draw")]
        return out

    def information_shape(self) -> tuple[int, ...]:
        """The observation, then the cards of each animal played so far (a summary of the log)."""
        return (self.observation_shape()[0] + ANIMALS,)

    def information(self, state: State, seat: int, known: Knowledge, log: Sequence[LogEntry]) -> list[float]:
        """What ``seat`` sees now, and how many cards of each animal have been played to the waterhole
        (those chased away are out of the game, which matters for what the pile can still hold)."""
        faces: dict[str, int] = {}
        played: list[int] = []
        for entry in log:
            shown = entry.get("outcome", {}).get("faces") if "request" in entry else None
            if isinstance(shown, dict):
                faces.update(shown)
            action = entry.get("action")
            if isinstance(action, dict) and "play" in action:
                faces.update(action["reveal"])
                played.extend(faces[h] for h in action["play"])
        return self.observation(state, seat, known) + _per_animal(played, PER_ANIMAL)


def _per_animal(animals: Sequence[int], scale: int) -> list[float]:
    """How many of each animal ``animals`` holds, divided by ``scale``."""
    counts = [0.0] * ANIMALS
    for animal in animals:
        counts[animal - 1] += 1 / scale
    return counts
