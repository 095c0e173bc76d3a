"""The ark bot: a judgement of arks picks a handful of moves, and playouts of guessed worlds pick one.

It sees only its :class:`~atoll.Observation`: the public state (the faces of the face-up tiles
each player took are public, as at a real table where everybody watches them go), its own
tiles and the legal actions. Its judgement is a value of an ark's tiles, :func:`species_value`:
a single is worth its number, a herd five a tile, a pair a little while more rounds may
come and nothing in the last round. By it the bot ranks

- every take it can pay for, by how much the group raises its ark's value for the crates it costs;
- every split, by how much the best group left suits it, less what the others would make of it,
  and by how little the best group for the others is worth;

and keeps the takes and the best eight splits (of up to 4095). Then, as many times as the search
bot thinks, it guesses a world consistent with what it knows (:class:`atoll.bots.determinize.Sampler`),
plays one of those moves in it and the rest of the game at random on the game's fast path, and
plays the move that did best (UCB1 over the moves). The generic search bot spends the same
playouts on thousands of splits it cannot tell apart; the judgement lets these few tell.

The kept tile is the highest number drawn; a cut at departure keeps the most points.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from atoll import Action, Game, Knowledge, Observation, State
from atoll.bots.determinize import Sampler
from atoll.bots.rewards import rewards
from atoll.plugins.animals_on_board import scoring
from atoll.plugins.animals_on_board.meta import FULL, HERD_POINTS, number_of, species_of
from atoll.plugins.animals_on_board.rules import tiles_in_play
from atoll.plugins.animals_on_board.view import own_tiles


@dataclass(frozen=True)
class Weights:
    """The bot's judgement, in points."""

    pair: float = 3.0
    """What a pair is worth while more rounds may follow (it may still become a herd)."""
    crate: float = 1.3
    """What a crate is worth to keep: a point at the end, and the means to take a group."""
    take: float = 5.0
    """The least gain for which the bot takes a group and leaves the round early."""
    rivalry: float = 0.6
    """How much the others' gain from a group counts against it."""


DEFAULT_WEIGHTS = Weights()
#: Playouts a decision, as many as the search bot's iterations: spent on a handful of moves
#: rather than on thousands of splits, they tell the moves apart.
DEFAULT_ITERATIONS = 200
#: The splits the search weighs besides every affordable take (the judgement ranks them).
DEFAULT_CANDIDATES = 8
#: Decisions simulated a decision, all playouts together (as the search bot's step budget).
DEFAULT_STEP_BUDGET = 25_000
#: A playout longer than this counts as a draw.
PLAYOUT_STEPS = 500
#: UCB1's exploration constant, for rewards in [0, 1] (the search bot's).
EXPLORATION = 0.7
#: The part of a playout's reward for the score's place rather than the win (the search bot's).
MARGIN_WEIGHT = 0.2

#: One player's tiles as the bot sees them: species -> (count, the number of a lone tile).
Profile = dict[str, tuple[int, int]]


def profile(faces: Iterable[str]) -> Profile:
    """The tiles ``faces`` by species: how many, and the number of the only one (else 0)."""
    counts: Counter[str] = Counter()
    last: dict[str, int] = {}
    for face in faces:
        counts[species_of(face)] += 1
        last[species_of(face)] = number_of(face)
    return {s: (c, last[s] if c == 1 else 0) for s, c in counts.items()}


def species_value(count: int, lone: int, last_round: bool, weights: Weights) -> float:
    """What ``count`` tiles of one species are worth on an ark (``lone``: the number of a single)."""
    if count == 1:
        return float(lone)
    if count == 2:
        return 0.0 if last_round else weights.pair
    return float(HERD_POINTS * count)


def gain(
    tiles: Profile, group: Sequence[str], hidden: float | None, last_round: bool, weights: Weights
) -> float:
    """How much taking ``group`` (its face-up faces; ``hidden`` the expected gain of a face-down tile
    in it, or None) raises an ark's value, less the crates it costs."""
    added: Counter[str] = Counter()
    lone: dict[str, int] = {}
    for face in group:
        added[species_of(face)] += 1
        lone[species_of(face)] = number_of(face)
    total = 0.0
    for species, more in added.items():
        count, number = tiles.get(species, (0, 0))
        after = count + more
        total += species_value(after, lone[species] if count == 0 else number, last_round, weights)
        total -= species_value(count, number, last_round, weights)
    size = len(group)
    if hidden is not None:
        total += hidden
        size += 1
    return total - weights.crate * size


