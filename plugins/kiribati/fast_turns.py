"""The fast path's turns: moving animals, playing cards and the order of play (rules K19-K36, K46) on a
:class:`~atoll.plugins.kiribati.fast_board.FastBoard`, in the rule modules' order."""

from __future__ import annotations

from atoll.plugins.kiribati.events import DRAWN
from atoll.plugins.kiribati.fast_board import FastBoard
from atoll.plugins.kiribati.fast_codes import (
    ANIMALS_STEP,
    ANSWER,
    ANSWER_CODE,
    CHILDREN,
    CLAMP,
    CLOUDY,
    CURRENT,
    DIE,
    DONE,
    EVENT,
    FEEDING,
    ISLAND,
    JUMP_TO,
    KAGU,
    KIND_STEPS,
    KOALA,
    MAINLAND,
    MONKEY,
    MOVE_CODES,
    NO_EVENT,
    OVER,
    PASS,
    PLAY,
    PROFESSIONAL,
    REST,
    REVEAL,
    ROLL,
    ROW_ORDER,
    SHARK,
    SLEEP,
    THROW,
    TURTLE,
)

#: Which card answers which (K36): clamp grip a shark attack, feeding station a rest or a sleep.
ANSWERS = {CLAMP: (SHARK,), FEEDING: (REST, SLEEP)}
#: Turns of its owner a rest break and a deep sleep last (K31, K33).
TIRED_TURNS = {REST: 1, SLEEP: 2}


def room_for(size: int, animals: list[int], kind: int, from_island: bool) -> bool:
    """Whether an animal of ``kind`` finds room among ``animals``, as
    :func:`atoll.plugins.kiribati.pieces.room_for` decides (K26)."""
    aboard = len(animals)
    if aboard < size:
        return True
    if from_island or size != 3 or aboard != 3:
        return False
    return kind == KAGU or any(a % 5 == KAGU for a in animals)


