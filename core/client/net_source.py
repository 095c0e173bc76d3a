"""A network table as a :class:`~atoll.client.source.TableSource`: this peer's copy of the table, read
for the screen, with the person's moves handed to the table's loop and table talk sent beside the log.

The table's loop (the host's relay, or a peer's sync with the host) is the caller's: :meth:`NetTable.start`
runs it with :meth:`NetTable.chooser` as the seat's chooser, so the socket code stays in
:mod:`atoll.table` and the screen reads only this class. Every reading method works from the
:class:`~atoll.table.table.Table` as it stands; :meth:`NetTable.run` watches it for changes.

Why one module of over 500 lines: :class:`NetTable` is one class, the screens' source protocol
(:class:`~atoll.client.source.TableSource`) answered from one table; its methods are that protocol's,
and the wording they share (the log's narrator, the countdown, who is away) comes from
:mod:`atoll.client.narration` and :mod:`atoll.table.presence`.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace

from atoll.client.narration import Narrator
from atoll.client.refusals import parse_typed
from atoll.client.source import LogLine, Question, Refused, SeatLine, TableMoved, Waiting
from atoll.engine.observation import Observation
from atoll.errors import AtollError, Fault
from atoll.game import Fragments, Game
from atoll.net.envelope import Envelope
from atoll.net.eventloop import stopped
from atoll.scoresheet import ScoreSheet
from atoll.table.engine import Waiting as EngineWaiting
from atoll.table.presence import MARKS, Presence, presence_of
from atoll.table.table import Event, Table
from atoll.types import Action, Config, Results
from atoll.wire import Kind, LeaveChoice

#: How often the table is looked at for changes to draw, in seconds.
POLL_S = 0.1
#: The longest chat line sent or shown (the host relays at most 500 characters).
CHAT_LIMIT = 300
#: Seconds a seat that came back is marked "back" beside its name.
BACK_S = 10.0
#: Seconds a person leaving before the end waits for their goodbye to leave.
BYE_S = 1.0
#: Seconds left of the turn time from which the status line warns.
WARN_S = 10.0


def countdown_text(left: float, *, mine: bool) -> str:
    """The turn time left, to open the status line with (so that it shows however long the rest is):
    ``0:42 left · ``, a warning from :data:`WARN_S` on, and at the end, that the time ran out (the
    table then states a timeout)."""
    if left <= 0:
        return "your time has run out · " if mine else "out of time, the table states a timeout · "
    seconds = math.ceil(left)
    shown = f"{seconds // 60}:{seconds % 60:02d}"
    if seconds <= WARN_S:
        return f"hurry, only {shown} left! · " if mine else f"only {shown} left! · "
    return f"{shown} left · "


def _agreeing(first: Sequence[object], second: Sequence[object]) -> int:
    """How many items ``first`` and ``second`` share from their start."""
    return next((n for n, (a, b) in enumerate(zip(first, second, strict=False)) if a != b),
                min(len(first), len(second)))


#: Runs the table's loop with a chooser for this peer's seat and a listener for table events.
Serve = Callable[
    [Callable[[Observation], Awaitable[Action]] | None, Callable[[Event], None]], Awaitable[object]
]

#: What each step of the fair protocols waits for, in words for the status line.
STEP_WORDS = {
    "setup": "greeting",
    "chain": "chance commitment",
    "cup": "commitment to the dice under the cup",
    "draw": "chance opening",
    "seal": "sealed choice",
    "prove": "proof of the cards shown",
    "reveal": "part in turning cards up",
    "shuffle": "shuffle",
    "deal": "part in the deal",
    "finish": "seed opening",
}


class NetTable:
    """One peer's table for the screen.

    :param table: this peer's copy of the table (the host's own copy at the host), or what gives the
        copy as it stands now: a joined seat's session replaces its copy with a new one when the copy
        sets entries aside (:meth:`~atoll.table.table.Table.set_aside`), and the screen reads that one.
    :param role: ``"sit"`` (a person plays the seat this peer takes) or ``"watch"``.
    :param send: sends one signed message to the host (table talk).
    :param hosting: whether this peer is the host (leaving closes the table for everyone).
    :param leave_line: what to print when the person leaves before the end (how to come back).
    :param note: a line for the board while the seats fill up (how others join).
    :param away: the seats the host shows as away now (their link is gone or silent).
    :param stand_in: the person watches, and plays a seat handed over to them (``role`` ``"watch"``).
    :param left: the seats the host shows as gone now (they said goodbye before the end).
    :param clock: seconds, for how long a seat that came back is marked back (:data:`BACK_S`).
    :param verbose: show the entries the table refused (the log keeps them; they are no table news).
    """

    def __init__(
        self,
        table: Table | Callable[[], Table],
        *,
        role: str,
        send: Callable[[bytes], Awaitable[None]],
        hosting: bool = False,
        leave_line: str | None = None,
        note: str | None = None,
        away: Callable[[], Sequence[int]] | None = None,
        stand_in: bool = False,
        left: Callable[[], Sequence[int]] | None = None,
        clock: Callable[[], float] = time.monotonic,
        verbose: bool = False,
    ) -> None:
        if role not in ("sit", "watch"):
            raise ValueError(f"role is 'sit' or 'watch', not {role!r}")
        self._current = table if callable(table) else lambda: table
        self.role = role
        self.stand_in = stand_in
        self.hosting = hosting
        self.leave_line = leave_line
        self.note = note
        self._away = away
        self._left = left
        self._clock = clock
        self.verbose = verbose
        self._was: dict[int, Presence] = {}  # each seat's presence when last looked at
        self._back: dict[int, float] = {}  # seats that came back, and when
        self._owed_since: tuple[int, float] = (-1, 0.0)  # the log's length, and when it reached it
        self._send = send
        self._task: asyncio.Task[object] | None = None
        self._sending: set[asyncio.Task[None]] = set()
        self._asked: asyncio.Future[Action] | None = None
        self._asked_at = -1
        self._sent_at = -1
        self._decided = -1  # the leave entry the host's person answered already
        self._problem: str | None = None
        self._moved = False
        self._log: list[LogLine] = []
        self._told = 0  # table events looked at
        self._told_entries: set[int] = set()  # entries whose own event was passed over
        self._narrator: Narrator | None = None  # made once the game starts (and the seat is known)
        self._narrated: Table | None = None  # the copy the narrator and the told entries are of
        self._untold = False  # the game's wording failed once: the log stops telling the game
        self._texts_at: tuple[int, int] | None = None
        self._texts_now: dict[str, Action] = {}
        self.game: Game
        self.config: Config

    @property
    def table(self) -> Table:
        """This peer's copy of the table as it stands now (every reading method works from it)."""
        return self._current()

    # -- starting -------------------------------------------------------------------------

    def start(self, serve: Serve) -> None:
        """Run the table's loop (``serve(chooser, on_event)``) as a task on the running event loop."""
        choose = self.chooser if self.role == "sit" or self.stand_in else None
        self._task = asyncio.ensure_future(serve(choose, lambda event: None))

    async def ready(self, timeout: float = 30.0) -> None:
        """Wait until the table is open and this peer holds its seat (or watches); raises
        :class:`AtollError` (the loop's own error, such as a full table) if it cannot get there."""
        assert self._task is not None, "start() first"
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not self._seated():
            if self._task.done():
                error = self._task.exception()
                if error is not None:
                    raise error
                raise AtollError(f"the table ended before this peer sat down: {self.table.ended or 'closed'}")
            if loop.time() > deadline:
                raise AtollError(f"the table did not seat this peer within {timeout:g} s")
            await asyncio.wait({self._task}, timeout=0.02)
        lobby = self.table.lobby
        assert lobby is not None
        self.game = self.table.games(lobby.game)
        self.config = Config(lobby.seats, lobby.variant, dict(lobby.options))

    def _seated(self) -> bool:
        lobby, me = self.table.lobby, self.table.me
        if lobby is None:
            return False
        return me in (lobby.seated if self.role == "sit" else lobby.spectators)

    async def close(self, grace: float = 10.0) -> None:
        """Stop the table's loop: at once when the person left before the end (the seat stays in the
        log, to come back to; the others are told it left), once the game is over after up to ``grace``
        seconds for it to close."""
        if self._task is not None and not self._task.done() and self.results() is not None:
            await asyncio.wait({self._task}, timeout=grace)
        elif self._leaving_early():
            with contextlib.suppress(Exception):  # a goodbye that cannot leave changes nothing
                async with asyncio.timeout(BYE_S):
                    await self._send(self.table.compose(Kind.BYE, {}))
        for task in (self._task, *self._sending):
            if task is not None and not task.done():
                await stopped(task)  # still running: what it ends with as it stops is not news

    # -- the seat's chooser ---------------------------------------------------------------

    async def chooser(self, observation: Observation) -> Action:
        """Wait for the person to type this seat's move (the table's loop asks once per decision)."""
        engine = self.table.engine
        self._asked_at = len(engine.match.events) if engine is not None else -1
        self._asked = asyncio.get_running_loop().create_future()
        self._notify()
        try:
            return await self._asked
        finally:
            self._asked = None

    # -- reading (the TableSource methods) ------------------------------------------------

    def title(self) -> str:
        """The table's name, the game, variant and seats, and who watches."""
        lobby = self.table.lobby
        assert lobby is not None
        watching = f" · {len(lobby.spectators)} watching" if lobby.spectators else ""
        return f"{lobby.name}: {self.game.info.title} ({lobby.variant}), {lobby.seats} seats{watching}"

    def humans(self) -> Sequence[int]:
        """This peer's seat, when a person plays it here (a stand-in's once it is handed one)."""
        seat = self.table.my_seat
        return [seat] if seat is not None and (self.role == "sit" or self.stand_in) else []

    def names(self) -> list[str]:
        """The game's seat names."""
        return list(self.game.seat_names(self.config))

    def who(self, seat: int) -> str:
        """Who sits at ``seat``: their name (``"you"`` at this peer's own seat), or ``"free"``."""
        lobby = self.table.lobby
        assert lobby is not None
        holder = lobby.holder(seat)  # seats are chosen: before the game, not every seat below is taken
        if holder is None:
            return "free"
        you = seat == self.table.my_seat and self.role == "sit"  # a host's page watches its own table
        return "you" if you else lobby.names.get(holder, "?")

    def board(self, viewer: int | None) -> Fragments:
        """The game's drawing of ``viewer``'s view; before the game, the seats filling up."""
        engine = self.table.engine
        if engine is None:
            return self._lobby_board()
        return self.game.render(engine.match.view(viewer))

    def _lobby_board(self) -> Fragments:
        lobby = self.table.lobby
        assert lobby is not None
        out: Fragments = [("bold", f"{lobby.name}\n"), ("", f"{self.game.info.title} ({lobby.variant})\n\n")]
        for seat, name in enumerate(self.names()):
            who = self.who(seat)
            out.append(("" if who != "free" else "italic", f"  {name:<10} {who}\n"))
        for author in lobby.spectators:
            out.append(("italic", f"  watching   {lobby.names.get(author, '?')}\n"))
        free = lobby.seats - len(lobby.seated)
        out.append(("", f"\nThe game starts when every seat is taken ({free} free).\n"))
        if self.note:
            out.append(("italic", f"{self.note}\n"))
        return out

    def log(self) -> Sequence[LogLine]:
        """The log so far: the game in its own words, who sat down, refusals, cheats and table talk."""
        self._catch_up()
        return list(self._log)

    def seats(self) -> Sequence[SeatLine]:
        """Every seat for the seats panel."""
        engine = self.table.engine
        acting = engine.waiting().seat if engine is not None else None
        mine = self.table.my_seat if self.role == "sit" or self.stand_in else None
        return [SeatLine(seat, name, self.who(seat), seat == acting, seat == mine,
                         self._mark(seat) if seat != self.table.my_seat else "")
                for seat, name in enumerate(self.names())]

    def _mark(self, seat: int) -> str:
        """The presence mark beside ``seat``: a bot's says which bot plays it ("random bot")."""
        presence = self.presence(seat)
        lobby = self.table.lobby
        if presence is Presence.BOT and lobby is not None:
            return f"{lobby.bots[lobby.seated[seat]]} bot"
        return MARKS[presence]

    def presence(self, seat: int) -> Presence:
        """Whether ``seat`` is here (a person, or a bot), away, gone, or back a moment ago."""
        lobby = self.table.lobby
        if lobby is None or seat >= len(lobby.seated):
            return Presence.HERE
        now = presence_of(seat, self._away() if self._away else (), self._left() if self._left else ())
        was = self._was.get(seat, Presence.HERE)
        self._was[seat] = now
        if now is Presence.HERE and was in (Presence.AWAY, Presence.LEFT):
            self._back[seat] = self._clock()
        if now is not Presence.HERE:
            self._back.pop(seat, None)
            return now
        if seat in self._back and self._clock() - self._back[seat] < BACK_S:
            return Presence.BACK
        return Presence.BOT if lobby.seated[seat] in lobby.bots else Presence.HERE

    def waiting(self) -> Waiting:
        """What the table waits for now: players, a seat's move, or a seat's part in the fair protocols;
        with the table's turn time, how long is left for it (the same on every screen)."""
        now = self._waiting_now()
        left, engine = self.time_left(), self.table.engine
        if left is None or engine is None or now.over:
            return now
        owed = engine.waiting()
        if owed.seat is None and not owed.owed:  # chance being drawn, or nothing: no one's time runs
            return now
        mine = self.role == "sit" and owed.seat is not None and owed.seat == self.table.my_seat
        return replace(now, text=countdown_text(left, mine=mine) + now.text)

    def time_left(self) -> float | None:
        """Seconds left of the turn time for what the table waits on now (``None``: no turn time, or
        nothing is owed). The clock starts at each new log entry, as the host's does."""
        lobby, engine = self.table.lobby, self.table.engine
        if lobby is None or lobby.turn_time is None or engine is None or self.table.over():
            return None
        length, now = len(self.table.log.entries), self._clock()
        if self._owed_since[0] != length:
            self._owed_since = (length, now)
        return lobby.turn_time - (now - self._owed_since[1])

    def _waiting_now(self) -> Waiting:
        problem = self.problem()
        if problem is not None:
            return Waiting(None, f"the game stopped: {problem}", False, over=True)
        if self.results() is not None:
            return Waiting(None, "the game is over", False, over=True)
        lobby, engine = self.table.lobby, self.table.engine
        if lobby is None:
            return Waiting(None, "connecting to the table…", False)
        if engine is None:
            free = lobby.seats - len(lobby.seated)
            return Waiting(None, f"waiting for players: {len(lobby.seated)} of {lobby.seats} seats taken, "
                                 f"{free} free", False)
        now = engine.waiting()
        shown_away = [*(self._away() if self._away is not None else ()),
                      *(self._left() if self._left is not None else ())]
        away = [seat for seat in shown_away if seat != self.table.my_seat]
        if now.owed and not now.seats:
            return Waiting(None, self._owed_text(now) + self._away_text(now.owed, away), False)
        others = [s for s in now.seats if s != self.table.my_seat]
        if len(others) > 1 and now.seat in others:  # a simultaneous decision this seat has made already
            names = ", ".join(self.names()[s] for s in others)
            return Waiting(now.seat, f"{names} are making secret choices…", False, True)
        if now.seat is None:
            return Waiting(None, "the table is working…", False)
        name = self.names()[now.seat]
        if now.seat != self.table.my_seat or not (self.role == "sit" or self.stand_in):
            verb = "is making a secret choice…" if now.secret else "is thinking…"
            gone = self.presence(now.seat)
            if gone is Presence.AWAY:
                verb = "is away; the table waits"
            elif gone is Presence.LEFT:
                verb = "has left the table; the table waits"
            return Waiting(now.seat, f"{name} ({self.who(now.seat)}) {verb}", False, now.secret)
        if self._asked is None or self._asked.done():
            sent = self._sent_at == len(engine.match.events)
            text = "your move is on its way to the host…" if sent else "your turn comes once caught up…"
            return Waiting(now.seat, text, False, now.secret)
        asked = self.game.decision_prompt(engine.match.state, now.seat)
        if asked is None:
            asked = "a secret choice" if now.secret else "a move"
        return Waiting(now.seat, f"your turn ({name}): {asked}", True, now.secret)

    def _owed_text(self, now: EngineWaiting) -> str:
        what = "die opening" if now.roll else STEP_WORDS.get(now.step, "protocol message")
        owed = now.owed
        if owed == (self.table.my_seat,) and self.role == "sit":
            return f"sending your {what}…"
        lobby = self.table.lobby
        assert lobby is not None
        whose = [lobby.names.get(lobby.seated[seat], "?") for seat in owed]
        names = whose[0] if len(whose) == 1 else ", ".join(whose[:-1]) + " and " + whose[-1]
        return f"waiting for {names}'s {what}"

    def _away_text(self, owed: Sequence[int], away: Sequence[int]) -> str:
        lobby = self.table.lobby
        assert lobby is not None
        gone = [lobby.names.get(lobby.seated[seat], "?") for seat in owed if seat in away]
        if not gone:
            return ""
        return f" ({', '.join(gone)} {'is' if len(gone) == 1 else 'are'} away)"

    def texts(self, seat: int) -> Sequence[str]:
        """The legal texts of ``seat`` while the person there is asked for a move (else empty)."""
        if not self._asked_now(seat):
            return []
        try:
            return list(self._texts(seat))
        except Fault as exc:  # asked on every key typed: the seat's loop leaves the table, saying why
            self._failed(exc)
            return []

    def _asked_now(self, seat: int) -> bool:
        engine = self.table.engine
        return (self._asked is not None and not self._asked.done() and engine is not None
                and seat == self.table.my_seat and len(engine.match.events) == self._asked_at)

    def _texts(self, seat: int) -> dict[str, Action]:
        engine = self.table.engine
        assert engine is not None
        key = (len(engine.match.events), seat)
        if self._texts_at != key:
            self._texts_at = key
            self._texts_now = engine.match.texts(seat)
        return self._texts_now

    def action_help(self, seat: int, text: str) -> str | None:
        """What the legal action ``text`` does, from the game; ``None`` when it does not say."""
        engine = self.table.engine
        action = self._texts(seat).get(text) if self._asked_now(seat) else None
        if action is None or engine is None:
            return None
        return self.game.action_help(engine.match.state, action)

    def results(self) -> Results | None:
        """The results once every seat has opened its seeds."""
        end = self.table.results()
        return end.results if end is not None else None

    def score_sheet(self) -> ScoreSheet | None:
        """How the game counted the scores, once it is over."""
        engine = self.table.engine
        if engine is None or self.results() is None:
            return None
        return self.game.score_sheet(engine.match.state)

    def problem(self) -> str | None:
        """Why the table stopped early: a cheat, or the link to the table failed."""
        return self.table.ended or self._problem

    def moved(self) -> bool:
        """Whether the table's loop ended with :class:`TableMoved`: a seat hosts the table now, and this
        machine's seat plays on as a peer's (its caller opens that screen)."""
        return self._moved

    # -- acting ---------------------------------------------------------------------------

    def submit(self, seat: int, text: str) -> str:
        """Hand the action ``text`` names to the table's loop; raises :class:`Refused` with the reason."""
        engine = self.table.engine
        if not self._asked_now(seat) or engine is None or self._asked is None:
            raise Refused(f"it is not your turn: {self.waiting().text}")
        try:
            action = parse_typed(engine.match, seat, self._texts(seat), text)
            chosen = self.game.describe(engine.match.state, action)
        except Fault as exc:
            self._failed(exc)
            raise Refused(f"the game stopped: {exc}") from None
        self._sent_at = self._asked_at
        self._asked.set_result(action)
        return chosen

    def _failed(self, fault: Fault) -> None:
        """The game's plugin failed while this person was asked to move: the table's loop gets the
        fault instead of a move, and leaves the table saying why (nobody is blamed)."""
        if self._asked is not None and not self._asked.done():
            self._asked.set_exception(fault)

    def can_undo(self, seat: int) -> bool:
        """Never: a move at a network table is signed and in everyone's log."""
        return False

    def undo(self, seat: int) -> None:
        """Refused: a network table has no undo."""
        raise Refused("there is no undo at a network table: every move is signed and in everyone's log")

    def question(self) -> Question | None:
        """For the host's person at a table opened with ``--on-leave ask``: a seat left, and what to do
        (wait for its player, end the game, or hand it to the stand-in its leave sealed it to)."""
        pending, lobby = self.table.pending_leave, self.table.lobby
        choices = self.table.choices()
        if not self.hosting or pending is None or lobby is None or not choices:
            return None
        if pending.seq == self._decided:  # answered: the host's entry is on its way
            return None
        who = lobby.names.get(pending.author, "the player")
        words = {
            LeaveChoice.WAIT: f"wait for {who}",
            LeaveChoice.END: "end the game",
            LeaveChoice.HAND: f"hand the seat to {lobby.names.get(pending.to or '', 'the stand-in')}",
        }
        return Question(f"{who} left the table:", tuple((str(c)[0], words[c]) for c in choices))

    def answer(self, key: str) -> str | None:
        """The host's person answers :meth:`question` (``w``, ``e`` or ``h``): the host signs the choice
        into the log (a ``decide`` entry); what was chosen, or ``None`` for a key not offered."""
        asked = self.question()
        pending = self.table.pending_leave
        chosen = next((c for c in self.table.choices() if str(c)[0] == key.lower()), None)
        if asked is None or pending is None or chosen is None:
            return None
        self._decided = pending.seq
        task = asyncio.ensure_future(self._send(self.table.decide(chosen)))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)
        return dict(asked.keys)[str(chosen)[0]]

    def chat(self, text: str) -> None:
        """Send ``text`` to everyone at the table (relayed by the host, never in the game's log)."""
        text = " ".join(text.split())
        if not text:
            raise Refused("say something after the quote mark")
        if len(text) > CHAT_LIMIT:
            raise Refused(f"a chat line is at most {CHAT_LIMIT} characters, not {len(text)}")
        if self.table.lobby is None or not self._seated():
            raise Refused("you can talk once you are at the table")
        data = self.table.compose(Kind.CHAT, {"text": text})
        task = asyncio.ensure_future(self._send(data))  # comes back through hear(), relayed by the host
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    def hear(self, message: Envelope) -> None:
        """A chat message the host relayed (signed by its author): shown if its author is at the table."""
        lobby = self.table.lobby
        text = message.body.get("text")
        if lobby is None or message.table != self.table.id or message.kind != Kind.CHAT:
            return
        if message.author not in (*lobby.seated, *lobby.spectators) or not isinstance(text, str):
            return
        text = "".join(c for c in text if c.isprintable())[:CHAT_LIMIT].strip()
        if text:
            self._log.append(self._chat_line(message.author, text))
            self._notify()

    def note_line(self, text: str) -> None:
        """Add a line of diagnostics (what the logging module recorded, with ``--verbose``) to the log."""
        self._log.append(LogLine(None, text[:CHAT_LIMIT]))
        self._notify()

    def _chat_line(self, author: str, text: str) -> LogLine:
        lobby = self.table.lobby
        assert lobby is not None
        name = lobby.names.get(author, author[:8])
        seat = lobby.seat_of(author)
        if seat is None:
            return LogLine(None, f"{name} (watching): {text}", chat=True)
        return LogLine(seat, f"{name} ({self.names()[seat]}): {text}", chat=True)

    def _leaving_early(self) -> bool:
        """Whether this peer's person leaves a game that goes on (not the host: it closes the table)."""
        return (not self.hosting and self._seated() and self.results() is None and self.problem() is None
                and self.table.engine is not None)

    def leave(self) -> str | None:
        """Leave the table: the seat stays in its log; the line says how to come back, if it can be."""
        if self.results() is not None or self.problem() is not None:
            return None
        return self.leave_line

    # -- the background task --------------------------------------------------------------

    async def run(self, changed: Callable[[], None]) -> None:
        """Watch the table until its loop ends, calling ``changed`` when there is something new to draw;
        a failure of the loop becomes a log line and :meth:`problem`, never an exception."""
        self._changed = changed
        try:
            assert self._task is not None, "start() first"
            stamp = None
            while not self._task.done():
                await asyncio.wait({self._task}, timeout=POLL_S)
                now = self._stamp()
                if now != stamp:
                    stamp = now
                    changed()
            error = None if self._task.cancelled() else self._task.exception()
            if isinstance(error, TableMoved):  # no failure: the screen closes, the table goes on elsewhere
                self._moved = True
            elif error is not None and self.table.ended is None:
                self._problem = str(error) or type(error).__name__
                self._log.append(LogLine(None, f"the table stopped: {self._problem}"))
        except Exception as exc:  # the screen must stay up to say what happened
            self._problem = f"{type(exc).__name__}: {exc}"
        changed()

    def _stamp(self) -> tuple[object, ...]:
        engine = self.table.engine
        steps = engine.progress() if engine is not None else -1
        lobby = self.table.lobby
        seats = len(lobby.seated) if lobby is not None else 0
        # a presence change (a seat away, back, or no longer marked back) is news to draw too
        marks = tuple(self.presence(seat) for seat in range(seats))
        left = self.time_left()
        second = None if left is None else math.ceil(left)  # the countdown is redrawn each second
        return (len(self.table.log.entries), len(self._log), steps, self._asked is not None,
                len(self.table.events), marks, second)

    def _notify(self) -> None:
        changed = getattr(self, "_changed", None)
        if changed is not None:
            changed()

    # -- the log ----------------------------------------------------------------------------

    def _catch_up(self) -> None:
        """Add log lines for what happened since last time: game steps first, then table events."""
        table = self.table
        if table is not self._narrated:
            self._follow(table)
        engine = table.engine
        if engine is not None:
            if self._narrator is None:
                seat = self.table.my_seat
                self._narrator = Narrator(self.names, () if seat is None else (seat,))
            if not self._untold:
                try:
                    self._log.extend(self._narrator.catch_up(engine.match))
                except Exception as exc:  # a plugin's wording bug must not stop the table
                    self._log.append(LogLine(None, f"(the log stops telling the game: {exc})"))
                    self._untold = True
        for event in self.table.events[self._told:]:
            line = self._told_line(event)
            if line is not None:
                self._log.append(line)
        self._told = len(self.table.events)

    def _follow(self, table: Table) -> None:
        """The copy read is a new one (entries set aside): what is told of the game goes on from where
        the two copies part, so the new history's steps are told and none twice (the lines told of the
        entries set aside stay, as the table's event about them does)."""
        was, self._narrated = self._narrated, table
        if was is None:
            return
        same = _agreeing([e.head for e in was.log.entries], [e.head for e in table.log.entries])
        self._told_entries = {seq for seq in self._told_entries if seq < same}
        if self._narrator is not None and was.engine is not None and table.engine is not None:
            told = _agreeing(was.engine.match.events, table.engine.match.events)
            self._narrator.told = min(self._narrator.told, told)

    def tell(self, text: str) -> None:
        """Add ``text`` to the log after everything the table holds now (why this screen opened);
        once :meth:`ready`."""
        self._catch_up()
        self._log.append(LogLine(None, text))
        self._notify()

    def _told_line(self, event: Event) -> LogLine | None:
        """A table event the game's own log does not tell: who sat down, a refusal, a cheat."""
        if event.blame is not None:
            return LogLine(None, f"CHEAT: {event.text}")
        if event.refused:  # kept in the log for the audit; on the screen only when asked
            return LogLine(None, f"(refused) {event.text}") if self.verbose else None
        entries = self.table.log.entries
        kind = entries[event.seq].message.kind if 0 <= event.seq < len(entries) else ""
        if kind in (Kind.MOVE, Kind.END) and event.seq not in self._told_entries:
            self._told_entries.add(event.seq)  # the entry's own event: the game's log tells it better
            return None
        return LogLine(None, event.text)
