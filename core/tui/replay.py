"""Stepping through a saved game: the board at every step, forwards and back, seen by a spectator
or by any one seat (a saved game opens every hidden face, so every hand can be shown)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from prompt_toolkit.application import Application
from prompt_toolkit.data_structures import Point
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import FormattedTextControl, HSplit, Layout, Window
from prompt_toolkit.layout.dimension import Dimension
from prompt_toolkit.output import Output

from atoll.client.narration import Narrator
from atoll.client.source import LogLine
from atoll.engine.match import Match
from atoll.engine.save import ReplayResolver, SavedGame, replay
from atoll.game import Fragments, Game
from atoll.jsondata import JSON
from atoll.tui.palette import Look, styled
from atoll.tui.screen import STYLE
from atoll.types import Chance, State


@dataclass(frozen=True)
class Frame:
    """The game after one step: its public state, what each seat knew, and the log line of the step."""

    state: State
    known: tuple[dict[str, JSON], ...]
    line: LogLine | None


def frames(game: Game, saved: SavedGame) -> list[Frame]:
    """Every step of ``saved``, from the set-up to the last event. The whole save is checked first
    (:func:`atoll.engine.replay`), so a bad save raises :class:`CorruptSave` naming its line."""
    replay(game, saved)
    match = Match(game, saved.config, ReplayResolver(saved.events, saved.faces))
    narrator = Narrator(lambda: game.seat_names(saved.config), range(saved.config.seats))
    out = [Frame(match.state, tuple(dict(k) for k in match.known), None)]
    for event in saved.events:
        if "request" in event:
            step = match.step()
            assert isinstance(step, Chance)
            match.advance()
        elif "sealed" in event:
            match.act(int(event["seat"]), {"secret": [saved.faces[h] for h in event["sealed"]]})
        else:
            match.act(int(event["seat"]), event["action"])
        (line,) = narrator.catch_up(match)
        out.append(Frame(match.state, tuple(dict(k) for k in match.known), line))
    return out


class ReplayScreen:
    """Steps through ``steps`` of a game of ``game`` set up as ``saved``: → next, ← previous,
    Home and End, ``v`` to change whose eyes the board is drawn for, ``q`` to leave."""

    def __init__(
        self,
        game: Game,
        saved: SavedGame,
        steps: Sequence[Frame],
        *,
        look: Look | None = None,
        input: Input | None = None,
        output: Output | None = None,
    ) -> None:
        self.game = game
        self.saved = saved
        self.steps = list(steps)
        self.look = look or Look()
        self.at = 0
        self.viewer: int | None = None
        self.app: Application[None] = Application(
            layout=Layout(HSplit([
                Window(FormattedTextControl(styled(self._title)), height=1, style="class:title"),
                Window(FormattedTextControl(styled(self._board)), wrap_lines=True, dont_extend_height=True),
                Window(height=1, char="─", style="class:frame"),
                Window(FormattedTextControl(styled(self._log), get_cursor_position=self._log_end),
                       wrap_lines=True, height=Dimension(min=2, weight=1)),
                Window(FormattedTextControl(styled(self._status)), height=1, style="class:status"),
            ])),
            key_bindings=self._keys(),
            style=STYLE,
            full_screen=True,
            input=input,
            output=output,
        )

    def viewer_name(self) -> str:
        """Whose eyes the board is drawn for."""
        if self.viewer is None:
            return "a spectator"
        return str(self.game.seat_names(self.saved.config)[self.viewer])

    def _title(self) -> Fragments:
        info = self.game.info
        config = self.saved.config
        return [("", f" replay: {info.title} ({config.variant}), {config.seats} seats — "
                     f"step {self.at} of {len(self.steps) - 1}")]

    def _board(self) -> Fragments:
        frame = self.steps[self.at]
        known = {} if self.viewer is None else frame.known[self.viewer]
        return self.look.recolour(self.game.render(self.game.view(frame.state, self.viewer, known)))

    def _log(self) -> Fragments:
        out: Fragments = []
        for index, frame in enumerate(self.steps[1: self.at + 1], 1):
            assert frame.line is not None
            style = "reverse" if index == self.at else ""
            out.append((style, f"{index:>4}  {frame.line.seen_by(self.viewer)}\n"))
        return out or [("class:hint", "the start of the game: press → to step\n")]

    def _log_end(self) -> Point:
        return Point(0, max(0, self.at - 1))

    def _status(self) -> Fragments:
        return [("", f" seen by {self.viewer_name()} · → next · ← back · Home/End · "
                     "v: whose eyes · q: leave")]

    def step(self, by: int) -> None:
        """Move ``by`` steps (negative: back), staying within the game."""
        self.at = max(0, min(len(self.steps) - 1, self.at + by))

    def next_viewer(self) -> None:
        """Draw the board for the next seat (after the last seat: a spectator again)."""
        seats = self.saved.config.seats
        self.viewer = 0 if self.viewer is None else (None if self.viewer + 1 >= seats else self.viewer + 1)

    def _keys(self) -> KeyBindings:
        keys = KeyBindings()
        moves = {"right": 1, "n": 1, " ": 1, "l": 1, "left": -1, "p": -1, "h": -1, "pagedown": 10,
                 "pageup": -10, "end": len(self.steps), "G": len(self.steps), "home": -len(self.steps),
                 "g": -len(self.steps)}
        for key, by in moves.items():
            keys.add(key)(_stepper(self, by))

        @keys.add("v")
        def _viewer(event: KeyPressEvent) -> None:
            self.next_viewer()

        @keys.add("q")
        @keys.add("escape")
        @keys.add("c-c")
        @keys.add("c-d")
        def _leave(event: KeyPressEvent) -> None:
            self.app.exit()

        return keys


def _stepper(screen: ReplayScreen, by: int) -> Callable[[KeyPressEvent], None]:
    def handler(event: KeyPressEvent) -> None:
        screen.step(by)

    return handler
