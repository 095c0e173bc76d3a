"""How fast bots move where people watch: one pause for every table, local or on the network."""

from __future__ import annotations

from typing import Final

#: Seconds a bot's move is paced by, so people see each land on the board: in ``atoll play`` the pause
#: between two bots' moves, at a network table the least time a bot's move takes (its thinking
#: included) while a person sits there (``--bot-delay``; docs/decisions/0023).
BOT_DELAY: Final = 0.5


def seconds(text: str) -> float:
    """A ``--bot-delay`` in seconds, from 0 to 60; raises ValueError saying what is wrong."""
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a number of seconds (try 0.5)") from None
    if not 0 <= value <= 60:
        raise ValueError(f"{text} seconds is not between 0 and 60")
    return value
