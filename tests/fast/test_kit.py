"""The fast-path check of the conformance kit: it passes a true simulator and names each kind of fault."""

from __future__ import annotations

import random

import pytest

from atoll.fast import Draws, Position, RandomDraws
from atoll.plugins.kariba import Kariba
from atoll.plugins.kariba.fast import KaribaSimulator
from atoll.randomness import Stream
from atoll.testing import ConformanceError, check_fast_path
from atoll.types import Config
from tests.games.highcard import HighCard


class _ChaseAtTwo(KaribaSimulator):
    """A simulator with a wrong rule: it counts one card less at every place."""

    def _play(self, animal: int, count: int) -> None:
        super()._play(animal, count)
        if self.hole[animal] == 2 and count == 1:
            self.hole[animal] = 1


class _OwnShuffle(KaribaSimulator):
    """A simulator that shuffles from its own generator instead of the stream it is given."""

    @classmethod
    def new_game(cls, config: Config, draws: Draws) -> KaribaSimulator:
        return super().new_game(config, RandomDraws(random.Random(5)))


class _SharedHands(KaribaSimulator):
    """A simulator whose copies share their hands with the original."""

    def copy(self, draws: Draws | None = None) -> KaribaSimulator:
        twin = super().copy(draws)
        twin.hands = self.hands
        twin.held = self.held
        return twin


class _TakesTheHole(KaribaSimulator):
    """A simulator that empties the waterhole of the state it starts from (its own would be fine)."""

    @classmethod
    def at(cls, config: Config, draws: Draws, start: Position) -> KaribaSimulator:
        sim = super().at(config, draws, start)
        start.state["hole"][:] = [0] * len(start.state["hole"])
        return sim


class _Broken(Kariba):
    """Kariba offering one of the broken simulators above."""

    def __init__(self, simulator: type[KaribaSimulator]) -> None:
        self.kind = simulator

    def simulator(self, config: Config, draws: Draws, start: Position | None = None) -> KaribaSimulator:
        if start is None:
            return self.kind.new_game(config, draws)
        return self.kind.at(config, draws, start)


def test_a_true_simulator_passes() -> None:
    game = Kariba()
    assert check_fast_path(game, game.configure(3, "experienced"), 4)


def test_a_game_without_a_simulator_is_reported_as_such() -> None:
    game = HighCard()
    assert game.simulator(game.configure(2), Stream.from_int(0)) is None
    assert not check_fast_path(game, game.configure(2), 0)


@pytest.mark.parametrize(
    "broken", [_ChaseAtTwo, _OwnShuffle, _SharedHands, _TakesTheHole], ids=lambda k: k.__name__
)
def test_a_simulator_that_plays_other_games_is_caught(broken: type[KaribaSimulator]) -> None:
    game = _Broken(broken)
    with pytest.raises(ConformanceError, match=r"\[fast-path\]"):
        for seed in range(5):
            check_fast_path(game, game.configure(2), seed)
