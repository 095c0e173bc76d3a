"""The search bot: single-observer information-set Monte Carlo tree search (SO-ISMCTS).

Each iteration draws one world consistent with the bot's observation
(:mod:`atoll.bots.determinize`), walks one shared tree of decisions with the
real rules, adds one node, plays the rest of the game out at random and scores
the final :class:`~atoll.types.Results`. The tree is keyed by action texts
(:meth:`Game.describe`), so "play 2 zebra" in one guessed world and in another
are the same move; a move legal in only some worlds is judged by how often it
was available (Cowling, Powley and Whitehouse, 2012). Chance and hidden cards
are inside the worlds, so the tree holds decisions only. A game that offers the
fast path (:mod:`atoll.fast`) has its worlds played by its own simulator, with
the tree keyed by the simulator's action codes, which mean the same move in
every world just as the texts do.

The bot sees nothing but its :class:`~atoll.engine.Observation`; its budget is
a number of iterations and its randomness comes from its own seeded generator,
so a seed and the same observations always give the same moves (a bot given a
time budget instead plays as far as the machine's speed lets it: the ``search``
kind at ``--think SECONDS``, :func:`thinking_kind`). A playout ends in a real
result, or, in a long game whose simulator offers :meth:`~atoll.fast.Simulator.estimate`,
in the game's judgement of the position once the mover's turn is finished greedily by that same
judgement (decision 0027).
"""

from __future__ import annotations

import functools
import math
import random
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from atoll.bots.base import BotKind
from atoll.bots.builtin import SEARCH_SUMMARY
from atoll.bots.determinize import Sampler, World
from atoll.bots.rewards import lead, rewards, squashed, standing_rewards
from atoll.engine.observation import Observation
from atoll.errors import AtollError
from atoll.fast import OVER, Simulator
from atoll.game import Game
from atoll.types import Action, Chance, End, Results, State

#: Iterations per decision: on 2-seat Kariba a decision takes about 0.03 s of CPU on the fast path (0.16 s
#: through the full API; scripts/bench engine); it won 196 of 200 games against the random bot.
DEFAULT_ITERATIONS = 200
#: Simulated steps per decision, all iterations together: a game with long playouts gets fewer
#: iterations instead of an endless think (Kariba needs ~100 steps a playout, so 200 iterations fit).
DEFAULT_STEP_BUDGET = 25_000
#: A playout longer than this is cut off and scored as a draw among all seats.
DEFAULT_PLAYOUT_STEPS = 500
#: CPU seconds a decision of the ``search`` bot kind (``--think``): about what a person waits for.
DEFAULT_THINK = 1.0
#: Random decisions a playout plays before it asks the game's :meth:`~atoll.fast.Simulator.estimate`,
#: where the game offers one (0: judge the new leaf at once; a game's random moves mostly spoil it).
DEFAULT_HORIZON = 0
#: A playout's length limit when the bot is given time: long enough for any game to end.
WHOLE_GAME = 1_000_000
#: Where a game judges positions: at most this many moves are weighed at each decision of a turn
#: finished greedily before the judgement (:meth:`SearchBot._finish_turn`), and a turn is finished
#: within this many decisions.
FINISH_WIDTH = 8
FINISH_STEPS = 40
#: The UCB exploration constant, for rewards in [0, 1].
DEFAULT_EXPLORATION = 0.7
#: The part of a reward that goes to the score's place rather than to the win itself.
DEFAULT_MARGIN_WEIGHT = 0.2


