"""What the big screen shows of a table, as one JSON-able snapshot: built only from what a spectator
may see, the rendering of ``view(None)``, the public log in its public words, the seats as the lobby
names them, whose turn it is and what the table waits for, the table talk relayed to everyone, and
the result with the game's breakdown."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypedDict

from atoll.client.net_source import NetTable
from atoll.client.results import headline, result_lines
from atoll.net.envelope import Envelope
from atoll.table.table import Table
from atoll.tui.palette import Look, plain
from atoll.types import Config
from atoll.web.styles import css, to_html

#: How many of the latest moves (and lines of table talk) the page shows.
MOVES_SHOWN = 12
TALK_SHOWN = 6
#: How wide the result's lines may be before they are wrapped: the page wraps them to its own width.
RESULT_WIDTH = 10_000


class SeatRow(TypedDict):
    """One seat as the page shows it."""

    mark: str
    """The seat's symbol and number (``"▲2"``), as the terminal marks it."""
    name: str
    """The game's seat name (``"red"``)."""
    who: str
    """Who sits there (their name), or ``"free"``."""
    colour: str
    """The CSS of the seat's colour (``"color:#d55e00;font-weight:bold"``)."""
    presence: str
    """``"here"``, ``"away"`` (the host has not heard from it for a while) or ``"free"``."""
    to_act: bool
    score: int | None
    won: bool


class Result(TypedDict):
    """The result screen: who won, then every place with the points as the game counted them."""

    headline: str
    lines: list[str]


class Snapshot(TypedDict):
    """Everything the page shows at one moment (what each Server-Sent Event carries)."""

    title: str
    board: str
    """The board as HTML spans (the game's rendering of ``view(None)``)."""
    rows: int
    cols: int
    """The board's size in characters, so the page can size its font to fill the screen."""
    seats: list[SeatRow]
    waiting: str
    over: bool
    moves: list[str]
    talk: list[str]
    result: Result | None


class TablePage:
    """The big screen's reading of one table (``table``: this peer's copy, a spectator's or the
    host's own, or what gives the copy as it stands now: a spectator's session replaces its copy when
    it sets entries aside). ``away`` gives the seats shown away now. Table talk reaches it through
    :meth:`hear`."""

    def __init__(self, table: Table | Callable[[], Table], away: Callable[[], Sequence[int]]) -> None:
        self._away = away
        self._look = Look(unicode=True, palette=True)
        self._source = NetTable(table, role="watch", send=_nowhere, away=away)

    @property
    def table(self) -> Table:
        """The copy of the table read now."""
        return self._source.table

    def hear(self, message: Envelope) -> None:
        """A chat message the host relayed: kept for the page if its author is at the table."""
        if self._open():
            self._source.hear(message)

    def _open(self) -> bool:
        """Whether the table has opened (its game known); the reader is made ready then."""
        lobby = self.table.lobby
        if lobby is None:
            return False
        if not hasattr(self._source, "game"):
            self._source.game = self.table.games(lobby.game)
            self._source.config = Config(lobby.seats, lobby.variant, dict(lobby.options))
        return True

    def stamp(self) -> tuple[object, ...]:
        """A cheap mark of the table's state: when it changes, the snapshot may have."""
        engine = self.table.engine
        steps = engine.progress() if engine is not None else -1
        lines = len(self._source.log()) if self._open() else 0
        return (len(self.table.log.entries), len(self.table.events), steps, lines, tuple(self._away()),
                self.table.ended)

    def snapshot(self) -> Snapshot:
        """What the page shows now."""
        if not self._open():
            return waiting_only("connecting to the table…")
        source = self._source
        board = source.board(None)  # a spectator's view: nothing a seat holds hidden
        text = plain(board)
        lines = source.log()
        results = source.results()
        return Snapshot(
            title=source.title(),
            board=to_html(board),
            rows=text.count("\n") + 1,
            cols=max((len(line) for line in text.split("\n")), default=0),
            seats=self._seats(),
            waiting=source.waiting().text,
            over=source.waiting().over,
            moves=[line.seen_by(None) for line in lines if not line.chat][-MOVES_SHOWN:],
            talk=[line.seen_by(None) for line in lines if line.chat][-TALK_SHOWN:],
            result=self._result() if results is not None else None,
        )

    def _who(self, seat: int) -> str:
        lobby = self.table.lobby
        assert lobby is not None
        holder = lobby.holder(seat)  # seats are chosen: before the game, not every seat below is taken
        return "free" if holder is None else lobby.names.get(holder, "?")

    def _seats(self) -> list[SeatRow]:
        results = self._source.results()
        away = set(self._away())
        rows: list[SeatRow] = []
        for line in self._source.seats():
            who = self._who(line.seat)
            presence = "free" if who == "free" else "away" if line.seat in away else "here"
            rows.append(SeatRow(
                mark=self._look.symbol(line.seat), name=line.name, who=who,
                colour=css(self._look.seat_style(line.seat, line.name)), presence=presence,
                to_act=line.to_act, score=results.scores[line.seat] if results is not None else None,
                won=results is not None and line.seat in results.winners,
            ))
        return rows

    def _result(self) -> Result:
        results = self._source.results()
        assert results is not None
        people = [f"{name} ({self._who(seat)})" for seat, name in enumerate(self._source.names())]
        sheet = self._source.score_sheet()
        return Result(headline=headline(results, people),
                      lines=result_lines(results, sheet, people, RESULT_WIDTH))


def waiting_only(text: str) -> Snapshot:
    """A snapshot with no table in it, only ``text`` (connecting, or why nothing can be drawn)."""
    return Snapshot(title="atoll", board="", rows=1, cols=1, seats=[], waiting=text, over=False,
                    moves=[], talk=[], result=None)


async def _nowhere(data: bytes) -> None:
    """The page says nothing at the table: it is read-only."""
    raise AssertionError("the big screen never sends to the table")
