"""The errors atoll raises, split by cause; every one is an :class:`AtollError`."""

from __future__ import annotations

from atoll.numbering import seat_label


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
        super().__init__(f"{seat_label(seat)}: {message}" if seat is not None else message)
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


class Fault(Exception):
    """A component failed: a game plugin or atoll itself, not anything a person or a peer sent.

    Deliberately not an :class:`AtollError`: atoll catches ``AtollError`` where it refuses what
    someone sent (a move, a message, a file). A fault passes those by, so it never turns into a
    refusal or a verdict against a seat; it stops the game at the edge, naming the component, and
    blames nobody (``docs/decisions/0015-faults-are-not-cheats.md``).
    """

    def __init__(self, component: str, message: str) -> None:
        super().__init__(component, message)
        self.component = component
        self.message = message

    def __str__(self) -> str:
        return f"{self.component} failed: {self.message}; nobody is to blame"

    def __repr__(self) -> str:  # reports quote faults with !r: the sentence reads better than the fields
        return f"{type(self).__name__}({str(self)!r})"


class PluginFault(Fault):
    """A game plugin's code raised, or ran past its time limit, in ``method``.

    ``game`` is the game's name, ``source`` the distribution that installed it; ``timed_out`` says the
    call was stopped at its time limit rather than raising by itself.
    """

    def __init__(self, game: str, source: str, method: str, message: str, *, timed_out: bool = False) -> None:
        super().__init__(f"the game {game!r} (from {source}) in {method}", message)
        self.args = (game, source, method, message, timed_out)  # what pickling passes back to __init__
        self.game = game
        self.source = source
        self.method = method
        self.timed_out = timed_out

    def __reduce__(self) -> tuple[object, ...]:
        return (_plugin_fault, self.args)


class OutcomeRefused(PluginFault):
    """The game's ``resolve`` refused a chance outcome (raised ``IllegalAction``). At a network table
    the outcome may hold values seats revealed, so the table first has every seed opened and asks the
    referee whose sealed choice was illegal (:mod:`atoll.table.engine`); anywhere else, and when no
    seat chose wrong, it is the plugin's fault."""

    def __reduce__(self) -> tuple[object, ...]:
        return (_outcome_refused, self.args)


class AtollFault(Fault):
    """atoll's own code raised where it should not have (a bug of ours): ``component`` is the module."""


def _plugin_fault(game: str, source: str, method: str, message: str, timed_out: bool) -> PluginFault:
    return PluginFault(game, source, method, message, timed_out=timed_out)


def _outcome_refused(game: str, source: str, method: str, message: str, timed_out: bool) -> OutcomeRefused:
    return OutcomeRefused(game, source, method, message, timed_out=timed_out)


def failing_module(error: BaseException) -> str:
    """The innermost atoll module that ``error`` passed through (``atoll`` if none): the component a
    fault report names."""
    name = "atoll"
    trace = error.__traceback__
    while trace is not None:
        module = str(trace.tb_frame.f_globals.get("__name__", ""))
        if module.startswith("atoll."):
            name = module
        trace = trace.tb_next
    return name
