"""The conformance kit itself: it passes a sound game and fails each deliberately broken one.

Every broken game below is High Card with one fault; each test runs the one check
that must catch it (or the playout, which every check rests on).
"""

from __future__ import annotations

import random
from collections.abc import Mapping

import pytest

from atoll import JSON, Action, Config, Decision, Fragments, Knowledge, Request, Results, State, Step, clone
from atoll.testing import (
    CHECKS,
    ConformanceError,
    check_action_texts,
    check_determinism,
    check_game,
    check_hidden_faces,
    check_hidden_inputs,
    check_illegal_actions,
    check_json,
    check_no_mutation,
    check_public_replay,
    check_render,
    conformance_cases,
    play,
)
from tests.games.highcard import HighCard


def two_seats(game: HighCard) -> Config:
    return game.configure(2, "standard")


# -- broken games ----------------------------------------------------------------


class DrawsAWideBoard(HighCard):
    """Draws its table 200 columns wide."""

    def render(self, view: Mapping[str, JSON]) -> Fragments:
        return [*super().render(view), ("", "=" * 200 + "\n")]


class ShufflesWithTheGlobalRandomState(HighCard):
    """Draws a lucky number for the table from Python's global random state."""

    def setup(self, config: Config) -> State:
        return {**super().setup(config), "luck": random.randrange(6)}


class KeepsADeckOrderOfItsOwn(HighCard):
    """Stores a deck order drawn from a seeded random.Random of its own in the public state."""

    def setup(self, config: Config) -> State:
        order = list(range(10))
        random.Random(0).shuffle(order)
        return {**super().setup(config), "order": order}


class CountsGamesAtFourSeats(HighCard):
    """Remembers earlier games only at four seats, so only that seat count plays differently twice."""

    def __init__(self) -> None:
        self.games = 0

    def setup(self, config: Config) -> State:
        if config.seats == 4:
            self.games += 1
            return {**super().setup(config), "game": self.games}
        return super().setup(config)


class ChangesTheStateItIsGiven(HighCard):
    """Counts moves in the state it was given before copying it."""

    def apply(self, state: State, action: Action) -> State:
        state["moves"] = state.get("moves", 0) + 1
        return super().apply(state, action)


class RemembersWhatItWasShown(HighCard):
    """Keeps the faces its legal actions were built from and writes a bettor's hand into the state."""

    def __init__(self) -> None:
        self.seen: dict[str, JSON] = {}

    def legal_actions(self, state: State, seat: int, known: Knowledge) -> list[Action]:
        self.seen.update(known)
        return super().legal_actions(state, seat, known)

    def apply(self, state: State, action: Action) -> State:
        new = super().apply(state, action)
        if "sealed" in action:
            new["hint"] = sorted(self.seen.get(h, 0) for h in state["hands"][state["turn"]])
        return new


class NamesFacesInQuietActions(HighCard):
    """Plays a card by naming its face outside "reveal", so nobody can check the claim."""

    def legal_actions(self, state: State, seat: int, known: Knowledge) -> list[Action]:
        if state["phase"] == "play" and seat == state["turn"]:
            return [{"play": h, "face": known[h]} for h in state["hands"][seat]]
        return super().legal_actions(state, seat, known)

    def apply(self, state: State, action: Action) -> State:
        if "face" in action:
            action = {"play": action["play"], "reveal": {action["play"]: action["face"]}}
        return super().apply(state, action)

    def describe(self, state: State, action: Action) -> str:
        if "face" in action:
            return f"play {action['face']} ({action['play']})"
        return super().describe(state, action)


class DescribesEveryPlayAlike(HighCard):
    """Calls every play just "play"."""

    def describe(self, state: State, action: Action) -> str:
        return "play" if "play" in action else super().describe(state, action)


class AcceptsUnprovenPlays(HighCard):
    """Lets a play without "reveal" through, taking the card for a 1."""

    def apply(self, state: State, action: Action) -> State:
        if state["phase"] == "play" and "reveal" not in action:
            action = {**action, "reveal": {action.get("play"): 1}}
        return super().apply(state, action)


class OffersMovesOutOfTurn(HighCard):
    """Lists plays for whichever seat asks."""

    def legal_actions(self, state: State, seat: int, known: Knowledge) -> list[Action]:
        if state["phase"] == "play":
            return [{"play": h, "reveal": {h: known[h]}} for h in state["hands"][seat] if h in known]
        return super().legal_actions(state, seat, known)


