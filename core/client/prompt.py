"""The line-by-line client: a prompt_toolkit PromptSession that plays the player's turns.

Before each decision it prints the board, what happened since the player's last
move, and whose turn it is; then it prompts with completion over the legal
action texts. The game itself lives in :class:`~atoll.client.model.GameModel`.
"""

from __future__ import annotations

import enum
import shlex
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import CompleteEvent, Completer, Completion, DummyCompleter
from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output

from atoll.client.console import Console
from atoll.client.help_pages import cards_help, legend_help, rules_help
from atoll.client.model import GameModel
from atoll.client.source import LogLine
from atoll.engine.match import normal_text
from atoll.errors import AmbiguousAction, AtollError, UnknownAction

#: Commands the prompt understands besides actions (a leading "/" also works).
COMMANDS = {
    "help": "explain how to type actions",
    "board": "draw the board again",
    "rules": "a summary of the game's rules",
    "cards": "the cards, tiles or pieces and what each does",
    "legend": "what the symbols on the board mean",
    "log": "show the whole game log",
    "quit": "leave the game (asks first, and offers to save it)",
}
#: The game's own pages, by command.
PAGES = {"rules": rules_help, "cards": cards_help, "legend": legend_help}
#: How many legal actions to list before each decision (Tab shows them all).
LISTED_ACTIONS = 12
#: Saves the game and returns where it went; raises AtollError when it cannot.
Saver = Callable[[], Path]


class Ending(enum.Enum):
    """How a client session ended."""

    FINISHED = "finished"
    """The game reached its end."""
    QUIT = "quit"
    """The player quit with the ``quit`` command or Ctrl-C."""
    CLOSED = "closed"
    """The input ended (Ctrl-D, or the end of piped input); the game was saved without asking."""


@dataclass(frozen=True)
class SessionResult:
    """What a session did: how it ended, where the game was saved (if it was) and what it printed."""

    ending: Ending
    saved: Path | None
    transcript: tuple[str, ...]


class ActionCompleter(Completer):
    """Completes the whole line with the legal action texts (and the commands) it begins."""

    def __init__(self, texts: Callable[[], Sequence[str]]) -> None:
        self._texts = texts

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
        """Every legal text (then command) that begins, ignoring case, with what is typed."""
        typed = document.text_before_cursor
        wanted = typed.lstrip().lower()
        for text in [*self._texts(), *COMMANDS]:
            if text.lower().startswith(wanted):
                meta = COMMANDS.get(text, "")
                yield Completion(text, start_position=-len(typed), display_meta=meta)


