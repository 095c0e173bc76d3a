"""The conformance kit: the rules of the game API, checked on any game by playing it.

A plugin runs every check from its own test suite with one call::

    from atoll.testing import check_game

    def test_my_game_follows_the_game_api() -> None:
        check_game(MyGame())

or gets one pytest case per variant, seat count and seed::

    @pytest.mark.parametrize("case", conformance_cases(MyGame()), ids=str)
    def test_my_game_conforms(case: ConformanceCase) -> None:
        case.run()

Each case plays the game to its end with random bots through the real engine
(:class:`~atoll.engine.Match`, :class:`~atoll.engine.LocalResolver`), records every
step as a :class:`Playout`, and runs the checks in :data:`CHECKS` over it. A check
that fails raises :class:`ConformanceError` naming the check, the game, variant,
seat count, seed and step. The checks are public functions of a playout, so a test
can run just one: ``check_render(play(game, config, seed))``.

This module runs the checks and gathers the kit's names; each check lives with its kind:
:mod:`~atoll.testing.playout` (the playout and its moments), :mod:`~atoll.testing.purity` (plain JSON,
no mutation, determinism, no hidden inputs), :mod:`~atoll.testing.secrecy` (public replay, hidden
faces), :mod:`~atoll.testing.actions` (action texts, illegal actions), :mod:`~atoll.testing.render`
(what a client draws) and :mod:`~atoll.testing.texts` (the game's own texts, score sheet, owner marks).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from atoll.game import Game
from atoll.guard import guard

# The kit's names stay importable from here (`X as X` re-exports them): plugins and docs use this module.
from atoll.testing.actions import REFUSALS as REFUSALS
from atoll.testing.actions import check_action_texts as check_action_texts
from atoll.testing.actions import check_illegal_actions as check_illegal_actions
from atoll.testing.playout import DEFAULT_MAX_STEPS as DEFAULT_MAX_STEPS
from atoll.testing.playout import ConformanceError as ConformanceError
from atoll.testing.playout import Moment as Moment
from atoll.testing.playout import Playout as Playout
from atoll.testing.playout import play as play
from atoll.testing.purity import check_determinism as check_determinism
from atoll.testing.purity import check_hidden_inputs as check_hidden_inputs
from atoll.testing.purity import check_json as check_json
from atoll.testing.purity import check_no_mutation as check_no_mutation
from atoll.testing.render import BOARD_COLUMNS as BOARD_COLUMNS
from atoll.testing.render import check_render as check_render
from atoll.testing.secrecy import check_hidden_faces as check_hidden_faces
from atoll.testing.secrecy import check_public_replay as check_public_replay
from atoll.testing.texts import check_owner_marks as check_owner_marks
from atoll.testing.texts import check_score_sheet as check_score_sheet
from atoll.testing.texts import check_texts as check_texts
from atoll.types import Config

#: A check: a function of a playout that raises :class:`ConformanceError` where the game breaks a rule.
Check = Callable[[Playout], None]


#: Every check, by name, in the order :func:`check_game` runs them (the playout itself comes first).
CHECKS: Mapping[str, Check] = {
    "json": check_json,
    "no-mutation": check_no_mutation,
    "public-replay": check_public_replay,
    "hidden-faces": check_hidden_faces,
    "action-texts": check_action_texts,
    "illegal-actions": check_illegal_actions,
    "render": check_render,
    "texts": check_texts,
    "score-sheet": check_score_sheet,
    "owner-marks": check_owner_marks,
    "determinism": check_determinism,
    "hidden-inputs": check_hidden_inputs,
}


# -- running them --------------------------------------------------------------


@dataclass(frozen=True)
class ConformanceCase:
    """One configuration and seed of a game; :meth:`run` plays it and runs the checks."""

    game: Game
    config: Config
    seed: int
    max_steps: int = DEFAULT_MAX_STEPS

    def __str__(self) -> str:
        return f"{self.game.info.name}-{self.config.variant}-{self.config.seats}p-seed{self.seed}"

    def run(self, checks: Sequence[str] | None = None) -> Playout:
        """Play the case and run ``checks`` (names from :data:`CHECKS`; all by default)."""
        unknown = [name for name in checks or () if name not in CHECKS]
        if unknown:
            raise ValueError(f"no check named {', '.join(unknown)}; the checks are {', '.join(CHECKS)}")
        playout = play(self.game, self.config, self.seed, max_steps=self.max_steps)
        for name in checks if checks is not None else CHECKS:
            try:
                CHECKS[name](playout)
            except ConformanceError:
                raise
            except Exception as exc:
                raise playout.fail(name, f"the game raised {exc!r}") from exc
        return playout


def conformance_cases(
    game: Game,
    *,
    seats: Sequence[int] | None = None,
    variants: Sequence[str] | None = None,
    playouts: int = 2,
    seed: int = 0,
    max_steps: int = DEFAULT_MAX_STEPS,
    limit: float | None = None,
) -> list[ConformanceCase]:
    """The cases :func:`check_game` runs: each variant x seat count x ``playouts`` seeds from ``seed``.

    ``seats`` and ``variants`` default to all the game offers. The game plays behind atoll's guard
    (:mod:`atoll.guard`), as it does when installed: what it raises is reported naming the game and
    the method, and a call that runs past ``limit`` seconds (default: ``ATOLL_PLUGIN_LIMIT``, else 20)
    is stopped and reported instead of hanging the test run.
    """
    game = guard(game, limit=limit)
    return [ConformanceCase(game, config, s, max_steps)
            for config in _configs(game, seats, variants) for s in range(seed, seed + playouts)]


def check_game(
    game: Game,
    *,
    seats: Sequence[int] | None = None,
    variants: Sequence[str] | None = None,
    playouts: int = 2,
    seed: int = 0,
    max_steps: int = DEFAULT_MAX_STEPS,
    checks: Sequence[str] | None = None,
    limit: float | None = None,
) -> None:
    """Run the conformance checks on ``game``; raises :class:`ConformanceError` at the first failure
    (``limit``: as for :func:`conformance_cases`)."""
    for case in conformance_cases(game, seats=seats, variants=variants, playouts=playouts, seed=seed,
                                  max_steps=max_steps, limit=limit):
        case.run(checks)


def _configs(game: Game, seats: Sequence[int] | None, variants: Sequence[str] | None) -> Iterator[Config]:
    info = game.info
    for variant in variants if variants is not None else info.variants:
        for count in seats if seats is not None else range(info.min_seats, info.max_seats + 1):
            yield game.configure(count, variant)
