"""Running atoll's asyncio programs on an event loop that pyzmq can use, on every platform.

pyzmq's asyncio sockets watch their file descriptors with ``loop.add_reader``. Windows's default
loop, the proactor, has no ``add_reader``, so on Windows atoll runs on asyncio's selector loop,
which has (docs/decisions/0013-every-laptop.md). Elsewhere the default loop already is one.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from atoll import system

T = TypeVar("T")


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """The loop to make: asyncio's selector loop on Windows, the platform's default (None) elsewhere."""
    return asyncio.SelectorEventLoop if system.WINDOWS else None


def run(main: Coroutine[Any, Any, T], *, terminate: bool = False) -> T:
    """Run ``main`` to its end as :func:`asyncio.run` does, on the loop :func:`loop_factory` chooses.

    ``terminate``: SIGTERM stops ``main`` as Ctrl-C does, cancelling it so that its ``finally`` blocks
    run (a host stops its bot processes there), then raises :class:`KeyboardInterrupt`. Python's own
    SIGTERM ends the process at once, cleaning up nothing.
    """
    with asyncio.Runner(loop_factory=loop_factory()) as runner:
        return runner.run(_interruptible(main) if terminate else main)


async def stopped(task: asyncio.Future[Any]) -> BaseException | None:
    """Cancel ``task`` and wait until it has stopped; the error it ended with, if any (taken, so
    asyncio does not warn of it; ``None`` when it stopped as asked or had finished).

    A cancellation of the caller meanwhile stops the caller too, once ``task`` has stopped: ``await
    task`` inside ``suppress(CancelledError)`` would swallow that one, and the caller, asked to stop
    (Ctrl-C), would go on."""
    task.cancel()
    asked_to_stop = False
    while not task.done():
        try:
            await asyncio.wait({task})
        except asyncio.CancelledError:
            asked_to_stop = True
    error = None if task.cancelled() else task.exception()
    if asked_to_stop:
        raise asyncio.CancelledError
    return error


async def _interruptible(main: Coroutine[Any, Any, T]) -> T:
    """``main``, cancelled by SIGTERM, which then raises :class:`KeyboardInterrupt`."""
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    terminated: list[bool] = []

    def on_sigterm() -> None:
        terminated.append(True)
        if task is not None:
            task.cancel()

    try:
        loop.add_signal_handler(signal.SIGTERM, on_sigterm)
    except (NotImplementedError, RuntimeError, ValueError):  # Windows' loop, or not the main thread
        return await main
    try:
        return await main
    except asyncio.CancelledError:
        if terminated:
            raise KeyboardInterrupt from None
        raise
    finally:
        loop.remove_signal_handler(signal.SIGTERM)
