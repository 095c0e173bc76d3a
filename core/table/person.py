"""A person at a network table, at the line-by-line prompt: the board, the news, completion of moves.

Until the full-screen client plays network tables, a person types their moves here, with the same
completion over the legal action texts as ``atoll play``'s prompt client.
"""

from __future__ import annotations

from collections.abc import Callable

from atoll.engine.match import Match
from atoll.engine.observation import Observation
from atoll.errors import AmbiguousAction, UnknownAction
from atoll.table.peer import Chooser
from atoll.table.table import Event
from atoll.types import Action


def person_chooser(match_of: Callable[[], Match]) -> Chooser:
    """A chooser that shows the board and prompts for a move with completion (prompt_toolkit)."""
    from prompt_toolkit import PromptSession

    from atoll.client.prompt import ActionCompleter
    from atoll.tui.palette import plain

    session: PromptSession[str] = PromptSession()

    async def choose(observation: Observation) -> Action:
        match = match_of()
        seat = observation.seat
        game = observation.game
        print()
        print(plain(game.render(match.view(seat))))
        texts = match.texts(seat)
        completer = ActionCompleter(lambda: sorted(texts))
        while True:
            typed = await session.prompt_async(f"seat {seat}> ", completer=completer)
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
        print(f"(refused) {event.text}")
    else:
        print(event.text)
