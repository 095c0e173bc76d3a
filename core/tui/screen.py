"""The table screen: a full-screen prompt_toolkit application over a :class:`TableSource`.

The board stays at the top where it is; the log scrolls in its own pane (beside the board on a
large terminal, below it on an 80x24 one); the seats panel marks each seat with a symbol and a
digit; the status line says what the table waits for; the prompt completes the legal actions.
Every control reads the source through callables, so each redraw is fresh.

Why one module of over 500 lines: the layout, the key bindings and the controls are one
prompt_toolkit application over one source; the words it shows come from :mod:`atoll.client`.
"""

from __future__ import annotations

import enum
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.data_structures import Point, Size
from prompt_toolkit.filters import Condition
from prompt_toolkit.input import Input
from prompt_toolkit.layout import (
    BufferControl,
    ConditionalContainer,
    Container,
    DynamicContainer,
    Float,
    FloatContainer,
    FormattedTextControl,
    HSplit,
    Layout,
    VSplit,
    Window,
)
from prompt_toolkit.layout.dimension import Dimension
from prompt_toolkit.layout.menus import CompletionsMenu
from prompt_toolkit.layout.processors import BeforeInput
from prompt_toolkit.output import Output
from prompt_toolkit.styles import Style

from atoll.client.matching import common_part
from atoll.client.news import runs
from atoll.client.results import headline, result_lines
from atoll.client.source import Refused, TableSource, Waiting
from atoll.engine.match import normal_text
from atoll.errors import AtollError
from atoll.game import Fragments
from atoll.tui.completion import CHAT_MARKS, ActionCompleter
from atoll.tui.fragments import drop_lines, highlight_changes
from atoll.tui.help import (
    COMMANDS,
    TOPICS,
    cards_help,
    glossary_for,
    keys_help,
    legend_help,
    log_help,
    rules_help,
)
from atoll.tui.keys import table_keys
from atoll.tui.palette import Look, plain, styled

#: A terminal at least this wide puts the seats and the log beside the board.
ROOMY_EXTRA = 34
#: Lines the compact layout keeps for everything but the board (title, seats, log, status, prompt, hint).
COMPACT_RESERVE = 7
#: The same for a board too tall for that: title and seats line give way, the log keeps one line.
TIGHT_RESERVE = 4
STYLE = Style.from_dict({
    "title": "reverse bold",
    "status": "reverse",
    "status.mine": "reverse bold",
    "prompt": "bold",
    "prompt.secret": "bold fg:#cc79a7",
    "prompt.waiting": "fg:ansibrightblack",
    "refused": "fg:#d55e00 bold",
    "hint": "fg:ansibrightblack",
    "news": "bold",
    "frame": "fg:ansibrightblack",
    "question": "reverse bold",
    "command": "italic",
    "changed": "bg:#3a3a3a",
    "chat": "italic",
})


class Ending(enum.Enum):
    """How the player left the table screen."""

    FINISHED = "finished"
    """The game ended and the player closed the result screen."""
    LEFT = "left"
    """The player left before the end (after saying yes)."""
    REMATCH = "rematch"
    """The game ended and the player asked for another with the same people and settings."""
    MOVED = "moved"
    """The table goes on elsewhere (:meth:`TableSource.moved`): the screen closed by itself, unasked."""


@dataclass
class ScreenResult:
    """How the screen ended and the lines to print once it is gone."""

    ending: Ending
    lines: list[str] = field(default_factory=list)