class PromptClient:
    """Plays ``model``'s seat at a prompt, printing through ``console`` and saving with ``saver``.

    ``input`` and ``output`` default to this terminal; tests pass a pipe input
    and ``DummyOutput``. Piped (non-terminal) input works too: lines are read
    as typed, and the end of the input leaves the game as Ctrl-D does.
    ``command`` is how to call atoll in a printed hint; ``plain`` reads lines with
    ``input()`` (a dumb terminal: no completion, no escape codes). ``autosave``
    keeps the game saved before each of the player's turns, and ``discard``
    removes that save when the player leaves without saving.
    """

    def __init__(
        self,
        model: GameModel,
        console: Console,
        saver: Saver,
        *,
        input: Input | None = None,
        output: Output | None = None,
        command: str = "atoll",
        plain: bool = False,
        autosave: Callable[[], None] | None = None,
        discard: Callable[[], None] | None = None,
    ) -> None:
        self.model = model
        self._plain = plain
        self._autosave = autosave
        self._discard = discard
        self._autosave_failed = False
        self._command_name = command
        self.console = console
        self._saver = saver
        # Piped input is not typed live: the completion menu and the space kept for it only
        # clutter the output then (prompt_toolkit does not tell a pipe from a terminal itself).
        live = input is None and sys.stdin.isatty()
        self._completer = ActionCompleter(model.texts)
        # A dumb terminal gets no session at all: creating one already writes cursor codes.
        self._session: PromptSession[str] | None = None if plain else PromptSession(
            input=input,
            output=output,
            complete_while_typing=live,
            reserve_space_for_menu=8 if live else 0,
        )

    def run(self) -> SessionResult:
        """Play until the game ends or the player leaves; the game is saved unless the player says no."""
        try:
            return self._play()
        except KeyboardInterrupt:  # Ctrl-C while bots or chance were acting
            self.console.say("interrupted; leaving the game", "fg:ansiyellow")
            return self._finish(Ending.QUIT, save=True)

    # -- the loop -----------------------------------------------------------------

    def _play(self) -> SessionResult:
        model = self.model
        while True:
            model.advance()
            if model.results() is not None:
                self._show_news()
                self.console.show(model.board())
                self.console.say("the game is over", "bold")
                for line in model.result_lines():
                    self.console.say(line, "bold")
                return self._finish(Ending.FINISHED, save=True)
            self._keep_saved()
            self._show_turn()
            ending = self._read_move()
            if ending is not None:
                return self._finish(*ending)

    def _keep_saved(self) -> None:
        """Save the game so far (it survives a crash); a failure is told once, and play goes on."""
        if self._autosave is None or self._autosave_failed:
            return
        try:
            self._autosave()
        except AtollError as exc:
            self._autosave_failed = True
            self.console.say(f"could not save the game as it goes: {exc}", "fg:ansired")

    def _read_move(self) -> tuple[Ending, bool] | None:
        """Prompt until the player moves (``None``) or leaves (how, and whether to save)."""
        while True:
            try:
                line = self._prompt(self._message(), self._completer)
            except KeyboardInterrupt:
                leaving = self._confirm_quit()
                if leaving is not None:
                    return leaving
                continue
            except EOFError:
                self.console.say("input closed; leaving the game")
                return Ending.CLOSED, True
            text = line.strip()
            if not text:
                continue
            command = text.lower().removeprefix("/")
            exact_action = normal_text(text) in {normal_text(t) for t in self.model.texts()}
            if command in COMMANDS and (text.startswith("/") or not exact_action):
                leaving = self._command(command)
                if leaving is not None:
                    return leaving
                continue
            try:
                self.model.take(text)
            except (UnknownAction, AmbiguousAction) as exc:
                self.console.say(str(exc), "fg:ansired")
                self.console.say("type help for how to play, or press Tab to see the legal actions")
                continue
            return None

    def _command(self, command: str) -> tuple[Ending, bool] | None:
        if command == "quit":
            return self._confirm_quit()
        if command == "board":
            self.console.show(self.model.board())
            self._show_whose_turn()
        elif command == "log":
            self._show_log(self.model.log, "the game so far:")
        elif command in PAGES:
            self.console.show(PAGES[command](self.model.game, self.model.match.config))
        else:
            self._show_help()
        return None

    def _confirm_quit(self) -> tuple[Ending, bool] | None:
        """Ask whether to leave and whether to save; Ctrl-C or Ctrl-D while asked leaves and saves."""
        leave = self._ask("leave this game? [y/N] ", default=False)
        if leave is None:
            return Ending.QUIT, True
        if not leave:
            self.console.say("going on")
            return None
        keep = self._ask("save it so you can replay it later? [Y/n] ", default=True)
        return Ending.QUIT, keep is not False

    def _ask(self, question: str, *, default: bool) -> bool | None:
        """A yes/no answer, ``default`` for an empty one, ``None`` for Ctrl-C or the end of input."""
        while True:
            try:
                answer = self._prompt(FormattedText([("", question)]), DummyCompleter()).strip().lower()
            except (KeyboardInterrupt, EOFError):
                return None
            if not answer:
                return default
            if answer in ("y", "yes"):
                return True
            if answer in ("n", "no"):
                return False
            self.console.say("please answer y or n")

    def _finish(self, ending: Ending, save: bool) -> SessionResult:
        saved = None
        if save:
            try:
                saved = self._saver()
            except AtollError as exc:
                self.console.say(f"could not save the game: {exc}", "fg:ansired")
            else:
                self.console.say(f"saved to {saved}")
                self.console.say(f"replay it with: {self._command_name} replay {shlex.quote(str(saved))}")
        elif ending is Ending.QUIT:
            if self._discard is not None:
                self._discard()
            self.console.say("left without saving")
        return SessionResult(ending, saved, tuple(self.console.transcript))

    # -- what is shown ------------------------------------------------------------

    def _prompt(self, message: FormattedText, completer: Completer) -> str:
        """One line typed after ``message``; on a dumb terminal plain ``input()``, which writes no
        escape codes at all (prompt_toolkit's simple prompt still shows and hides the cursor)."""
        if self._session is None:
            return input("".join(fragment[1] for fragment in message))
        return self._session.prompt(message, completer=completer)

    def _message(self) -> FormattedText:
        if self.model.secret():
            return FormattedText([("fg:ansimagenta bold", "secret choice> ")])
        return FormattedText([("bold", "your move> ")])

    def _show_turn(self) -> None:
        self.console.show(self.model.board())
        self._show_news()
        self._show_whose_turn()

    def _show_news(self) -> None:
        news = self.model.news()
        if news:
            self._show_log(news, "since your last move:" if len(news) < len(self.model.log) else "so far:")

    def _show_log(self, entries: Sequence[LogLine], title: str) -> None:
        if not entries:
            self.console.say("nothing has happened yet")
            return
        lines: list[tuple[str, str]] = [("underline", title), ("", "\n")]
        for entry in entries:
            style = "fg:ansicyan" if entry.seat == self.model.seat else "fg:ansibrightblack"
            lines += [(style, f"  {entry.seen_by(self.model.seat)}"), ("", "\n")]
        self.console.show(lines)

    def _show_whose_turn(self) -> None:
        self.console.say(self.model.turn(), "bold")
        if self.model.secret():
            self.console.say(
                "this choice is secret: the others learn only that you made it, until the game reveals it",
                "fg:ansimagenta",
            )
        texts = self.model.texts()
        shown = ", ".join(texts[:LISTED_ACTIONS])
        more = f", ... ({len(texts)} in all; press Tab)" if len(texts) > LISTED_ACTIONS else ""
        self.console.say(f"legal: {shown}{more}")

    def _show_help(self) -> None:
        self.console.show([
            ("bold", "how to play\n"),
            ("", "Type one of the legal actions as listed; a unique beginning is enough,\n"
                 "and case and extra spaces do not matter. Tab completes.\n"
                 "A secret choice is sealed: the others learn that you chose, not what.\n"),
            ("bold", "commands\n"),
            ("", "".join(f"  {name:<6} {what}\n" for name, what in COMMANDS.items())),
            ("", "(if an action is called like a command, type /command for the command)\n"),
        ])
        self._show_whose_turn()
