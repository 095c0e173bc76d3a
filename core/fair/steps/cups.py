"""Dice under a cup: a private roll only its owner sees, that nobody (the owner included) can bias.

For each die ``h`` of a cup the owner derives a secret ``s_h`` from its seed and publishes the
commitment ``c_h = H("cup/commit", table, owner, h, s_h)`` (one ``cup/commit`` message for the whole
cup). Then every seat opens its next hash-chain link, exactly as for a public roll, giving the joint
seed ``J`` of that draw. The die is ``die(H("cup/die", table, draw, h, J, s_h))``, reduced without
bias. The owner knows ``s_h`` and ``J``, so it knows the die; everyone else knows ``J`` and ``c_h``
only, and ``s_h`` is 32 secret bytes, so the die is hidden from them. The die is uniform if either
side is honest: an honest owner's secret is random whatever ``J`` is, and honest seats' links are
unknown until after the owner committed, so the owner could not aim ``s_h`` at a value of ``J``.

A die is shown by opening ``s_h`` (in a ``reveal`` or a ``prove``); every peer checks it
against ``c_h`` and recomputes the die. At the end the opened seed re-derives every secret, so a
commitment that does not follow from the seed (a secret reused from another die, say) is caught and
its step named. A secret that was opened before is refused at once when opened again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from atoll.chance import Roll
from atoll.errors import CheatDetected, ProtocolViolation
from atoll.fair.primitives.content import hex_bytes, same
from atoll.fair.primitives.hashing import hash_bytes, hash_hex, make_context
from atoll.jsondata import JSON
from atoll.numbering import seat_label
from atoll.randomness import Stream

#: Bytes of a die's secret.
SECRET_SIZE = 32
#: Bytes of a die's commitment.
COMMITMENT_SIZE = 32


def die_secret(seed: bytes, table: str, seat: int, handle: str) -> bytes:
    """The secret ``seat`` puts under die ``handle``: derived from its seed, fresh for every die."""
    context = make_context(table=table, step="cup/secret", seat=seat, inputs=seed.hex(), handle=handle)
    return hash_bytes("cup/secret", context, SECRET_SIZE)


def die_commitment(table: str, seat: int, handle: str, secret: bytes) -> str:
    """The commitment ``seat`` publishes to its secret for die ``handle`` (hex)."""
    context = make_context(table=table, step="cup/commit", seat=seat, inputs=secret.hex(), handle=handle)
    return hash_hex("cup/commit", context, COMMITMENT_SIZE)


def die_value(table: str, draw: int, handle: str, joint: bytes, secret: bytes, sides: int) -> int:
    """The die ``handle`` shows: from the joint seed of its draw and its owner's secret, without bias."""
    context = make_context(table=table, step=f"draw/{draw}", inputs={"joint": joint.hex(),
                                                                     "secret": secret.hex()},
                           handle=handle)
    return Stream(hash_bytes("cup/die", context, 32)).die(sides)


@dataclass
class Cup:
    """One private roll as the record sees it: owner, dice, commitments and (once drawn) its draw."""

    owner: int
    sides: int
    handles: tuple[str, ...]
    commitments: dict[str, str]
    step: int
    """The step number the commitments were made in (a seed that does not fit them is blamed there)."""
    draw: int | None = None
    joint: bytes | None = None
    values: dict[str, int] = field(default_factory=dict)
    """Dice opened so far (handle -> value), publicly checked."""


