"""The fast path's board: Kiribati's state as mutable lists of small ints; its pieces, turtles, events.

The rule modules (:mod:`atoll.plugins.kiribati.turn` and the modules it calls) are the
reference; :class:`FastBoard` and :class:`~atoll.plugins.kiribati.fast_turns.FastTurns` (the animals,
the cards and the order of play) do exactly what they do, in the same order, so that their
legal lists come out in theirs and random players make the same choices. What is
kept, place by place (numbers from :mod:`atoll.plugins.kiribati.fast_codes`):

- ``size[place]``: the turtle's size there, 0 for open water; ``on[place]`` the animals on it,
  in the order they came (the rules list them in that order);
- ``loc[animal]``: where each animal is, a place, :data:`ISLAND` or :data:`MAINLAND`;
- the rest as the state has it, with numbers for names.

Lists that change often (``size``, ``on``, ``loc``, ``moved``, ``clamp``) are changed in place and
copied by :meth:`FastBoard.copy_into`; the others (``hands``, ``tired``, ...) are only ever given new
values, so a copy may share them.
"""

from __future__ import annotations

from atoll.plugins.kiribati.board import NET_PLACES
from atoll.plugins.kiribati.fast_codes import (
    CLOUDY,
    DIVE,
    DRIFT,
    EVENTS,
    FISHING_NET,
    FLOAT,
    FLOW,
    ISLAND,
    KAGU,
    KOALA,
    LIZARD,
    MAINLAND,
    MONKEY,
    NEW,
    RABBIT,
    ROW_ORDER,
    ROW_PLACES,
    STORM,
    SUNSHINE,
    THROW_CODE,
    THUNDERSTORM,
)

#: The fishing net's places as place numbers (rule K37).
NET = frozenset(col * 4 + row for col, row in NET_PLACES)


def fits(size: int, animals: list[int]) -> bool:
    """Whether ``animals`` fit on a turtle of ``size`` places (a kagu may use a 3's flooded place, K26)."""
    if len(animals) <= size:
        return True
    return size == 3 and len(animals) == 4 and any(a % 5 == KAGU for a in animals)


