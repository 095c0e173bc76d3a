"""Rules with no hidden inputs: the kit's watch on Python's random numbers while a game's own code runs.

A game's randomness must come through chance requests (:class:`~atoll.chance.Roll`,
:class:`~atoll.chance.Pick`, :class:`~atoll.chance.Shuffle`, :class:`~atoll.chance.Deal`), which the
local resolver seeds and a table draws with every seat's fair protocol. A rule that draws from
``random`` instead (the global state, or even a ``random.Random(0)`` of its own) deals a game nobody
can check and a table cannot play fairly, although it may well be deterministic.

:func:`watched` gives a copy of a game whose API methods raise :class:`HiddenInput` when they, or
anything they call, draw from ``random`` or ``os.urandom``. Bots and the engine's own resolver run
outside those methods and are not watched.
"""

from __future__ import annotations

import contextlib
import functools
import os
import random
import threading
from collections.abc import Callable, Iterator
from typing import Any

from atoll.game import Game

#: The game's methods that are rules or read the state: while one runs, random numbers are a hidden input.
WATCHED_METHODS = ("setup", "next", "legal_actions", "apply", "resolve", "view", "render", "describe",
                   "describe_log", "describe_chance", "describe_chance_after", "parse")

#: The ``random`` module's functions (bound to its hidden global instance) a rule might call.
_MODULE_FUNCTIONS = ("random", "randint", "randrange", "randbytes", "choice", "choices", "shuffle", "sample",
                     "uniform", "getrandbits", "gauss", "normalvariate", "triangular", "betavariate",
                     "expovariate", "seed", "getstate", "setstate")

#: ``random.Random``'s primitives, through which every other method of an instance draws, and its
#: constructor (a ``SystemRandom`` is made by it too; it draws through its own primitives).
_INSTANCE_METHODS = ((random.Random, "__init__"), (random.Random, "random"), (random.Random, "getrandbits"),
                     (random.Random, "seed"), (random.SystemRandom, "random"),
                     (random.SystemRandom, "getrandbits"))


class HiddenInput(AssertionError):
    """A game's rule drew a random number outside the chance requests; ``what`` names the call."""

    def __init__(self, method: str, what: str) -> None:
        super().__init__(f"{method}() drew a random number through {what}")
        self.method = method
        self.what = what


class _Watch(threading.local):
    method: str | None = None


_WATCH = _Watch()


def watched(game: Game) -> Game:
    """``game`` (an instance the caller owns) with each of :data:`WATCHED_METHODS` marked as rules."""
    for name in WATCHED_METHODS:
        method = getattr(game, name, None)
        if callable(method):
            setattr(game, name, _marked(name, method))
    return game


def _marked(name: str, method: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(method)
    def call(*args: Any, **kwargs: Any) -> Any:
        outer, _WATCH.method = _WATCH.method, _WATCH.method or name
        try:
            return method(*args, **kwargs)
        finally:
            _WATCH.method = outer

    return call


@contextlib.contextmanager
def tripwires() -> Iterator[None]:
    """While inside, a draw from ``random`` or ``os.urandom`` in a watched method raises :class:`HiddenInput`.

    The module's functions and ``random.Random``'s primitives are replaced for the duration and put
    back after, also on failure.
    """
    saved: list[tuple[object, str, object, bool]] = []

    def trip(owner: object, name: str, what: str) -> None:
        original = getattr(owner, name)
        # a class that inherits the method gets it back by deleting the replacement, not by a copy
        saved.append((owner, name, original, isinstance(owner, type) and name not in vars(owner)))

        @functools.wraps(original)
        def guarded(*args: Any, **kwargs: Any) -> Any:
            if _WATCH.method is not None:
                method, _WATCH.method = _WATCH.method, None  # the error's own formatting draws nothing
                raise HiddenInput(method, what)
            return original(*args, **kwargs)

        setattr(owner, name, guarded)

    try:
        for name in _MODULE_FUNCTIONS:
            if hasattr(random, name):
                trip(random, name, f"random.{name} (Python's global random state)")
        for cls, name in _INSTANCE_METHODS:
            trip(cls, name, f"a {cls.__name__} of its own")
        trip(os, "urandom", "os.urandom")
        yield
    finally:
        for owner, name, original, inherited in reversed(saved):
            if inherited:
                delattr(owner, name)
            else:
                setattr(owner, name, original)
