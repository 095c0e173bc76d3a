"""The check that everything a client draws can be drawn (:func:`check_render`): every seat's and the
spectator's board, within an 80-column terminal, and a line of text for every legal action and every
log entry.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from prompt_toolkit.utils import get_cwidth

from atoll.testing.compare import short
from atoll.testing.playout import Moment, Playout, seat_of, spread
from atoll.types import Chance, Decision

#: Columns a board may take at most: the client draws it whole on an 80x24 terminal.
BOARD_COLUMNS = 80

# How many moments of a playout the costlier checks look at (spread evenly, first and last included).
_RENDER_MOMENTS = 12


def check_render(playout: Playout) -> None:
    """Everything a client draws can be drawn, at every step of the playout: ``render(view)`` gives a
    list of ``(style, text)`` string pairs for every seat and the spectator; ``describe`` gives every
    legal action a line of text; and the log's words are text (``describe_log`` a line for the action
    taken, ``describe_chance_after``, by default ``describe_chance``, a line or ``None``). A game whose
    drawing fails in any position fails.

    ``describe_log`` is also asked for every legal action (not only the one taken) at a few decisions
    spread over the playout: a client may word an action it was told of before it happens.
    """
    game = playout.game
    viewers: list[int | None] = [*range(playout.config.seats), None]
    for m, following in zip(playout.moments, [*playout.moments[1:], None], strict=True):
        for viewer in viewers:
            _check_drawing(playout, m, viewer)
        for action in m.legal:
            _check_line(playout, m, f"describe({short(action)})", game.describe, m.state, action)
        event = m.event
        if event is None:
            continue
        if isinstance(m.step, Chance) and following is not None:
            line = game.describe_chance_after(m.state, m.step.request, event["outcome"], following.state)
            if line is not None and (not isinstance(line, str) or not line.strip()):
                raise playout.fail("render", f"describe_chance gave {line!r}; give a line of text, or "
                                   "None for the client's own words", m.index)
        elif isinstance(m.step, Decision) and "action" in event:  # the client words sealed choices itself
            _check_line(playout, m, f"describe_log({short(event['action'])})", game.describe_log, m.state,
                        seat_of(m), event["action"])
    open_decisions = [m for m in playout.decisions if isinstance(m.step, Decision) and not m.step.secret]
    for m in spread(open_decisions, _RENDER_MOMENTS):
        for action in m.legal:
            _check_line(playout, m, f"describe_log({short(action)})", game.describe_log, m.state, seat_of(m),
                        action)


def _check_line(playout: Playout, m: Moment, what: str, call: Callable[..., object], *args: object) -> None:
    """``call(*args)`` gives a non-empty line of text, and does not raise."""
    try:
        line = call(*args)
    except Exception as exc:
        raise playout.fail("render", f"{what} raised {exc!r}", m.index) from exc
    if not isinstance(line, str) or not line.strip():
        raise playout.fail("render", f"{what} gave {line!r}; give a line of text", m.index)


def _check_drawing(playout: Playout, m: Moment, viewer: int | None) -> None:
    """The view of ``viewer`` at ``m`` renders to ``(style, text)`` pairs, without raising."""
    game = playout.game
    who = "the spectator" if viewer is None else f"seat {viewer}"
    known = m.known[viewer] if viewer is not None else {}
    try:
        fragments = game.render(game.view(m.state, viewer, known))
    except Exception as exc:
        raise playout.fail("render", f"drawing {who}'s view raised {exc!r}", m.index) from exc
    if not isinstance(fragments, list):
        raise playout.fail("render", f"render of {who}'s view gave a {type(fragments).__name__}, "
                           "not a list of (style, text) pairs", m.index)
    if not _plain_fragments(fragments):
        for fragment in fragments:
            if not (isinstance(fragment, tuple) and len(fragment) == 2
                    and all(isinstance(part, str) for part in fragment)):
                raise playout.fail("render", f"render of {who}'s view has the fragment {fragment!r}; "
                                   "each must be a (style, text) pair of strings", m.index)
    text = "".join(part for _, part in fragments)
    widest = max(text.split("\n"), key=get_cwidth)
    if get_cwidth(widest) > BOARD_COLUMNS:
        raise playout.fail("render", f"{who}'s board is {get_cwidth(widest)} columns wide, over the "
                           f"{BOARD_COLUMNS} an 80x24 terminal shows (the line {short(widest, 60)}); "
                           "wrap it or draw it narrower", m.index)


def _plain_fragments(fragments: Sequence[Any]) -> bool:
    """Whether every fragment is a pair of two plain strings: a fast test (every step of a long game
    is drawn for every seat), which only says yes; the loop above finds the culprit, or lets pass
    what it accepts (such as a subclass of ``str``)."""
    if not fragments:
        return True
    if set(map(type, fragments)) != {tuple} or set(map(len, fragments)) != {2}:
        return False
    styles, texts = zip(*fragments, strict=True)
    return set(map(type, styles)) == {str} and set(map(type, texts)) == {str}
