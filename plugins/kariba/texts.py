"""Words for Kariba: animal names, action texts the player types, and lines for the game log."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from atoll import JSON, Action, Deal, IllegalAction, Request, Reveal, Shuffle, State
from atoll.plugins.kariba import rules

#: Animal names by number (index 0 is unused so that ``NAMES[animal]`` reads naturally).
NAMES = ("", "mouse", "meerkat", "zebra", "giraffe", "ostrich", "leopard", "rhino", "elephant")


def name(animal: int) -> str:
    """The name of the animal with this number."""
    return NAMES[animal]


def cards(count: int, animal: int) -> str:
    """``"1 zebra card"`` or ``"3 zebra cards"``."""
    return f"{count} {name(animal)} card{'' if count == 1 else 's'}"


def describe(state: State, action: Action) -> str:
    """The text a player types: ``play 2 giraffe``, ``draw pile`` or ``take zebra``."""
    if not isinstance(action, dict):
        raise IllegalAction(f"a Kariba action is a JSON object, not {action!r}")
    if "play" in action:
        handles, animal = rules.played_animal(state, action)
        return f"play {len(handles)} {name(animal)}"
    if action == {"draw": "pile"}:
        return "draw pile"
    handle = action.get("take")
    if isinstance(handle, str) and handle in state["row"]:
        return f"take {name(state['public'][handle])}"
    raise IllegalAction(f"not a Kariba action in this state: {action!r}")


def aliases(state: State, action: Action) -> list[str]:
    """``play mouse`` for a play of mice: the parser takes it when only one count of mice can be
    played, and names the counts to choose from when several can."""
    if isinstance(action, dict) and "play" in action:
        _, animal = rules.played_animal(state, action)
        return [f"play {name(animal)}"]
    return []


def seat_name(seat: int) -> str:
    """A seat as the game names it: ``player 1`` for seat 0, the number the client's seat marks carry."""
    return f"player {seat + 1}"


def describe_log(state: State, seat: int, action: Action, seat_name: str) -> str:
    """A log line for ``seat`` taking ``action`` in ``state``, with the chase it causes (public words)."""
    if "play" in action:
        handles, animal = rules.played_animal(state, action)
        hole = list(state["hole"])
        hole[animal - 1] += len(handles)
        line = f"{seat_name} plays {cards(len(handles), animal)}"
        victim = rules.chase(hole, animal)
        if victim is not None:
            return f"{line} and chases away {cards(hole[victim - 1], victim)}"
        return line
    if action == {"draw": "pile"}:
        return f"{seat_name} draws from the pile"
    return f"{seat_name} takes the face-up {describe(state, action).removeprefix('take ')}"


def describe_draw_to(state: State, request: Request, known: Mapping[str, JSON]) -> str | None:
    """What the player drawing from the pile reads, from the faces it now ``known``s: ``"you draw an
    ostrich"``, ``"you draw 2 cards: mouse, zebra"``; ``None`` for anything but such a draw."""
    if not isinstance(request, Deal) or state["phase"] == "deal":
        return None
    _, handles = request.to[0]
    faces = [known.get(handle) for handle in handles]
    if not faces or not all(isinstance(face, int) and 0 < face < len(NAMES) for face in faces):
        return None
    drawn = [name(face) for face in faces]  # type: ignore[arg-type]
    if len(drawn) == 1:
        return f"you draw {'an' if drawn[0][0] in 'aeiou' else 'a'} {drawn[0]}"
    return f"you draw {len(drawn)} cards: {', '.join(drawn)}"


def describe_chance(
    state: State, request: Request, outcome: Mapping[str, JSON], names: Sequence[str]
) -> str | None:
    """A log line for what chance did, in the game's words and public facts only: the shuffle, the
    deal, a player drawing from the pile (what they drew stays theirs), the face-up row turned."""
    if isinstance(request, Shuffle):
        return "the 64 cards are shuffled"
    if isinstance(request, Deal) and state["phase"] == "deal":
        return f"every player is dealt {rules.HAND_SIZE} cards"
    if isinstance(request, Deal):
        seat, handles = request.to[0]
        count = len(handles)
        return f"{names[seat]} draws {'a card' if count == 1 else f'{count} cards'} from the pile"
    if isinstance(request, Reveal):
        faces = outcome.get("faces")
        if not isinstance(faces, Mapping):
            return None
        row = [state["public"][h] for h in state["row"]] + [faces.get(h) for h in request.handles]
        return "the face-up row now shows " + ", ".join(
            name(face) if isinstance(face, int) else "?" for face in row)
    return None
