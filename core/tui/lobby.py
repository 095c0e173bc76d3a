"""The lobby: the tables announced on the LAN, two lines each, to join, watch, or host anew.

:class:`LobbyList` reads a plain list of :class:`Announcement` through a callable;
:class:`LobbyScreen` fills it from a DNS-SD browser (anything with a live ``tables`` list of
:class:`~atoll.net.discovery.FoundTable`), redrawn as tables come and go, with the host form
one key away.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from prompt_toolkit.application import Application
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import DynamicContainer, FormattedTextControl, HSplit, Layout, Window
from prompt_toolkit.output import Output

from atoll.game import Fragments
from atoll.tui.host_form import HostChoice, HostForm
from atoll.tui.palette import styled
from atoll.tui.seat_picker import Colours, SeatPicker, palette_colours
from atoll.types import GameInfo

if TYPE_CHECKING:
    from atoll.net.discovery import Announcement as NetAnnouncement
    from atoll.net.discovery import FoundTable
    from atoll.registry import Registry

#: How often the lobby redraws the list of tables found, in seconds.
REFRESH_S = 0.5


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
    found: Any = field(default=None, compare=False)
    """Where the table was found (a :class:`~atoll.net.discovery.FoundTable`), to go there."""
    other_game: str = ""
    """Why the table's game is not the one installed here (another build, or not installed), or
    empty when it is the same (or the host did not say)."""
    big_screen: str = ""
    """Where the table's big screen (``atoll host --web``) can be opened, or empty when it has none."""

    @classmethod
    def of(cls, found: FoundTable, installed: Callable[[str], str | None] | None = None) -> Announcement:
        """The line for a table a DNS-SD browser found (its address stands for the host); ``installed``
        gives the short digest of a game's pin as installed here (``None``: not installed), to mark a
        table whose game differs."""
        a = found.announcement
        other = ""
        if installed is not None and a.build:
            here = installed(a.game)
            if here is None:
                other = f"plays {a.game}, which is not installed here"
            elif here != a.build:
                other = f"plays another build of {a.game} than the one installed here"
        return cls(a.name, a.game, a.variant, a.taken, a.free, found.addresses[0], a.fingerprint, found,
                   other, big_screen_line(found))

    def lines(self) -> tuple[str, ...]:
        """The announcement as the list shows it: the table, its game and seats; then the host and
        its whole key fingerprint (to check against the one the host shows), all within 80 columns;
        then, for a table whose game differs from the one installed here, how."""
        seats = f"{self.seats_taken}/{self.seats_taken + self.seats_free} seats"
        free = "full" if self.seats_free == 0 else f"{self.seats_free} free"
        game = f"{self.game} ({self.variant})"
        lines = (f"{self.name:<20.20} {game:<30.30} {seats:<10} {free}",
                 f"    host {self.host:.30}, key {self.fingerprint}")
        return (*lines, *(f"    {extra:.76}" for extra in (self.other_game, self.big_screen) if extra))


def big_screen_line(found: FoundTable) -> str:
    """What the lobby says of a table's big screen (the announcement's ``web``): where to open it, or
    that it is on the host's machine; empty when the table has none."""
    web = found.announcement.web
    if not web:
        return ""
    if web == "here":
        return "on a big screen at the host's machine"
    host = f"[{found.addresses[0]}]" if ":" in found.addresses[0] else found.addresses[0]
    return f"on a big screen: http://{host}:{web}/"


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
        head = f"{'table':<20} {'game':<30} {'seats':<10} free"
        out: Fragments = [("bold underline", head + "\n")]
        if not tables:
            out.append(("italic", "no tables found on the LAN yet; press h to host one\n"))
        current = self.current()  # keeps the highlight within the list as tables come and go
        for index, table in enumerate(tables):
            full = "fg:ansibrightblack" if table.seats_free == 0 or table.other_game else ""
            chosen = current is not None and index == self.selected
            first, *rest = table.lines()
            out.append(("reverse" if chosen else full, first + "\n"))
            out.extend(("reverse" if chosen else full or "fg:ansibrightblack", line + "\n") for line in rest)
        keys = "↑/↓ choose · Enter join · s watch · h host a new table · q leave"
        out.append(("fg:ansibrightblack", f"\n{keys}\n"))
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


class Browser(Protocol):
    """What the lobby reads tables from: a DNS-SD browser (:class:`~atoll.net.discovery.TableBrowser`)
    or, in tests, any object with such a list."""

    @property
    def tables(self) -> list[FoundTable]:
        """The tables announced now."""


@dataclass(frozen=True)
class LobbyChoice:
    """What the person chose in the lobby: ``"join"`` (at ``seat``, from 0, if one was picked) or
    ``"spectate"`` a ``table``, or ``"host"``."""

    action: str
    table: FoundTable | None = None
    host: HostChoice | None = None
    seat: int | None = None