class CupBook:
    """Every cup of one table, from one participant's point of view (or the audit's)."""

    def __init__(self, table: str, seat: int | None = None, seed: bytes | None = None) -> None:
        self.table = table
        self.seat = seat
        self._seed = seed
        self.cups: dict[str, Cup] = {}
        self._die: dict[str, str] = {}
        """Die handle -> its cup."""
        self._secrets: dict[str, str] = {}
        """Opened secret (hex) -> the die it opened: a secret opens one die, once."""
        self._commitments: set[str] = set()
        self.pending: str | None = None
        """The cup committed to in the last step, whose draw must come next."""
        self._hand: dict[str, tuple[bytes, dict[str, int]]] = {}
        """This seat's own drawn cups: the joint seed each was drawn with and its dice, worked out once
        (the seat asks for its hand after every step, and each die costs two hashes)."""

    # -- reading ----------------------------------------------------------------------

    def has(self, handle: str) -> bool:
        """Whether ``handle`` names a die under a cup."""
        return handle in self._die

    def owner(self, handle: str) -> int:
        """The seat whose cup holds die ``handle``."""
        return self.cups[self._die[handle]].owner

    def opened(self) -> dict[str, JSON]:
        """Every die shown so far, by handle."""
        return {h: v for cup in self.cups.values() for h, v in cup.values.items()}

    def closed(self, seat: int, *, drawn: bool = False) -> list[str]:
        """``seat``'s dice not shown yet, in the order they were rolled (only drawn ones if ``drawn``)."""
        return [h for cup in self.cups.values() if cup.owner == seat and (cup.joint or not drawn)
                for h in cup.handles if h not in cup.values]

    def hand(self) -> dict[str, JSON]:
        """The values of this seat's own drawn dice (it alone can compute them)."""
        if self.seat is None or self._seed is None:
            return {}
        out: dict[str, JSON] = {}
        for name, cup in self.cups.items():
            if cup.owner == self.seat and cup.joint is not None:
                known = self._hand.get(name)
                if known is None or known[0] != cup.joint:
                    known = self._hand[name] = (cup.joint, self._values(cup, self._seed))
                out.update(known[1])
        return out

    def openings(self, handles: Sequence[str]) -> dict[str, str]:
        """This seat's openings (secret, hex) of its dice among ``handles`` not shown yet."""
        if self.seat is None or self._seed is None:
            return {}
        return {h: die_secret(self._seed, self.table, self.seat, h).hex() for h in handles
                if self.has(h) and self.owner(h) == self.seat and h not in self.opened()}

    def commitments_for(self, request: Roll) -> dict[str, JSON]:
        """This seat's commitments to the dice of ``request`` (its own cup)."""
        seat = self.seat
        if self._seed is None or seat is None or seat != request.to:
            raise ProtocolViolation(f"{seat_label(seat)} cannot commit to {seat_label(request.to)}'s cup")
        return {h: die_commitment(self.table, seat, h, die_secret(self._seed, self.table, seat, h))
                for h in request.handles()}

    # -- the protocol -----------------------------------------------------------------

    def check_new(self, request: Roll, taken: Sequence[str]) -> None:
        """Refuse a cup whose name or dice are in use (``taken``: other handles of the table)."""
        if request.cup in self.cups:
            raise ProtocolViolation(f"cup {request.cup!r} was already rolled at this table")
        clash = [h for h in request.handles() if h in taken or h in self._die]
        if clash:
            raise ProtocolViolation(f"cup {request.cup!r} names dice {clash} already in use")

    def commit(self, seat: int, request: Roll, commitments: JSON, step: int) -> None:
        """Record the owner's commitments to the dice of ``request``; anything else is its cheat."""
        handles = request.handles()
        if not isinstance(commitments, dict) or sorted(commitments) != sorted(handles):
            raise CheatDetected(seat, f"committed to dice {sorted(commitments or {})}, not to {handles}")
        for handle in handles:
            hex_bytes(seat, commitments[handle], COMMITMENT_SIZE, f"commitment to die {handle!r}")
            if commitments[handle] in self._commitments:
                raise CheatDetected(seat, f"committed to die {handle!r} with a commitment already used "
                                          "at this table (a replay)")
        assert request.to is not None
        self.cups[request.cup] = Cup(request.to, request.sides, tuple(handles),
                                     {h: str(commitments[h]) for h in handles}, step)
        self._die.update((h, request.cup) for h in handles)
        self._commitments.update(str(c) for c in commitments.values())
        self.pending = request.cup

    def drawn(self, request: Roll, draw: int, joint: bytes) -> None:
        """The joint seed of the cup's draw is known: the owner may now compute its dice."""
        cup = self.cups[request.cup]
        cup.draw, cup.joint = draw, joint
        self.pending = None

    def open(self, seat: int, openings: JSON, dice: Sequence[str]) -> dict[str, int]:
        """Check ``seat``'s openings of exactly ``dice`` against its commitments; return the values.

        A wrong secret, a secret opened before (for any die), or another set of dice is a cheat.
        """
        if not isinstance(openings, dict) or sorted(openings) != sorted(dice):
            raise CheatDetected(seat, f"opened dice {sorted(openings or {})}, not {sorted(dice)}")
        values: dict[str, int] = {}
        for handle in dice:
            cup = self.cups[self._die[handle]]
            if cup.owner != seat:
                raise CheatDetected(
                    seat, f"opened die {handle!r}, which is under {seat_label(cup.owner)}'s cup")
            if cup.joint is None or cup.draw is None:
                raise ProtocolViolation(f"die {handle!r} has not been drawn yet")
            secret = hex_bytes(seat, openings[handle], SECRET_SIZE, f"secret of die {handle!r}")
            text = secret.hex()
            if text in self._secrets and self._secrets[text] != handle:
                raise CheatDetected(seat, f"opened die {handle!r} with the secret of die "
                                          f"{self._secrets[text]!r} (a replayed secret)")
            if not same(die_commitment(self.table, seat, handle, secret), cup.commitments[handle]):
                raise CheatDetected(seat, f"opened die {handle!r} with a secret that is not the one it "
                                          "committed to")
            values[handle] = die_value(self.table, cup.draw, handle, cup.joint, secret, cup.sides)
        for handle, value in values.items():
            self.cups[self._die[handle]].values[handle] = value
            self._secrets[str(openings[handle])] = handle
        return values

    # -- seeds ------------------------------------------------------------------------

    def seed_problems(self, seat: int, seed: bytes) -> list[tuple[int, str]]:
        """Each of ``seat``'s dice whose commitment does not follow from ``seed``: (step, what)."""
        problems = []
        for cup in self.cups.values():
            if cup.owner != seat:
                continue
            for handle in cup.handles:
                secret = die_secret(seed, self.table, seat, handle)
                if not same(die_commitment(self.table, seat, handle, secret), cup.commitments[handle]):
                    problems.append((cup.step, f"commitment to die {handle!r}"))
        return problems

    def all_faces(self, seeds: Mapping[int, bytes]) -> dict[str, JSON]:
        """Every drawn die's value, from the opened ``seeds``."""
        faces = self.opened()  # a seat that left opened its dice then, and opens no seed
        for cup in self.cups.values():
            if cup.owner in seeds and cup.joint is not None:
                faces.update(self._values(cup, seeds[cup.owner]))
        return faces

    def _values(self, cup: Cup, seed: bytes) -> dict[str, int]:
        assert cup.joint is not None and cup.draw is not None
        return {h: die_value(self.table, cup.draw, h, cup.joint, die_secret(seed, self.table, cup.owner, h),
                             cup.sides) for h in cup.handles}
