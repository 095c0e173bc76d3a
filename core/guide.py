"""A game's own texts for its players: the rules summary, its cards and what each does, the board's
symbols, what each decision is about, the score sheet of a finished game and the owners of the pieces
it draws. The client shows each where the player looks (docs/plugin-guide.md, "The game's own texts").

A game gives them as a :class:`Guide` (``guide = MyGuide()`` on its :class:`~atoll.Game`), apart from
its rules; every method has a default, so a game says only what it has to say. Every word here is
public: the other seats read it too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from atoll.jsondata import JSON
from atoll.scoresheet import ScoreSheet
from atoll.types import Action, Config, Knowledge, State


class Guide:
    """The texts a game gives its players; the defaults say nothing and the client uses its own words."""

    def explain_illegal(self, state: State, seat: int, known: Knowledge, text: str) -> str | None:
        """Why ``text`` is not a legal action of ``seat`` now, in the game's own words
        (``"the kagu has already moved this turn"``, ``"no turtle at c2r3"``), or ``None`` when the
        game has nothing to say; the client then lists the legal actions. Called only for a text that
        matches no legal action; ``known`` is what ``seat`` privately knows, so the reason may speak of
        its hand but must not reveal anything else."""
        return None

    def decision_prompt(self, state: State, seat: int) -> str | None:
        """What ``seat`` is asked to decide now, shown in the status line (``"keep 4 of your 6 action
        cards"``), or ``None`` for the client's words (``"a move"``, ``"a secret choice"``). Public words:
        the other seats read it too."""
        return None

    def action_help(self, state: State, action: Action) -> str | None:
        """What ``action`` does, shown beside it while the player chooses (``"feeding: each of your
        animals on the mainland scores 1"``), or ``None``: the client then shows the :meth:`glossary`
        entries of the words in its text."""
        return None

    def rules_summary(self, config: Config) -> str:
        """Enough of the rules of ``config``'s variant to play a first game, for the rules screen (F2):
        plain text, paragraphs separated by blank lines, about a screen (20 lines of 76 columns). Empty
        by default: the client shows ``info.summary`` and says no summary is provided."""
        return ""

    def glossary(self, config: Config) -> Sequence[tuple[str, str]]:
        """The cards, tiles or pieces of the game and what each does, as ``(name, what it does)`` pairs
        (``("rest", "an animal on a turtle does not move this turn")``). The client lists them on a help
        screen and beside any action whose text names them. None by default."""
        return ()

    def score_sheet(self, state: State) -> ScoreSheet | None:
        """How the scores of a finished ``state`` were counted, for the result screen: each seat's
        points part by part as the rulebook counts them, every place, and the tie-break used
        (:class:`~atoll.scoresheet.ScoreSheet`). Public facts only; the client names the seats. ``None``
        (the default): the client shows the scores and ranks the seats by them, winners first."""
        return None

    def legend(self, config: Config) -> Sequence[tuple[str, str]]:
        """What the symbols of the board mean, for the legend screen (F4), as ``(symbol, meaning)`` pairs
        (``("~", "a flooded place")``). None by default."""
        return ()

    def owned_pieces(self, view: Mapping[str, JSON]) -> Sequence[tuple[int, str]]:
        """The pieces the board of ``view`` shows that belong to a seat, as ``(owner seat, the text that
        draws the piece)`` pairs (``(0, "R1")`` for red's rabbit). Without colour a person tells
        owners apart by that text alone, so the conformance kit checks that each text is on the drawing
        and never stands for two owners' pieces. None by default (a board with no owned pieces)."""
        return ()
