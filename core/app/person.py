"""A person at a network table: the full-screen client in a terminal, the same table line by line elsewhere.

:func:`play_person` seats a person (or a spectator) at the table screen
(:class:`~atoll.tui.screen.TableScreen` over :class:`~atoll.client.net_source.NetTable`) while the
table's loop runs beside it, or prints the same table line by line for ``TERM=dumb`` and input or
output that is not a terminal. :func:`person_chooser` and :func:`say_event` are the bare
prompt and the events kept for ``--quiet``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
import threading
import weakref
from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from atoll.app.serve import deliver
from atoll.engine.match import Match
from atoll.engine.observation import Observation
from atoll.errors import AmbiguousAction, UnknownAction
from atoll.net.envelope import Envelope
from atoll.net.transport import HostSocket
from atoll.numbering import seat_label
from atoll.system import full_screen_terminal
from atoll.table.host import Sequencer
from atoll.table.peer import Chooser
from atoll.table.table import Event, Table
from atoll.types import Action

if TYPE_CHECKING:  # prompt_toolkit is imported only when a person plays
    from prompt_toolkit.input import Input
    from prompt_toolkit.output import Output

    from atoll.client.net_source import NetTable, Serve
    from atoll.tui.palette import Look
    from atoll.tui.screen import TableScreen


#: How the person left the table, as :func:`play_person` says it; :data:`MOVED`: they did not, the table
#: goes on elsewhere and their seat with it (its loop ended with :class:`~atoll.client.source.TableMoved`).
FINISHED, LEFT, REMATCH, MOVED = "finished", "left", "rematch", "moved"


@dataclass(frozen=True)
class Terminal:
    """Where a person's screens run: this terminal when not given. Tests pass a pipe ``input``, a
    dummy ``output``, and ``shown``, which is handed each table screen as it opens."""

    input: Input | None = None
    output: Output | None = None
    shown: Callable[[TableScreen], None] | None = None


class Hearing(Protocol):
    """What hands this peer the table talk the host relays and says who is away (a peer session, or
    the host itself)."""

    on_chat: Callable[[Envelope], None] | None
    away: tuple[int, ...]
    left: tuple[int, ...]


def full_screen(env: Mapping[str, str] | None = None) -> bool:
    """Whether to open the full-screen client (:func:`atoll.system.full_screen_terminal`)."""
    return full_screen_terminal(env)


def host_sender(host: Sequencer, socket: HostSocket) -> Callable[[bytes], Awaitable[None]]:
    """How the host's own person sends a message: sequenced here, the frames delivered at once."""

    async def send(data: bytes) -> None:
        deliver(socket, host.local(data))

    return send


async def play_person(
    table: Table | Callable[[], Table],
    serve: Serve,
    send: Callable[[bytes], Awaitable[None]],
    *,
    role: str,
    hearing: Hearing | None = None,
    hosting: bool = False,
    leave_line: str | None = None,
    note: str | None = None,
    terminal: Terminal | None = None,
    stand_in: bool = False,
    news: str | None = None,
) -> str:
    """Run the table's loop (``serve(chooser, on_event)``) with a person at it until they leave: at the
    table screen in a terminal that holds one (or the test ``terminal``), else the same table line by
    line (:class:`~atoll.client.lines.LineTable`: ``TERM=dumb``, pipes, the lines typed read from
    stdin). The table talk ``hearing`` receives is shown, and ``send`` carries theirs to the host.
    Prints the result's closing lines; returns how the person left: :data:`FINISHED`, :data:`LEFT`
    (before the end), :data:`REMATCH` (``r`` on the result screen), or :data:`MOVED` when the loop
    ended with :class:`~atoll.client.source.TableMoved` (the screen closed at once, unasked, printing
    nothing: the caller says where the table went). Raises what keeps the person from sitting down (a
    full table, a host that refuses). ``table``: this peer's copy, or what gives the copy as it stands
    now (a session's, which a set-aside replaces). ``stand_in``: the person watches, and plays a seat
    handed over to them. ``news``: a line for the log once the table is there (why this screen
    opened)."""
    from atoll.client.net_source import NetTable
    from atoll.tui.palette import Look

    away = (lambda: hearing.away) if hearing is not None else None
    left = (lambda: hearing.left) if hearing is not None else None
    source = NetTable(table, role=role, send=send, hosting=hosting, leave_line=leave_line, note=note,
                      away=away, stand_in=stand_in, left=left, verbose=_shows_internal())
    if hearing is not None:
        hearing.on_chat = source.hear
    encoding = (getattr(sys.stdout, "encoding", "") or "").lower()
    screen = terminal is not None or full_screen()
    look = Look(unicode=encoding.startswith("utf"), palette=screen)
    with _diagnostics_kept(source):
        source.start(serve)
        try:
            await source.ready()
            if news is not None:
                source.tell(news)
            if screen:
                return await _on_screen(source, look, terminal or Terminal())
            return await _in_lines(source, look)
        finally:
            await source.close()


