"""A game plugin behind a guard: what its code raises, or a call that runs too long, is the game's fault.

The registry hands out every installed game as a :class:`GuardedGame`. Each call atoll makes into the
plugin (its rules, views, texts and metadata) goes through the guard: an exception the game API does
not document becomes a :class:`~atoll.errors.PluginFault` that names the game, its distribution and
the method, and a call that runs past its time limit is stopped by one watchdog thread per process,
which raises inside the stuck call. Where it cannot be stopped (a call blocked outside Python code),
the watchdog says so by name on stderr instead of letting the program hang in silence.

The documented refusals pass unchanged: ``IllegalAction`` and ``MalformedInput`` from ``configure``
and ``apply`` (an action or a set-up the rules forbid), and from ``resolve`` they become
:class:`~atoll.errors.OutcomeRefused` (the table decides whether a seat's revealed value is to blame).
See ``docs/decisions/0015-faults-are-not-cheats.md``.
"""

from __future__ import annotations

import ctypes
import os
import sys
import threading
import time
from _thread import get_ident
from collections.abc import Callable
from typing import Any, Final, TypeVar

from atoll.errors import IllegalAction, MalformedInput, OutcomeRefused, PluginFault
from atoll.game import Game

T = TypeVar("T")

#: Seconds one call into a plugin may take before it is stopped (``ATOLL_PLUGIN_LIMIT`` overrides it).
CALL_LIMIT_S: Final = 20.0

#: Seconds the watchdog waits for a stopped call to give up before it says the call cannot be stopped.
GRACE_S: Final = 2.0

#: Methods whose documented refusals (``IllegalAction``, ``MalformedInput``) pass through the guard.
_REFUSING: Final = frozenset({"configure", "apply"})

#: Every public method of the game API: each goes through the guard.
_METHODS: Final = tuple(
    name for name, value in vars(Game).items() if callable(value) and not name.startswith("_")
)


def call_limit(environ: dict[str, str] | None = None) -> float:
    """The time limit of one plugin call: ``ATOLL_PLUGIN_LIMIT`` seconds if set (a positive number),
    else :data:`CALL_LIMIT_S`."""
    text = (os.environ if environ is None else environ).get("ATOLL_PLUGIN_LIMIT", "")
    try:
        limit = float(text)
    except ValueError:
        return CALL_LIMIT_S
    return limit if limit > 0 else CALL_LIMIT_S


class _Stopped(BaseException):
    """Raised by the watchdog inside a call past its limit. A ``BaseException``, so that a plugin's own
    ``except Exception`` does not swallow it."""


def _raise_in(thread: int, exc: type[BaseException] | None) -> None:
    """Raise ``exc`` asynchronously in ``thread`` (``None`` withdraws one not raised yet)."""
    target = ctypes.py_object(exc) if exc is not None else None
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread), target)


#: One outermost guarded call running on a thread, as the watchdog sees it: a list (it costs a bot's
#: every call, and a list is the cheapest mutable record) of the guard, the method, the thread, the
#: deadline, whether the watchdog stopped it and whether it said it could not.
_Call = list[Any]
_GUARD, _METHOD, _THREAD, _DEADLINE, _STOPPED, _TOLD = range(6)


def _what(call: _Call) -> str:
    guarded = call[_GUARD]
    return f"the game {guarded.info.name!r} (from {guarded.source}) in {call[_METHOD]}"