class _Node:
    """A move in the tree: how often it was tried, available, and what it earned its mover."""

    __slots__ = ("available", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[Hashable, _Node] = {}
        self.visits = 0
        self.available = 1
        self.total = 0.0


@dataclass(frozen=True)
class MoveStats:
    """What the search found for one legal action at the root."""

    action: Action
    text: str
    visits: int
    mean_reward: float


class SearchBot:
    """Chooses the most visited move of an ISMCTS search over worlds guessed from its observation.

    It thinks ``iterations`` iterations a decision (fewer once ``step_budget`` simulated steps are
    spent), or, given ``seconds``, for that much time by ``clock`` (CPU time of this process by
    default) however many iterations that is, every playout then going to the game's end. Where the
    game offers its fast path (:meth:`Game.simulator <atoll.game.Game.simulator>`) and ``fast`` is
    true, the worlds are the game's simulators and the tree is keyed by their codes; else worlds
    play the full API. Where the simulator also judges positions (:meth:`Simulator.estimate
    <atoll.fast.Simulator.estimate>`), a new leaf's turn is first finished greedily by that judgement
    (``finish_turns``), then played on for ``horizon`` random decisions and judged instead of played
    out; each seat's reward is then its lead over the best other seat, squashed on the search's own
    scale (``leads``; else :func:`standing_rewards`), and the moves at a node are compared on the
    spread of their means there (``normalized``): judged rewards lie close together, and a fixed
    exploration constant would tell them apart only after many visits (decision 0027).
    """

    def __init__(
        self,
        seed: int,
        *,
        iterations: int = DEFAULT_ITERATIONS,
        step_budget: int = DEFAULT_STEP_BUDGET,
        playout_steps: int = DEFAULT_PLAYOUT_STEPS,
        exploration: float = DEFAULT_EXPLORATION,
        margin_weight: float = DEFAULT_MARGIN_WEIGHT,
        seconds: float | None = None,
        fast: bool = True,
        horizon: int = DEFAULT_HORIZON,
        finish_turns: bool = True,
        leads: bool = True,
        normalized: bool = True,
        clock: Callable[[], float] = time.process_time,
    ) -> None:
        if seconds is not None and seconds <= 0:
            raise ValueError(f"a search needs a positive time budget, not {seconds}")
        if iterations < 1:
            raise ValueError(f"a search needs at least one iteration, not {iterations}")
        if step_budget < 1 or playout_steps < 1 or horizon < 0:
            raise ValueError("a search needs a positive step budget and playout length, and a horizon >= 0")
        self.iterations = iterations
        self.step_budget = step_budget
        self.playout_steps = playout_steps
        self.exploration = exploration
        self.margin_weight = margin_weight
        self.seconds = seconds
        self.fast = fast
        self.horizon = horizon
        self.finish_turns = finish_turns
        self.leads = leads
        self.normalized = normalized
        self._lead_sum = 0.0
        self._lead_count = 0
        self._normalize = False
        #: Iterations the latest search ran.
        self.last_iterations = 0
        self._clock = clock
        self._rng = random.Random(seed)

    def choose(self, observation: Observation) -> Action:
        """The legal action whose move the search tried most (a forced move is played at once)."""
        if len(observation.legal) == 1:
            return observation.legal[0]
        best = max(self.search(observation), key=lambda m: (m.visits, m.mean_reward))
        return best.action

    def search(self, observation: Observation, iterations: int | None = None) -> list[MoveStats]:
        """Run the search from ``observation`` and report every distinct legal move, in legal order.

        ``iterations`` (default: the bot's own budget) bounds it instead of the bot's iterations and
        time; the step budget still applies."""
        timed = self.seconds is not None and iterations is None
        # the time counts from here: listing and wording the moves is part of the decision
        clock = _Deadline(self._clock, self.seconds if timed else None)
        game, state = observation.game, observation.state
        legal = observation.legal
        texts = [_text(game, state, action) for action in legal]
        sampler = Sampler(observation)
        root = _Node()
        self._lead_sum, self._lead_count = 0.0, 0
        seats = observation.config.seats
        budget = self.iterations if iterations is None else iterations
        # a bot given time plays every playout to the game's end (or to the game's judgement)
        playout_steps = WHOLE_GAME if timed else self.playout_steps
        first = sampler.simulator(self._rng) if self.fast else None
        keys: Sequence[Hashable] = texts
        spent = done = 0
        if first is None:
            while timed or done < budget:
                world = sampler.world(self._rng)
                self._iterate(world, root, legal, texts, seats, playout_steps)
                done += 1
                spent += world.steps
                if (spent >= self.step_budget and not timed) or clock.passed(done):
                    break
        else:
            keys = [first.code(state, action) for action in legal]
            judged = first.estimate() is not None
            self._normalize = judged and self.normalized
            simulator = first
            while timed or done < budget:
                spent += self._iterate_simulated(simulator, root, seats, playout_steps, judged)
                done += 1
                if (spent >= self.step_budget and not timed) or clock.passed(done):
                    break
                simulator = _simulated(sampler, self._rng)
        self.last_iterations = done
        out: list[MoveStats] = []
        seen: set[Hashable] = set()
        for action, text, key in zip(legal, texts, keys, strict=True):
            if key in seen:
                continue
            seen.add(key)
            child = root.children.get(key)
            visits = child.visits if child else 0
            mean = child.total / child.visits if child and child.visits else 0.0
            out.append(MoveStats(action, text, visits, mean))
        return out

    def _iterate_simulated(
        self, simulator: Simulator, root: _Node, seats: int, playout_steps: int, judged: bool
    ) -> int:
        """One iteration in a simulated world (keyed by codes); returns the decisions it played.
        Where the game ``judged`` positions (:meth:`Simulator.estimate`), a new leaf is played on for
        the bot's horizon and then judged; else it is played out."""
        node = root
        path: list[tuple[_Node, int]] = []
        results: Results | None = None
        standing: Sequence[float] | None = None
        steps = 0
        while True:
            seat = simulator.seat()
            if seat == OVER:
                results = simulator.results()
                break
            codes = simulator.legal()
            if not codes:
                break
            code, child, fresh = self._select_code(node, codes)
            simulator.apply(code)
            steps += 1
            path.append((child, seat))
            node = child
            if fresh:
                if judged and self.finish_turns:
                    steps += self._finish_turn(simulator, seat)
                results, played = simulator.playout(self._rng, self.horizon if judged else playout_steps)
                steps += played
                if results is None and judged:
                    standing = simulator.estimate()
                break
        if results is not None:
            scored = rewards(results, seats, self.margin_weight)
        elif standing is not None:
            if self.leads:
                scored = self._lead_rewards(standing, seats)
            else:
                scored = standing_rewards(standing, seats, self.margin_weight)
        else:
            scored = [1.0 / seats] * seats
        for child, seat in path:
            child.visits += 1
            child.total += scored[seat] if seat < seats else 0.0
        return steps

    def _lead_rewards(self, standing: Sequence[float], seats: int) -> list[float]:
        """Each seat's reward from a judged position: its lead over the best other seat, squashed into
        ``(0, 1)`` on the scale of the leads this search has met so far (the game's numbers have a
        scale of their own), so a seat far ahead still prefers to get further ahead."""
        leads = [lead(standing, seat) for seat in range(seats)]
        self._lead_sum += sum(abs(v) for v in leads)
        self._lead_count += seats
        return squashed(leads, self._lead_sum / self._lead_count)

    def _finish_turn(self, simulator: Simulator, mover: int) -> int:
        """Play ``mover``'s decisions on until another seat decides (the end of its turn), each the move
        whose position the game judges best for it against the best other seat, among at most
        :data:`FINISH_WIDTH` moves drawn at random; returns the decisions played. A position judged
        halfway through a turn of many decisions (a predator that has taken one step of six) says
        little; the turn finished greedily says what the move led to."""
        steps = 0
        rng = self._rng
        while steps < FINISH_STEPS and simulator.seat() == mover:
            codes = simulator.legal()
            if not codes:
                break
            if len(codes) == 1:
                simulator.apply(codes[0])
                steps += 1
                continue
            options = codes if len(codes) <= FINISH_WIDTH else rng.sample(codes, FINISH_WIDTH)
            best_code, best_value = options[0], -math.inf
            for code in options:
                twin = simulator.copy()
                twin.apply(code)
                if twin.seat() == OVER:
                    # a move that ends the game: a win beats every position, a loss none
                    value = math.inf if mover in twin.results().winners else -math.inf
                else:
                    standing = twin.estimate()
                    value = lead(standing, mover) if standing is not None else 0.0
                if value > best_value:
                    best_code, best_value = code, value
            simulator.apply(best_code)
            steps += 1
        return steps

    def _select_code(self, node: _Node, codes: Sequence[int]) -> tuple[int, _Node, bool]:
        """:meth:`_select` over a simulator's codes (distinct, so nothing to merge)."""
        children = node.children
        untried: list[int] = []
        tried: list[tuple[int, _Node]] = []
        for code in codes:
            child = children.get(code)
            if child is None:
                untried.append(code)
            else:
                child.available += 1
                tried.append((code, child))
        if untried:
            code = untried[self._rng.randrange(len(untried))]
            child = _Node()
            children[code] = child
            return code, child, True
        c = self.exploration
        low, spread = 0.0, 1.0
        if self._normalize:
            means = [child.total / child.visits for _, child in tried]
            low = min(means)
            spread = (max(means) - low) or 1.0
        best_code, best_child, best_value = tried[0][0], tried[0][1], -math.inf
        for code, child in tried:
            mean = (child.total / child.visits - low) / spread
            value = mean + c * math.sqrt(math.log(child.available) / child.visits)
            if value > best_value:
                best_code, best_child, best_value = code, child, value
        return best_code, best_child, False

    def _iterate(
        self, world: World, root: _Node, root_legal: list[Action], root_texts: list[str], seats: int,
        playout_steps: int,
    ) -> None:
        """One iteration: select and expand down the tree in ``world``, play out, back up."""
        game = world.game
        node = root
        path: list[tuple[_Node, int]] = []
        legal, texts = root_legal, root_texts
        results: Results | None = None
        while True:
            step = world.step()
            if isinstance(step, End):
                results = step.results
                break
            if isinstance(step, Chance):
                world.advance(step.request)
                continue
            if node is not root:
                legal = world.legal(step.seat)
                if not legal:
                    break
                texts = [_text(game, world.state, action) for action in legal]
            index, child, fresh = self._select(node, texts)
            world.act(step.seat, legal[index], step.secret)
            path.append((child, step.seat))
            node = child
            if fresh:
                results = world.playout(playout_steps)
                break
        # a playout cut off (or a seat left without moves) counts as a draw among all seats
        scored = rewards(results, seats, self.margin_weight) if results else [1.0 / seats] * seats
        for child, seat in path:
            child.visits += 1
            child.total += scored[seat] if seat < seats else 0.0

    def _select(self, node: _Node, texts: Sequence[str]) -> tuple[int, _Node, bool]:
        """The move to take at ``node``: an untried one at random, else the best by UCB."""
        children = node.children
        untried: list[int] = []
        tried: list[tuple[int, _Node]] = []
        seen: set[str] = set()
        for index, text in enumerate(texts):
            if text in seen:
                continue
            seen.add(text)
            child = children.get(text)
            if child is None:
                untried.append(index)
            else:
                child.available += 1
                tried.append((index, child))
        if untried:
            index = untried[self._rng.randrange(len(untried))]
            child = _Node()
            children[texts[index]] = child
            return index, child, True
        c = self.exploration
        best_index, best_child, best_value = tried[0][0], tried[0][1], -math.inf
        for index, child in tried:
            value = child.total / child.visits + c * math.sqrt(math.log(child.available) / child.visits)
            if value > best_value:
                best_index, best_child, best_value = index, child, value
        return best_index, best_child, False


class _Deadline:
    """When a timed search must stop. The clock is read about ten times over the budget, not at every
    iteration: reading a process's CPU time is a system call, dearer than a fast iteration."""

    __slots__ = ("_clock", "_end", "_next", "_start")

    def __init__(self, clock: Callable[[], float], seconds: float | None) -> None:
        self._clock = clock
        self._start = clock() if seconds is not None else 0.0
        self._end = self._start + seconds if seconds is not None else math.inf
        self._next = 1 if seconds is not None else -1

    def passed(self, done: int) -> bool:
        """Whether the time is up after ``done`` iterations (never, without a time budget)."""
        if done < self._next or self._next < 0:
            return False
        now = self._clock()
        if now >= self._end:
            return True
        per_iteration = (now - self._start) / done
        left = int((self._end - now) / per_iteration) if per_iteration > 0 else done
        self._next = done + max(1, min(left, left // 10 + 1))
        return False


def _simulated(sampler: Sampler, rng: random.Random) -> Simulator:
    """The next simulated world (the game offered its fast path for the first one already)."""
    simulator = sampler.simulator(rng)
    if simulator is None:
        raise AtollError("the game offered a simulator for one world of a search and not for the next")
    return simulator


def _text(game: Game, state: State, action: Action) -> str:
    """The key of an action in the tree: its text, which a game keeps unique among legal actions."""
    return game.describe(state, action)


def make_search_bot(game: Game, seat: int, seed: int) -> SearchBot:
    """Build a search bot with the default budget for ``seat`` of ``game``."""
    return SearchBot(seed)


def search_kind(iterations: int = DEFAULT_ITERATIONS) -> BotKind:
    """The ``search`` bot kind, thinking ``iterations`` iterations per decision (the step budget still
    applies); a smaller number makes a weaker, faster bot for long evaluations."""
    if iterations < 1:
        raise ValueError(f"a search needs at least one iteration, not {iterations}")
    if iterations == DEFAULT_ITERATIONS:
        return BotKind("search", SEARCH_SUMMARY, make_search_bot)
    # a partial of a module function, not a lambda: it pickles, so spawned pool workers receive it
    return BotKind(
        "search", f"{SEARCH_SUMMARY} ({iterations} iterations a decision)",
        functools.partial(_make_budgeted_search_bot, iterations=iterations),
    )


def _make_budgeted_search_bot(game: Game, seat: int, seed: int, *, iterations: int) -> SearchBot:
    return SearchBot(seed, iterations=iterations)


def thinking_kind(seconds: float) -> BotKind:
    """The ``search`` bot kind thinking ``seconds`` of CPU time a decision (``--think``), however many
    iterations that is: as strong as the machine allows, and no longer reproducible from a seed."""
    if not seconds > 0:
        raise ValueError(f"a search needs a positive time budget, not {seconds}")
    return BotKind(
        "search", f"{SEARCH_SUMMARY} ({seconds:g} s a decision)",
        functools.partial(_make_thinking_search_bot, seconds=seconds),
    )


def _make_thinking_search_bot(game: Game, seat: int, seed: int, *, seconds: float) -> SearchBot:
    return SearchBot(seed, seconds=seconds)
