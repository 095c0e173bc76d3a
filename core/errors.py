"""The errors atoll raises, split by cause; every one is an :class:`AtollError`."""

from __future__ import annotations


class AtollError(Exception):
    """Base of every error atoll raises on purpose."""


class MalformedInput(AtollError):
    """Input that does not parse or has the wrong shape (bad JSON, unknown field, bad type)."""


class IllegalAction(AtollError):
    """An action the rules forbid in this state; the state is left unchanged."""


class UnknownAction(AtollError):
    """A typed action text that names no legal action."""


class AmbiguousAction(AtollError):
    """A typed action text that could mean more than one legal action."""


class ProtocolViolation(AtollError):
    """A message or step that breaks the protocol (out of turn, wrong request, replay)."""


class CheatDetected(AtollError):
    """A step that fails a fairness check; ``seat`` names who is to blame."""

    def __init__(self, seat: int | None, message: str) -> None:
        super().__init__(f"seat {seat}: {message}" if seat is not None else message)
        self.seat = seat


class PluginError(AtollError):
    """A plugin that failed to load or broke the game API; ``plugin`` names it."""

    def __init__(self, plugin: str, message: str) -> None:
        super().__init__(f"plugin {plugin!r}: {message}")
        self.plugin = plugin


class UnknownGame(AtollError):
    """A game name that no installed plugin provides."""


class CorruptSave(AtollError):
    """A saved game file that cannot be read back faithfully."""