class LobbyScreen:
    """The lobby as a full-screen application: the tables ``browser`` finds, redrawn live; Enter joins,
    ``s`` watches, ``h`` opens the host form (``games`` and their ``bot_kinds``), ``q`` or Esc leaves.
    ``installed`` gives the short digest of a game's pin as installed here: a table whose game
    differs is marked. Enter on a table with two or more seats free opens the seat picker, its seats
    in the colours ``colours`` gives (the palette's when not given)."""

    def __init__(
        self,
        browser: Browser,
        games: Sequence[GameInfo],
        bot_kinds: Callable[[str], Sequence[str]],
        *,
        installed: Callable[[str], str | None] | None = None,
        colours: Colours = palette_colours,
        input: Input | None = None,
        output: Output | None = None,
    ) -> None:
        self.browser = browser
        self.installed = installed
        self.list = LobbyList(self.tables, self._chosen)
        self.form = HostForm(games, bot_kinds, self._hosted)
        self.hosting = False
        self.picking: str | None = None
        """The instance name of the table whose seats are shown, while the seat picker is open."""
        self.picker = SeatPicker(self._picked_table, colours, self._sit)
        title = Window(FormattedTextControl([("reverse bold", " atoll lobby: tables on this LAN")]), height=1)
        body = DynamicContainer(self._body)
        keys = KeyBindings()

        @keys.add("q")
        @keys.add("escape")
        @keys.add("c-c")
        def _leave(event: KeyPressEvent) -> None:
            if self.hosting and event.key_sequence[0].key != "c-c":
                self._hosted(None)
                return
            if self.picking and event.key_sequence[0].key != "c-c":
                self.picking = None
                self.app.layout.focus(self.list)
                return
            self.app.exit(result=None)

        self.app: Application[LobbyChoice | None] = Application(
            layout=Layout(HSplit([title, body]), focused_element=self.list),
            key_bindings=keys,
            full_screen=True,
            input=input,
            output=output,
        )

    def _body(self) -> HostForm | SeatPicker | LobbyList:
        """What the lobby shows now: the host form, the seat picker, or the list of tables."""
        return self.form if self.hosting else self.picker if self.picking else self.list

    def tables(self) -> list[Announcement]:
        """The tables announced now, as lobby lines."""
        return [Announcement.of(found, self.installed) for found in self.browser.tables]

    async def run(self) -> LobbyChoice | None:
        """Show the lobby until a table is chosen (or one to host), or the person leaves (``None``)."""
        self.app.create_background_task(self._refresh())
        return await self.app.run_async()

    async def _refresh(self) -> None:
        seen: list[Announcement] = []
        while True:  # cancelled when the application ends
            await asyncio.sleep(REFRESH_S)
            now = self.tables()
            if now != seen:
                seen = now
                self.app.invalidate()

    def _chosen(self, action: str, table: Announcement | None) -> None:
        if action == "host":
            self.hosting = True
            self.app.layout.focus(self.form)
            return
        if table is None:
            return
        seats = table.found.announcement.open_seats if table.found is not None else None
        if action == "join" and seats is not None and len(seats) > 1:
            self.picking = table.found.instance  # a choice to make: the seat picker
            self.app.layout.focus(self.picker)
            return
        self.app.exit(result=LobbyChoice(action, table.found))

    def _picked_table(self) -> NetAnnouncement | None:
        """The announcement of the table whose seats the picker shows, as it is now."""
        return next((found.announcement for found in self.browser.tables if found.instance == self.picking),
                    None)

    def _sit(self, seat: int) -> None:
        found = next((found for found in self.browser.tables if found.instance == self.picking), None)
        if found is not None:
            self.app.exit(result=LobbyChoice("join", found, seat=seat))

    def _hosted(self, choice: HostChoice | None) -> None:
        if choice is not None:
            self.app.exit(result=LobbyChoice("host", host=choice))
            return
        self.hosting = False
        self.app.layout.focus(self.list)


async def choose_in_lobby(
    registry: Registry, *, interfaces: Sequence[str] | None = None
) -> LobbyChoice | None:
    """Browse the LAN for tables (DNS-SD) while the lobby screen is open; what the person chose."""
    from atoll.net.discovery import TableBrowser

    games = [installed.game.info for installed in registry.games.values()]

    def bot_kinds(game: str) -> list[str]:
        return sorted(kind.name for kind in registry.bots_for(game))

    async with TableBrowser(interfaces=interfaces) as browser:
        lobby = LobbyScreen(browser, games, bot_kinds, installed=installed_builds(registry),
                            colours=game_colours(registry))
        return await lobby.run()


def game_colours(registry: Registry) -> Colours:
    """The colour words of an installed game's seats (the palette's for a game not installed here)."""
    from atoll.errors import AtollError
    from atoll.seat_colours import seat_colours
    from atoll.types import Config

    def colours(game: str, variant: str, seats: int) -> Sequence[str]:
        try:
            return seat_colours(registry.game(game).seat_names(Config(seats, variant, {})))
        except AtollError:  # not installed here: the seat bar would draw the palette's colours
            return palette_colours(game, variant, seats)

    return colours


def installed_builds(registry: Registry) -> Callable[[str], str | None]:
    """The short digest of a game's pin as installed here (``None``: not installed), as a table's
    announcement carries it (``build``)."""

    def build(game: str) -> str | None:
        pin = registry.installed_pin(game)
        return pin.short() if pin is not None else None

    return build
