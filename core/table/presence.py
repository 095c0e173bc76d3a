"""Who is at the table now: each seat's presence, as the host sees its link, in words for everyone.

The host decides a seat is away from its link (ZeroMQ's heartbeats and socket monitoring find a link
gone within seconds) and says so in a ``presence`` frame; a seat that said goodbye before the game was
over has left. Everyone shows the same marks beside the seats and the same log lines.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence


class Presence(enum.Enum):
    """A seat's presence at the table."""

    HERE = "here"
    """Its link to the host is up (a person's or a bot's)."""
    AWAY = "away"
    """Its link is gone or silent: the table waits for it to come back."""
    LEFT = "left"
    """It said goodbye before the game was over (it may come back: ``atoll join --resume``)."""
    BOT = "bot"
    """Here, and played by a bot."""
    BACK = "back"
    """Here again after being away or gone (shown for a little while)."""


#: The mark beside a seat on the seat bar, by presence (nothing for a person who is simply here).
MARKS: dict[Presence, str] = {
    Presence.HERE: "",
    Presence.AWAY: "away",
    Presence.LEFT: "left",
    Presence.BOT: "bot",
    Presence.BACK: "back",
}


def presence_of(seat: int, away: Sequence[int], left: Sequence[int]) -> Presence:
    """The presence the host's lists give ``seat``: left, away, or here."""
    if seat in left:
        return Presence.LEFT
    if seat in away:
        return Presence.AWAY
    return Presence.HERE


def presence_line(name: str, now: Presence) -> str:
    """The log line for a seat whose presence changed to ``now``: "Bea is away", "Bea is back"."""
    if now is Presence.AWAY:
        return f"{name} is away; the table waits"
    if now is Presence.LEFT:
        return f"{name} has left the table; the table waits (atoll join --resume brings them back)"
    return f"{name} is back"


def changes(
    before: tuple[Sequence[int], Sequence[int]],
    after: tuple[Sequence[int], Sequence[int]],
    name: Callable[[int], str],
    skip: int | None = None,
) -> list[str]:
    """The log lines for every seat whose presence differs between ``before`` and ``after`` (each the
    host's lists: away, left), in seat order; ``name`` names a seat's person, ``skip`` is this peer's
    own seat (its person knows)."""
    lines = []
    for seat in sorted({*before[0], *before[1], *after[0], *after[1]} - {skip}):
        now = presence_of(seat, *after)
        if now is not presence_of(seat, *before):
            lines.append(presence_line(name(seat), now))
    return lines
