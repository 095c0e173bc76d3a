"""The short form for hosting a new table: game, variant, seats, and how many of them bots take.

It reads the installed games as a plain list of :class:`~atoll.types.GameInfo` and hands the
choice to a callback, so the lobby can open a table with it however tables are opened.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from prompt_toolkit.application import Application
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import FormattedTextControl, Layout, Window
from prompt_toolkit.output import Output

from atoll.game import Fragments
from atoll.tui.palette import styled
from atoll.types import GameInfo

#: The form's fields, in order.
FIELDS = ("game", "variant", "seats", "bots", "bot kind")


@dataclass(frozen=True)
class HostChoice:
    """What the host chose: the table to open."""

    game: str
    variant: str
    seats: int
    bots: int
    """How many of the seats bots take (the last seats)."""
    bot_kind: str


class HostForm:
    """↑/↓ choose a field, ←/→ change it, Enter opens the table (``chosen(choice)``), Esc cancels
    (``chosen(None)``). ``bot_kinds`` gives the bot kinds that can play a game."""

    def __init__(
        self,
        games: Sequence[GameInfo],
        bot_kinds: Callable[[str], Sequence[str]],
        chosen: Callable[[HostChoice | None], None],
        *,
        initial: HostChoice | None = None,
        title: str = "Host a new table",
    ) -> None:
        if not games:
            raise ValueError("no game is installed to host")
        self._games = sorted(games, key=lambda info: info.name)
        self._bot_kinds = bot_kinds
        self._chosen = chosen
        self.title = title
        self.field = 0
        self._game = 0
        self._variant = 0
        self._seats = self._games[0].min_seats
        self._bots = 0
        self._kind = 0
        if initial is not None:
            self._fill(initial)
        control = FormattedTextControl(styled(self._text), focusable=True, key_bindings=self._keys())
        self.window = Window(control)

    def _fill(self, choice: HostChoice) -> None:
        """Start from ``choice`` (a game no longer installed, or a variant it lost, is left as it was)."""
        names = [info.name for info in self._games]
        if choice.game not in names:
            return
        self._game = names.index(choice.game)
        info = self._games[self._game]
        if choice.variant in info.variants:
            self._variant = info.variants.index(choice.variant)
        self._seats = max(info.min_seats, min(info.max_seats, choice.seats))
        self._bots = max(0, min(self._seats - 1, choice.bots))
        kinds = list(self._bot_kinds(info.name))
        self._kind = kinds.index(choice.bot_kind) if choice.bot_kind in kinds else 0

    def __pt_container__(self) -> Window:
        """The window, so the form can be put in a layout as it is."""
        return self.window

    def choice(self) -> HostChoice:
        """The table as the form stands now."""
        info = self._games[self._game]
        kinds = list(self._bot_kinds(info.name))
        kind = kinds[self._kind % len(kinds)] if kinds else ""
        bots = self._bots if kinds else 0
        return HostChoice(info.name, info.variants[self._variant], self._seats, bots, kind)

    def change(self, by: int) -> None:
        """Change the chosen field by ``by`` steps (wrapping for names, within bounds for numbers)."""
        name = FIELDS[self.field]
        if name == "game":
            self._game = (self._game + by) % len(self._games)
            info = self._games[self._game]
            self._variant, self._seats, self._bots, self._kind = 0, info.min_seats, 0, 0
        elif name == "variant":
            self._variant = (self._variant + by) % len(self._games[self._game].variants)
        elif name == "seats":
            info = self._games[self._game]
            self._seats = max(info.min_seats, min(info.max_seats, self._seats + by))
            self._bots = min(self._bots, self._seats - 1)
        elif name == "bots":
            self._bots = max(0, min(self._seats - 1, self._bots + by))
        else:
            self._kind += by

    def _text(self) -> Fragments:
        choice = self.choice()
        info = self._games[self._game]
        values = {
            "game": f"{info.title} ({info.name})",
            "variant": choice.variant,
            "seats": f"{choice.seats}  ({info.min_seats}-{info.max_seats})",
            "bots": f"{choice.bots}  (people: {choice.seats - choice.bots})",
            "bot kind": choice.bot_kind or "none installed",
        }
        out: Fragments = [("bold", f"{self.title}\n\n")]
        for index, name in enumerate(FIELDS):
            style = "reverse" if index == self.field else ""
            out.append(("", f"  {name:<9} "))
            out.append((style, f"◀ {values[name]} ▶"))
            out.append(("", "\n"))
        out.append(("fg:ansibrightblack", "\n↑/↓ field · ←/→ change · Enter open the table · Esc back\n"))
        return out

    def _keys(self) -> KeyBindings:
        keys = KeyBindings()

        @keys.add("up")
        def _up(event: KeyPressEvent) -> None:
            self.field = (self.field - 1) % len(FIELDS)

        @keys.add("down")
        def _down(event: KeyPressEvent) -> None:
            self.field = (self.field + 1) % len(FIELDS)

        @keys.add("left")
        def _less(event: KeyPressEvent) -> None:
            self.change(-1)

        @keys.add("right")
        def _more(event: KeyPressEvent) -> None:
            self.change(1)

        @keys.add("enter")
        def _open(event: KeyPressEvent) -> None:
            self._chosen(self.choice())

        @keys.add("escape")
        def _cancel(event: KeyPressEvent) -> None:
            self._chosen(None)

        return keys


async def choose_next_game(
    games: Sequence[GameInfo],
    bot_kinds: Callable[[str], Sequence[str]],
    last: HostChoice,
    *,
    input: Input | None = None,
    output: Output | None = None,
) -> HostChoice | None:
    """The form on a screen of its own, filled in with the game just played: the host of a rematch
    opens the same game with Enter, or changes any field first; Esc (or Ctrl-C) plays no more."""
    chosen: list[HostChoice | None] = []

    def done(choice: HostChoice | None) -> None:
        chosen.append(choice)
        app.exit()

    form = HostForm(games, bot_kinds, done, initial=last,
                    title="Another game at this table: the same one, or change it")
    keys = KeyBindings()

    @keys.add("c-c")
    def _cancel(event: KeyPressEvent) -> None:
        done(None)

    layout = Layout(form, focused_element=form)
    app: Application[None] = Application(
        layout=layout, key_bindings=keys, full_screen=True, input=input, output=output
    )
    await app.run_async()
    return chosen[0] if chosen else None