class TableScreen:
    """The table screen for ``source``; ``look`` chooses symbols and palette.

    ``input`` and ``output`` default to this terminal; tests pass a pipe input
    and ``DummyOutput``. ``leave_hint`` gives the line that says how to come
    back after leaving (``None``: none). ``can_rematch``: the result screen offers
    another game with the same people (``r``); ``rematch_hint`` says there what ``r``
    does at this table (or gives that line when asked, as it may change during the game).
    ``match_lines`` gives the lines the result screen adds when the game is one of a match
    (``atoll play --match N``): the totals so far.
    """

    def __init__(
        self,
        source: TableSource,
        *,
        look: Look | None = None,
        input: Input | None = None,
        output: Output | None = None,
        leave_hint: Callable[[], str | None] | None = None,
        can_rematch: bool = True,
        rematch_hint: str | Callable[[], str] | None = None,
        match_lines: Callable[[], Sequence[str]] | None = None,
    ) -> None:
        self.source = source
        self.match_lines = match_lines
        self.can_rematch = can_rematch
        self.rematch_hint = rematch_hint
        self.look = look or Look()
        humans = list(source.humans())
        self.viewer: int | None = humans[0] if humans else None  # None: a spectator
        self.handoff: int | None = None
        self.overlay: Callable[[], Fragments] | None = None
        self.overlay_scroll = 0
        self.asking = False
        self.message: Fragments = []
        self._leave_hint = leave_hint
        self._seen: dict[int | None, int] = {}  # log lines each person had seen when they last moved
        self.result_shown = True  # at the end, the result page instead of the board (F7 switches)
        self._was_mine = False
        self._seen_board: list[str] | None = None  # the board just after the viewer's latest move
        self._memo_stamp: object = None
        self._memo_values: dict[str, Any] = {}
        self.buffer = Buffer(
            completer=ActionCompleter(self._legal_texts, self._commands, self._explain),
            complete_while_typing=True,
            multiline=False,
            accept_handler=self._accept,
        )
        self.buffer.on_text_changed += lambda _: self._clear_message()
        self.app: Application[ScreenResult] = Application(
            layout=Layout(self._root(), focused_element=self.buffer),
            key_bindings=table_keys(self),
            style=STYLE,
            full_screen=True,
            input=input,
            output=output,
        )

    # -- running --------------------------------------------------------------------

    async def run(self) -> ScreenResult:
        """Show the table until the player leaves (or the table moves on elsewhere); the source's
        background task runs meanwhile."""

        def watch() -> None:  # once the application runs: the task may end the screen at its first step
            self.app.create_background_task(self.source.run(self._changed))

        return await self.app.run_async(pre_run=watch)

    def _changed(self) -> None:
        """The source changed: hand the keyboard over in a hot-seat game, ring when a turn comes; close
        at once, with nothing to print, when the table moved on elsewhere (the caller says where)."""
        if self.source.moved():
            if not self.app.is_done:
                self.app.exit(result=ScreenResult(Ending.MOVED))
            return
        if self.viewer is None and self.source.humans():  # a network seat is taken once the host logs it
            self.viewer = self.source.humans()[0]
        waiting = self.source.waiting()
        mine = waiting.local and waiting.seat is not None
        if mine and waiting.seat != self.viewer and waiting.seat is not None:
            self.handoff = waiting.seat
            self.buffer.reset()
            self.message = []  # "you played: bid 13" is the previous player's, maybe a secret
        if mine and not self._was_mine:
            self.app.output.bell()
        self._was_mine = mine
        self.app.invalidate()

    # -- reading the source ---------------------------------------------------------

    def _waiting(self) -> Waiting:
        return self.source.waiting()

    def _my_turn(self) -> bool:
        waiting = self._waiting()
        return (waiting.local and self.viewer is not None and waiting.seat == self.viewer
                and self.handoff is None)

    def _memo(self, what: str, make: Callable[[], Any]) -> Any:
        """``make()``, computed once per state of the table: a redraw reads the board and the legal
        texts several times, and a game may take a while to list its actions."""
        log = self.source.log()
        stamp = (len(log), log[-1] if log else None, self.viewer, self._my_turn())
        if self._memo_stamp != stamp:
            self._memo_stamp = stamp
            self._memo_values = {}
        if what not in self._memo_values:
            self._memo_values[what] = make()
        return self._memo_values[what]

    def _legal_texts(self) -> list[str]:
        texts: list[str] = self._memo(
            "texts", lambda: list(self.source.texts(self.viewer))
            if self._my_turn() and self.viewer is not None else [])
        return texts

    def _commands(self) -> dict[str, str]:
        commands = {name: what for name, (_, what) in TOPICS.items()}
        commands.update((name, what) for name, (_, what) in COMMANDS.items())
        return commands

    def _explain(self, text: str) -> str | None:
        said = self.source.action_help(self.viewer, text) if self.viewer is not None else None
        return said or glossary_for(self.source.game, self.source.config, text)

    def _size(self) -> Size:
        app = getattr(self, "app", None)  # the layout is first walked before the application exists
        return app.output.get_size() if app is not None else Size(rows=24, columns=80)

    def _roomy(self) -> bool:
        size = self._size()
        return size.columns >= self._board_width() + ROOMY_EXTRA and size.rows >= 30

    def _board(self) -> Fragments:
        board: Fragments = self._memo("board", self._draw_board)
        return board

    def _draw_board(self) -> Fragments:
        try:
            board = self.look.recolour(self.source.board(self.viewer))
        except Exception as exc:  # a plugin's drawing bug must not take the table down with it
            name = self.source.game.info.name
            return [("class:refused", f"{name} could not draw its board: {type(exc).__name__}: {exc}\n")]
        if self._seen_board is None:
            return board
        return highlight_changes(board, self._seen_board)

    def _board_lines(self) -> list[str]:
        lines: list[str] = self._memo("lines", lambda: plain(self._board()).rstrip("\n").split("\n"))
        return lines

    def _board_width(self) -> int:
        return max((len(line) for line in self._board_lines()), default=0)

    def _board_height(self, width: int) -> int:
        return sum(max(1, -(-len(line) // max(width, 1))) for line in self._board_lines())

    # -- layout ---------------------------------------------------------------------

    def _root(self) -> Container:
        compact_board = Window(FormattedTextControl(styled(self._board)), wrap_lines=True,
                               height=lambda: self._compact_board_height())
        roomy_board = Window(FormattedTextControl(styled(self._board)), wrap_lines=True,
                             width=lambda: Dimension.exact(self._board_width() + 1))
        roomy_enough = Condition(lambda: not self._tight())
        compact = HSplit([
            compact_board,
            ConditionalContainer(
                Window(FormattedTextControl(styled(self._seats_line)), height=1, style="class:frame"),
                filter=roomy_enough,
            ),
            self._log_window(),
        ])
        roomy = VSplit([
            roomy_board,
            Window(width=1, char="│", style="class:frame"),
            HSplit([
                Window(FormattedTextControl(styled(self._seats_panel)), dont_extend_height=True),
                Window(height=1, char="─", style="class:frame"),
                self._log_window(),
            ]),
        ])
        handoff = Window(FormattedTextControl(styled(self._handoff_text)), wrap_lines=True)
        overlay = Window(FormattedTextControl(styled(self._overlay_text)), wrap_lines=True)
        result = Window(FormattedTextControl(styled(self._results_text)), wrap_lines=True)

        def body() -> Container:
            if self.handoff is not None:
                return handoff
            if self.overlay is not None:
                return overlay
            if self._showing_results():
                return result
            return roomy if self._roomy() else compact

        prompt = Window(
            BufferControl(self.buffer, input_processors=[BeforeInput(styled(self._prompt_text))]),
            height=1,
        )
        hidden_prompt = Condition(lambda: self.handoff is None and self.overlay is None)
        root = HSplit([
            ConditionalContainer(
                Window(FormattedTextControl(styled(self._title)), height=1, style="class:title"),
                filter=roomy_enough,
            ),
            DynamicContainer(body),
            Window(FormattedTextControl(styled(self._status)), height=1, style="class:status"),
            ConditionalContainer(prompt, filter=hidden_prompt),
            Window(FormattedTextControl(styled(self._hint)), wrap_lines=True,
                   height=Dimension(min=1, max=3), dont_extend_height=True),
        ])
        return FloatContainer(root, floats=[
            Float(xcursor=True, ycursor=True, content=CompletionsMenu(max_height=8, scroll_offset=1)),
        ])

    def _tight(self) -> bool:
        """Whether the board needs the lines of the title and the seats line (compact layout only)."""
        size = self._size()
        return not self._roomy() and self._board_height(size.columns) > size.rows - COMPACT_RESERVE

    def _compact_board_height(self) -> Dimension:
        size = self._size()
        reserve = TIGHT_RESERVE if self._tight() else COMPACT_RESERVE
        return Dimension.exact(max(1, min(self._board_height(size.columns), size.rows - reserve)))

    def _log_window(self) -> Window:
        return Window(
            FormattedTextControl(styled(self._log_text), get_cursor_position=self._log_end),
            wrap_lines=True,
            height=Dimension(min=1, weight=1),
        )

    # -- what each part shows ---------------------------------------------------------

    def _title(self) -> Fragments:
        return [("", f" {self.source.title()}")]

    def _seat_mark(self, seat: int, name: str) -> Fragments:
        return [(self.look.seat_style(seat, name), f"{self.look.symbol(seat)} {name}")]

    def _seats_line(self) -> Fragments:
        """Every seat on one line: with who sits there if the line is wide enough, else who sits only
        at the seats played here (the board names the rest), else the marks alone."""
        width = self._size().columns - 1
        for detail in ("all", "local", "none"):
            out: Fragments = []
            for line in self.source.seats():
                arrow = "▶" if self.look.unicode else ">"
                out.append(("bold" if line.to_act else "", f"{arrow if line.to_act else ' '}"))
                out.extend(self._seat_mark(line.seat, line.name))
                shown = detail == "all" or (detail == "local" and line.local)
                if shown:
                    out.append(("", f" ({line.who}{', ' + line.presence if line.presence else ''})  "))
                else:  # a seat away or gone is marked however narrow the line
                    out.append(("italic", f" {line.presence}  " if line.presence else "  "))
            if len(plain(out).rstrip()) <= width:
                break
        return out

    def _seats_panel(self) -> Fragments:
        out: Fragments = []
        results = self.source.results()
        for line in self.source.seats():
            arrow = "▶ " if self.look.unicode else "> "
            out.append(("bold", arrow if line.to_act else "  "))
            out.extend(self._seat_mark(line.seat, line.name))
            out.append(("", f"  {line.who}"))
            if line.presence:
                out.append(("italic", f" ({line.presence})"))
            if results is not None:
                won = " wins" if line.seat in results.winners else ""
                out.append(("bold", f"  {results.scores[line.seat]}{won}"))
            out.append(("", "\n"))
        return out

    def _log_text(self) -> Fragments:
        # drawn once per state of the table, size, news mark and result: a redraw reads the pane
        # several times (its height, its end), and wrapping a long log each time made redraws slow
        size = self._size()
        key = (size, self._seen_log(), self.source.results() is not None)
        drawn: dict[tuple[Size, int, bool], Fragments] = self._memo("log", dict)
        if key not in drawn:
            drawn[key] = self._draw_log(size)
        return drawn[key]

    def _draw_log(self, size: Size) -> Fragments:
        lines = self.source.log()
        width = size.columns - self._board_width() - 2 if self._roomy() else size.columns
        seen = min(self._seen_log(), len(lines))
        first = max(0, seen - size.rows)  # the pane shows the end; F5 shows it all
        out: Fragments = []
        for line in lines[first:seen]:
            out.append(self._log_line(line.seat, line.seen_by(self.viewer), line.chat, "", width))
        if seen < len(lines):
            title = "since your last move:" if seen else "so far:"
            out.append(("class:news underline", title + "\n"))
            names = [line.name for line in self.source.seats()]
            for run in runs(lines[seen:], names, self.viewer):
                out.append(self._log_line(run.seat, run.line(names), run.chat, "class:news", width))
        results = self.source.results()
        if results is not None:
            out.append(("bold", self._wrap(headline(results, self._people()), width)))
            out.extend(("bold", self._wrap(line, width)) for line in self._match_lines())
        return out or [("class:hint", "the game log appears here\n")]

    def _seen_log(self) -> int:
        """How many log lines the person at the keyboard had seen when they last moved (in a hot-seat
        game each person has their own: the summary shows what happened since *their* move)."""
        return self._seen.get(self.viewer, 0)

    def _log_line(self, seat: int | None, text: str, chat: bool, style: str, width: int) -> tuple[str, str]:
        """One line of the log pane: the viewer's own in its seat's colour, table talk marked."""
        if seat is not None and seat == self.viewer:
            style = self.look.seat_style(seat, self.source.seats()[seat].name)
        if chat:
            said = ("» " if self.look.unicode else "> ") + text
            return (f"{style} class:chat", self._wrap(said, width))
        return (style, self._wrap(text, width))

    @staticmethod
    def _wrap(text: str, width: int) -> str:
        """``text`` broken between words to the log pane's ``width`` (the pane itself would cut words),
        the lines after the first indented; with its newline."""
        indent = " " * (len(text) - len(text.lstrip()) + 2)
        wrapped = textwrap.wrap(text, max(20, width), subsequent_indent=indent, break_on_hyphens=False)
        return "\n".join(wrapped or [text]) + "\n"

    def _people(self) -> list[str]:
        """Each seat as the result names it: the game's seat name and who sits there (``red (Ann)``)."""
        return [f"{line.name} ({line.who})" for line in self.source.seats()]

    def _result_lines(self) -> list[str]:
        """Who won, every place with its points as the game counted them, and the tie-break."""
        results = self.source.results()
        if results is None:
            return []
        people = self._people()
        width = max(40, self._size().columns - 2)
        return [headline(results, people), *result_lines(results, self.source.score_sheet(), people, width)]

    def _results_text(self) -> Fragments:
        lines = self._result_lines()
        if not lines:
            return []
        out: Fragments = [("bold", f"\n {lines[0]}\n\n")]
        out.extend(("", f" {line}\n") for line in lines[1:])
        out.extend(("bold", f" {line}\n") for line in self._match_lines())  # a match's totals so far
        out.append(("class:hint", "\n F7 shows the board · F5 the whole log\n"))
        return out

    def _showing_results(self) -> bool:
        return self.result_shown and self.source.results() is not None

    def _log_end(self) -> Point:
        lines = plain(self._log_text()).count("\n")
        return Point(0, max(0, lines - 1))

    def _status(self) -> Fragments:
        waiting = self._waiting()
        if self.handoff is not None:
            name = self.source.seats()[self.handoff].name
            return [("class:status.mine", f" pass the keyboard to {name}")]
        style = "class:status.mine" if self._my_turn() else "class:status"
        text = waiting.text
        results = self.source.results()
        if results is not None:
            names = [line.name for line in self.source.seats()]
            scores = ", ".join(f"{names[seat]} {score}" for seat, score in enumerate(results.scores))
            text = f"{headline(results, self._people())} (scores: {scores})"
        return [(style, f" {text}")]

    def _prompt_text(self) -> Fragments:
        if self._waiting().over:
            again = ", r: rematch" if self.can_rematch else ""
            return [("class:prompt", f"game over (Enter leaves{again})> ")]
        if self.viewer is None:
            return [("class:prompt.waiting", "watching> ")]
        if not self._my_turn():
            return [("class:prompt.waiting", "wait> ")]
        if self._waiting().secret:
            return [("class:prompt.secret", "secret choice> ")]
        return [("class:prompt", "your move> ")]

    def _hint(self) -> Fragments:
        if self.asking:
            return [("class:question", " " + self._leave_question() + " [y/N] ")]
        question = self.source.question()
        if question is not None:  # answered with one key (see keys.py): first, whatever else is said
            offered = " · ".join(f"{key}: {what}" for key, what in question.keys)
            return [("class:question", f" {question.text} {offered} ")]
        refused = bool(self.message) and self.message[0][0] == "class:refused"
        over = self._waiting().over and self.overlay is None and not self.buffer.text
        rematch = self.rematch_hint() if callable(self.rematch_hint) else self.rematch_hint
        if over and self.can_rematch and rematch and not refused:  # before "you played: ..."
            return [("class:hint", rematch)]
        if self.handoff is not None:  # nothing of the previous player's, whatever was said to them
            return [("class:hint", "press Enter when only the next player can see the screen")]
        if self.message:
            return self.message
        if self.overlay is not None:
            return [("class:hint", "Esc or q closes · PgUp/PgDn or ↑/↓ scroll")]
        state = self.buffer.complete_state
        current = state.current_completion if state is not None else None
        text = current.text if current is not None else self.buffer.text.strip()
        if text and normal_text(text) in {normal_text(t) for t in self._legal_texts()}:
            exact = next(t for t in self._legal_texts() if normal_text(t) == normal_text(text))
            explained = self._explain(exact)
            if explained:
                return [("", f"{exact}: {explained}")]
        keys = "Tab completes · F1 help · F2 rules · F3 cards · F4 legend · F5 log · ^C leave"
        if self.viewer is None:
            keys = "type to talk to the table · F1 help · F2 rules · F3 cards · F5 log · ^C leave"
        return [("class:hint", keys)]

    def _leave_question(self) -> str:
        hint = self._leave_hint() if self._leave_hint is not None and not self._waiting().over else None
        return f"leave the game? {hint}" if hint else "leave the game?"

    def _handoff_text(self) -> Fragments:
        seat = self.handoff if self.handoff is not None else (self.viewer or 0)
        line = self.source.seats()[seat]
        return [
            ("", "\n\n   "), ("bold", "Pass the keyboard to "), *self._seat_mark(seat, line.name),
            ("bold", f" ({line.who}).\n\n"),
            ("", "   The previous player's hand is hidden. When only the next player can see\n"
                 "   the screen, press Enter.\n"),
        ]

    def _overlay_text(self) -> Fragments:
        if self.overlay is None:
            return []
        text = self.overlay()
        lines = plain(text).split("\n")
        self.overlay_scroll = max(0, min(self.overlay_scroll, len(lines) - 3))
        if not self.overlay_scroll:
            return text
        return drop_lines(text, self.overlay_scroll)

    # -- acting -----------------------------------------------------------------------

    def _clear_message(self) -> None:
        self.message = []

    def say(self, text: str, style: str = "") -> None:
        """Show ``text`` in the hint line until the player types again."""
        self.message = [(style, text)]

    def _accept(self, buffer: Buffer) -> bool:
        """Enter: a command, or an action for the source; a refused text stays in the line."""
        text = buffer.text.strip()
        if not text:
            if self._waiting().over:
                self.app.exit(result=ScreenResult(Ending.FINISHED, self._closing_lines()))
            return True
        said = next((text[len(mark):] for mark in CHAT_MARKS if text.lower().startswith(mark)), None)
        command = text.lower().removeprefix("/")
        legal = {normal_text(t) for t in self._legal_texts()}
        if said is None and self.viewer is None and command not in self._commands():
            said = text  # a spectator has no move to make: whatever it types is table talk
        if said is not None:
            self._chat(buffer, said)
            return True
        if command in self._commands() and (text.startswith("/") or normal_text(text) not in legal):
            buffer.reset()
            self.command(command)
            return True
        if self._waiting().over:
            self.say("the game is over: press Enter on an empty line to leave", "class:refused")
            return True
        if not self._my_turn():
            self.say(f"not your turn: {self._waiting().text} (what you typed stays)", "class:refused")
            return True
        try:
            assert self.viewer is not None  # _my_turn() says so
            chosen = self.source.submit(self.viewer, text)
        except Refused as exc:
            self.say(str(exc), "class:refused")
            return True
        except AtollError as exc:
            self.say(f"refused: {exc}", "class:refused")
            return True
        self._seen[self.viewer] = len(self.source.log())
        self._seen_board = None
        self._seen_board = plain(self._draw_board()).split("\n")  # what changes from here is marked
        buffer.reset()
        self.say(f"you played: {chosen}", "class:hint")
        self._changed()
        return True

    def _chat(self, buffer: Buffer, text: str) -> None:
        try:
            self.source.chat(text)
        except Refused as exc:
            self.say(str(exc), "class:refused")
            return
        buffer.reset()
        self.app.invalidate()

    def command(self, name: str) -> None:
        """Run a command typed at the prompt or given by its key."""
        game, config = self.source.game, self.source.config
        topics: dict[str, Callable[[], Fragments]] = {
            "help": keys_help,
            "rules": lambda: rules_help(game, config),
            "cards": lambda: cards_help(game, config),
            "legend": lambda: legend_help(game, config),
            "log": lambda: log_help(self.source.log(), self.viewer),
        }
        self.buffer.cancel_completion()  # the menu would float over a help screen or a question
        if name in topics:
            self.overlay = topics[name]
            self.overlay_scroll = 0
        elif name == "result":
            self._toggle_result()
        elif name == "undo":
            self._undo()
        elif name == "quit":
            self.ask_to_leave()
        self.app.invalidate()

    def _toggle_result(self) -> None:
        if self.source.results() is None:
            self.say("the result shows when the game is over", "class:refused")
            return
        self.result_shown = not self.result_shown

    def _undo(self) -> None:
        if self.viewer is None or not self.source.can_undo(self.viewer):
            self.say("nothing to undo now: only your own latest move, on your turn", "class:refused")
            return
        self.source.undo(self.viewer)
        self._seen[self.viewer] = len(self.source.log())
        self.say("took back your latest move", "class:hint")

    def ask_to_leave(self) -> None:
        """Ctrl-C or Ctrl-D: ask before leaving; pressed again while asked, leave."""
        if self.asking:
            self.leave()
            return
        self.buffer.cancel_completion()
        self.asking = True

    def answer(self, key: str) -> None:
        """A key pressed while the table asks a question (:meth:`TableSource.question`)."""
        chosen = self.source.answer(key)
        if chosen is not None:
            self.say(f"you chose: {chosen}", "class:hint")

    def stay(self) -> None:
        """Any answer but yes to the question whether to leave."""
        self.asking = False
        self.say("going on", "class:hint")

    def leave(self) -> None:
        """Close the screen: the game is left (or over), and the source keeps what is needed."""
        ending = Ending.FINISHED if self._waiting().over else Ending.LEFT
        self.app.exit(result=ScreenResult(ending, self._closing_lines()))

    def rematch(self) -> None:
        """Close the finished game's screen asking for another game with the same people."""
        self.app.exit(result=ScreenResult(Ending.REMATCH, self._closing_lines()))

    def close_help(self) -> None:
        """Close the help screen shown."""
        self.overlay = None

    def page(self) -> int:
        """How many lines a page of a help screen is."""
        return max(1, self._size().rows - 6)

    def scroll(self, lines: int) -> None:
        """Scroll the help screen shown by ``lines`` (negative: up)."""
        self.overlay_scroll = max(0, self.overlay_scroll + lines)

    def take_keyboard(self) -> None:
        """The next player of a hot-seat game has the keyboard: show the table through their eyes."""
        if self.handoff is None:
            return
        self.viewer = self.handoff
        self.handoff = None
        self._seen_board = None
        self.message = []  # the previous player's note is not for the next one
        self.app.invalidate()

    def tab(self) -> None:
        """Tab: complete the part every fitting action shares; then step through the fitting actions."""
        buffer = self.buffer
        state = buffer.complete_state
        if state is not None and state.current_completion is not None:
            buffer.complete_next()  # already stepping through the menu
            return
        completed = common_part(buffer.text, self._legal_texts())
        longer = len(completed) >= len(buffer.text.strip())
        if normal_text(completed) != normal_text(buffer.text) and longer:
            buffer.cancel_completion()
            buffer.text = completed
            buffer.cursor_position = len(completed)
        elif state is not None:
            buffer.complete_next()
        else:
            buffer.start_completion(select_first=True)

    def tab_back(self) -> None:
        """Shift-Tab: step back through the fitting actions."""
        if self.buffer.complete_state is not None:
            self.buffer.complete_previous()

    def _match_lines(self) -> Sequence[str]:
        """The match's totals under a finished game's result (none for a single game)."""
        return self.match_lines() if self.match_lines is not None else ()

    def _closing_lines(self) -> list[str]:
        lines = []
        results = self.source.results()
        if results is not None:
            lines.extend(self._result_lines())
            lines.extend(self._match_lines())
        said = self.source.leave()
        if said:
            lines.append(said)
        if self._leave_hint is not None:
            hint = self._leave_hint()
            if hint:
                lines.append(hint)
        return lines
