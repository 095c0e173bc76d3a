"""A table read line by line: what the full-screen table shows, printed as it happens, for a terminal
that cannot hold a full screen (``TERM=dumb``, a pipe) at a network table.

It reads the same :class:`~atoll.client.source.TableSource` as the table screen, so the log is in the
game's words (revealed bids, what chance did), the seats are named as the seats panel names them,
and the result is the same page, each person's points part by part. Lines typed come from a queue
the caller fills (``None``: the input ended); nothing here writes an escape code.
"""

from __future__ import annotations

import asyncio
import enum
from collections.abc import Callable, Sequence

from atoll.client.results import headline, result_lines
from atoll.client.source import Question, Refused, TableSource
from atoll.errors import AtollError
from atoll.game import Fragments

#: How a line begins that talks to the table instead of playing (as at the table screen).
CHAT_MARKS = ("'", '"', "/say ")
#: How many legal actions are listed before each decision.
LISTED_ACTIONS = 12
#: The words typed to ask for something other than a move.
COMMANDS = {
    "board": "draw the board again",
    "log": "the whole game log",
    "help": "the legal actions and these commands",
    "quit": "leave the table",
}


class Ending(enum.Enum):
    """How the person's time at the table ended."""

    FINISHED = "finished"
    """The game is over (or stopped); the table closed."""
    LEFT = "left"
    """The person left before the end (``quit``, or the input ended)."""
    MOVED = "moved"
    """The table goes on elsewhere (:meth:`TableSource.moved`): nothing more is printed here, the
    caller says where."""