class FastTurns(FastBoard):
    """A :class:`FastBoard` with the steps of a turn: the legal codes of each and what each does."""

    __slots__ = ()

    # -- animals (animals.py) --------------------------------------------------------------------------

    def moves(self, seat: int) -> list[int]:
        """K19-K27: every move of ``seat``'s animals now, from the island first, then by kind."""
        size, on, loc = self.size, self.on, self.loc
        tired = [k for s, k, _ in self.tired if s == seat] if self.tired else ()
        moved = self.moved
        base = seat * 5
        out: list[int] = []
        if not moved:  # K20, K25: from the island only onto a free place, a koala too
            free = [p for p in range(0, self.cols * 4, 4) if size[p] and len(on[p]) < size[p]]
            for kind in self.kinds:
                if loc[base + kind] == ISLAND and kind not in tired:
                    codes = MOVE_CODES[kind]
                    out += [codes[p] for p in free]
        cloudy = self.event == CLOUDY
        steps = KIND_STEPS[self.cols]
        for kind in self.kinds:
            animal = base + kind
            place = loc[animal]
            if place >= ISLAND or kind in tired:
                continue
            if kind in moved and not (self.extra and not (cloudy and kind == KOALA)):
                continue  # K30, K39: a second move needs a feeding station, and a koala no clouds
            # K21-K23: steps onto turtles with room (made here, not in a method: the commonest listing)
            codes = MOVE_CODES[kind]
            for to in steps[kind][place]:
                room = size[to]
                if room:
                    if len(on[to]) < room:
                        out.append(codes[to])
                    else:
                        self.arrive(animal, kind, to, out)
            if kind == MONKEY:
                self.jumps(animal, place, out)
            row = place & 3
            if row == 3:  # K22: ashore from row 4, home from row 1
                out.append(codes[MAINLAND])
            elif row == 0:
                out.append(codes[ISLAND])
        return out

    def jumps(self, monkey: int, place: int, out: list[int]) -> None:
        """K24: the monkey jumps straight over one turtle onto the next, never over open water."""
        size, on = self.size, self.on
        codes = MOVE_CODES[MONKEY]
        for over, to in JUMP_TO[self.cols][place]:
            room = size[to]
            if room and size[over]:
                if len(on[to]) < room:
                    out.append(codes[to])
                else:
                    self.arrive(monkey, MONKEY, to, out)

    def arrive(self, animal: int, kind: int, to: int, out: list[int]) -> None:
        """Onto a full turtle: by the kagu's flooded place, or a koala displacing an animal (K25, K26)."""
        if room_for(self.size[to], self.on[to], kind, False):
            out.append(MOVE_CODES[kind][to])
        elif kind == KOALA:
            self.bumps(animal, to, out)

    def bumps(self, koala: int, to: int, out: list[int]) -> None:
        """K25: the koala, moving from a turtle, displaces one animal, never a koala nor one holding a
        clamp grip, if that makes room."""
        size, animals = self.size[to], self.on[to]
        code = MOVE_CODES[KOALA][to] + 1
        for victim in animals:
            rest = [a for a in animals if a != victim]
            if victim % 5 != KOALA and not self.clamped(victim) and room_for(size, rest, KOALA, False):
                out.append(code + victim)

    def move(self, code: int) -> None:
        """Make a move of :meth:`moves`; a displaced animal swims home."""
        detail = code - MOVE_CODES[0][0]
        bump = detail & 31
        to = (detail >> 5) & 31
        kind = detail >> 10
        seat = self.turn
        animal = seat * 5 + kind
        loc = self.loc
        place = loc[animal]
        if place < ISLAND:
            self.on[place].remove(animal)
            if self.clamp[seat] == kind:
                self.clamp[seat] = -1
        else:
            self.placed = True
        if kind in self.moved:
            self.extra -= 1
        else:
            self.moved.append(kind)
        if to < ISLAND:
            if bump:
                self.on[to].remove(bump - 1)
                self.to_island(bump - 1)
            self.on[to].append(animal)
            loc[animal] = to
        elif to == ISLAND:
            self.to_island(animal)
        else:
            self.rescue(animal)

    # -- cards (cards.py) ------------------------------------------------------------------------------

    def may_play(self) -> bool:
        """Whether the player on turn may still play a card this turn."""
        return (
            bool(self.hands[self.turn]) and not self.carded and self.variant != CHILDREN
            and self.phase in (DIE, TURTLE, ANIMALS_STEP)
        )

    def card_codes(self, seat: int, out: list[int]) -> None:
        """K29-K35: the cards ``seat`` may play now, with every choice each allows."""
        if not self.may_play() or seat != self.turn:
            return
        size, on, cloudy = self.size, self.on, self.event == CLOUDY
        for card in self.hands[seat]:
            base = PLAY + card * 64
            if card == FEEDING:
                out.append(base)
            elif card == CURRENT:
                out += [base + 1 + p for p in ROW_ORDER[self.cols] if size[p] and self.may_carry(p)]
            elif card == CLAMP:
                out += [
                    base + 1 + a % 5 for p in ROW_ORDER[self.cols] if size[p]
                    for a in on[p] if a // 5 == seat and not (cloudy and a % 5 == KOALA)
                ]
            else:
                for p in ROW_ORDER[self.cols]:
                    if not size[p]:
                        continue
                    for a in on[p]:
                        owner, kind = divmod(a, 5)
                        if owner == seat or (cloudy and kind == KOALA):
                            continue
                        if card == SHARK:
                            if p & 3 == 3 or self.clamped(a):
                                continue  # K35: no shark in the mainland's shallows
                        elif self.is_tired(owner, kind):
                            continue
                        out.append(base + 1 + a)

    def may_carry(self, place: int) -> bool:
        """K32, K39: a current carries a turtle as a die would, never into the open sea, and in a
        cloudy round not when it carries or pushes a koala."""
        col, row = place >> 2, place & 3
        end = self.chain_end(col, row)
        if end < 0 or end == self.cols:
            return False
        if self.event != CLOUDY:
            return True
        return not any(a % 5 == KOALA for c in range(col, end) for a in self.on[c * 4 + row])

    def discard(self, seat: int, card: int) -> None:
        """``seat`` plays its kept ``card``: it goes face up on its discard pile."""
        at = self.hands[seat].index(card)
        self.hands[seat] = self.hands[seat][:at] + self.hands[seat][at + 1:]
        self.handles[seat] = self.handles[seat][:at] + self.handles[seat][at + 1:]
        self.played[seat] = [*self.played[seat], card]

    def play(self, code: int) -> None:
        """Play a card of :meth:`card_codes`; one against another's animal may wait for an answer (K36)."""
        card, detail = divmod(code - PLAY, 64)
        seat = self.turn
        self.discard(seat, card)
        self.carded = True
        if card == FEEDING:
            self.extra += 1
        elif card == CURRENT:
            self.drift((detail - 1) >> 2, (detail - 1) & 3)
        elif card == CLAMP:
            self.clamp[seat] = detail - 1
        else:
            target = detail - 1
            owner = target // 5
            if self.hands[owner] and owner not in self.answered:
                self.pending = (card, seat, target, self.phase)
                self.phase = ANSWER
            else:
                self.strike(card, target)

    def answer_codes(self) -> list[int]:
        """K36: pass, or the one card that answers the card played."""
        assert self.pending is not None
        card = self.pending[0]
        out = [PASS]
        for held in self.hands[self.pending[2] // 5]:
            if held in ANSWERS and card in ANSWERS[held]:
                out.append(ANSWER_CODE + held)
        return out

    def answer(self, code: int) -> None:
        """Take the answer: a pass lets the card strike; an answering card stops it."""
        assert self.pending is not None
        card, _, target, resume = self.pending
        if code == PASS:
            self.strike(card, target)
        else:
            owner, kind = divmod(target, 5)
            held = code - ANSWER_CODE
            self.discard(owner, held)
            self.answered = [*self.answered, owner]
            if held == CLAMP:
                self.clamp[owner] = kind
        self.phase = resume
        self.pending = None

    def strike(self, card: int, target: int) -> None:
        """A card's effect on an animal: it rests (with its owner's others on that turtle), sleeps, or
        swims home from a shark."""
        owner, kind = divmod(target, 5)
        place = self.loc[target]
        if card == SLEEP:
            self.tired = [*self.tired, [owner, kind, TIRED_TURNS[card]]]
        elif card == REST:
            cloudy = self.event == CLOUDY
            resting = [
                [owner, k, TIRED_TURNS[card]] for k in self.kinds
                if self.loc[owner * 5 + k] == place and not self.is_tired(owner, k)
                and not (cloudy and k == KOALA)
            ]
            self.tired = [*self.tired, *resting]
        else:
            self.on[place].remove(target)
            self.to_island(target)

    # -- the order of play (turn.py) -------------------------------------------------------------------

    def enter_turtle(self) -> None:
        """The chosen die's turtle action, if it has any (K9: else on to the animals)."""
        codes = self.die_codes(self.die)
        if not codes:
            self.enter_animals()
            return
        self.phase = TURTLE
        if self.die >= 5:
            codes.append(PASS)
        if self.hands[self.turn] and not self.carded and self.variant != CHILDREN:  # may_play(), inlined
            self.card_codes(self.turn, codes)
        self._legal = codes

    def enter_animals(self) -> None:
        """The animals step; a player with no move and no card to play is done at once."""
        self.phase = ANIMALS_STEP
        if self.hands[self.turn] and not self.carded and self.variant != CHILDREN:  # may_play(), inlined
            self._legal = None
            return
        codes = self.moves(self.turn)
        if not codes:
            self.end_turn()
            return
        codes.append(DONE)
        self._legal = codes

    def after_turtle(self) -> None:
        """After a turtle action: throw animals off an over-full turtle, or move animals."""
        if self.throw_at >= 0:
            self.phase = THROW
        else:
            self.enter_animals()

    def reenter(self) -> None:
        """Back to the step a card interrupted; a current may have changed what the die allows."""
        if self.phase == TURTLE:
            self.enter_turtle()
        elif self.phase == ANIMALS_STEP:
            self.enter_animals()

    def end_turn(self) -> None:
        """The next player's turn; after the last one, the round's end (K46)."""
        seat = self.turn
        if self.tired:
            self.tired = [[s, k, n - 1 if s == seat else n] for s, k, n in self.tired if s != seat or n > 1]
        self.dice = []
        self.die = 0
        self.moved = []
        self.placed = False
        self.extra = 0
        self.carded = False
        self._legal = None
        seat += 1
        if seat < self.seats:
            self.turn = seat
            self.phase = ROLL
            return
        self.turn = 0
        self.answered = []
        if self.variant == PROFESSIONAL:
            self.event = NO_EVENT
            if self.finished or self.round >= DRAWN:
                self.finish()
                return
        self.round += 1
        self.phase = EVENT if self.variant == PROFESSIONAL else ROLL

    def finish(self) -> None:
        """The game is over; the kept cards nobody played wait to be opened (K49)."""
        self.phase = REVEAL if any(self.hands) else OVER
