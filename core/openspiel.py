"""The OpenSpiel adapter: every atoll game as a pyspiel game called ``atoll_<name>``.

Usage::

    import pyspiel
    from atoll import openspiel

    openspiel.register_installed()        # or openspiel.register(MyGame())
    game = pyspiel.load_game("atoll_kariba", {"players": 3, "variant": "experienced"})

Parameters: ``players`` (default: the game's fewest seats), ``variant`` (default:
its default variant), ``max_game_length`` and ``max_chance_outcomes`` (0, the
default, means "the game's own bound, else measured", see below).

How an atoll game maps onto OpenSpiel:

* The OpenSpiel state is a full-information simulation that holds the truth (every
  hidden face), as :class:`~atoll.engine.LocalResolver` does, and each seat's
  private knowledge, as :class:`~atoll.engine.Match` does.
* Chance requests are chance nodes. ``Roll``: one node per die, outcome ``v - 1``
  for a die showing ``v`` (one die at a time keeps the number of outcomes at the
  number of sides). ``Pick`` and ``Shuffle``: one node per drawn option or card,
  buffered until the request is complete; an outcome is the index of a distinct
  value in the request's list (identical cards are one outcome, weighted by how
  many are left), so outcome ids are stable across a pile. A node with a single
  possible outcome is taken at once. ``Deal`` and ``Reveal`` need no node.
* Decisions are player nodes of the deciding seat; sealed (secret) decisions too. A
  simultaneous decision (``Decision.at_once``) is registered in its turn-based form,
  as OpenSpiel's ``convert_to_turn_based`` would give it: one player node per deciding
  seat, in seat order, none of whose information states or observations shows the
  parts chosen before it; the game sees all parts once the last seat has chosen. The
  game type stays sequential (``kSequential``).
  A game with stable ids (``Game.action_id_count`` positive) numbers its actions
  itself: action ``i`` is the move ``Game.action_id`` calls ``i`` in every state, and
  ``num_distinct_actions`` is the count. Otherwise action ``i`` is the ``i``-th legal
  action in the order of their canonical JSON (the same number may be another move
  in another state) and ``num_distinct_actions`` is ``game.action_bound(config)``.
* Returns: the winners share 1 (a sole winner gets 1, two winners 0.5 each), every
  other seat gets 0; a game without winners shares 1 among all. The game is
  constant-sum (1).
* Observation strings are a seat's view (``game.view``) as canonical JSON; the
  information state adds the seat's private knowledge and a digest of the
  public log, which makes it perfect recall. A game with ``Game.tensors`` also
  has observation and information-state tensors.
* ``max_game_length`` counts decisions: the game's ``Game.length_bound`` where it
  declares one (a game that goes past its own bound raises :class:`BoundExceeded`),
  else three times the longest of two random playouts, plus 16 (the constants are in
  :mod:`atoll.spiel_simulation`), measured once per seat count and variant. A game
  that reaches a measured (or a given, smaller) bound is cut off there so that the bound
  OpenSpiel relies on holds: its returns are a draw (1/n each), never a result, and
  the cut is reported with a :class:`CutOff` warning and ``state.cut_off()``.
  ``max_chance_outcomes`` is ``Game.chance_bound`` or the widest chance node of the
  same playouts; a wider node met later raises :class:`BoundExceeded` naming the
  parameter to raise.
* ``state.resample_from_infostate(seat, sampler)`` draws a state the seat cannot
  tell from this one the way atoll's search bot guesses (:class:`~atoll.bots.determinize.Sampler`):
  from the public state, the public record of hidden cards and the seat's own faces,
  never from the faces it has not seen. OpenSpiel's ISMCTS bot needs it.

OpenSpiel clones states often; a state here holds one immutable snapshot that clones
share, so cloning costs nothing and never runs the rules.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

import numpy as np
import pyspiel

from atoll.game import Game
from atoll.jsondata import canonical
from atoll.registry import load_registry
from atoll.spiel_simulation import (
    PREFIX,
    BadActionId,
    BoundExceeded,
    Bounds,
    CutOff,
    Simulation,
    Snapshot,
    probe,
)
from atoll.tensors import Tensors, size
from atoll.types import Config, Decision

__all__ = [
    "PREFIX",
    "AtollSpielGame",
    "AtollSpielState",
    "BadActionId",
    "BoundExceeded",
    "CutOff",
    "ViewObserver",
    "register",
    "register_installed",
]


def register(game: Game) -> str:
    """Register ``game`` with OpenSpiel as ``atoll_<name>`` and return that name.

    Registering a name again keeps the first registration (OpenSpiel cannot forget one).
    """
    name = PREFIX + game.info.name
    if name not in pyspiel.registered_names():
        # One class per game, as OpenSpiel's own Python games have: OpenSpiel keeps the creator until
        # the process ends, and a class (unlike a bound method) outlives the interpreter's shutdown.
        cls = type(name, (AtollSpielGame,), {"adapter": _Adapter(game), "__doc__": f"{game.info.title}."})
        pyspiel.register_game(_game_type(game), cls)
    return name


def register_installed() -> list[str]:
    """Register every game installed through the ``atoll.games`` entry points; returns their names."""
    registry = load_registry()
    return [register(registry.games[name].game) for name in sorted(registry.games)]


def _game_type(game: Game) -> Any:
    info = game.info
    tensors = game.tensors(game.configure()) is not None
    return pyspiel.GameType(
        short_name=PREFIX + info.name,
        long_name=f"atoll {info.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info.max_seats,
        min_num_players=info.min_seats,
        provides_information_state_string=True,
        provides_information_state_tensor=tensors,
        provides_observation_string=True,
        provides_observation_tensor=tensors,
        parameter_specification={"players": info.min_seats, "variant": info.default_variant,
                                 "max_game_length": 0, "max_chance_outcomes": 0},
    )


class _Adapter:
    """One registered game: builds its pyspiel games and remembers the measured bounds."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self._measured: dict[tuple[int, str], Bounds] = {}

    def configure(self, params: Mapping[str, Any]) -> tuple[Config, Bounds]:
        """The config and bounds that OpenSpiel's game parameters ask for."""
        config = self.game.configure(int(params["players"]), str(params["variant"]))
        given = int(params["max_game_length"])
        own = self.game.length_bound(config)
        length = given or own or 0
        width = int(params["max_chance_outcomes"]) or self.game.chance_bound(config) or 0
        if not length or not width:  # measure only what neither the parameters nor the game say
            measured = self.measured(config)
            length, width = length or measured.max_game_length, width or measured.max_chance_outcomes
        return config, Bounds(length, width, declared=not given and own is not None)

    def measured(self, config: Config) -> Bounds:
        """The default bounds of ``config``, from random playouts (measured once)."""
        key = (config.seats, config.variant)
        if key not in self._measured:
            self._measured[key] = probe(self.game, config)
        return self._measured[key]


