"""Ctrl-C is never lost: a task cancelled while it waits with a time limit stops.

Python 3.11's ``asyncio.wait_for`` returns the awaited result instead of raising when the
cancellation and the result arrive in the same turn of the loop (python/cpython#86296, fixed in
3.12), and the cancelled task goes on: a seat whose person pressed Ctrl-C as the host's answer came
would play on, and a process asked to leave would end later as if nothing had been asked. atoll's
own code waits with ``asyncio.timeout`` instead, which keeps the cancellation.
"""

from __future__ import annotations

import asyncio
import re
import sys
from pathlib import Path

import pytest

from atoll.net.eventloop import stopped

ROOT = Path(__file__).resolve().parents[2]

#: What a wait that can lose a cancellation looks like in source.
WAIT_FOR = re.compile(r"\basyncio\.wait_for\(|from asyncio import[^\n]*\bwait_for\b")


def test_no_code_of_atoll_waits_with_asyncio_wait_for() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for folder in ("core", "net", "plugins")
        for path in sorted((ROOT / folder).rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if WAIT_FOR.search(line)
    ]
    assert not found, f"wait with 'async with asyncio.timeout(...)' instead of asyncio.wait_for: {found}"


async def _cancelled_as_the_answer_arrives(wait: str) -> bool:
    """Whether a task waiting for an answer with a time limit (``wait``: how) still stops when it is
    cancelled in the very turn its answer arrives."""
    answer: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    async def waiting() -> str:
        if wait == "wait_for":
            return await asyncio.wait_for(answer, 5.0)
        async with asyncio.timeout(5.0):
            return await answer

    task = asyncio.ensure_future(waiting())
    await asyncio.sleep(0)  # the task now waits for the answer
    answer.set_result("the host's answer")
    task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        return True
    return False


def test_a_task_waiting_with_asyncio_timeout_stops_when_cancelled_as_its_answer_arrives() -> None:
    assert asyncio.run(_cancelled_as_the_answer_arrives("timeout"))


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="asyncio.wait_for keeps the cancellation since 3.12")
def test_on_python_3_11_asyncio_wait_for_loses_that_cancellation_which_is_why_atoll_does_not_use_it() -> None:
    assert not asyncio.run(_cancelled_as_the_answer_arrives("wait_for"))


async def _stopping_a_slow_task_then_cancelled() -> list[str]:
    """What happens when the task stopping another (one that takes a moment to stop) is itself
    cancelled meanwhile, as Ctrl-C cancels a table closing its loop."""
    happened: list[str] = []

    async def slow_to_stop() -> None:
        try:
            await asyncio.sleep(60)
        finally:
            await asyncio.sleep(0.05)  # says goodbye, closes files
            happened.append("the loop stopped")

    async def closing(loop_task: asyncio.Task[None]) -> None:
        await stopped(loop_task)
        happened.append("the closer went on")

    loop_task = asyncio.ensure_future(slow_to_stop())
    await asyncio.sleep(0)
    closer = asyncio.ensure_future(closing(loop_task))
    await asyncio.sleep(0.01)  # the closer waits for the loop to stop
    closer.cancel()
    try:
        await closer
    except asyncio.CancelledError:
        happened.append("the closer was stopped")
    return happened


def test_a_task_cancelled_while_it_stops_another_is_stopped_too_once_the_other_has_stopped() -> None:
    happened = asyncio.run(_stopping_a_slow_task_then_cancelled())
    assert happened == ["the loop stopped", "the closer was stopped"]


def test_stopping_a_task_that_failed_gives_its_error_and_asyncio_warns_of_nothing(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def failing() -> None:
        raise ValueError("the loop's own trouble")

    async def main() -> BaseException | None:
        task = asyncio.ensure_future(failing())
        await asyncio.sleep(0)
        return await stopped(task)

    error = asyncio.run(main())
    assert isinstance(error, ValueError) and str(error) == "the loop's own trouble"
    assert "never retrieved" not in caplog.text


def test_a_task_stopped_as_asked_gives_no_error() -> None:
    async def main() -> BaseException | None:
        return await stopped(asyncio.ensure_future(asyncio.sleep(60)))

    assert asyncio.run(main()) is None
