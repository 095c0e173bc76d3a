"""Words for Animals on Board: the texts a player types and the lines of the game log.

A split names the tiles of one side, in the order the board shows them, and the other side
is the rest: ``split 1: lion3 zebra1``. The text names the smaller side (so it stays short,
at most six tiles even in a group of thirteen); naming the other side is accepted as an alias.
"""

from __future__ import annotations

from collections.abc import Mapping

from atoll import JSON, Action, Deal, IllegalAction, Pick, Request, Reveal, Shuffle, State
from atoll.plugins.animals_on_board.meta import FULL, HIDDEN, MOST_CRATES, order


def tile_name(state: State, handle: str) -> str:
    """A tile in the centre or on a shown ark by its face, or ``hidden`` for the face-down tile."""
    face = state["public"].get(handle, HIDDEN)
    return str(face)


def names(state: State, handles: list[str]) -> str:
    """Tiles by their names, space-separated (the face-down tile is never in ``public``)."""
    public = state["public"]
    return " ".join([public.get(h, HIDDEN) for h in handles])


def split_sides(state: State, action: Action) -> tuple[int, list[str], list[str]]:
    """A split's group number, the side its text names (the smaller; the part split off when both
    are as large), and the other side."""
    number = action["split"]
    group = state["groups"][number - 1]
    part = action["part"]
    split_off = set(part)
    rest = [h for h in group if h not in split_off]
    return (number, part, rest) if len(part) <= len(rest) else (number, rest, part)


def describe(state: State, action: Action) -> str:
    """The text of ``action``: ``keep lion3``, ``split 1: lion3 zebra1``, ``take 2: fox5 hidden``,
    ``forfeit`` or ``discard camel1``; unique among the legal actions of any state."""
    if not isinstance(action, dict):
        raise IllegalAction(f"an Animals on Board action is a JSON object, not {action!r}")
    if "split" in action:
        # the hot path: completion describes every split of a thirteen-tile group at each key
        number = action["split"]
        group = state["groups"][number - 1]
        named = action["part"]
        if 2 * len(named) > len(group):
            split_off = set(named)
            named = [h for h in group if h not in split_off]
        return f"split {number}: {names(state, named)}"
    if "take" in action:
        number = action["take"]
        return f"take {number}: {names(state, state['groups'][number - 1])}"
    if "secret" in action:
        return f"keep {action['secret'][1]}"
    if "sealed" in action:
        return "keep a tile"
    if "discard" in action:
        faces = sorted((state["public"][h] for h in action["discard"]), key=order)
        return "discard " + " ".join(faces)
    if action == {"forfeit": True}:
        return "forfeit"
    raise IllegalAction(f"not an Animals on Board action: {action!r}")


def aliases(state: State, action: Action) -> list[str]:
    """Other texts for ``action``: a split by its other side; ``take 2`` for taking group 2."""
    if "split" in action:
        number, _, other = split_sides(state, action)
        return [f"split {number}: {names(state, other)}"]
    if "take" in action:
        return [f"take {action['take']}"]
    return []


def seat_name(seat: int) -> str:
    """A seat as the game names it: ``player 1`` for seat 0, the number the client's seat marks carry."""
    return f"player {seat + 1}"


def describe_log(state: State, seat: int, action: Action) -> str:
    """A public line for the game log, naming only what everybody sees."""
    who = seat_name(seat)
    if "split" in action:
        number, named, _ = split_sides(state, action)
        crate = ("gives a crate back (five is the most)" if state["crates"][seat] == MOST_CRATES
                 else "takes a crate")
        return f"{who} splits off {names(state, named)} from group {number} and {crate}"
    if "take" in action:
        group = state["groups"][action["take"] - 1]
        line = f"{who} takes {names(state, group)} for {len(group)} crate{'s' if len(group) > 1 else ''}"
        line += " and drops out of the round"
        if not state["flag_taken"]:
            line += ", taking the start-player flag"
        total = len(state["arks"][seat]) + len(group)
        if total >= FULL:
            line += f"; its ark is full ({total} tiles): this is the last round"
        return line
    if "discard" in action:
        return f"{who} cuts its ark to ten: {describe(state, action)}"
    if action == {"forfeit": True}:
        return f"{who} can neither split nor take and forfeits the turn"
    return f"{who}: {describe(state, action)}"


def describe_chance(state: State, request: Request, outcome: Mapping[str, JSON]) -> str | None:
    """A log line for what chance did in ``state`` (the phase says what was asked)."""
    phase = state["phase"]
    if isinstance(request, Pick):
        return "left out of this game: " + ", ".join(str(p) for p in outcome.get("picked", ()))
    if isinstance(request, Shuffle):
        return f"{len(request.faces)} tiles are shuffled face down"
    if isinstance(request, Deal) and phase == "deal":
        return "every player draws three tiles"
    if isinstance(request, Deal):
        return f"{seat_name(state['turn'])} looks at the face-down tile it took"
    faces = outcome.get("faces")
    if not isinstance(request, Reveal) or not isinstance(faces, dict):
        return None
    if phase == "open":
        return "every player has put one tile face down on their ark"
    if phase == "show":
        return "into the centre: " + " ".join(sorted((str(f) for f in faces.values()), key=order))
    if phase == "fill":
        line = f"round {state['round']}: the group gets " + " ".join(
            sorted((str(f) for f in faces.values()), key=order)
        )
        return line + (" and a face-down tile" if state["hidden"] is None else "")
    shown = {**state["public"], **faces}
    arks = "; ".join(
        f"{seat_name(seat)}: " + " ".join(sorted((str(shown[h]) for h in ark), key=order))
        for seat, ark in enumerate(state["arks"])
    )
    return f"the arks depart: {arks}"

