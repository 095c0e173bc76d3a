"""The lobby list: the tables announced on the LAN, one a line, to join, watch, or host anew.

It reads a plain list of :class:`Announcement` through a callable, so the discovery
that fills it (DNS-SD, refreshed live) can be wired in later without changing it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import FormattedTextControl, Window

from atoll.game import Fragments
from atoll.tui.palette import styled


@dataclass(frozen=True)
class Announcement:
    """One table as announced on the LAN."""

    name: str
    """The table's name (``"Ann's table"``)."""
    game: str
    variant: str
    seats_taken: int
    seats_free: int
    host: str
    """The host's name, as it announces itself."""
    fingerprint: str
    """The host's key fingerprint, so a player can tell two hosts of one name apart."""

    def line(self, width: int = 80) -> str:
        """The announcement as one line of the list."""
        seats = f"{self.seats_taken}/{self.seats_taken + self.seats_free} seats"
        free = "full" if self.seats_free == 0 else f"{self.seats_free} free"
        game = f"{self.game} ({self.variant})"
        text = (f"{self.name:<16.16} {game:<22.22} {seats:<10} {free:<7} "
                f"{self.host:<10.10} {self.fingerprint[:8]}")
        return text[:width]


#: What the player can do with the highlighted table.
ACTIONS = {"join": "Enter", "spectate": "s", "host": "h"}


class LobbyList:
    """A selectable list of tables. ``tables`` gives the current announcements (it is read on every
    redraw, so a refreshed list shows at once); ``chosen`` is called with the action (``"join"``,
    ``"spectate"``) and the table, or ``"host"`` and ``None`` to open a new table."""

    def __init__(
        self,
        tables: Callable[[], Sequence[Announcement]],
        chosen: Callable[[str, Announcement | None], None],
    ) -> None:
        self._tables = tables
        self._chosen = chosen
        self.selected = 0
        control = FormattedTextControl(styled(self._text), focusable=True, key_bindings=self._keys())
        self.window = Window(control, wrap_lines=False)

    def __pt_container__(self) -> Window:
        """The window, so the list can be put in a layout as it is."""
        return self.window

    def current(self) -> Announcement | None:
        """The highlighted table, or ``None`` when there is none."""
        tables = self._tables()
        if not tables:
            return None
        self.selected = max(0, min(self.selected, len(tables) - 1))
        return tables[self.selected]

    def _text(self) -> Fragments:
        tables = self._tables()
        head = f"{'table':<16} {'game':<22} {'seats':<10} {'free':<7} {'host':<10} key"
        out: Fragments = [("bold underline", head + "\n")]
        if not tables:
            out.append(("italic", "no tables found on the LAN yet; press h to host one\n"))
        current = self.current()
        for table in tables:
            style = "reverse" if table is current else ("fg:ansibrightblack" if table.seats_free == 0 else "")
            out.append((style, table.line() + "\n"))
        out.append(("fg:ansibrightblack", "\n↑/↓ choose · Enter join · s watch · h host a new table\n"))
        return out

    def _keys(self) -> KeyBindings:
        keys = KeyBindings()

        @keys.add("down")
        def _down(event: KeyPressEvent) -> None:
            self.selected += 1
            self.current()

        @keys.add("up")
        def _up(event: KeyPressEvent) -> None:
            self.selected = max(0, self.selected - 1)

        @keys.add("enter")
        def _join(event: KeyPressEvent) -> None:
            table = self.current()
            if table is not None and table.seats_free > 0:
                self._chosen("join", table)

        @keys.add("s")
        def _watch(event: KeyPressEvent) -> None:
            table = self.current()
            if table is not None:
                self._chosen("spectate", table)

        @keys.add("h")
        def _host(event: KeyPressEvent) -> None:
            self._chosen("host", None)

        return keys