class CrashesOnNonsense(HighCard):
    """Reads the played card without looking whether there is one."""

    def apply(self, state: State, action: Action) -> State:
        if state["phase"] == "play":
            action["play"].upper()
        return super().apply(state, action)


class NeverEnds(HighCard):
    """After the bets are opened, seat 0 waits forever."""

    def next(self, state: State) -> Step:
        return Decision(0) if state["phase"] == "over" else super().next(state)

    def legal_actions(self, state: State, seat: int, known: Knowledge) -> list[Action]:
        if state["phase"] == "over":
            return [{"wait": True}] if seat == 0 else []
        return super().legal_actions(state, seat, known)

    def apply(self, state: State, action: Action) -> State:
        return clone(state) if state["phase"] == "over" else super().apply(state, action)

    def describe(self, state: State, action: Action) -> str:
        return "wait" if "wait" in action else super().describe(state, action)


class LeavesSeatOneStuck(HighCard):
    """Offers seat 1 no card to play."""

    def legal_actions(self, state: State, seat: int, known: Knowledge) -> list[Action]:
        return [] if state["phase"] == "play" and seat == 1 else super().legal_actions(state, seat, known)


class ScoresOneSeatTooFew(HighCard):
    """Forgets the last seat's score."""

    def _results(self, state: State) -> Results:
        results = super()._results(state)
        return Results(results.scores[:-1], results.winners)


class RemembersEarlierGames(HighCard):
    """Numbers its games in the state, so the same seed never gives the same game twice."""

    def __init__(self) -> None:
        self.games = 0

    def setup(self, config: Config) -> State:
        self.games += 1
        return {**super().setup(config), "game": self.games}


class KeepsAFloat(HighCard):
    """Keeps half a point in its state."""

    def setup(self, config: Config) -> State:
        return {**super().setup(config), "bonus": 0.5}


class ShowsATuple(HighCard):
    """Hands out its view's hand as a tuple."""

    def view(self, state: State, seat: int | None, known: Knowledge) -> dict[str, JSON]:
        view = super().view(state, seat, known)
        return {**view, "hand": tuple(map(tuple, view["hand"]))}


class RendersPlainText(HighCard):
    """Draws its view as one string instead of styled fragments."""

    def render(self, view: Mapping[str, JSON]) -> Fragments:
        return f"phase {view['phase']}"  # type: ignore[return-value]


class AliasesABetAsTheOther(HighCard):
    """Lets "bet low" also be typed for betting high, where "bet low" is already the other bet."""

    def aliases(self, state: State, action: Action) -> list[str]:
        return ["bet low"] if action.get("secret") == ["high"] else []


class WordsChanceAsANumber(HighCard):
    """Returns the outcome itself instead of a log line for chance."""

    def describe_chance(self, state: State, request: Request, outcome: Mapping[str, JSON]) -> str | None:
        return 7  # type: ignore[return-value]


class CannotDrawTheSpectatorAfterTheRoll(HighCard):
    """Draws every seat's view, but the spectator's only before the die is rolled (one step of the game)."""

    def render(self, view: Mapping[str, JSON]) -> Fragments:
        if view["seat"] is None and view["die"] is not None and view["phase"] == "open":
            raise KeyError("die")
        return super().render(view)


class CannotWordAPlayInTheLog(HighCard):
    """Describes every action for the prompt, but its log line for a played card crashes."""

    def describe_log(self, state: State, seat: int, action: Action) -> str:
        if "play" in action:
            raise KeyError("play")
        return super().describe_log(state, seat, action)


# -- the kit on a sound game -------------------------------------------------------


def test_high_card_passes_every_check() -> None:
    check_game(HighCard())


def test_cases_cover_every_variant_seat_count_and_seed() -> None:
    cases = conformance_cases(HighCard(), playouts=2, seed=5)
    assert [str(c) for c in cases[:3]] == [
        "highcard-standard-2p-seed5", "highcard-standard-2p-seed6", "highcard-standard-3p-seed5",
    ]
    assert len(cases) == 2 * 3 * 2
    assert {(c.config.variant, c.config.seats) for c in cases} == {
        (v, n) for v in ("standard", "quick") for n in (2, 3, 4)
    }


def test_an_error_names_the_check_game_variant_seats_seed_and_step() -> None:
    game = DescribesEveryPlayAlike()
    with pytest.raises(ConformanceError) as caught:
        check_action_texts(play(game, game.configure(3, "quick"), seed=4))
    assert caught.value.check == "action-texts"
    assert str(caught.value).startswith("[action-texts] highcard (quick, 3 seats, seed 4, step ")