class LineTable:
    """The person at ``source`` line by line; ``write`` prints one line.

    :param symbol: the seat's mark as the seats line shows it (``"●1"``), from the caller's look.
    """

    def __init__(self, source: TableSource, write: Callable[[str], None],
                 symbol: Callable[[int], str] = lambda seat: f"#{seat + 1}") -> None:
        self.source = source
        self.write = write
        self.symbol = symbol
        self._printed = 0  # log lines printed
        self._asked: tuple[int, int] | None = None  # the moment whose board and prompt were printed
        self._seated = False
        self._question: Question | None = None  # the question printed last

    @property
    def viewer(self) -> int | None:
        """The seat the person here plays (``None``: watching)."""
        humans = self.source.humans()
        return humans[0] if humans else None

    async def play(self, lines: asyncio.Queue[str | None]) -> Ending:
        """Print the table as it changes and play the lines typed, until the table closes, the person
        leaves or the table moves on elsewhere."""
        changed = asyncio.Event()
        watching = asyncio.ensure_future(self.source.run(changed.set))
        self.write(self.source.title())
        try:
            while True:
                self._catch_up()
                self._ask()
                if watching.done():
                    if self.source.moved():
                        return Ending.MOVED
                    self._catch_up()
                    self._closing()
                    return Ending.FINISHED
                self._turn()
                typed = asyncio.ensure_future(lines.get())
                waited = asyncio.ensure_future(changed.wait())
                done, _ = await asyncio.wait({typed, waited, watching}, return_when=asyncio.FIRST_COMPLETED)
                changed.clear()
                for future in (typed, waited):
                    if future not in done:
                        future.cancel()
                if typed in done and not self._take(typed.result()):
                    self._catch_up()
                    said = self.source.leave()
                    if said:
                        self.write(said)
                    return Ending.LEFT
        finally:
            if not watching.done():
                watching.cancel()

    # -- what is printed -----------------------------------------------------------------

    def _people(self) -> list[str]:
        """Each seat as the seats panel names it: ``red (Ann)``."""
        return [f"{line.name} ({line.who})" for line in self.source.seats()]

    def _seats_line(self) -> str:
        return "seats: " + ", ".join(f"{self.symbol(line.seat)} {line.name} ({line.who})"
                                     for line in self.source.seats())

    def _catch_up(self) -> None:
        log = self.source.log()
        if not self._seated and self.source.seats():
            full = all(line.who != "free" for line in self.source.seats())
            if full:
                self._seated = True
                self.write(self._seats_line())
        for line in log[self._printed:]:
            text = line.seen_by(self.viewer)
            self.write(f"  » {text}" if line.chat else f"  {text}")
        self._printed = len(log)

    def _ask(self) -> None:
        """A question the table puts to the person here, printed once (answered by a line: its key or
        its first word, ``w`` or ``wait``)."""
        question = self.source.question()
        if question is not None and question != self._question:
            offered = ", ".join(f"{key} ({what})" for key, what in question.keys)
            self.write(f"{question.text} type {offered}")
        self._question = question

    def _turn(self) -> None:
        """Before the person's decision, once: the board, the seats, what is asked, the legal texts."""
        seat = self.viewer
        texts = self.source.texts(seat) if seat is not None else []
        if seat is None or not texts:
            return
        moment = (len(self.source.log()), seat)
        if moment == self._asked:
            return
        self._asked = moment
        self.write(_plain(self.source.board(seat)).rstrip("\n"))
        self.write(self._seats_line())
        self.write(self.source.waiting().text)
        self._legal(texts)

    def _legal(self, texts: Sequence[str]) -> None:
        shown = ", ".join(texts[:LISTED_ACTIONS])
        more = f", ... ({len(texts)} in all)" if len(texts) > LISTED_ACTIONS else ""
        self.write(f"legal: {shown}{more}")

    def _closing(self) -> None:
        """The result page, as the table screen prints it when it closes; or why the game stopped."""
        results = self.source.results()
        if results is None:
            self.write(f"the game did not finish: {self.source.problem() or 'the table closed'}")
            return
        people = self._people()
        self.write(headline(results, people))
        for line in result_lines(results, self.source.score_sheet(), people):
            self.write(line)

    # -- what is typed -------------------------------------------------------------------

    def _take(self, typed: str | None) -> bool:
        """Act on a typed line; ``False`` when the person leaves."""
        if typed is None:
            return False
        text = typed.strip()
        if self._question is not None and text and text.lower() in _answers(self._question):
            chosen = self.source.answer(text[0].lower())
            if chosen is not None:
                self.write(f"you chose: {chosen}")
            return True
        said = next((text[len(mark):] for mark in CHAT_MARKS if text.lower().startswith(mark)), None)
        if said is None and self.viewer is None and text and text.lower() not in COMMANDS:
            said = text  # a spectator has no move to make: whatever it types is table talk
        try:
            if said is not None:
                self.source.chat(said)
            elif text.lower().removeprefix("/") in COMMANDS:
                return self._command(text.lower().removeprefix("/"))
            elif text:
                self._move(text)
        except AtollError as exc:
            self.write(str(exc))
        return True

    def _move(self, text: str) -> None:
        seat = self.viewer
        if seat is None or not self.source.texts(seat):
            raise Refused(f"not your turn: {self.source.waiting().text}")
        chosen = self.source.submit(seat, text)
        self.write(f"you played: {chosen}")

    def _command(self, name: str) -> bool:
        if name == "quit":
            return False
        if name == "board":
            self.write(_plain(self.source.board(self.viewer)).rstrip("\n"))
            self.write(self._seats_line())
        elif name == "log":
            for line in self.source.log():
                self.write(f"  {line.seen_by(self.viewer)}")
        else:
            seat = self.viewer
            texts = self.source.texts(seat) if seat is not None else []
            if texts:
                self._legal(texts)
            self.write("commands: " + ", ".join(f"{name} ({what})" for name, what in COMMANDS.items())
                       + "; a line that starts with ' talks to the table")
        return True


def _answers(question: Question) -> set[str]:
    """What a typed line may be to answer ``question``: a key, or the first word of what it does."""
    return {key for key, _ in question.keys} | {what.split()[0] for _, what in question.keys}


def _plain(fragments: Fragments) -> str:
    return "".join(text for _, text in fragments)
