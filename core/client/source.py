"""What a table screen reads: the :class:`TableSource` interface, and the small values it returns.

A local game (:class:`atoll.client.local_table.LocalTable`) and a network table
(:class:`atoll.client.net_source.NetTable`) implement it, so one screen draws both. The
screen never touches the engine: it reads through these methods on every
redraw and calls :meth:`TableSource.submit` with what the player typed.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from atoll.errors import AtollError
from atoll.game import Fragments, Game
from atoll.scoresheet import ScoreSheet
from atoll.types import Config, Results


class Refused(AtollError):
    """A typed text that is not a legal action now; the message says why, in the game's words if it can.

    ``candidates`` are the legal texts the typed one could have meant (an
    ambiguous beginning), empty when it fits none.
    """

    def __init__(self, message: str, candidates: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.candidates = tuple(candidates)


class TableMoved(Exception):
    """The table's loop ends here because the table goes on elsewhere: a seat took it over from this
    machine, which hosted it, and this machine's seat plays on as a peer's in a new screen (decision
    0020). Not a failure: the screen closes by itself, at once, and its caller opens the next one."""


@dataclass(frozen=True)
class LogLine:
    """One line of the game log: who acted (``None``: chance) and what happened, in public words.

    ``private`` is the acting seat's own wording (its sealed choice), shown to that seat only.
    """

    seat: int | None
    text: str
    private: str | None = None
    privately: tuple[tuple[int, str], ...] = ()
    """Other seats' own wordings, ``(seat, text)``: what chance showed one seat (``"you draw a zebra"``)."""
    chat: bool = False
    """Table talk (a person's words, never part of the game log)."""

    def seen_by(self, viewer: int | None) -> str:
        """The line as ``viewer`` may read it."""
        if viewer is None:
            return self.text
        if self.private is not None and viewer == self.seat:
            return self.private
        return next((text for seat, text in self.privately if seat == viewer), self.text)


@dataclass(frozen=True)
class SeatLine:
    """One seat as the seats panel shows it."""

    seat: int
    name: str
    """The game's seat name (``"red"``), the player's own name beside it if known."""
    who: str
    """Who sits there: ``"you"``, ``"random bot"``, a player's name."""
    to_act: bool
    """Whether this seat is to decide now."""
    local: bool
    """Whether a person at this terminal plays it."""
    presence: str = ""
    """Its presence mark at a network table ("away", "left", "bot", "back"; empty: simply here)."""


@dataclass(frozen=True)
class Waiting:
    """What the table waits for now."""

    seat: int | None
    """The seat to decide, or ``None`` (chance, the game over, or nothing yet)."""
    text: str
    """The status line: ``"blue (search bot) is thinking…"``, ``"your turn (red): a move"``."""
    local: bool
    """Whether a person at this terminal is to type now (then :attr:`seat` is theirs)."""
    secret: bool = False
    """Whether the decision is sealed (the others learn only that a choice was made)."""
    over: bool = False
    """Whether the game has ended."""


@dataclass(frozen=True)
class Question:
    """Something the person here is asked and must answer with one key (the host's person, when a seat
    left a table that asks): the words, and each key with what it chooses, in the order offered."""

    text: str
    keys: tuple[tuple[str, str], ...]
    """(key, what it does) pairs, e.g. ``("w", "wait for Bea")``."""


class TableSource(Protocol):
    """One table as the screen sees it: the game, its view and log, whose turn, and a way to act.

    Seats typed at this terminal are :meth:`humans` (one, or several in a
    hot-seat game). Reading methods are cheap and called on every redraw;
    :meth:`run` is the table's background task.
    """

    game: Game
    config: Config

    def title(self) -> str:
        """A one-line title: the game, variant and seats."""

    def humans(self) -> Sequence[int]:
        """The seats typed at this terminal, in seat order."""

    def board(self, viewer: int | None) -> Fragments:
        """The game's drawing of what ``viewer`` (``None``: a spectator) may see."""

    def log(self) -> Sequence[LogLine]:
        """The whole game log so far, oldest first."""

    def seats(self) -> Sequence[SeatLine]:
        """Every seat in order, for the seats panel."""

    def waiting(self) -> Waiting:
        """What the table waits for now."""

    def texts(self, seat: int) -> Sequence[str]:
        """The legal action texts of ``seat`` now, in the game's order (empty unless it is to decide)."""

    def action_help(self, seat: int, text: str) -> str | None:
        """What the legal action ``text`` of ``seat`` does, or ``None``."""

    def submit(self, seat: int, text: str) -> str:
        """``seat`` takes the action ``text`` names; returns the action's full text.

        Raises :class:`Refused` with the reason, changing nothing, when the
        text names no single legal action of ``seat`` now.
        """

    def results(self) -> Results | None:
        """The results once the game is over, else ``None``."""

    def score_sheet(self) -> ScoreSheet | None:
        """How the scores were counted, in the game's words, once the game is over (else ``None``, as
        when the game does not say)."""

    def can_undo(self, seat: int) -> bool:
        """Whether ``seat`` may take back its latest action now (local games against bots only)."""

    def undo(self, seat: int) -> None:
        """Take back ``seat``'s latest action and everything after it."""

    def run(self, changed: Callable[[], None]) -> Coroutine[Any, Any, None]:
        """The table's background task: let the others act, calling ``changed`` after each change;
        it ends when the game does. It never raises into the event loop: a failure becomes a log
        line and :meth:`problem`."""

    def problem(self) -> str | None:
        """Why the table stopped early (a bot or a peer failed), or ``None``."""

    def moved(self) -> bool:
        """Whether the table's loop ended because the table goes on elsewhere (:class:`TableMoved`):
        the screen then closes at once, unasked, and its caller says why (a local game never moves)."""

    def leave(self) -> str | None:
        """The player leaves: keep what is needed to come back; returns a line to print (where the
        game was saved and how to resume it), or ``None``."""

    def question(self) -> Question | None:
        """What the person here is asked now and must answer (:meth:`answer`), or ``None``."""

    def answer(self, key: str) -> str | None:
        """Answer :meth:`question` with ``key``: what was chosen, or ``None`` for a key it does not offer."""

    def chat(self, text: str) -> None:
        """Say ``text`` to everyone at the table (table talk); raises :class:`Refused` where nobody
        else can read it (a local game)."""
