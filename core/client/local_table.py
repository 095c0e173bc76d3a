"""A local game as a :class:`~atoll.client.source.TableSource`: people at this terminal (one, or
several taking turns), bots at the other seats, chance from a seeded resolver, saved as it goes.

Bots think in a worker thread (they only read the match); every change to the
match happens on the event loop's thread, so saving or undoing never races a bot.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from atoll.client.narration import Narrator
from atoll.client.refusals import parse_typed
from atoll.client.saves import save_replacing
from atoll.client.source import LogLine, Question, Refused, SeatLine, Waiting
from atoll.engine.local import LocalResolver
from atoll.engine.loop import observe
from atoll.engine.match import Event, Match
from atoll.engine.observation import Agent
from atoll.errors import AtollError, CorruptSave, Fault
from atoll.faultlog import record_fault
from atoll.game import Fragments, Game
from atoll.jsondata import JSON, canonical
from atoll.numbering import seat_label
from atoll.scoresheet import ScoreSheet
from atoll.types import Action, Chance, Config, Decision, End, Results

#: How many steps chance may take in a row before the game is called stuck.
MAX_CHANCE_STEPS = 100_000


class LocalTable:
    """A game on this machine: ``humans`` type at this terminal, ``bots`` (seat -> agent) play the rest.

    ``labels`` says what each bot is (``"random bot"``), ``names`` the people's
    own names. ``save_path`` is rewritten after every move (atomically), so an
    interrupted game can be resumed; ``None`` keeps it in memory only.
    ``pace`` is a pause in seconds between a bot's move and the next bot move, so people can follow the
    game (``atoll play --bot-delay``); a person's turn comes without one.
    """

    def __init__(
        self,
        game: Game,
        config: Config,
        seed: int,
        *,
        humans: Sequence[int],
        bots: Mapping[int, Agent],
        labels: Mapping[int, str] | None = None,
        names: Mapping[int, str] | None = None,
        save_path: Path | None = None,
        pace: float = 0.0,
    ) -> None:
        if sorted([*humans, *bots]) != list(range(config.seats)):
            raise ValueError(
                f"people {list(humans)} and bots {sorted(bots)} must fill seats 0-{config.seats - 1}"
            )
        if not humans:
            raise ValueError("a local table needs at least one person")
        self.game = game
        self.config = config
        self.seed = seed
        self.match = Match(game, config, LocalResolver(seed))
        self.save_path = save_path
        self.pace = pace
        self._humans = sorted(humans)
        self._bots = dict(bots)
        self._labels = dict(labels or {})
        self._names = dict(names or {})
        self._log: list[LogLine] = []
        self._narrator = Narrator(self.names, self._humans)
        self._thinking: int | None = None
        self._bot_moved_last = False
        self._problem: str | None = None
        self._moved = asyncio.Event()
        self._texts_key: tuple[int, int, int, int] | None = None
        self._texts_now: dict[str, Action] = {}

    # -- building from a log --------------------------------------------------------

    def redrive(self, events: Sequence[Event], faces: Mapping[str, JSON], *, first_line: int = 2) -> None:
        """Play ``events`` again on a fresh match from the seed, checking each chance outcome against
        the recorded one; ``faces`` open the sealed choices. Raises :class:`CorruptSave` naming the
        line (``first_line`` is the number of the first event's line in its file)."""
        self.match = Match(self.game, self.config, LocalResolver(self.seed))
        self._log = []
        self._narrator = Narrator(self.names, self._humans)
        for number, event in enumerate(events, first_line):
            try:
                self._redrive_one(event, faces)
            except CorruptSave as exc:
                raise CorruptSave(f"line {number}: {exc}") from exc
            except (KeyError, IndexError, TypeError, ValueError, AttributeError, RecursionError) as exc:
                raise CorruptSave(f"line {number}: malformed event {str(event)[:80]}") from exc
            except AtollError as exc:
                raise CorruptSave(f"line {number}: {exc}") from exc

    def _redrive_one(self, event: Event, faces: Mapping[str, JSON]) -> None:
        step = self.match.step()
        if "request" in event:
            if not isinstance(step, Chance):
                raise CorruptSave("chance is recorded here, but the game asks a seat to decide")
            self._chance()
            if canonical(self.match.events[-1]) != canonical(event):
                raise CorruptSave("the recorded chance differs from the game's (the save was edited)")
            return
        seat = int(event["seat"])
        if not 0 <= seat < self.config.seats:
            raise CorruptSave(f"{seat_label(seat)} does not exist in this {self.config.seats}-seat game")
        if "sealed" in event:
            values = [faces[handle] for handle in event["sealed"]]
            self._act(seat, {"secret": values})
        else:
            self._act(seat, event["action"])

    # -- reading (the TableSource methods) ------------------------------------------

    def title(self) -> str:
        """The game, variant and seats."""
        return f"{self.game.info.title} ({self.config.variant}), {self.config.seats} seats"

    def humans(self) -> Sequence[int]:
        """The seats typed at this terminal."""
        return list(self._humans)

    def board(self, viewer: int | None) -> Fragments:
        """The game's drawing of ``viewer``'s view."""
        return self.game.render(self.match.view(viewer))

    def log(self) -> Sequence[LogLine]:
        """The game log so far."""
        return list(self._log)

    def names(self) -> list[str]:
        """The game's seat names."""
        return list(self.game.seat_names(self.config))

    def who(self, seat: int) -> str:
        """Who plays ``seat``: a person's name (``"you"`` when alone), or the bot's kind."""
        if seat in self._bots:
            return self._labels.get(seat, "bot")
        if seat in self._names:
            return self._names[seat]
        return "you" if len(self._humans) == 1 else f"player {self._humans.index(seat) + 1}"

    def named(self, seat: int) -> bool:
        """Whether the person at ``seat`` gave a name."""
        return seat in self._names

    def seats(self) -> Sequence[SeatLine]:
        """Every seat for the seats panel."""
        step = self.match.step()
        acting = step.seat if isinstance(step, Decision) else None
        return [
            SeatLine(seat, name, self.who(seat), seat == acting, seat in self._humans)
            for seat, name in enumerate(self.names())
        ]

    def waiting(self) -> Waiting:
        """What the table waits for now."""
        if self._problem is not None:
            return Waiting(None, f"the game stopped: {self._problem}", False, over=True)
        step = self.match.step()
        if isinstance(step, End):
            return Waiting(None, "the game is over", False, over=True)
        if not isinstance(step, Decision):
            return Waiting(None, "chance is acting…", False)
        name = self.names()[step.seat]
        if step.seat in self._bots:
            verb = "is thinking…" if self._thinking == step.seat else "is to move"
            return Waiting(step.seat, f"{name} ({self.who(step.seat)}) {verb}", False, step.secret)
        asked = self.game.decision_prompt(self.match.state, step.seat)
        if asked is None:
            asked = "a secret choice" if step.secret else "a move"
        whose = "your turn" if len(self._humans) == 1 else f"{self.who(step.seat)}'s turn"
        return Waiting(step.seat, f"{whose} ({name}): {asked}", True, step.secret)

    def texts(self, seat: int) -> Sequence[str]:
        """The legal texts of ``seat`` (empty unless a person there is to decide)."""
        if seat not in self._humans or self._problem is not None:
            return []
        try:
            return list(self._texts(seat))
        except Fault as exc:  # asked on every key typed: the game stops here, said once, by name
            self._stopped(exc)
            return []

    def _texts(self, seat: int) -> dict[str, Action]:
        """The legal texts of ``seat``, kept for the state they were made for: completion asks for them
        on every key typed, and a game may describe many actions."""
        key = (id(self.match), id(self.match.state), len(self.match.events), seat)
        if self._texts_key != key:
            self._texts_key = key
            self._texts_now = self.match.texts(seat)
        return self._texts_now

    def action_help(self, seat: int, text: str) -> str | None:
        """What the legal action ``text`` does, from the game; ``None`` when it does not say."""
        action = self._texts(seat).get(text)
        if action is None:
            return None
        return self.game.action_help(self.match.state, action)

    def results(self) -> Results | None:
        """The results once the game is over."""
        end = self.match.results()
        return end.results if end is not None else None

    def score_sheet(self) -> ScoreSheet | None:
        """How the game counted the scores, once it is over."""
        if self.match.results() is None:
            return None
        return self.game.score_sheet(self.match.state)

    def problem(self) -> str | None:
        """Why the game stopped early, if it did."""
        return self._problem

    def moved(self) -> bool:
        """Never: a game on this machine has nowhere else to go on."""
        return False

    # -- acting ---------------------------------------------------------------------

    def submit(self, seat: int, text: str) -> str:
        """A person at ``seat`` takes the action ``text`` names; raises :class:`Refused` with the reason."""
        step = self.match.step()
        if seat not in self._humans or not isinstance(step, Decision) or step.seat != seat:
            raise Refused(f"it is not {self.names()[seat]}'s turn: {self.waiting().text}")
        try:
            action = parse_typed(self.match, seat, self._texts(seat), text)
            chosen = self.game.describe(self.match.state, action)
            self._act(seat, action)
        except Fault as exc:
            self._stopped(exc)
            raise Refused(f"the game stopped: {exc}") from None
        self._bot_moved_last = False
        self._moved.set()
        self.autosave()
        return chosen

    def can_undo(self, seat: int) -> bool:
        """Whether ``seat`` (a person, now to decide) has an action to take back."""
        step = self.match.step()
        if seat not in self._humans or not isinstance(step, Decision) or step.seat != seat:
            return False
        return self._last_own(seat) is not None

    def undo(self, seat: int) -> None:
        """Take back ``seat``'s latest action and everything the others did after it."""
        if not self.can_undo(seat):
            raise Refused("nothing to undo: you have not moved yet, or it is not your turn")
        cut = self._last_own(seat)
        assert cut is not None
        faces = self.match.resolver.faces()  # type: ignore[attr-defined]
        self.redrive(self.match.events[:cut], faces)
        self._log.append(LogLine(seat, f"{self.names()[seat]} took back a move"))
        self._moved.set()
        self.autosave()

    def _last_own(self, seat: int) -> int | None:
        for index in range(len(self.match.events) - 1, -1, -1):
            if self.match.events[index].get("seat") == seat:
                return index
        return None

    def _act(self, seat: int, action: dict[str, JSON]) -> None:
        # the match refuses an action that is not legal before the game is asked to word it: a game's
        # words may assume a legal action, and an edited save's is not one (a refusal, not a fault)
        self.match.act(seat, action)
        self._log.extend(self._narrator.catch_up(self.match))

    def _chance(self) -> None:
        self.match.advance()
        self._log.extend(self._narrator.catch_up(self.match))

    def _stopped(self, fault: Fault) -> None:
        """The game's plugin (or atoll) failed: the game stops, saying so once; nobody is blamed."""
        if self._problem is None:
            record_fault("a local game", fault)
            self._problem = str(fault)
            self._log.append(LogLine(None, f"the game stopped: {self._problem}"))
        self._moved.set()  # the background task waits for nobody any more

    # -- the background task --------------------------------------------------------

    async def run(self, changed: Callable[[], None]) -> None:
        """Resolve chance and let the bots move until the game ends; wait while a person decides."""
        try:
            await self._run(changed)
        except Fault as exc:  # the game's plugin (or atoll) failed: said by name, nobody blamed
            self._stopped(exc)
            changed()
        except Exception as exc:  # a plugin's or bot's failure must not kill the screen
            record_fault("a local game", exc)
            self._problem = f"{type(exc).__name__}: {exc}"
            self._log.append(LogLine(None, f"the game stopped: {self._problem}"))
            changed()

    async def _run(self, changed: Callable[[], None]) -> None:
        chance_steps = 0
        while self._problem is None:
            step = self.match.step()
            if isinstance(step, End):
                self.autosave()
                changed()
                return
            if isinstance(step, Chance):
                chance_steps += 1
                if chance_steps > MAX_CHANCE_STEPS:
                    raise AtollError(f"chance acted {MAX_CHANCE_STEPS} times in a row; the game is stuck")
                self._chance()
                continue
            chance_steps = 0
            if step.seat in self._humans:
                self.autosave()
                changed()
                self._moved.clear()
                await self._moved.wait()
                continue
            await self._bot_turn(step, changed)

    async def _bot_turn(self, step: Decision, changed: Callable[[], None]) -> None:
        if self.pace and self._bot_moved_last:  # a bot's move follows another's: let people see that one
            await asyncio.sleep(self.pace)
        observation = observe(self.match, step.seat)
        name = self.names()[step.seat]
        if not observation.legal:
            raise AtollError(f"{name} must decide but has no legal action")
        self._thinking = step.seat
        changed()
        try:
            action = await asyncio.to_thread(self._bots[step.seat].choose, observation)
        finally:
            self._thinking = None
        try:
            self._act(step.seat, action)
        except AtollError as exc:
            raise AtollError(f"the bot at {name} chose {action!r}, which failed: {exc}") from exc
        self.autosave()
        self._bot_moved_last = True
        changed()

    # -- saving ---------------------------------------------------------------------

    def client_record(self) -> dict[str, JSON]:
        """Who played which seat, kept in the save's footer so the game can be resumed as it was."""
        return {
            "humans": list(self._humans),
            "bots": {str(seat): self._labels.get(seat, "bot").removesuffix(" bot") for seat in self._bots},
            "names": {str(seat): name for seat, name in self._names.items()},
        }

    def autosave(self) -> None:
        """Rewrite the save file with the game so far (atomically: the old file stays until the new one
        is complete). Does nothing without a save path."""
        if self.save_path is None:
            return
        faces = self.match.resolver.faces()  # type: ignore[attr-defined]
        save_replacing(self.match, self.save_path, seed=self.seed, faces=faces,
                       extra={"client": self.client_record()})

    def chat(self, text: str) -> None:
        """Refused: at a local game nobody else reads table talk."""
        raise Refused("table talk is for network tables: nobody else sits at this game")

    def question(self) -> Question | None:
        """Nothing is asked at a table on this machine."""
        return None

    def answer(self, key: str) -> str | None:
        """Nothing is asked, so no key answers."""
        del key
        return None

    def leave(self) -> str | None:
        """Save the game; say where, and how to go on with it."""
        if self.save_path is None:
            return None
        self.autosave()
        return f"saved to {self.save_path}"