# -- pyspiel classes -----------------------------------------------------------


class AtollSpielGame(pyspiel.Game):  # type: ignore[misc]
    """An atoll game in one seat count and variant, as a pyspiel game (:func:`register` makes a
    subclass per atoll game, which OpenSpiel calls with the game parameters)."""

    adapter: ClassVar[_Adapter]

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        game = self.adapter.game
        params = {**_game_type(game).parameter_specification, **(params or {})}
        config, bounds = self.adapter.configure(params)
        simulation = Simulation(game, config, bounds)
        super().__init__(
            _game_type(game),
            pyspiel.GameInfo(
                num_distinct_actions=simulation.num_distinct_actions,
                max_chance_outcomes=bounds.max_chance_outcomes,
                num_players=config.seats,
                min_utility=0.0,
                max_utility=1.0,
                utility_sum=1.0,
                max_game_length=bounds.max_game_length,
            ),
            params,
        )
        self.simulation = simulation

    def new_initial_state(self) -> AtollSpielState:
        """The state before anything happened."""
        return AtollSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> ViewObserver:
        """The observer OpenSpiel asks for observation and information state strings and tensors."""
        if isinstance(iig_obs_type, dict):  # OpenSpiel passes only the params when it has no type
            iig_obs_type, params = None, iig_obs_type
        return ViewObserver(iig_obs_type, params, self.simulation.tensors)


