"""Why a table's game ended without a result, and why an entry changed nothing: enums with their words.

Every peer derives the end of a game from the log (no entry states it), so these are not on the wire:
they are what :class:`~atoll.table.table.Table` decides, what the screens print and what the audit
reports. Code branches on the member, never on the words, so rewording a sentence cannot change a
verdict. Only :attr:`EndReason.CHEAT`, :attr:`EndReason.HOST_MISREPORTED` and :attr:`EndReason.HOST_TIMED`
accuse anyone: each is the verdict of an explicit check on something its author signed
(``docs/fairness.md``, "Who is blamed").
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from atoll.numbering import seat_label


class EndReason(enum.Enum):
    """Why the game ended early; each member's value is how a line about it begins."""

    CHEAT = "cheated"
    """A seat validly signed something a fairness or rules check refutes; the seat is named."""
    HOST_MISREPORTED = "the host announced results"
    """The host signed an ``end`` whose results the log does not give; the host is named."""
    HOST_EQUIVOCATED = "the host signed two different histories"
    """Two host signatures for one position of the log, over different heads: the host showed peers
    different logs; the host is named, on that evidence."""
    HOST_TIMED = "the host stated a timeout"
    """The host signed a timeout the table does not allow (no turn time was signed), or one that two
    or more seats refused, their own clocks having seen less than the turn time; the host is named."""
    FORFEIT = "forfeits"
    """A seat ran out of time and two or more other seats witnessed it: it forfeits (not a cheat)."""
    ABORTED = "aborted, not attributable"
    """A seat ran out of time but too few seats witnessed it to name it: nobody is blamed."""
    LEFT = "left the table"
    """A seat left for good; none of the games can go on without it. Nobody is blamed."""
    CLOSED = "closed the table"
    """The host closed the table before the game was over (its person left). Nobody is blamed."""
    UNPLAYABLE = "the host opened a table that cannot be played here"
    """The ``open`` entry names a game, variant or seat count this install cannot play."""
    PLUGIN_FAULT = "the game's plugin failed"
    """The game's own code raised or ran past its time limit: the game is named, nobody is blamed."""
    ATOLL_FAULT = "atoll failed"
    """atoll's own code raised where it should not (a bug): the module is named, nobody is blamed."""

    @property
    def accuses(self) -> bool:
        """Whether this ending names someone as having signed something wrong."""
        return self in (EndReason.CHEAT, EndReason.HOST_MISREPORTED, EndReason.HOST_TIMED,
                        EndReason.HOST_EQUIVOCATED)


@dataclass(frozen=True)
class Ending:
    """How a game ended early: the ``reason``, the ``seat`` it concerns (``None``: none) and the
    one-line ``text`` people read."""

    reason: EndReason
    text: str
    seat: int | None = None


def cheated(seat: int | None, detail: str) -> Ending:
    """``seat`` signed something a check refutes (``detail`` says what)."""
    return Ending(EndReason.CHEAT, f"{seat_label(seat)} {EndReason.CHEAT.value}: {detail}", seat)


def forfeited(seat: int, who: str, witnesses: str) -> Ending:
    """``seat`` (``who``) ran out of time; ``witnesses`` (``"seats 1, 3"``) witnessed it."""
    text = f"{seat_label(seat)} {EndReason.FORFEIT.value}: {who} ran out of time (witnessed by {witnesses})"
    return Ending(EndReason.FORFEIT, text, seat)


def aborted(seat: int, why: str) -> Ending:
    """``seat`` ran out of time, but ``why`` it cannot be named."""
    return Ending(EndReason.ABORTED, f"{EndReason.ABORTED.value}: {why}", seat)


def left(seat: int, who: str, fault: str | None = None) -> Ending:
    """``seat`` (``who``) left the table for good; ``fault``: because the game failed on its machine."""
    why = "" if fault is None else f" ({fault})"
    text = f"{who} {EndReason.LEFT.value}{why}; the game ends here, with no result"
    return Ending(EndReason.LEFT, text, seat)


