"""Running atoll's asyncio programs on an event loop that pyzmq can use, on every platform.

pyzmq's asyncio sockets watch their file descriptors with ``loop.add_reader``. Windows's default
loop, the proactor, has no ``add_reader``, so on Windows atoll runs on asyncio's selector loop,
which has (docs/decisions/0013-every-laptop.md). Elsewhere the default loop already is one.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from atoll import system

T = TypeVar("T")


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """The loop to make: asyncio's selector loop on Windows, the platform's default (None) elsewhere."""
    return asyncio.SelectorEventLoop if system.WINDOWS else None


def run(main: Coroutine[Any, Any, T]) -> T:
    """Run ``main`` to its end as :func:`asyncio.run` does, on the loop :func:`loop_factory` chooses."""
    with asyncio.Runner(loop_factory=loop_factory()) as runner:
        return runner.run(main)