class AtollSpielState(pyspiel.State):  # type: ignore[misc]
    """A simulated atoll game as a pyspiel state: one shared, immutable :class:`Snapshot`."""

    def __init__(self, game: AtollSpielGame) -> None:
        super().__init__(game)
        self.snapshot: Snapshot = game.simulation.initial

    @property
    def simulation(self) -> Simulation:
        """The rules of this state's game."""
        sim: Simulation = self.get_game().simulation
        return sim

    def current_player(self) -> int:
        """The deciding seat, or chance, or terminal."""
        sim = self.simulation
        if sim.over(self.snapshot):
            return int(pyspiel.PlayerId.TERMINAL)
        step = sim.step(self.snapshot)
        return step.seat if isinstance(step, Decision) else int(pyspiel.PlayerId.CHANCE)

    def _legal_actions(self, player: int) -> list[int]:
        return list(self.simulation.choices(self.snapshot))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The outcomes of the chance node and their probabilities."""
        return self.simulation.chance_outcomes(self.snapshot)

    def _apply_action(self, action: int) -> None:
        sim = self.simulation
        if self.is_chance_node():
            self.snapshot = sim.draw(self.snapshot, action)
        else:
            self.snapshot = sim.decide(self.snapshot, action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.simulation.describe(self.snapshot, player, action)

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.simulation.over(self.snapshot)

    def returns(self) -> list[float]:
        """Each seat's share of the win (zero before the end; a draw if the game was cut off)."""
        return self.simulation.returns(self.snapshot)

    def cut_off(self) -> bool:
        """Whether the game was cut off at ``max_game_length`` (so its returns are no result)."""
        return self.snapshot.cut

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> AtollSpielState:
        """A state ``player_id`` cannot tell from this one, the faces hidden from it drawn afresh.

        ``probability_sampler`` (``pyspiel.UniformProbabilitySampler`` or any callable giving floats in
        ``[0, 1)``) seeds the draw. The new state's ``history()`` is still this one's: OpenSpiel has no way
        to give it another, so serialize the original, not a resampled state.
        """
        rng = random.Random(int(probability_sampler() * 2**53))
        state: AtollSpielState = self.clone()
        state.snapshot = self.simulation.resample(self.snapshot, player_id, rng)
        return state

    def __str__(self) -> str:
        return self.simulation.text(self.snapshot)


class ViewObserver:
    """Observation and information state strings from the game's views; tensors from the game's
    :class:`~atoll.tensors.Tensors` when it has them (for one seat's own view only)."""

    def __init__(self, iig_obs_type: Any, params: Any, tensors: Tensors | None = None) -> None:
        if params:
            raise ValueError(f"atoll observers take no parameters, not {params!r}")
        self.iig_obs_type = iig_obs_type
        kind = iig_obs_type
        single = kind is None or (
            kind.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER and kind.public_info
        )
        self._recall = kind is not None and kind.perfect_recall
        self._tensors = tensors if single else None
        self.tensor: Any = None
        self.dict: dict[str, Any] = {}
        if self._tensors is not None:
            shape = self._tensors.information_shape() if self._recall else self._tensors.observation_shape()
            self.tensor = np.zeros(size(shape), np.float32)
            self.dict = {"information" if self._recall else "observation": self.tensor.reshape(shape)}

    def set_from(self, state: AtollSpielState, player: int) -> None:
        """Fill the tensor with ``player``'s observation (or information state) now."""
        if self._tensors is None:
            return
        sim, snap = state.simulation, state.snapshot
        if self._recall:
            self.tensor[:] = sim.information_tensor(snap, player)
        else:
            self.tensor[:] = sim.observation_tensor(snap, player)

    def string_from(self, state: AtollSpielState, player: int) -> str:
        """What ``player`` observes: its view, and for perfect recall its knowledge and the log so far."""
        kind = self.iig_obs_type
        private = kind.private_info if kind is not None else pyspiel.PrivateInfoType.SINGLE_PLAYER
        public = kind.public_info if kind is not None else True
        recall = kind.perfect_recall if kind is not None else False
        sim, snap = state.simulation, state.snapshot
        parts = []
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            parts.append(" ".join(sim.view(snap, seat) for seat in range(sim.config.seats)))
        elif private == pyspiel.PrivateInfoType.SINGLE_PLAYER and public:
            parts.append(sim.view(snap, player))
        elif public:
            parts.append(sim.view(snap, None))
        if private == pyspiel.PrivateInfoType.SINGLE_PLAYER and (recall or not public):
            parts.append(f"knows {canonical(dict(snap.known[player]))}")
        if recall and public:
            parts.append(f"log {sim.digest(snap)[:32]} after {snap.decisions} decisions")
        return " | ".join(parts)