class FastBoard:
    """Kiribati's state as mutable lists of ints, with the rules that change it (see the module)."""

    __slots__ = (
        "_legal", "answered", "carded", "clamp", "cols", "count", "dice", "die", "event", "events_left",
        "events_seen", "extra", "finished", "handles", "hands", "kinds", "large", "loc", "mainland",
        "moved", "on", "opened", "pending", "phase", "placed", "played", "round", "seats", "setup_row",
        "size", "small", "throw_at", "throw_kagu", "tired", "turn", "variant",
    )

    variant: int
    seats: int
    cols: int
    kinds: tuple[int, ...]
    count: int
    size: list[int]
    on: list[list[int]]
    loc: list[int]
    large: int
    small: int
    mainland: list[list[int]]
    finished: list[int]
    phase: int
    setup_row: int
    turn: int
    round: int
    dice: list[int]
    die: int
    moved: list[int]
    placed: bool
    extra: int
    carded: bool
    answered: list[int]
    #: A card waiting for its answer: (card, seat that played it, target animal, phase to resume).
    pending: tuple[int, int, int, int] | None
    throw_at: int
    throw_kagu: bool
    clamp: list[int]
    tired: list[list[int]]
    hands: list[list[int]]
    handles: list[list[str]]
    played: list[list[int]]
    opened: dict[str, str]
    event: int
    events_left: list[str]
    events_seen: list[str]
    #: The legal codes of the decision now, once made (``None``: not yet).
    _legal: list[int] | None

    def copy_into(self, twin: FastBoard) -> None:
        """Make ``twin`` an independent copy of this board."""
        for name in FastBoard.__slots__:
            setattr(twin, name, getattr(self, name))
        twin.size = self.size[:]
        twin.on = [line[:] for line in self.on]
        twin.loc = self.loc[:]
        twin.moved = self.moved[:]
        twin.clamp = self.clamp[:]
        twin.mainland = self.mainland[:]
        twin.hands = self.hands[:]
        twin.handles = self.handles[:]
        twin.played = self.played[:]

    # -- pieces (pieces.py) ----------------------------------------------------------------------------

    def clamped(self, animal: int) -> bool:
        """K34, K39: the animal holds a clamp grip (not a koala in a cloudy round)."""
        kind = animal % 5
        return self.clamp[animal // 5] == kind and not (kind == KOALA and self.event == CLOUDY)

    def is_tired(self, seat: int, kind: int) -> bool:
        """K31, K33: the animal rests or sleeps."""
        return any(s == seat and k == kind for s, k, _ in self.tired)

    def to_island(self, animal: int) -> None:
        """The animal (already off its turtle) swims home and lets go of a clamp grip."""
        self.loc[animal] = ISLAND
        if self.clamp[animal // 5] == animal % 5:
            self.clamp[animal // 5] = -1

    def rescue(self, animal: int) -> None:
        """The animal (already off its turtle) reaches the mainland; a seat with all there has finished."""
        seat, kind = divmod(animal, 5)
        self.loc[animal] = MAINLAND
        ashore = [*self.mainland[seat], kind]
        self.mainland[seat] = ashore
        if self.clamp[seat] == kind:
            self.clamp[seat] = -1
        if len(ashore) == self.count and seat not in self.finished:
            self.finished = [*self.finished, seat]

    def _shift(self, frm: int, to: int) -> None:
        """The turtle at place ``frm`` moves to the empty place ``to`` with its animals."""
        size, on, loc = self.size, self.on, self.loc
        size[to] = size[frm]
        line = on[to] = on[frm]
        for animal in line:
            loc[animal] = to
        size[frm] = 0
        on[frm] = []

    # -- turtles (turtles.py) --------------------------------------------------------------------------

    def chain_end(self, col: int, row: int) -> int:
        """The first column east of the turtles that move when the one at (col, row) drifts (K10),
        or -1 if the fishing net stops them (K40)."""
        size, cols = self.size, self.cols
        end = col
        while end < cols and size[end * 4 + row]:
            end += 1
        if self.event == FISHING_NET:
            for c in range(col, min(end + 1, cols)):
                if c * 4 + row in NET:
                    return -1
        return end

    def drift(self, col: int, row: int) -> None:
        """K10, K11: the turtle drifts east pushing those in front; one pushed off the east edge goes
        back to the supply and its animals swim home."""
        end = self.chain_end(col, row)
        if end == self.cols:
            gone = (end - 1) * 4 + row
            if self.size[gone] >= 3:
                self.large += 1
            else:
                self.small += 1
            for animal in self.on[gone]:
                self.to_island(animal)
            self.size[gone] = 0
            self.on[gone] = []
            end -= 1
        for c in range(end - 1, col - 1, -1):
            self._shift(c * 4 + row, c * 4 + row + 4)

    def row_codes(self, row: int, out: list[int]) -> None:
        """K7-K9: drift any turtle of the row, or put a new one in its empty first place."""
        size, places = self.size, ROW_PLACES[self.cols][row]
        if self.event == FISHING_NET:
            out += [DRIFT + p for p in places if size[p] and self.chain_end(p >> 2, row) >= 0]
        else:
            out += [DRIFT + p for p in places if size[p]]
        if not size[row]:
            if self.large:
                out += (NEW + 32 + row + 1, NEW + 24 + row + 1)
            if self.small:
                out += (NEW + 16 + row + 1, NEW + 8 + row + 1)

    def die_codes(self, die: int) -> list[int]:
        """K7-K17: the turtle actions the die allows."""
        out: list[int] = []
        if die <= 4:
            self.row_codes(die - 1, out)
        elif die == 5:
            for row in range(4):
                self.row_codes(row, out)
        else:
            size = self.size
            large = self.large
            for place in ROW_ORDER[self.cols]:
                turtle = size[place]
                if turtle:
                    if self.can_dive(place):
                        out.append(DIVE + place)
                    if turtle < 4 and (turtle != 2 or large):  # can_float(), inlined
                        out.append(FLOAT + place)
        return out

    def flooded_kagus(self, animals: list[int]) -> list[int]:
        """K26: the kagus that may be the one on a 3-turtle's flooded place, unclamped first."""
        kagus = [a for a in animals if a % 5 == KAGU]
        loose = [a for a in kagus if not self.clamped(a)]
        return loose or kagus

    def can_dive(self, place: int) -> bool:
        """K15, K16: the new size exists and every animal that must go can be thrown off."""
        size = self.size[place]
        if size == 3 and not self.small:
            return False
        smaller = size - 1
        animals = self.on[place]
        if smaller == 0 or len(animals) <= smaller:
            return True
        animals = animals[:]
        if size == 3 and len(animals) == 4:
            animals.remove(self.flooded_kagus(animals)[0])
        loose = sum(1 for a in animals if not self.clamped(a))
        return loose >= (0 if fits(smaller, animals) else len(animals) - smaller)

    def can_float(self, place: int) -> bool:
        """K17: not a 4, and 2 -> 3 needs a large tile."""
        size = self.size[place]
        return size < 4 and not (size == 2 and not self.large)

    def dive(self, place: int) -> None:
        """K15, K18: the turtle dives; an over-full one waits for the player to throw animals off."""
        size = self.size[place]
        if size == 1:
            self.small += 1
            for animal in self.on[place]:
                self.to_island(animal)
            self.size[place] = 0
            self.on[place] = []
            return
        if size == 3:
            self.large += 1
            self.small -= 1
        self.size[place] = size - 1
        animals = self.on[place]
        kagu_first = size == 3 and len(animals) == 4
        if kagu_first or not fits(size - 1, animals):
            self.throw_at = place
            self.throw_kagu = kagu_first

    def float_up(self, place: int) -> None:
        """K17: one size up; 2 -> 3 swaps tiles with the supply."""
        if self.size[place] == 2:
            self.large -= 1
            self.small += 1
        self.size[place] += 1

    def throw_codes(self) -> list[int]:
        """K18, K26, K34: the animals the player may throw off the diving turtle."""
        animals = self.on[self.throw_at]
        if self.throw_kagu:
            return [THROW_CODE + a for a in self.flooded_kagus(animals)]
        return [THROW_CODE + a for a in animals if not self.clamped(a)]

    def throw(self, animal: int) -> None:
        """Throw one animal off the diving turtle; the throw is over once the rest fit."""
        place = self.throw_at
        self.on[place].remove(animal)
        self.to_island(animal)
        if fits(self.size[place], self.on[place]):
            self.throw_at = -1
        self.throw_kagu = False

    # -- events (events.py) ----------------------------------------------------------------------------

    def turn_card(self, name: str) -> None:
        """K38-K45: turn the round's event card and carry it out."""
        left = list(self.events_left)
        left.remove(name)
        self.events_left = left
        self.events_seen = [*self.events_seen, name]
        event = self.event = EVENTS.index(name)
        if event == CLOUDY:
            self.tired = [t for t in self.tired if t[1] != KOALA]
        elif event == THUNDERSTORM:
            self._thunderstorm()
        elif event == SUNSHINE:
            self._sunshine()
        elif event == FLOW:
            self._flow()
        elif event == STORM:
            self._storm()

    def _thunderstorm(self) -> None:
        """K41: each player's rabbit and monkey swap places."""
        if RABBIT not in self.kinds or MONKEY not in self.kinds:
            return
        loc, on = self.loc, self.on
        for seat in range(self.seats):
            rabbit, monkey = seat * 5 + RABBIT, seat * 5 + MONKEY
            at_rabbit, at_monkey = loc[rabbit], loc[monkey]
            if at_rabbit == MAINLAND or at_monkey == MAINLAND or self.clamped(rabbit) or self.clamped(monkey):
                continue
            if at_rabbit == at_monkey:
                continue
            if at_rabbit < ISLAND:
                on[at_rabbit].remove(rabbit)
            if at_monkey < ISLAND:
                on[at_monkey].remove(monkey)
            for animal, to in ((rabbit, at_monkey), (monkey, at_rabbit)):
                if to < ISLAND:
                    on[to].append(animal)
                    loc[animal] = to
                else:
                    self.to_island(animal)

    def _sunshine(self) -> None:
        """K42: lizards walk north, the northernmost first; from row 4 on to the mainland."""
        size, on = self.size, self.on
        walkers = [
            (place, a)
            for row in (3, 2, 1, 0) for place in range(row, self.cols * 4, 4) if size[place]
            for a in on[place] if a % 5 == LIZARD and not self.clamped(a)
        ]
        for place, lizard in walkers:
            row = place & 3
            ahead = place + 1
            if row < 3 and (not size[ahead] or not fits(size[ahead], [*on[ahead], lizard])):
                continue
            on[place].remove(lizard)
            if row + 1 < 3:
                on[ahead].append(lizard)
                self.loc[lizard] = ahead
            else:
                self.rescue(lizard)

    def _flow(self) -> None:
        """K43: in each row the easternmost turtle drifts west if that place is free."""
        size = self.size
        for row in range(4):
            occupied = [col for col in range(self.cols) if size[col * 4 + row]]
            if occupied and occupied[-1] > 0 and not size[(occupied[-1] - 1) * 4 + row]:
                east = occupied[-1] * 4 + row
                self._shift(east, east - 4)

    def _storm(self) -> None:
        """K44: every kagu afloat is blown home, but one holding fast."""
        size, on = self.size, self.on
        for place in ROW_ORDER[self.cols]:
            if size[place]:
                for a in on[place][:]:
                    if a % 5 == KAGU and not self.clamped(a):
                        on[place].remove(a)
                        self.to_island(a)