async def _on_screen(source: NetTable, look: Look, terminal: Terminal) -> str:
    from atoll.tui.screen import Ending

    screen = table_screen(source, look=look, input=terminal.input, output=terminal.output)
    if terminal.shown is not None:
        terminal.shown(screen)
    result = await screen.run()
    for line in result.lines:
        print(line)
    return {Ending.LEFT: LEFT, Ending.REMATCH: REMATCH, Ending.MOVED: MOVED}.get(result.ending, FINISHED)


async def _in_lines(source: NetTable, look: Look) -> str:
    from atoll.client.lines import Ending, LineTable

    lines = LineTable(source, lambda line: print(line, flush=True), look.symbol)
    ended = await lines.play(_stdin_lines())
    return {Ending.LEFT: LEFT, Ending.MOVED: MOVED}.get(ended, FINISHED)


#: The queue of lines typed on stdin, one per event loop: a table that moved on elsewhere is read line by
#: line again, and its reader must not race the first one's thread for what the person types.
_TYPED: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Queue[str | None]] = \
    weakref.WeakKeyDictionary()


def _stdin_lines() -> asyncio.Queue[str | None]:
    """The lines typed on stdin, read on a thread of their own so the table's loop runs on meanwhile;
    ``None`` once the input ends. Asked again on the same event loop, the same queue."""
    loop = asyncio.get_running_loop()
    if loop in _TYPED:
        return _TYPED[loop]
    queue: asyncio.Queue[str | None] = asyncio.Queue()
    _TYPED[loop] = queue

    def read() -> None:
        for line in sys.stdin:
            loop.call_soon_threadsafe(queue.put_nowait, line.rstrip("\n"))
        loop.call_soon_threadsafe(queue.put_nowait, None)

    threading.Thread(target=read, name="atoll-stdin", daemon=True).start()
    return queue


def table_screen(
    source: NetTable, *, look: Look | None = None, input: Input | None = None, output: Output | None = None
) -> TableScreen:
    """The table screen over a network table: leaving says how to come back, and ``r`` on the result
    screen asks for a rematch at the same address (see docs/decisions/0005-network-rematch.md)."""
    from atoll.tui.screen import TableScreen

    def hint() -> str | None:
        if source.waiting().over:  # nothing is left to come back to, or to close for anyone
            return None
        return "you host this table: leaving closes it for everyone" if source.hosting else source.leave_line

    return TableScreen(source, look=look, input=input, output=output, leave_hint=hint,
                       rematch_hint=lambda: rematch_line(source))


def rematch_line(source: NetTable) -> str:
    """What ``r`` does on the result screen of this network table. A rematch opens at the address of
    the table's first host: one that moved to another seat during the game (decision 0004) needs its
    first host for the next game, which its own person opens with ``r`` (decision 0005)."""
    table = source.table
    first = table.log.host_at(0).encode().hex()
    if table.log.host.encode().hex() != first:
        if table.me == first:
            return ("this table moved to another seat during the game; r: host another game at this "
                    "machine's address, where the others look for it · Enter: leave")
        return ("this table moved to another seat during the game: a rematch needs its first host; "
                "r: wait for that host's next game at its address · Enter: leave")
    if source.hosting:
        return "r: host another game at this address (the same or another) · Enter: close the table"
    if source.role == "watch":
        return "r: watch the host's next game here, once the host opens one · Enter: leave"
    return "r: take a seat at the host's next game here, once the host opens one · Enter: leave"


