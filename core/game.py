"""The game API: what a plugin implements. A game is a pure, deterministic state machine."""

from __future__ import annotations

import abc
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from atoll.chance import Request
from atoll.errors import IllegalAction
from atoll.guide import Guide
from atoll.jsondata import JSON
from atoll.numbering import seat_label
from atoll.scoresheet import ScoreSheet
from atoll.types import Action, Config, GameInfo, Knowledge, State, Step

if TYPE_CHECKING:  # the fast path is optional: a game that offers none never imports it
    from atoll.fast import Draws, Position, Simulator
    from atoll.tensors import Tensors

#: Styled text for the client: ``(style, text)`` pairs, as prompt_toolkit's
#: FormattedText takes them (style names like ``"fg:ansired bold"`` or ``""``).
Fragments = list[tuple[str, str]]


class Game(abc.ABC):
    """A game plugin. Subclass it, set :attr:`info`, implement the abstract methods.

    Rules are pure functions of their arguments: no clock, no global random, no
    I/O, and ``apply``/``resolve`` never mutate the state they are given. The
    state holds public information only; hidden cards appear in it as handles,
    and a face enters it only once revealed. Randomness and hidden cards come
    only through chance requests (:mod:`atoll.chance`).
    """

    info: ClassVar[GameInfo]

    # -- set-up -----------------------------------------------------------------

    def configure(
        self,
        seats: int | None = None,
        variant: str | None = None,
        options: Mapping[str, JSON] | None = None,
    ) -> Config:
        """Build a checked :class:`Config`, filling in the minimum seats and default variant."""
        info = self.info
        seats = info.min_seats if seats is None else seats
        variant = info.default_variant if variant is None else variant
        if not info.min_seats <= seats <= info.max_seats:
            raise IllegalAction(
                f"{info.title} takes {info.min_seats}-{info.max_seats} seats, not {seats}"
            )
        if variant not in info.variants:
            raise IllegalAction(
                f"{info.title} has no variant {variant!r}; choose one of {', '.join(info.variants)}"
            )
        return Config(seats, variant, dict(options or {}))

    @abc.abstractmethod
    def setup(self, config: Config) -> State:
        """The state before anything happens (usually its first step is a shuffle)."""

    # -- rules ------------------------------------------------------------------

    @abc.abstractmethod
    def next(self, state: State) -> Step:
        """What happens now: a :class:`Decision` (of one seat, or of several at once:
        :meth:`Decision.at_once <atoll.types.Decision.at_once>`), a :class:`Chance` request, or the
        :class:`End`. During a simultaneous decision it is not asked again until every seat has chosen."""

    @abc.abstractmethod
    def legal_actions(self, state: State, seat: int, known: Knowledge) -> list[Action]:
        """Every legal action of ``seat`` now, given the faces it privately ``known``s.

        An action that shows hidden cards lists them under ``"reveal"``
        (handle -> face). Each action has a unique :meth:`describe` text. At a simultaneous decision
        it is asked for each deciding seat in the state the decision was made in.
        """

    @abc.abstractmethod
    def apply(self, state: State, action: Action) -> State:
        """The state after the seat to move takes ``action``.

        Checks the action in full (on a network table nobody else knows the
        actor's hand, so this is the only check): raises
        :class:`~atoll.errors.IllegalAction` and leaves ``state`` unchanged if
        it is not legal. Faces under ``"reveal"`` have been proven by the engine.
        An action that differs from a listed one only in which copy of an
        identical hidden card it shows (same :meth:`describe` text) may be
        accepted: nobody else can tell the copies apart.

        A secret decision arrives as ``{"sealed": [handles]}``; each seat's part of a simultaneous
        decision as ``{"seat": s, "sealed": [handles]}``, every seat in turn, in seat order, once the
        last has chosen.
        """

    @abc.abstractmethod
    def resolve(self, state: State, request: Request, outcome: Mapping[str, JSON]) -> State:
        """The state after chance answered ``request`` with the public ``outcome``."""

    # -- what a seat sees ---------------------------------------------------------

    @abc.abstractmethod
    def view(self, state: State, seat: int | None, known: Knowledge) -> dict[str, JSON]:
        """What ``seat`` (``None``: a spectator) may see: the public state and its own ``known``."""

    @abc.abstractmethod
    def render(self, view: dict[str, Any]) -> Fragments:
        """Draw a view as styled text for the terminal. ``view`` is what :meth:`view` returned, typed as
        loosely as the state: an override may take it as ``State``, ``dict[str, Any]`` or
        ``Mapping[str, JSON]`` and read it with no ``isinstance`` checks for mypy."""

    @abc.abstractmethod
    def describe(self, state: State, action: Action) -> str:
        """A short human text for ``action`` (``"play 2 giraffe"``), unique among the legal ones."""

    def aliases(self, state: State, action: Action) -> Sequence[str]:
        """Other texts a player may type for ``action`` (none by default): words a player would
        naturally use, such as ``"turtle row 2"`` for the one turtle of row 2. The client completes
        only :meth:`describe`'s texts; an alias that fits several legal actions is refused, naming them."""
        return ()

    def describe_chance(self, state: State, request: Request, outcome: Mapping[str, JSON]) -> str | None:
        """A log line for chance answering ``request`` in ``state`` with the public ``outcome``
        (``"red rolls 3 and 5"``), or ``None`` for the client's own words (``"chance: picked 2"``)."""
        return None

    def describe_chance_after(
        self, state: State, request: Request, outcome: Mapping[str, JSON], after: State
    ) -> str | None:
        """The log line for chance, able to read ``after``, the state once ``resolve`` took the outcome
        in (``"Bea wins the 8 with her bid of 13"``: the winner is in ``after``, the rules need not
        run twice). The client asks this one; by default it is :meth:`describe_chance`'s line, so a
        game overrides either."""
        return self.describe_chance(state, request, outcome)

    def describe_chance_to(
        self, state: State, request: Request, outcome: Mapping[str, JSON], seat: int, known: Knowledge
    ) -> str | None:
        """The log line for chance as ``seat`` reads it, when chance showed that seat something the
        others did not see (``"you draw a zebra"``); ``known`` is what ``seat`` privately knows after it.
        ``None`` (the default): ``seat`` reads the public line of :meth:`describe_chance` like everyone."""
        return None

    def describe_log(self, state: State, seat: int, action: Action) -> str:
        """A line for the game log after ``seat`` took ``action`` in ``state`` (public words only)."""
        return f"{seat_label(seat)}: {self.describe(state, action)}"

    def action_bound(self, config: Config) -> int:
        """An upper bound on the number of legal actions in any state (adapters that number
        actions, such as OpenSpiel's, need one). Override it when 1024 may be too few."""
        return 1024

    # -- for adapters such as OpenSpiel's (optional: atoll itself never needs them) --

    def length_bound(self, config: Config) -> int | None:
        """The most decisions a game of ``config`` can take, when the game knows it; ``None`` (the
        default) when it does not, and adapters that must promise a bound measure random games."""
        return None

    def chance_bound(self, config: Config) -> int | None:
        """The most outcomes of one chance node of ``config`` (a die's sides, the distinct faces of a
        pile or of a pick's options), when the game knows it; ``None`` (the default): measured."""
        return None

    def action_id_count(self, config: Config) -> int:
        """How many stable ids :meth:`action_id` numbers actions with (``0`` to ``n - 1``); ``0``, the
        default, when the game has none and adapters number each state's legal actions by position."""
        return 0

    def action_id(self, state: State, action: Action) -> int:
        """The stable id of the legal ``action`` in ``state``: one move has one id in every state
        (``play 2 giraffe`` is always the same number) and two legal actions of one state never share
        an id. Called only when :meth:`action_id_count` is positive."""
        raise NotImplementedError(f"{self.info.name} has no stable action ids (action_id_count is 0)")

    def tensors(self, config: Config) -> Tensors | None:
        """Fixed-shape numeric views for learning algorithms (:class:`~atoll.tensors.Tensors`), or
        ``None`` (the default) when the game offers none."""
        return None

    def simulator(self, config: Config, draws: Draws, start: Position | None = None) -> Simulator | None:
        """The simulation fast path (:mod:`atoll.fast`), or ``None`` (the default) when the game offers
        none: a mutable copy of the game at set-up (or at ``start``) for bots and simulations, with
        chance answered from ``draws``. It must play exactly the games of this API; the conformance
        kit's :func:`~atoll.testing.check_fast_path` checks that. Never used on a network table."""
        return None

    def seat_names(self, config: Config) -> Sequence[str]:
        """Names of the seats (colours, for instance) in seat order; by default ``"seat 1"``, ...,
        numbered from 1 as people read seats (the index ``seat`` of the API counts from 0)."""
        return [seat_label(i) for i in range(config.seats)]

    # -- at a network table (optional) --

    def goes_on_without(self, state: State, seat: int) -> bool:
        """Whether the game could go on from ``state`` without ``seat``'s hidden things: the seat went
        (it ran out of time, vanished, or left with nobody to hand its seat to) and its secrets went
        with it, so its dealt cards, every card still under its key (a deck's undealt cards too) and
        its sealed choices can never be opened; dice and public draws can go on among the others.
        The default, ``False``: the game ends there (docs/decisions/0022-handing-a-seat-over.md)."""
        return False

    # -- the game's own texts: its guide (optional; the client has generic words when it says nothing) --

    #: The game's texts for its players (:class:`~atoll.guide.Guide`); the methods below ask it.
    guide: ClassVar[Guide] = Guide()

    def explain_illegal(self, state: State, seat: int, known: Knowledge, text: str) -> str | None:
        """Why ``text`` is not a legal action of ``seat`` now (:meth:`Guide.explain_illegal`)."""
        return self.guide.explain_illegal(state, seat, known, text)

    def decision_prompt(self, state: State, seat: int) -> str | None:
        """What ``seat`` is asked to decide now, in one line (:meth:`Guide.decision_prompt`)."""
        return self.guide.decision_prompt(state, seat)

    def action_help(self, state: State, action: Action) -> str | None:
        """What ``action`` does (:meth:`Guide.action_help`)."""
        return self.guide.action_help(state, action)

    def rules_summary(self, config: Config) -> str:
        """Enough of the rules for a first game, on one screen (:meth:`Guide.rules_summary`)."""
        return self.guide.rules_summary(config)

    def glossary(self, config: Config) -> Sequence[tuple[str, str]]:
        """The cards, tiles or pieces and what each does (:meth:`Guide.glossary`)."""
        return self.guide.glossary(config)

    def score_sheet(self, state: State) -> ScoreSheet | None:
        """How a finished game's scores were counted (:meth:`Guide.score_sheet`)."""
        return self.guide.score_sheet(state)

    def legend(self, config: Config) -> Sequence[tuple[str, str]]:
        """What the board's symbols mean (:meth:`Guide.legend`)."""
        return self.guide.legend(config)

    def owned_pieces(self, view: Mapping[str, JSON]) -> Sequence[tuple[int, str]]:
        """The owned pieces the board of ``view`` draws, with their owners (:meth:`Guide.owned_pieces`)."""
        return self.guide.owned_pieces(view)
