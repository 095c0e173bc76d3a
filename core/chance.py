"""Chance requests: the only door through which a game gets randomness or hidden cards.

A game never rolls or shuffles; it returns a request from ``next`` and the
engine's resolver answers it with a public *outcome* (a JSON object), which the
game folds in through ``resolve``. Private parts of an answer (the faces of a
card dealt to one seat) never reach the game: the engine keeps them beside the
state, with the seat that may know them.

=========  ==========================================  =============================
request    meaning                                     public outcome
=========  ==========================================  =============================
Roll       ``count`` fair dice with ``sides`` sides    ``{"values": [int, ...]}``
Roll(to=)  dice under ``to``'s cup: only it sees them  ``{"handles": [str, ...]}``
Pick       ``count`` of ``options`` without repeats    ``{"picked": [value, ...]}``
Shuffle    a face-down pile of ``faces``               ``{"handles": [str, ...]}``
Deal       give hidden cards to seats, privately       ``{}``
Reveal     show hidden cards to everybody              ``{"faces": {handle: face}}``
=========  ==========================================  =============================
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import ClassVar

from atoll.errors import MalformedInput
from atoll.jsondata import JSON


class Kind(enum.Enum):
    """The kinds of chance request."""

    ROLL = "roll"
    """Fair dice; resolved on a table by joint commit-reveal randomness."""
    PICK = "pick"
    """A public random choice (a draw from a pile whose order is hidden)."""
    SHUFFLE = "shuffle"
    """A face-down pile; resolved on a table by the mental deck."""
    DEAL = "deal"
    """Hidden cards to seats; only the receiver learns each face."""
    REVEAL = "reveal"
    """Hidden cards or sealed choices shown to every seat."""


@dataclass(frozen=True)
class Roll:
    """Roll ``count`` dice with ``sides`` sides each (values 1..sides).

    A *private* roll (``to`` a seat) puts the dice under that seat's cup, named ``cup``: the
    outcome names them by handles ``"<cup>.<i>"`` and only seat ``to`` learns their values, as
    with a dealt card; a :class:`Reveal` of the handles shows them. Cup names share the handle
    space with piles, so they must be unique within a game and differ from every pile name.
    """

    count: int
    sides: int
    to: int | None = None
    cup: str = ""
    kind: ClassVar[Kind] = Kind.ROLL

    def __post_init__(self) -> None:
        if self.count < 1 or self.sides < 2:
            raise ValueError(f"cannot roll {self.count} dice of {self.sides} sides")
        if self.to is None and self.cup:
            raise ValueError(f"cup {self.cup!r} has no owner: a private roll needs to=seat")
        if self.to is not None and not self.cup.isidentifier():
            raise ValueError(f"a private roll needs a cup name that is an identifier, not {self.cup!r}")
        if self.to is not None and (isinstance(self.to, bool) or self.to < 0):
            raise ValueError(f"a private roll goes to a seat number, not {self.to!r}")

    @property
    def private(self) -> bool:
        """Whether only seat ``to`` sees the dice."""
        return self.to is not None

    def handles(self) -> list[str]:
        """The handles of a private roll's dice, in order (empty for a public roll)."""
        return [f"{self.cup}.{i}" for i in range(self.count)] if self.to is not None else []

    def to_json(self) -> dict[str, JSON]:
        """The request as a JSON object."""
        out: dict[str, JSON] = {"kind": self.kind.value, "count": self.count, "sides": self.sides}
        if self.to is not None:
            out.update(to=self.to, cup=self.cup)
        return out


@dataclass(frozen=True)
class Pick:
    """Choose ``count`` of ``options`` at random, without repeats, in order of drawing."""

    options: tuple[JSON, ...]
    count: int = 1
    kind: ClassVar[Kind] = Kind.PICK

    def __post_init__(self) -> None:
        if not 1 <= self.count <= len(self.options):
            raise ValueError(f"cannot pick {self.count} of {len(self.options)} options")

    def to_json(self) -> dict[str, JSON]:
        """The request as a JSON object."""
        return {"kind": self.kind.value, "options": list(self.options), "count": self.count}


@dataclass(frozen=True)
class Shuffle:
    """Shuffle ``faces`` into a face-down pile called ``pile``.

    The outcome names the cards of the pile by handles ``"<pile>.<i>"`` in pile
    order (top first); nobody knows which face each handle hides. Pile names
    must be unique within a game.
    """

    pile: str
    faces: tuple[JSON, ...]
    kind: ClassVar[Kind] = Kind.SHUFFLE

    def __post_init__(self) -> None:
        if not self.pile.isidentifier():
            raise ValueError(f"pile name {self.pile!r} must be an identifier (letters, digits, _)")
        if not self.faces:
            raise ValueError(f"pile {self.pile!r} has no cards")

    def handles(self) -> list[str]:
        """The handles the pile's cards get, top first."""
        return [f"{self.pile}.{i}" for i in range(len(self.faces))]

    def to_json(self) -> dict[str, JSON]:
        """The request as a JSON object."""
        return {"kind": self.kind.value, "pile": self.pile, "faces": list(self.faces)}


@dataclass(frozen=True)
class Deal:
    """Give hidden cards to seats: ``to`` pairs a seat with the handles it receives."""

    to: tuple[tuple[int, tuple[str, ...]], ...]
    kind: ClassVar[Kind] = Kind.DEAL

    def __post_init__(self) -> None:
        if not any(handles for _, handles in self.to):
            raise ValueError("a deal gives no card")

    def to_json(self) -> dict[str, JSON]:
        """The request as a JSON object."""
        return {"kind": self.kind.value, "to": [[s, list(h)] for s, h in self.to]}


@dataclass(frozen=True)
class Reveal:
    """Show the faces behind ``handles`` (cards or sealed choices) to everybody."""

    handles: tuple[str, ...]
    kind: ClassVar[Kind] = Kind.REVEAL

    def __post_init__(self) -> None:
        if not self.handles:
            raise ValueError("a reveal shows no card")

    def to_json(self) -> dict[str, JSON]:
        """The request as a JSON object."""
        return {"kind": self.kind.value, "handles": list(self.handles)}


Request = Roll | Pick | Shuffle | Deal | Reveal


def request_from_json(data: JSON) -> Request:
    """Read a request written by its ``to_json``; raises :class:`MalformedInput`."""
    try:
        kind = Kind(data["kind"])
        if kind is Kind.ROLL:
            to = data.get("to")
            return Roll(_integer(data["count"]), _integer(data["sides"]),
                        None if to is None else _integer(to), str(data.get("cup", "")))
        if kind is Kind.PICK:
            return Pick(tuple(data["options"]), int(data["count"]))
        if kind is Kind.SHUFFLE:
            return Shuffle(str(data["pile"]), tuple(data["faces"]))
        if kind is Kind.DEAL:
            return Deal(tuple((int(s), tuple(str(x) for x in h)) for s, h in data["to"]))
        return Reveal(tuple(str(h) for h in data["handles"]))
    except (TypeError, KeyError, ValueError) as exc:
        raise MalformedInput(f"not a chance request: {data!r} ({exc})") from exc


def _integer(value: JSON) -> int:
    """``value`` if it is an integer (``True`` is not a count of dice)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{value!r} is not an integer")
    return value
