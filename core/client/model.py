"""The model of a game played in the client: what to show, the log, and the legal texts.

It knows nothing about prompts or screens, so the line-by-line client of today
and a full-screen client later draw the same model. One seat is the player's;
bots play the others and chance is resolved without pause, every step logged.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from atoll.client.narration import Narrator
from atoll.client.results import headline, result_lines
from atoll.client.source import LogLine
from atoll.engine.loop import StuckGame, observe
from atoll.engine.match import Match
from atoll.engine.observation import Agent
from atoll.errors import AtollError, ProtocolViolation
from atoll.game import Fragments, Game
from atoll.types import Action, Decision, End, Results

#: How many steps bots and chance may take in a row before the game is called stuck.
MAX_UNATTENDED_STEPS = 100_000


class GameModel:
    """A match seen from the player's ``seat``, with ``bots`` (seat -> agent) at the other seats.

    ``labels`` names the bot at each seat (``"random bot"``) for display;
    ``seed`` is the local resolver's seed, kept so a save can reproduce the game.
    """

    def __init__(
        self,
        match: Match,
        seat: int,
        bots: Mapping[int, Agent],
        *,
        seed: int | None = None,
        labels: Mapping[int, str] | None = None,
    ) -> None:
        others = set(range(match.config.seats)) - {seat}
        if set(bots) != others:
            raise ValueError(f"bots must sit at exactly the seats {sorted(others)}, not {sorted(bots)}")
        self.match = match
        self.seat = seat
        self.seed = seed
        self.log: list[LogLine] = []
        """The game log; read each line as the player may (:meth:`LogLine.seen_by` of ``seat``)."""
        self._bots = dict(bots)
        self._labels = dict(labels or {})
        self._last_own = 0  # log index just after the player's latest action
        self._narrator = Narrator(self.names, (seat,))

    # -- reading ------------------------------------------------------------------

    @property
    def game(self) -> Game:
        """The game being played."""
        return self.match.game

    def names(self) -> list[str]:
        """Display names of the seats: the game's seat names, marking the player and the bots."""
        names = list(self.game.seat_names(self.match.config))
        for seat in range(len(names)):
            if seat == self.seat:
                names[seat] += " (you)"
            elif seat in self._labels:
                names[seat] += f" ({self._labels[seat]})"
        return names

    def board(self) -> Fragments:
        """The game's drawing of the player's view (the player's hand is part of it)."""
        return self.game.render(self.match.view(self.seat))

    def my_turn(self) -> bool:
        """Whether the player is to decide now."""
        step = self.match.step()
        return isinstance(step, Decision) and step.seat == self.seat

    def secret(self) -> bool:
        """Whether the decision now is sealed (the others learn only that a choice was made)."""
        step = self.match.step()
        return isinstance(step, Decision) and step.secret

    def turn(self) -> str:
        """Whose turn it is, in words."""
        step = self.match.step()
        if isinstance(step, End):
            return "the game is over"
        if not isinstance(step, Decision):
            return "chance is to act"
        kind = "a secret choice" if step.secret else "a move"
        if step.seat == self.seat:
            asked = self.game.decision_prompt(self.match.state, step.seat) or kind
            return f"your turn ({self.game.seat_names(self.match.config)[self.seat]}): {asked}"
        return f"{self.names()[step.seat]} is to make {kind}"

    def texts(self) -> list[str]:
        """The player's legal actions as texts, in the game's order (empty unless it is to decide)."""
        return list(self.match.texts(self.seat)) if self.my_turn() else []

    def news(self) -> list[LogLine]:
        """What happened since the player's latest action (the whole log before its first)."""
        return self.log[self._last_own:]

    def results(self) -> Results | None:
        """The results once the game is over, else ``None``."""
        end = self.match.results()
        return end.results if end is not None else None

    def result_lines(self) -> list[str]:
        """Who won, then every place with the points as the game counted them (empty while the game
        goes on)."""
        results = self.results()
        if results is None:
            return []
        names = self.names()
        sheet = self.game.score_sheet(self.match.state)
        return [headline(results, names), *result_lines(results, sheet, names)]

    # -- playing ------------------------------------------------------------------

    def advance(self) -> list[LogLine]:
        """Let chance and the bots act until the player is to decide or the game ends.

        Returns the log entries this added. Raises :class:`StuckGame` if a bot
        has no legal action or the game runs on without end.
        """
        start = len(self.log)
        for _ in range(MAX_UNATTENDED_STEPS):
            step = self.match.step()
            if isinstance(step, End) or (isinstance(step, Decision) and step.seat == self.seat):
                return self.log[start:]
            if isinstance(step, Decision):
                self._bot_turn(step)
            else:
                self.match.advance()
                self.log.extend(self._narrator.catch_up(self.match))
        raise StuckGame(f"{self.game.info.name}: no turn of yours after {MAX_UNATTENDED_STEPS} steps")

    def take(self, text: str) -> Action:
        """The player takes the legal action whose text is (or uniquely begins with) ``text``.

        Raises :class:`~atoll.errors.UnknownAction` or
        :class:`~atoll.errors.AmbiguousAction` (with the candidates) and
        changes nothing when the text names no single legal action.
        """
        if not self.my_turn():
            raise ProtocolViolation("it is not your turn")
        action = self.match.parse(self.seat, text)
        self.match.act(self.seat, action)
        self.log.extend(self._narrator.catch_up(self.match))
        self._last_own = len(self.log)
        return action

    def _bot_turn(self, step: Decision) -> None:
        observation = observe(self.match, step.seat)
        name = self.names()[step.seat]
        if not observation.legal:
            raise StuckGame(f"{self.game.info.name}: {name} must decide but has no legal action")
        action = self._bots[step.seat].choose(observation)
        try:
            self.match.act(step.seat, action)
        except AtollError as exc:
            raise AtollError(f"the bot at {name} chose {action!r}, which failed: {exc}") from exc
        self.log.extend(self._narrator.catch_up(self.match))


def bot_seats(seats: int, player: int) -> Sequence[int]:
    """The seats the bots take: every seat but the player's, in order."""
    return [s for s in range(seats) if s != player]
