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
from collections.abc import Callable, Mapping
from typing import Any, Final, TypeVar, cast

from atoll.chance import Request
from atoll.errors import IllegalAction, MalformedInput, OutcomeRefused, PluginFault
from atoll.game import Fragments, Game
from atoll.jsondata import JSON
from atoll.types import Action, Config, Knowledge, State, Step

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


class _Call:
    """One outermost guarded call running on a thread: which game, which method, until when."""

    __slots__ = ("deadline", "guarded", "method", "stopped", "thread", "told")

    def __init__(self, guarded: GuardedGame, method: str, thread: int, deadline: float) -> None:
        self.guarded, self.method, self.thread, self.deadline = guarded, method, thread, deadline
        self.stopped = False
        self.told = False

    @property
    def what(self) -> str:
        return f"the game {self.guarded.info.name!r} (from {self.guarded.source}) in {self.method}"


def _raise_in(thread: int, exc: type[BaseException] | None) -> None:
    """Raise ``exc`` asynchronously in ``thread`` (``None`` withdraws one not raised yet)."""
    target = ctypes.py_object(exc) if exc is not None else None
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread), target)


class Watchdog:
    """Stops guarded calls past their deadline; one per process (:func:`watchdog`).

    Watching a call costs two uncontended lock turns; the thread wakes only at deadlines.

    :param tell: where a call that cannot be stopped is reported (one line).
    :param clock: the monotonic clock.
    """

    def __init__(self, tell: Callable[[str], None], clock: Callable[[], float] = time.monotonic) -> None:
        self._tell = tell
        self._clock = clock
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._calls: dict[int, _Call] = {}
        self._thread: threading.Thread | None = None
        self._until: float | None = None
        """When the watchdog wakes next (``None``: it waits for a call)."""

    def forked(self) -> None:
        """In a forked child: the parent's thread did not come along, nor did its calls."""
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._calls, self._thread, self._until = {}, None, None

    def enter(self, guarded: GuardedGame, method: str) -> _Call | None:
        """Watch a call of ``guarded``'s ``method`` starting on this thread; ``None`` when one is watched
        there already (a nested call runs under the outer one's deadline)."""
        thread = get_ident()
        with self._lock:
            if thread in self._calls:
                return None
            call = _Call(guarded, method, thread, self._clock() + guarded.limit)
            self._calls[thread] = call
            if self._until is None or call.deadline < self._until:
                if self._thread is None:
                    self._thread = threading.Thread(target=self._run, name="atoll-plugin-watchdog",
                                                    daemon=True)
                    self._thread.start()
                self._wake.notify()  # only when it would sleep past this deadline: a wake costs a switch
        return call

    def leave(self, call: _Call) -> None:
        """The call is over (or was stopped): forget it, and withdraw a stop that has not landed yet."""
        with self._lock:
            if self._calls.get(call.thread) is call:
                del self._calls[call.thread]
                if call.stopped:
                    _raise_in(call.thread, None)

    def _run(self) -> None:
        with self._wake:
            while True:
                now = self._clock()
                for call in self._calls.values():
                    if not call.stopped and now >= call.deadline:
                        call.stopped = True
                        _raise_in(call.thread, _Stopped)
                    elif call.stopped and not call.told and now >= call.deadline + GRACE_S:
                        call.told = True
                        self._tell(f"atoll: {call.what} ran past its time limit and cannot be stopped "
                                   "(it is stuck outside Python code); end atoll with Ctrl-C")
                pending = [c.deadline + (GRACE_S if c.stopped else 0.0) for c in self._calls.values()
                           if not c.told]
                self._until = min(pending) if pending else None
                self._wake.wait(None if self._until is None else max(0.01, self._until - now))


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

    def call(self, method: str, *args: Any, **kwargs: Any) -> Any:
        """Call the game's ``method`` under the guard."""
        dog = _WATCHDOG[0] if _WATCHDOG else watchdog()
        watched = dog.enter(self, method)
        try:
            try:
                return getattr(self.game, method)(*args, **kwargs)
            finally:
                if watched is not None:
                    dog.leave(watched)
        except _Stopped:
            if watched is None:
                raise  # the outer call's deadline passed: it reports
            dog.leave(watched)
            raise self._fault(method, f"ran past its time limit of {self.limit:g} s and was stopped",
                              timed_out=True) from None
        except PluginFault:
            raise
        except (IllegalAction, MalformedInput) as exc:
            if method in _REFUSING:
                raise
            if method == "resolve":
                refused = f"refused the outcome: {exc}"
                raise OutcomeRefused(self.info.name, self.source, method, refused) from exc
            raise self._fault(method, f"{type(exc).__name__}: {exc}") from exc
        except Exception as exc:
            raise self._fault(method, f"{type(exc).__name__}: {exc}") from exc

    def _fault(self, method: str, message: str, *, timed_out: bool = False) -> PluginFault:
        return PluginFault(self.info.name, self.source, method, message, timed_out=timed_out)

    # the game API's abstract methods, spelled out; the optional ones are added below, one by one

    def setup(self, config: Config) -> State:
        """The game's own ``setup``, guarded."""
        return cast(State, self.call("setup", config))

    def next(self, state: State) -> Step:
        """The game's own ``next``, guarded."""
        return cast(Step, self.call("next", state))

    def legal_actions(self, state: State, seat: int, known: Knowledge) -> list[Action]:
        """The game's own ``legal_actions``, guarded."""
        return cast(list[Action], self.call("legal_actions", state, seat, known))

    def apply(self, state: State, action: Action) -> State:
        """The game's own ``apply``, guarded."""
        return cast(State, self.call("apply", state, action))

    def resolve(self, state: State, request: Request, outcome: Mapping[str, JSON]) -> State:
        """The game's own ``resolve``, guarded."""
        return cast(State, self.call("resolve", state, request, outcome))

    def view(self, state: State, seat: int | None, known: Knowledge) -> dict[str, JSON]:
        """The game's own ``view``, guarded."""
        return cast(dict[str, JSON], self.call("view", state, seat, known))

    def render(self, view: Mapping[str, JSON]) -> Fragments:
        """The game's own ``render``, guarded."""
        return cast(Fragments, self.call("render", view))

    def describe(self, state: State, action: Action) -> str:
        """The game's own ``describe``, guarded."""
        return cast(str, self.call("describe", state, action))


def _guarded(method: str) -> Callable[..., Any]:
    def call(self: GuardedGame, *args: Any, **kwargs: Any) -> Any:
        return self.call(method, *args, **kwargs)

    call.__name__ = method
    call.__doc__ = getattr(Game, method).__doc__
    return call


for _method in _METHODS:
    if _method not in vars(GuardedGame):
        setattr(GuardedGame, _method, _guarded(_method))


def guard(game: Game, source: str | None = None, limit: float | None = None) -> GuardedGame:
    """``game`` behind the guard (a game already guarded keeps its guard); ``source`` defaults to the
    top-level package the game's class comes from."""
    if isinstance(game, GuardedGame):
        return game
    return GuardedGame(game, source or type(game).__module__.split(".")[0], limit)


def unguarded(game: Game) -> Game:
    """The plugin's own game object behind a guard (itself when it has none)."""
    return game.game if isinstance(game, GuardedGame) else game


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
