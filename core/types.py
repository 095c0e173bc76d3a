"""Values that cross the boundary between a game plugin and the engine."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from atoll.chance import Request
from atoll.errors import MalformedInput
from atoll.jsondata import JSON

#: A game's whole public state: plain JSON data, never a hidden face.
State = dict[str, Any]
#: One action: a JSON object. The key ``"reveal"`` (handle -> face) names hidden
#: cards the action shows; the engine proves those faces before ``apply`` sees them.
Action = dict[str, Any]
#: What a seat privately knows: handle -> face.
Knowledge = Mapping[str, JSON]


@dataclass(frozen=True)
class GameInfo:
    """What a game is: its name (a short identifier), title, seat range and variants."""

    name: str
    title: str
    min_seats: int
    max_seats: int
    variants: tuple[str, ...] = ("standard",)
    default_variant: str = ""
    summary: str = ""

    def __post_init__(self) -> None:
        if not self.name.isidentifier() or self.name != self.name.lower():
            raise ValueError(f"game name {self.name!r} must be a lower-case identifier")
        if not 1 <= self.min_seats <= self.max_seats:
            raise ValueError(f"seat range {self.min_seats}-{self.max_seats} is empty")
        if not self.variants:
            raise ValueError("a game needs at least one variant")
        if not self.default_variant:
            object.__setattr__(self, "default_variant", self.variants[0])
        if self.default_variant not in self.variants:
            raise ValueError(f"default variant {self.default_variant!r} is not a variant")


@dataclass(frozen=True)
class Config:
    """How one game is set up: seat count, variant and game-specific options."""

    seats: int
    variant: str
    options: Mapping[str, JSON] = field(default_factory=dict)

    def to_json(self) -> dict[str, JSON]:
        """The config as a JSON object."""
        return {"seats": self.seats, "variant": self.variant, "options": dict(self.options)}

    @classmethod
    def from_json(cls, data: JSON) -> Config:
        """Read a config written by :meth:`to_json`; raises :class:`MalformedInput`."""
        try:
            seats, variant, options = data["seats"], data["variant"], data.get("options", {})
        except (TypeError, KeyError) as exc:
            raise MalformedInput(f"config needs 'seats' and 'variant': {data!r}") from exc
        if not isinstance(seats, int) or not isinstance(variant, str):
            raise MalformedInput(f"config has a bad seat count or variant: {data!r}")
        if not isinstance(options, dict):
            raise MalformedInput(f"config options must be an object: {options!r}")
        return cls(seats, variant, options)


@dataclass(frozen=True)
class Results:
    """How a game ended: a score per seat (in seat order) and the winning seats."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]

    def to_json(self) -> dict[str, JSON]:
        """The results as a JSON object."""
        return {"scores": list(self.scores), "winners": list(self.winners)}

    @classmethod
    def from_json(cls, data: JSON) -> Results:
        """Read results written by :meth:`to_json`."""
        try:
            return cls(tuple(data["scores"]), tuple(data["winners"]))
        except (TypeError, KeyError) as exc:
            raise MalformedInput(f"results need 'scores' and 'winners': {data!r}") from exc


@dataclass(frozen=True)
class Decision:
    """A seat must choose an action; or, when ``seats`` names several, those seats choose at once.

    When ``secret`` is true the choice is sealed: each legal action is exactly
    ``{"secret": [value, ...]}``; the engine commits to the values and hands the
    game ``{"sealed": [handle, ...]}`` instead, one handle per value, whose faces
    only the choosing seat knows until an action or a :class:`Reveal` shows them.

    A *simultaneous* decision (build it with :meth:`at_once`) names every seat that
    decides in ``seats``; it is always sealed. Each of them chooses in any order,
    its choice committed to as soon as it is made, and none learns another's before
    all have chosen. Then the game's ``apply`` receives ``{"seat": s, "sealed":
    [handle, ...]}`` for each of them, in seat order, one after another (``next`` is
    not asked in between). ``seat`` is the first seat still to choose.
    """

    seat: int
    secret: bool = False
    seats: tuple[int, ...] = ()
    """Every seat deciding at once (in seat order), or ``()`` for a decision of ``seat`` alone."""

    def __post_init__(self) -> None:
        if not self.seats:
            return
        if list(self.seats) != sorted(set(self.seats)):
            raise ValueError(f"the seats deciding at once must be distinct and in order, not {self.seats}")
        if not self.secret:
            raise ValueError("seats deciding at once decide secretly (secret=True); a Reveal shows "
                             "their choices")
        if self.seat not in self.seats:
            raise ValueError(f"seat {self.seat} is to decide but is not among {self.seats}")

    @classmethod
    def at_once(cls, seats: Sequence[int]) -> Decision:
        """A simultaneous sealed decision of ``seats`` (any order: every one of them chooses, none sees the
        others' choices before all have chosen)."""
        ordered = tuple(sorted(seats))
        if not ordered:
            raise ValueError("a decision needs at least one seat")
        return cls(ordered[0], True, ordered)

    @property
    def simultaneous(self) -> bool:
        """Whether this decision names several seats choosing at once (see :meth:`at_once`)."""
        return bool(self.seats)

    @property
    def deciders(self) -> tuple[int, ...]:
        """Every seat that decides in this step: ``seats``, or ``seat`` alone."""
        return self.seats or (self.seat,)


@dataclass(frozen=True)
class End:
    """The game is over."""

    results: Results


@dataclass(frozen=True)
class Chance:
    """Chance must act: the engine fulfils ``request`` and calls ``resolve``."""

    request: Request


Step = Decision | Chance | End
