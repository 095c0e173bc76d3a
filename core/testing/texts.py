"""Conformance checks of a game's own texts: the help texts it declares are well formed, its score
sheet agrees with its results, and its board tells owners apart without colour.

Each is a public function of a :class:`~atoll.testing.Playout`, run by the kit with the others.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from atoll.types import Decision, End

if TYPE_CHECKING:
    from atoll.testing.playout import Moment, Playout

#: The longest decision prompt: the status line (`` your turn (yellow): `` and the prompt) is one line
#: of an 80-column terminal, never wrapped.
PROMPT_WIDTH = 56
# How many moments the owner-marks check draws (spread evenly, first and last included).
_OWNER_MOMENTS = 24


def check_texts(playout: Playout) -> None:
    """The texts the game declares are well formed: a rules summary is text; glossary and legend
    entries are pairs of non-empty strings with distinct names; every decision's prompt is ``None``
    or one non-empty line of at most :data:`PROMPT_WIDTH` characters."""
    game, config = playout.game, playout.config
    summary = game.rules_summary(config)
    if not isinstance(summary, str):
        raise playout.fail("texts", f"rules_summary gave {type(summary).__name__}, not text")
    for hook in (game.glossary, game.legend):
        _check_pairs(playout, hook.__name__, hook(config))
    for m in playout.decisions:
        assert isinstance(m.step, Decision)
        asked = game.decision_prompt(m.state, m.step.seat)
        if asked is not None and (not isinstance(asked, str) or not asked.strip() or "\n" in asked
                                  or len(asked) > PROMPT_WIDTH):
            raise playout.fail("texts", f"decision_prompt gave {asked!r}; give one line of text of at most "
                               f"{PROMPT_WIDTH} characters, or None", m.index)


def _check_pairs(playout: Playout, hook: str, pairs: Sequence[tuple[str, str]]) -> None:
    names = []
    for pair in pairs:
        if not (isinstance(pair, tuple) and len(pair) == 2 and all(isinstance(p, str) and p.strip()
                                                                  for p in pair)):
            raise playout.fail("texts", f"{hook} has the entry {pair!r}; each is a (name, meaning) pair "
                               "of non-empty strings")
        names.append(pair[0])
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise playout.fail("texts", f"{hook} names {', '.join(map(repr, twice))} more than once")


def check_score_sheet(playout: Playout) -> None:
    """A score sheet, when the game gives one, agrees with the results: each seat's parts add up to
    its score, every seat has exactly one place, and the first place holds the winners."""
    end = playout.moments[-1]
    assert isinstance(end.step, End)
    sheet = playout.game.score_sheet(end.state)
    if sheet is None:
        return
    problems = sheet.problems(playout.results)
    if problems:
        raise playout.fail("score-sheet", "; ".join(problems), end.index)


def check_owner_marks(playout: Playout) -> None:
    """Without colour a person still tells owners apart: at moments spread over the game, for every
    seat's view and the spectator's, each owned piece the game declares (``owned_pieces``) is drawn,
    as its text, on the board with the styles stripped, and no such text stands for the pieces of
    two owners."""
    game = playout.game
    for m in _spread(playout.moments):
        for viewer in [*range(playout.config.seats), None]:
            known = m.known[viewer] if viewer is not None else {}
            view = game.view(m.state, viewer, known)
            drawn = "".join(text for _, text in game.render(view))
            owners: dict[str, int] = {}
            for owner, text in game.owned_pieces(view):
                who = "the spectator" if viewer is None else f"seat {viewer}"
                if not text.strip() or text not in drawn:
                    raise playout.fail("owner-marks", f"{who}'s board does not show {text!r}, declared as "
                                       f"seat {owner}'s piece", m.index)
                if owners.setdefault(text, owner) != owner:
                    raise playout.fail("owner-marks", f"{who}'s board draws seat {owners[text]}'s and seat "
                                       f"{owner}'s pieces alike, as {text!r}: without colour nobody can "
                                       "tell whose is which", m.index)


def _spread(moments: Sequence[Moment]) -> list[Moment]:
    if len(moments) <= _OWNER_MOMENTS:
        return list(moments)
    step = (len(moments) - 1) / (_OWNER_MOMENTS - 1)
    return [moments[round(i * step)] for i in range(_OWNER_MOMENTS)]
