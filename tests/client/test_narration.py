"""One narrator: every step of a match worded from the state before it, which the match keeps, the
same for a game played here, at a network table and in a replay; a sealed choice read only by its
chooser."""

from __future__ import annotations

from pathlib import Path

from atoll.bots.random_bot import RandomBot
from atoll.client.narration import Narrator
from atoll.engine import LocalResolver, Match, run, save
from atoll.engine.save import load
from atoll.tui.replay import frames
from tests.games.highcard import HighCard


def played(seed: int, seats: int = 3) -> Match:
    game = HighCard()
    match = Match(game, game.configure(seats), LocalResolver(seed))
    run(match, [RandomBot(seat) for seat in range(seats)])
    return match


def test_the_state_before_every_event_is_kept_beside_it() -> None:
    match = played(5)
    assert len(match.before) == len(match.events)
    assert match.before[0] == match.game.setup(match.config)
    for index, event in enumerate(match.events[:-1]):
        if "action" in event:
            assert match.game.apply(match.before[index], event["action"]) == match.before[index + 1]


def test_a_replay_tells_the_same_lines_as_the_narrator_of_the_game(tmp_path: Path) -> None:
    match = played(11)
    save(match, tmp_path / "game.jsonl", seed=11, faces=match.resolver.faces())  # type: ignore[attr-defined]
    replayed = [frame.line for frame in frames(match.game, load(tmp_path / "game.jsonl"))[1:]]
    everyone = Narrator(lambda: match.game.seat_names(match.config), range(match.config.seats))
    assert replayed == everyone.catch_up(match)


def test_a_sealed_choice_is_read_by_its_chooser_and_only_announced_to_the_others() -> None:
    match = played(3, seats=2)
    sealed = [index for index, event in enumerate(match.events) if "sealed" in event]
    assert sealed, "High Card has a secret bet"
    lines = Narrator(lambda: ["ann", "bo"], (0,)).catch_up(match)
    for index in sealed:
        line, chooser = lines[index], match.events[index]["seat"]
        assert line.seen_by(1 - chooser) == line.text and "made a secret choice" in line.text
        if chooser == 0:
            assert line.seen_by(0) != line.text and "only you know it" in line.seen_by(0)
        else:
            assert line.private is None  # this machine does not hold the other seat's value


def test_each_event_is_worded_once() -> None:
    match = played(13)
    narrator = Narrator(lambda: match.game.seat_names(match.config), ())
    first = narrator.catch_up(match)
    assert len(first) == len(match.events) and narrator.catch_up(match) == []
