"""What happened since a player's last move, in a few lines: the log's lines since then, each run of
one seat's lines joined into one line (``blue: rolls 3 and 5 · die 4 · kagu c2r1 · done``), so that
several bot turns fit the small log pane of an 80x24 terminal."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from atoll.client.source import LogLine

#: Between the steps of one run.
JOIN = " · "


@dataclass(frozen=True)
class Run:
    """Consecutive log lines about one seat (``None``: about no seat, such as a shuffle)."""

    seat: int | None
    texts: tuple[str, ...]
    chat: bool = False
    """Table talk: never joined with the game's lines."""

    def line(self, names: Sequence[str]) -> str:
        """The run as one line, led by the seat's name."""
        said = JOIN.join(self.texts)
        return said if self.seat is None else f"{names[self.seat]}: {said}"


def runs(lines: Sequence[LogLine], names: Sequence[str], viewer: int | None) -> list[Run]:
    """``lines`` as ``viewer`` reads them, grouped into runs by the seat each is about: the seat that
    acted, or for chance the seat whose name the line begins with (``"blue rolls 3 and 5"``). A line's
    leading seat name is dropped inside its run; table talk stays a run of its own."""
    out: list[Run] = []
    for line in lines:
        text = line.seen_by(viewer)
        if line.chat:
            out.append(Run(None, (text,), chat=True))
            continue
        seat = _about(line.seat, line.text, names)[0]  # whom the public words name
        text = _without_name(seat, text, names)
        if out and out[-1].seat == seat and not out[-1].chat:
            out[-1] = Run(seat, (*out[-1].texts, text))
        else:
            out.append(Run(seat, (text,)))
    return out


def _about(seat: int | None, text: str, names: Sequence[str]) -> tuple[int | None, str]:
    """The seat a line is about and the line without that seat's name in front."""
    candidates = [seat] if seat is not None else range(len(names))
    for candidate in candidates:
        shorter = _without_name(candidate, text, names)
        if shorter != text:
            return candidate, shorter
    return seat, text


def _without_name(seat: int | None, text: str, names: Sequence[str]) -> str:
    """``text`` without ``seat``'s name in front (``"blue: die 4"``, ``"blue rolls"``), if it has it."""
    if seat is None:
        return text
    for lead in (f"{names[seat]}: ", f"{names[seat]} "):
        if text.startswith(lead) and len(text) > len(lead):
            return text[len(lead):]
    return text