class ArkBot:
    """Plays Animals on Board: the judgement of the module docstring picks a few candidate moves, and
    a search over guessed worlds picks among them (with ``iterations`` 0, the judgement alone)."""

    def __init__(
        self,
        seed: int,
        weights: Weights = DEFAULT_WEIGHTS,
        *,
        iterations: int = DEFAULT_ITERATIONS,
        candidates: int = DEFAULT_CANDIDATES,
        step_budget: int = DEFAULT_STEP_BUDGET,
    ) -> None:
        self.weights = weights
        self.iterations = iterations
        self.candidates = candidates
        self.step_budget = step_budget
        self._rng = random.Random(seed)

    def choose(self, observation: Observation) -> Action:
        """The action for this decision: one of ``observation.legal``."""
        legal = observation.legal
        if len(legal) == 1:
            return legal[0]
        state = observation.state
        if observation.secret:
            return max(legal, key=lambda a: number_of(a["secret"][1]))
        if state["phase"] == "cut":
            return max(legal, key=lambda a: _kept_points(state, observation.seat, a["discard"]))
        ranked = self.ranked(state, observation.seat, observation.known, legal)
        if self.iterations < 1 or len(ranked) == 1:
            return ranked[0]
        return self._search(observation, ranked)

    def ranked(self, state: State, seat: int, known: Knowledge, legal: list[Action]) -> list[Action]:
        """The moves worth a search, the judgement's own choice first: every take the bot can pay
        for and the best :attr:`candidates` splits by the judgement's score."""
        w = self.weights
        public = state["public"]
        hidden = state["hidden"]
        mine = own_tiles(state, seat, known)
        me = profile(mine)
        last_round = any(len(ark) >= FULL for ark in state["arks"])
        rivals = [
            (profile(public[h] for h in state["arks"][s] if h in public), state["crates"][s])
            for s in range(state["seats"]) if s != seat and not state["out"][s]
        ]
        pool = _unseen(state, mine)
        my_hidden = _hidden_gain(me, pool, last_round, w)
        rival_hidden = [_hidden_gain(p, pool, last_round, w) for p, _ in rivals]

        def faces(group: Sequence[str]) -> list[str]:
            return [public[h] for h in group if h != hidden]

        def my_gain(group: Sequence[str], crates: int) -> float | None:
            if len(group) > crates:
                return None
            ends = last_round or len(state["arks"][seat]) + len(group) >= FULL
            return gain(me, faces(group), my_hidden if hidden in group else None, ends, w)

        def rival_gain(group: Sequence[str]) -> float:
            best = 0.0
            for (p, crates), h in zip(rivals, rival_hidden, strict=True):
                if len(group) <= crates:
                    best = max(best, gain(p, faces(group), h if hidden in group else None, last_round, w))
            return best

        groups = state["groups"]
        takes: list[tuple[float, Action]] = []
        for action in legal:
            if "take" in action:
                g = my_gain(groups[action["take"] - 1], state["crates"][seat])
                if g is not None:
                    takes.append((g, action))
        takes.sort(key=lambda t: -t[0])
        split_moves = [a for a in legal if "split" in a]
        if not split_moves:
            return [a for _, a in takes] or legal[:1]
        crates_after = state["crates"][seat] + 1
        # what the groups left untouched by a split offer, worked out once
        mine_left = [my_gain(g, crates_after) for g in groups]
        theirs_left = [rival_gain(g) for g in groups]
        splits: list[tuple[float, Action]] = []
        for action in split_moves:
            number = action["split"]
            group = groups[number - 1]
            part = set(action["part"])
            halves = ([h for h in group if h not in part], action["part"])
            for_me = [g for i, g in enumerate(mine_left) if i != number - 1]
            for_them = [t for i, t in enumerate(theirs_left) if i != number - 1]
            for half in halves:
                for_me.append(my_gain(half, crates_after))
                for_them.append(rival_gain(half))
            own = max(
                (g - w.rivalry * t for g, t in zip(for_me, for_them, strict=True) if g is not None),
                default=0.0,
            )
            splits.append((own - w.rivalry * max(for_them) + self._rng.random() * 1e-6, action))
        splits.sort(key=lambda t: -t[0])
        best_splits = [a for _, a in splits[: self.candidates]]
        take_first = bool(takes) and (
            takes[0][0] >= w.take or (state["final"] and takes[0][0] > 0) or takes[0][0] > splits[0][0]
        )
        if take_first:
            return [takes[0][1], *best_splits, *(a for _, a in takes[1:])]
        return [*best_splits, *(a for _, a in takes)]

    def _search(self, observation: Observation, moves: list[Action]) -> Action:
        """The move of ``moves`` that won most in random playouts of guessed worlds (UCB1 over the
        moves; every world is drawn from what this seat may know). Without the game's fast path, the
        judgement's choice."""
        sampler = Sampler(observation)
        world = sampler.simulator(self._rng)
        if world is None:
            return moves[0]
        codes = [world.code(observation.state, move) for move in moves]
        seat, seats = observation.seat, observation.config.seats
        visits = [0] * len(moves)
        totals = [0.0] * len(moves)
        spent = 0
        for done in range(self.iterations):
            if done < len(moves):
                index = done
            else:
                log = math.log(done)
                index = max(range(len(moves)), key=lambda i: totals[i] / visits[i]
                            + EXPLORATION * math.sqrt(log / visits[i]))
            if world is None:
                world = sampler.simulator(self._rng)
                assert world is not None
            world.apply(codes[index])
            results, steps = world.playout(self._rng, PLAYOUT_STEPS)
            world = None
            reward = rewards(results, seats, MARGIN_WEIGHT)[seat] if results else 1.0 / seats
            visits[index] += 1
            totals[index] += reward
            spent += steps
            if spent >= self.step_budget:
                break
        best = max(range(len(moves)), key=lambda i: (visits[i], totals[i]))
        return moves[best]


def _unseen(state: State, mine: Sequence[str]) -> list[str]:
    """The faces the bot has not seen: face-down kept tiles, the face-down tile, the draw pile."""
    seen = Counter(state["public"].values())
    seen.update(mine)
    return [f for f in tiles_in_play(state) if not seen[f]]


def _hidden_gain(tiles: Profile, pool: Sequence[str], last_round: bool, weights: Weights) -> float:
    """The expected value a face-down tile adds to ``tiles`` (its crate not counted)."""
    if not pool:
        return 0.0
    total = sum(gain(tiles, [f], None, last_round, weights) for f in pool)
    return total / len(pool) + weights.crate


def _kept_points(state: State, seat: int, discard: list[str]) -> tuple[int, int]:
    public = state["public"]
    kept = [public[h] for h in state["arks"][seat] if h not in discard]
    return scoring.ark_points(kept), scoring.species_on_board(kept)


def make_ark_bot(game: Game, seat: int, seed: int) -> ArkBot:
    """Build an ark bot for ``seat`` (the bot hook's factory)."""
    return ArkBot(seed)