def left_behind(who: str, goes_on: bool) -> str:
    """What a seat (``who``) that went without handing its secrets over leaves behind, honestly worded;
    ``goes_on``: the game says it could go on without that seat's hidden things."""
    if goes_on:
        return (f"{who} held nothing hidden in this game, so a stand-in could have played on in its seat "
                "(dice go on among the others); none was at the table, or the host chose to end the game")
    return (f"what {who} held stays shut: dice could go on among the others, but cards under {who}'s "
            "keys (its hand and every card not yet dealt) and its sealed choices can never be opened")


def closed(who: str | None) -> Ending:
    """The host (``who``, its person's name, when it had a seat) closed the table before the game was over."""
    host = f"{who}, the host," if who else "the host"
    return Ending(EndReason.CLOSED, f"{host} {EndReason.CLOSED.value}; the game ends here, with no result")


def unplayable(detail: str) -> Ending:
    """The ``open`` entry cannot be played here (``detail`` says why)."""
    return Ending(EndReason.UNPLAYABLE, f"{EndReason.UNPLAYABLE.value}: {detail}")


def misreported(results: object) -> Ending:
    """The host's ``end`` entry states ``results`` that the log does not give."""
    text = f"{EndReason.HOST_MISREPORTED.value} {results} that the log does not give"
    return Ending(EndReason.HOST_MISREPORTED, text)


def host_timed(detail: str) -> Ending:
    """The host stated a timeout that does not hold (``detail`` says why); the host is named."""
    return Ending(EndReason.HOST_TIMED, f"{EndReason.HOST_TIMED.value} that does not hold: {detail}")


def host_equivocated(detail: str) -> Ending:
    """The host signed two different histories (``detail`` says where, and how it is known)."""
    return Ending(EndReason.HOST_EQUIVOCATED, f"{EndReason.HOST_EQUIVOCATED.value}: {detail}")


def plugin_failed(fault: Exception) -> Ending:
    """The game's plugin failed (``fault``, a :class:`~atoll.errors.PluginFault`, names it)."""
    return Ending(EndReason.PLUGIN_FAULT, f"the game stopped: {fault}")


def atoll_failed(component: str, error: BaseException) -> Ending:
    """atoll's own ``component`` raised ``error``."""
    return Ending(EndReason.ATOLL_FAULT,
                  f"the game stopped: atoll's {component} failed ({type(error).__name__}: {error}); "
                  "nobody is to blame, and every log is kept: please report it")


#: How the host answers a message it already logged. An honest peer sends its messages again after a
#: hand-over or when their entry is slow to come, so both ends note this answer quietly (a debug line,
#: not a refusal in the table's ``refusals.log``): the copy in the log is the sender's answer.
ALREADY_LOGGED = "a message already in the log"


class Refusal(enum.Enum):
    """Why a log entry changed nothing (it stays in the log; every peer refuses it alike)."""

    AFTER_END = "the game is over; entry ignored"
    """An entry after the game ended."""
    NOT_OPEN = "the table is not open yet"
    """A seat's message before the host opened the table."""
    OPEN_BY_HOST = "only the host opens the table, in the first entry"
    """An ``open`` that is not the host's first entry."""
    END_BY_HOST = "only the host ends the table, once the game is over"
    """An ``end`` from anyone but the host, or before the game is over."""
    CLOSE_BY_HOST = "only the host closes the table"
    """A ``close`` from anyone but the host."""
    NO_TAKEOVER = "cannot take the table over"
    """A ``host`` entry from a seat that may not take the table over now."""
    RULING = "the host's ruling does not hold"
    """A host's ``timeout`` or ``abort`` that the table's state does not allow."""
    MESSAGE = "the message cannot be taken now"
    """A seat's message that the table or the game refuses (out of turn, illegal, malformed)."""
