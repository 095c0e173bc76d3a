"""The ark bot: it plays only legal moves, is reproducible, and plays sensibly.

Scenario tests give the bot one decision in a position built with ``tests.animals_on_board.scenario``;
the match tests play whole games through the engine.
"""

from __future__ import annotations

from collections.abc import Sequence

from atoll import Decision, End, Knowledge, Ledger, Observation, State
from atoll.bots.random_bot import RandomBot
from atoll.engine import LocalResolver, Match, run
from atoll.engine.loop import observe
from atoll.plugins.animals_on_board.bot import ArkBot
from atoll.plugins.animals_on_board.meta import HIDDEN
from tests.animals_on_board.scenario import GAME, table
from tests.bots.checked import Checked

NINE = ["lion1", "lion2", "lion3", "fox1", "fox2", "fox3", "zebra1", "zebra2", "zebra3"]


def observation(state: State, known: Knowledge, secret: bool = False) -> Observation:
    """What the seat to move in ``state`` is shown."""
    seat = state["turn"]
    config = GAME.configure(state["seats"], options={"removed": state["removed"]} if state["removed"] else {})
    legal = GAME.legal_actions(state, seat, known)
    return Observation(GAME, config, seat, state, known, Ledger(), legal, secret)


def chosen(state: State, known: Sequence[Knowledge]) -> str:
    """The text of the judgement's choice (the bot without its search) for the seat to move."""
    return GAME.describe(state, ArkBot(0, iterations=0).choose(observation(state, known[state["turn"]])))


def bot_game(seats: int, seed: int) -> Match:
    """One game to its end: ark bots at the even seats, random bots at the odd ones."""
    match = Match(GAME, GAME.configure(seats), LocalResolver(seed))
    # the ark bots search briefly (20 iterations), so that whole games stay quick
    agents = [
        Checked(ArkBot(seed + s, iterations=20)) if s % 2 == 0 else RandomBot(seed + s) for s in range(seats)
    ]
    assert isinstance(run(match, agents), End)
    return match


def test_it_chooses_only_legal_actions_with_every_seat_count() -> None:
    """Whole games with 2, 3 and 4 seats, searching: every choice is legal (A28), through to the cut
    (A24)."""
    for seats in (2, 3, 4):
        for seed in range(2):
            bot_game(seats, seed)


def test_the_same_seed_plays_the_same_game() -> None:
    """Two games with the same seeds are the same game, action for action."""
    assert bot_game(3, seed=8).events == bot_game(3, seed=8).events


def test_it_keeps_its_highest_tile() -> None:
    """A6: of lion1, fox5 and zebra3 it keeps the fox5, a single's best worth."""
    state = GAME.setup(GAME.configure(4))
    state.update(phase="keep", hands=[["tiles.0", "tiles.1", "tiles.2"], [], [], []])
    known = {"tiles.0": "lion1", "tiles.1": "fox5", "tiles.2": "zebra3"}
    action = ArkBot(0).choose(observation(state, known, secret=True))
    assert action == {"secret": ["tiles.1", "fox5"]}


def test_it_takes_the_third_of_a_pair_to_make_a_herd() -> None:
    """A25: holding two lions, it pays one crate for the third (0 points become 15)."""
    state, known = table(seats=3, groups=[["lion4"], ["fox1", "fox2", "zebra5", "tiger2"]],
                         arks=[["lion1", "lion2"], [], []], crates=[2, 2, 2])
    assert chosen(state, known) == "take 1: lion4"


def test_it_does_not_make_a_pair_in_the_last_round() -> None:
    """A19, A23: another ark is full, so this round is the last; a second tiger would be lost with
    the first, so it splits for a crate instead of taking it."""
    state, known = table(seats=3, groups=[["tiger5"], ["fox1", "fox2"]],
                         arks=[["tiger4"], [*NINE, "panda1"], []], crates=[2, 2, 2])
    assert not chosen(state, known).startswith("take 1")


def test_on_its_final_turn_it_takes_a_group_that_adds_points() -> None:
    """A18: alone in the round, it takes the best group rather than split."""
    state, known = table(seats=3, groups=[["fox5"], ["lion1", "zebra2", "tiger3"]], arks=[[], [], []],
                         crates=[1, 0, 0], out=[1, 2])
    assert chosen(state, known) == "take 1: fox5"


def test_it_cuts_its_ark_to_keep_the_most_points() -> None:
    """A24: of eleven tiles it discards the lowest single, the lion1."""
    eleven = ["lion1", "fox1", "fox2", "fox3", "zebra1", "zebra2", "zebra3", "tiger5", "panda4", "giraffe3",
              "elephant5"]
    state, _ = table(seats=3, groups=[[HIDDEN]], arks=[eleven, [], []])
    for seat, ark in enumerate(state["arks"]):
        for handle, face in zip(ark, [eleven, [], []][seat], strict=True):
            state["public"][handle] = face
    state.update(phase="cut", turn=0)
    assert chosen(state, [{}, {}, {}]) == "discard lion1"


def test_its_search_weighs_every_affordable_take_and_the_best_splits() -> None:
    """The search chooses among the judgement's candidates: the takes it can pay for (not the group
    of four with two crates) and the best eight splits (here all seven of the group of four), the
    judgement's choice first."""
    state, known = table(seats=3, groups=[["lion4"], ["fox1", "fox2", "zebra5", "tiger2"]],
                         arks=[["lion1", "lion2"], [], []], crates=[2, 2, 2])
    seen = observation(state, known[0])
    moves = [GAME.describe(state, a) for a in ArkBot(0).ranked(state, 0, known[0], seen.legal)]
    assert moves[0] == "take 1: lion4"
    assert "take 2: fox1 fox2 zebra5 tiger2" not in moves
    assert sum(m.startswith("split") for m in moves) == 7


def test_its_search_chooses_one_of_its_candidates() -> None:
    """In a real game's first split, seen through the engine, the bot plays one of the moves its
    judgement put forward, after playouts of worlds guessed from what its seat knows."""
    match = Match(GAME, GAME.configure(3), LocalResolver(5))
    while not (isinstance(step := match.step(), Decision) and not step.secret):
        if isinstance(step, Decision):
            match.act(step.seat, RandomBot(0).choose(observe(match, step.seat)))
        else:
            match.advance()
    seen = observe(match, step.seat)
    bot = ArkBot(1, iterations=40)
    assert bot.choose(seen) in bot.ranked(seen.state, seen.seat, seen.known, seen.legal)
