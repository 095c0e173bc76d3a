"""Choosing a seat in the lobby: the chosen table's seats, each with its mark and colour as the seat bar
draws them (``●1 red``), the free ones to pick with ↑/↓ and Enter (docs/decisions/0023).

The picker reads the table's announcement through a callable on every redraw, so a seat taken while
the person looks is shown taken at once (and the highlight moves to a free one)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import FormattedTextControl, Window

from atoll.game import Fragments
from atoll.seat_colours import seat_colours
from atoll.tui.palette import Look, styled

if TYPE_CHECKING:  # zeroconf is imported only when the lobby browses
    from atoll.net.discovery import Announcement

#: The colour words of a game's seats: (game, variant, seats) -> one word a seat.
Colours = Callable[[str, str, int], Sequence[str]]


def palette_colours(game: str, variant: str, seats: int) -> Sequence[str]:
    """The seats' colours when the game is not known here: the palette's, in seat order."""
    return seat_colours([""] * seats)


class SeatPicker:
    """The seats of one announced table; Enter calls ``chosen(seat)`` (from 0) with the highlighted
    free seat. ``table`` gives the announcement now (``None``: the table is gone)."""

    def __init__(
        self,
        table: Callable[[], Announcement | None],
        colours: Colours,
        chosen: Callable[[int], None],
        *,
        look: Look | None = None,
    ) -> None:
        self._table = table
        self._colours = colours
        self._chosen = chosen
        self.look = look or Look()
        self.selected: int | None = None
        """The highlighted seat (from 0), always a free one while any is."""
        control = FormattedTextControl(styled(self._text), focusable=True, key_bindings=self._keys())
        self.window = Window(control, wrap_lines=False)

    def __pt_container__(self) -> Window:
        """The window, so the picker can be put in a layout as it is."""
        return self.window

    def free(self) -> list[int]:
        """The seats a newcomer may take now, as the host announces them."""
        announcement = self._table()
        if announcement is None or announcement.open_seats is None:
            return []
        return sorted(announcement.open_seats)

    def current(self) -> int | None:
        """The highlighted seat, moved to the nearest free one if it was taken meanwhile."""
        free = self.free()
        if not free:
            self.selected = None
        elif self.selected not in free:
            after = [seat for seat in free if self.selected is None or seat > self.selected]
            self.selected = after[0] if after else free[-1]
        return self.selected

    def _text(self) -> Fragments:
        announcement = self._table()
        if announcement is None:
            return [("italic", "the table is no longer announced; Esc goes back to the list\n")]
        a = announcement
        colours = self._colours(a.game, a.variant, a.seats)
        out: Fragments = [("bold", f"{a.name}: {a.game} ({a.variant}) — choose your seat\n\n")]
        free, current = self.free(), self.current()
        for seat in range(a.seats):
            colour = colours[seat] if seat < len(colours) else ""
            mark = self.look.symbol(seat)
            chosen = seat == current
            out.append(("reverse" if chosen else "", "▶ " if chosen else "  "))
            out.append((self.look.seat_style(seat, colour), f"{mark} {colour:<8}"))
            out.append(("reverse" if chosen else "" if seat in free else "fg:ansibrightblack",
                        "  free\n" if seat in free else "  taken\n"))
        keys = "↑/↓ choose a free seat · Enter sit there · Esc back to the tables"
        out.append(("fg:ansibrightblack", f"\n{keys}\n"))
        return out

    def _keys(self) -> KeyBindings:
        keys = KeyBindings()

        def step(by: int) -> None:
            free, current = self.free(), self.current()
            if current is not None:
                index = max(0, min(len(free) - 1, free.index(current) + by))
                self.selected = free[index]

        @keys.add("down")
        def _down(event: KeyPressEvent) -> None:
            step(1)

        @keys.add("up")
        def _up(event: KeyPressEvent) -> None:
            step(-1)

        @keys.add("enter")
        def _sit(event: KeyPressEvent) -> None:
            seat = self.current()
            if seat is not None:
                self._chosen(seat)

        return keys