#: The file in a table's folder that keeps what the logging module records while a person is at the
#: table: the table protocol's refusals between machines (a message the host would not take, an entry
#: a peer would not take) and the transport's own trouble (a flood at the port, a standby address that
#: cannot be bound). Kept for whoever audits the table; none of it is table news.
REFUSALS_FILE = "refusals.log"


def verbose(on: bool) -> None:
    """``--verbose``: what the logging module records is shown on the screen too (the ``atoll`` logger
    then passes INFO and up; the screen reads that as asked to show everything)."""
    logging.getLogger("atoll").setLevel(logging.INFO if on else logging.NOTSET)


def _shows_internal() -> bool:
    return logging.getLogger("atoll").level == logging.INFO


class _Verbose(logging.Handler):
    """With ``--verbose`` only: says what is logged to the person (in the screen's log, in brackets, or on
    stderr without a screen). The table's news never comes this way (docs/decisions/0010)."""

    def __init__(self, say: Callable[[str], None]) -> None:
        super().__init__(logging.WARNING)
        self.say = say

    def emit(self, record: logging.LogRecord) -> None:
        self.say(record.getMessage())


@contextlib.contextmanager
def refusals_kept(table: Table, say: Callable[[str], None] | None = None) -> Iterator[None]:
    """While ``table`` runs, what the ``atoll`` loggers record goes to its ``refusals.log`` (for whoever
    audits it) and, with ``--verbose``, to ``say`` (else stderr: a table with no screen), never to a
    terminal a screen owns. Before, a table with no screen printed it all on stderr."""
    logger = logging.getLogger("atoll")
    shown = say if say is not None else (lambda text: print(text, file=sys.stderr, flush=True))
    handlers: list[logging.Handler] = [_Verbose(shown)] if _shows_internal() else []
    folder = table.log.path.parent if table.log.path is not None else None
    if folder is not None:
        # opened now, not at the first record: that record may come in a flood of connections, when
        # opening a file fails (EMFILE) and the failure would raise out of the logging call, stopping the
        # code that logged (the table's door then never opened again)
        kept = logging.FileHandler(folder / REFUSALS_FILE, encoding="utf-8")
        kept.setLevel(logging.WARNING)
        kept.setFormatter(logging.Formatter("%(asctime)s %(name)s: %(message)s"))
        handlers.append(kept)
    propagate = logger.propagate
    for handler in handlers:
        logger.addHandler(handler)
    logger.propagate = False
    try:
        yield
    finally:
        for handler in handlers:
            logger.removeHandler(handler)
            handler.close()
        logger.propagate = propagate


def _diagnostics_kept(source: NetTable) -> contextlib.AbstractContextManager[None]:
    """While a person is at the table screen: :func:`refusals_kept`, said in the screen's log."""
    return refusals_kept(source.table, lambda text: source.note_line(f"({text})"))


def person_chooser(match_of: Callable[[], Match]) -> Chooser:
    """A chooser that shows the board and prompts for a move with completion (prompt_toolkit)."""
    from prompt_toolkit import PromptSession

    from atoll.client.prompt import ActionCompleter
    from atoll.tui.palette import plain

    sessions: list[PromptSession[str]] = []  # made at the first move: it takes over the terminal

    async def choose(observation: Observation) -> Action:
        if not sessions:
            sessions.append(PromptSession())
        session = sessions[0]
        match = match_of()
        seat = observation.seat
        game = observation.game
        print()
        print(plain(game.render(match.view(seat))))
        texts = match.texts(seat)
        completer = ActionCompleter(lambda: sorted(texts))
        while True:
            typed = await session.prompt_async(f"{seat_label(seat)}> ", completer=completer)
            if typed.strip() in ("help", "?"):
                print("legal now: " + ", ".join(sorted(texts)))
                continue
            try:
                action = match.parse(seat, typed)
            except (UnknownAction, AmbiguousAction) as exc:
                print(exc)
                continue
            return action

    return choose


def say_event(event: Event) -> None:
    """Print a table event for a person (a cheat in capitals, so nobody misses it)."""
    if event.blame is not None:
        print(f"!! CHEAT: {event.text}")
    elif event.refused:
        if _shows_internal():  # an entry the table refused: for the audit, and --verbose (decision 0021)
            print(f"(refused) {event.text}")
    else:
        print(event.text)