def test_unknown_check_names_are_refused() -> None:
    with pytest.raises(ValueError, match="no check named sparkle"):
        conformance_cases(HighCard(), playouts=1)[0].run(["sparkle"])


def test_every_check_is_listed() -> None:
    assert list(CHECKS) == ["json", "no-mutation", "public-replay", "hidden-faces", "action-texts",
                            "illegal-actions", "render", "texts", "score-sheet", "owner-marks", "determinism",
                            "hidden-inputs"]


# -- each check fails its broken game ------------------------------------------------


def test_a_game_that_changes_the_state_it_is_given_fails_no_mutation() -> None:
    game = ChangesTheStateItIsGiven()
    with pytest.raises(ConformanceError, match=r"\[no-mutation\].*apply\(.*changed the state it was given"):
        check_no_mutation(play(game, two_seats(game)))


def test_a_game_that_remembers_private_faces_fails_public_replay() -> None:
    game = RemembersWhatItWasShown()
    with pytest.raises(ConformanceError, match=r"\[public-replay\].*cannot be rebuilt.*'hint'"):
        check_public_replay(play(game, two_seats(game)))


def test_a_game_that_remembers_private_faces_fails_hidden_faces() -> None:
    game = RemembersWhatItWasShown()
    with pytest.raises(ConformanceError, match=r"\[hidden-faces\].*depends on faces seat \d never saw"):
        check_hidden_faces(play(game, two_seats(game)))


def test_a_game_that_names_faces_in_quiet_actions_fails_hidden_faces() -> None:
    game = NamesFacesInQuietActions()
    with pytest.raises(ConformanceError, match=r"\[hidden-faces\].*which shows no card"):
        check_hidden_faces(play(game, game.configure(4, "standard")))


def test_two_actions_with_one_text_fail_action_texts() -> None:
    game = DescribesEveryPlayAlike()
    with pytest.raises(ConformanceError, match=r"\[action-texts\].*both described as 'play'"):
        check_action_texts(play(game, two_seats(game)))


def test_a_game_that_accepts_an_unproven_play_fails_illegal_actions() -> None:
    game = AcceptsUnprovenPlays()
    with pytest.raises(ConformanceError, match=r"\[illegal-actions\].*without 'reveal'.*was accepted"):
        check_illegal_actions(play(game, two_seats(game)))


def test_a_game_that_offers_actions_out_of_turn_fails_illegal_actions() -> None:
    game = OffersMovesOutOfTurn()
    with pytest.raises(ConformanceError, match=r"\[illegal-actions\].*seat \d is offered actions although"):
        check_illegal_actions(play(game, two_seats(game)))


def test_a_game_that_crashes_on_a_nonsense_action_fails_illegal_actions() -> None:
    game = CrashesOnNonsense()
    with pytest.raises(ConformanceError, match=r"\[illegal-actions\].*crashed the game with KeyError"):
        check_illegal_actions(play(game, two_seats(game)))


def test_a_game_that_never_ends_fails_the_playout() -> None:
    game = NeverEnds()
    with pytest.raises(ConformanceError, match=r"\[playout\].*did not end within 300 steps"):
        play(game, two_seats(game), max_steps=300)


def test_a_seat_with_no_legal_action_fails_the_playout() -> None:
    game = LeavesSeatOneStuck()
    with pytest.raises(ConformanceError, match=r"\[playout\].*seat 1 must decide but has no legal action"):
        play(game, two_seats(game))


def test_results_without_a_score_per_seat_fail_the_playout() -> None:
    game = ScoresOneSeatTooFew()
    with pytest.raises(ConformanceError, match=r"\[playout\].*1 scores for 2 seats"):
        play(game, two_seats(game))


def test_a_game_that_remembers_earlier_games_fails_determinism() -> None:
    game = RemembersEarlierGames()
    with pytest.raises(ConformanceError, match=r"\[determinism\].*\['game'\]: 1 vs 2"):
        check_determinism(play(game, two_seats(game)))


def test_a_board_wider_than_eighty_columns_fails_render_with_the_width_found() -> None:
    game = DrawsAWideBoard()
    wide = r"\[render\].*seat 0's board is 2\d\d columns wide, over the 80"
    with pytest.raises(ConformanceError, match=wide):
        check_render(play(game, two_seats(game)))