class Watchdog:
    """Stops guarded calls past their deadline; one per process (:func:`watchdog`).

    A guarded call registers itself in :attr:`calls` (by thread: only that thread writes its own key)
    and leaves under :attr:`lock`, which the watchdog holds while it decides to stop a call, so a stop
    never lands after its call has left. The thread wakes only at deadlines: watching costs a call
    one uncontended lock turn.

    :param tell: where a call that cannot be stopped is reported (one line).
    :param clock: the monotonic clock.
    """

    def __init__(self, tell: Callable[[str], None], clock: Callable[[], float] = time.monotonic) -> None:
        self.tell = tell
        self.clock = clock
        self.lock = threading.Lock()
        self.calls: dict[int, _Call] = {}
        """The outermost guarded call running on each thread."""
        self.until: float | None = None
        """When the watchdog wakes next (``None``: it waits for a call)."""
        self._wake = threading.Condition(self.lock)
        self._thread: threading.Thread | None = None

    def forked(self) -> None:
        """In a forked child: the parent's thread did not come along, nor did its calls."""
        self.lock = threading.Lock()
        self._wake = threading.Condition(self.lock)
        self.calls, self._thread, self.until = {}, None, None

    def wake(self, deadline: float) -> None:
        """A call came in whose ``deadline`` is before the watchdog wakes (the caller holds :attr:`lock`):
        the watchdog wakes at that deadline at the latest."""
        self.until = deadline if self.until is None else min(self.until, deadline)
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="atoll-plugin-watchdog", daemon=True)
            self._thread.start()
        self._wake.notify()

    def _run(self) -> None:
        with self._wake:
            while True:
                now = self.clock()
                for call in list(self.calls.values()):  # a copy: a new call may come in meanwhile
                    if not call[_STOPPED] and now >= call[_DEADLINE]:
                        call[_STOPPED] = True
                        _raise_in(call[_THREAD], _Stopped)
                    elif call[_STOPPED] and not call[_TOLD] and now >= call[_DEADLINE] + GRACE_S:
                        call[_TOLD] = True
                        self.tell(f"atoll: {_what(call)} ran past its time limit and cannot be stopped "
                                  "(it is stuck outside Python code); end atoll with Ctrl-C")
                pending = [c[_DEADLINE] + (GRACE_S if c[_STOPPED] else 0.0) for c in list(self.calls.values())
                           if not c[_TOLD]]
                if pending:
                    self.until = min(pending)
                elif self.until is not None and now >= self.until:
                    self.until = None  # idle for a whole limit: wait for the next call
                # else the call that woke it has ended already (a network table's calls are short, with
                # waits between them): keep its deadline, so that calls coming in meanwhile, whose
                # deadlines are later, do not wake this thread each time (a wake-up and a context switch
                # per plugin call, on a peer's path from one entry to the next); at that deadline every
                # call then running is looked at as ever
                self._wake.wait(None if self.until is None else max(0.01, self.until - now))


_WATCHDOG: list[Watchdog] = []
_WATCHDOG_LOCK = threading.Lock()


def watchdog() -> Watchdog:
    """The process's watchdog (made on first use; it reports on stderr)."""
    if _WATCHDOG:
        return _WATCHDOG[0]
    with _WATCHDOG_LOCK:
        if not _WATCHDOG:
            _WATCHDOG.append(Watchdog(lambda line: print(line, file=sys.stderr, flush=True)))
            os.register_at_fork(after_in_child=_WATCHDOG[0].forked)
        return _WATCHDOG[0]


def _guarded(method: str) -> Callable[..., Any]:
    """The guarded form of the game API's ``method``: one frame, as it runs on every call a bot makes."""

    def call(self: GuardedGame, *args: Any, **kwargs: Any) -> Any:
        dog = _WATCHDOG[0] if _WATCHDOG else watchdog()
        thread = get_ident()
        watched: _Call | None = None
        if thread not in dog.calls:  # else a nested call, under the outer call's deadline
            deadline = dog.clock() + self.limit
            watched = dog.calls[thread] = [self, method, thread, deadline, False, False]
            if dog.until is None or deadline < dog.until:
                with dog.lock:
                    dog.wake(deadline)
        try:
            try:
                return getattr(self.game, method)(*args, **kwargs)
            finally:
                if watched is not None:
                    _leave(dog, watched)
        except _Stopped:
            if watched is None:
                raise  # the outer call's deadline passed: it reports
            _leave(dog, watched)  # the stop may have landed in the first leave, before it forgot the call
            raise self.fault(method, f"ran past its time limit of {self.limit:g} s and was stopped",
                             timed_out=True) from None
        except PluginFault:
            raise
        except (IllegalAction, MalformedInput) as exc:
            if method in _REFUSING:
                raise
            if method == "resolve":
                refused = f"refused the outcome: {exc}"
                raise OutcomeRefused(self.info.name, self.source, method, refused) from exc
            raise self.fault(method, f"{type(exc).__name__}: {exc}") from exc
        except Exception as exc:
            raise self.fault(method, f"{type(exc).__name__}: {exc}") from exc

    call.__name__ = method
    call.__doc__ = f"The game's own ``{method}``, guarded."
    return call