def test_a_rule_that_draws_from_the_global_random_state_fails_hidden_inputs() -> None:
    game = ShufflesWithTheGlobalRandomState()
    with pytest.raises(ConformanceError, match=r"\[hidden-inputs\].*setup\(\) drew a random number through "
                       r"random.randrange.*chance request"):
        check_hidden_inputs(play(game, two_seats(game)))


def test_a_deck_order_from_a_seeded_random_of_the_games_own_fails_hidden_inputs() -> None:
    """Deterministic, so the determinism check passes it; still no seat could check that deal."""
    game = KeepsADeckOrderOfItsOwn()
    playout = play(game, two_seats(game))
    check_determinism(playout)
    with pytest.raises(ConformanceError, match=r"\[hidden-inputs\].*setup\(\) drew.*a Random of its own"):
        check_hidden_inputs(playout)


def test_the_kit_puts_pythons_random_back_as_it_was() -> None:
    game = KeepsADeckOrderOfItsOwn()
    before = random.getstate()
    with pytest.raises(ConformanceError):
        check_hidden_inputs(play(game, two_seats(game)))
    assert random.getstate() == before
    assert "random" not in vars(random.Random) and random.Random(3).random() == random.Random(3).random()


def test_a_game_nondeterministic_only_at_four_seats_is_caught_at_four_seats() -> None:
    game = CountsGamesAtFourSeats()
    check_game(game, seats=[2, 3], playouts=1, checks=["determinism"])
    with pytest.raises(ConformanceError, match=r"\[determinism\] highcard \(standard, 4 seats"):
        check_game(game, playouts=1, checks=["determinism"])


def test_a_float_in_the_state_fails_json() -> None:
    game = KeepsAFloat()
    with pytest.raises(ConformanceError, match=r"\[json\].*\['bonus'\] holds the float 0.5"):
        check_json(play(game, two_seats(game)))


def test_a_tuple_in_a_view_fails_json() -> None:
    game = ShowsATuple()
    with pytest.raises(ConformanceError, match=r"\[json\] .*seat 0's view\['hand'\] holds a tuple"):
        check_json(play(game, two_seats(game)))


def test_a_render_that_is_not_fragments_fails_render() -> None:
    game = RendersPlainText()
    with pytest.raises(ConformanceError, match=r"\[render\].*gave a str, not a list"):
        check_render(play(game, two_seats(game)))


def test_an_alias_that_is_another_actions_text_fails_action_texts() -> None:
    game = AliasesABetAsTheOther()
    shadowed = r"\[action-texts\].*the alias 'bet low' of 'bet high' is the text of .*can never name"
    with pytest.raises(ConformanceError, match=shadowed):
        check_action_texts(play(game, two_seats(game)))


def test_chance_words_that_are_not_text_fail_render() -> None:
    game = WordsChanceAsANumber()
    with pytest.raises(ConformanceError, match=r"\[render\].*describe_chance gave 7"):
        check_render(play(game, two_seats(game)))

def test_a_view_that_cannot_be_drawn_at_one_step_fails_render() -> None:
    game = CannotDrawTheSpectatorAfterTheRoll()
    with pytest.raises(ConformanceError, match=r"\[render\].*drawing the spectator's view raised KeyError"):
        check_render(play(game, two_seats(game)))


def test_a_log_line_that_cannot_be_worded_fails_render() -> None:
    game = CannotWordAPlayInTheLog()
    with pytest.raises(ConformanceError, match=r"\[render\].*describe_log\(.*\) raised KeyError"):
        check_render(play(game, two_seats(game)))


BROKEN = [
    ChangesTheStateItIsGiven, RemembersWhatItWasShown, NamesFacesInQuietActions, DescribesEveryPlayAlike,
    AcceptsUnprovenPlays, OffersMovesOutOfTurn, CrashesOnNonsense, RemembersEarlierGames, KeepsAFloat,
    ShowsATuple, RendersPlainText, AliasesABetAsTheOther, WordsChanceAsANumber,
    CannotDrawTheSpectatorAfterTheRoll, CannotWordAPlayInTheLog,
]


@pytest.mark.parametrize("broken", BROKEN, ids=lambda cls: cls.__name__)
def test_check_game_fails_every_broken_game(broken: type[HighCard]) -> None:
    with pytest.raises(ConformanceError):
        check_game(broken(), seats=[2, 4], playouts=1)