def _leave(dog: Watchdog, call: _Call) -> None:
    """The call is over (or was stopped): forget it, and withdraw a stop that has not landed yet."""
    with dog.lock:
        if dog.calls.get(call[_THREAD]) is call:
            del dog.calls[call[_THREAD]]
            if call[_STOPPED]:
                _raise_in(call[_THREAD], None)


class GuardedGame(Game):
    """``game`` behind the guard (see the module docstring); every other attribute is the game's own.

    :param game: the plugin's game.
    :param source: the distribution that installed it (named in every fault).
    :param limit: seconds one call may take (default: :func:`call_limit`).
    """

    def __init__(self, game: Game, source: str, limit: float | None = None) -> None:
        self.game = game
        self.info = game.info  # type: ignore[misc]  # a ClassVar on games, an attribute on the guard
        self.source = source
        self.limit = call_limit() if limit is None else limit

    def __getattr__(self, name: str) -> Any:
        try:
            game = self.__dict__["game"]
        except KeyError:  # not set up yet (unpickling)
            raise AttributeError(name) from None
        return getattr(game, name)

    def __repr__(self) -> str:
        return f"GuardedGame({self.game!r}, {self.source!r})"

    def fault(self, method: str, message: str, *, timed_out: bool = False) -> PluginFault:
        """The fault of this game's ``method``."""
        return PluginFault(self.info.name, self.source, method, message, timed_out=timed_out)

    # the game API's abstract methods, spelled out; every other method of the API is added below
    setup = _guarded("setup")
    next = _guarded("next")
    legal_actions = _guarded("legal_actions")
    apply = _guarded("apply")
    resolve = _guarded("resolve")
    view = _guarded("view")
    render = _guarded("render")
    describe = _guarded("describe")


for _method in _METHODS:
    if _method not in vars(GuardedGame):
        setattr(GuardedGame, _method, _guarded(_method))


def guard(game: Game, source: str | None = None, limit: float | None = None) -> GuardedGame:
    """``game`` behind the guard (a game already guarded keeps its guard); ``source`` defaults to the
    top-level package the game's class comes from."""
    if isinstance(game, GuardedGame):
        return game
    return GuardedGame(game, source or type(game).__module__.split(".")[0], limit)


def within(work: Callable[[], T], limit: float) -> T:
    """``work()`` on a helper thread, waited for at most ``limit`` seconds: its result, or what it
    raised; :class:`TimeoutError` when it is not done by then (it is stopped if it runs Python code, and
    otherwise left behind on its daemon thread). For plugin code that is not a game method: importing
    a plugin, asking it for its games."""
    done: list[T] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            done.append(work())
        except _Stopped:
            pass
        except BaseException as exc:  # handed to the waiting thread, which raises it
            failed.append(exc)

    thread = threading.Thread(target=run, name="atoll-plugin-load", daemon=True)
    thread.start()
    thread.join(limit)
    if thread.is_alive():
        if thread.ident is not None:
            _raise_in(thread.ident, _Stopped)
        raise TimeoutError(f"it did not finish within {limit:g} s")
    if failed:
        raise failed[0]
    return done[0]
