"""A private roll in the engine: dice under one seat's cup, seen by it alone until a Reveal lifts them."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from atoll.authoring.examples.dice_under_cups import DiceUnderCups
from atoll.bots.determinize import Sampler
from atoll.bots.random_bot import RandomBot
from atoll.chance import Reveal, Roll, request_from_json
from atoll.engine import LocalResolver, Match, load, observe, replay, run, save
from atoll.errors import MalformedInput, ProtocolViolation
from atoll.types import Chance

GAME = DiceUnderCups()


def test_a_private_roll_names_its_dice_by_handles_of_its_cup() -> None:
    roll = Roll(3, 6, to=1, cup="c7")
    assert roll.private and roll.handles() == ["c7.0", "c7.1", "c7.2"]
    assert request_from_json(roll.to_json()) == roll
    assert Roll(2, 6).handles() == [] and Roll(2, 6).to_json() == {"kind": "roll", "count": 2, "sides": 6}


@pytest.mark.parametrize(("to", "cup", "reason"), [
    (1, "", "needs a cup name"), (None, "c", "has no owner"), (1, "c-1", "needs a cup name"),
    (-1, "c", "seat number"), (True, "c", "seat number"),
])
def test_a_private_roll_needs_an_owner_and_a_cup_name(to: int | None, cup: str, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        Roll(1, 6, to=to, cup=cup)


def test_a_request_with_a_boolean_for_a_count_is_malformed() -> None:
    with pytest.raises(MalformedInput):
        request_from_json({"kind": "roll", "count": True, "sides": 6})


def test_the_local_resolver_tells_the_dice_to_their_owner_only() -> None:
    resolution = LocalResolver(5).resolve(Roll(4, 6, to=2, cup="c"))
    assert resolution.outcome == {"handles": ["c.0", "c.1", "c.2", "c.3"]}
    assert set(resolution.privately) == {2}
    assert all(v in range(1, 7) for v in resolution.privately[2].values())


def test_the_local_resolver_is_seeded_and_reproducible() -> None:
    def dice(seed: int) -> dict[str, object]:
        return dict(LocalResolver(seed).resolve(Roll(5, 6, to=0, cup="c")).privately[0])

    assert dice(11) == dice(11)
    assert any(dice(11) != dice(seed) for seed in range(12, 16))


def test_a_reveal_lifts_the_cup_with_the_values_the_owner_saw() -> None:
    resolver = LocalResolver(3)
    seen = resolver.resolve(Roll(3, 6, to=0, cup="c")).privately[0]
    assert resolver.resolve(Reveal(("c.0", "c.1", "c.2"))).outcome == {"faces": dict(seen)}


def test_a_cup_is_rolled_once_per_game() -> None:
    resolver = LocalResolver(3)
    resolver.resolve(Roll(1, 6, to=0, cup="c"))
    with pytest.raises(ProtocolViolation, match="already rolled"):
        resolver.resolve(Roll(1, 6, to=1, cup="c"))


def _first_bid(seats: int = 3, seed: int = 1) -> Match:
    match = Match(GAME, GAME.configure(seats), LocalResolver(seed))
    while isinstance(match.step(), Chance):
        match.advance()
    return match


def test_in_a_match_only_the_owner_knows_its_dice_and_the_ledger_hides_them_from_the_rest() -> None:
    match = _first_bid()
    cups = match.state["cups"]
    for seat in range(3):
        assert sorted(match.knowledge(seat)) == sorted(cups[seat])
        hidden = match.ledger.hidden_from(seat)
        assert sorted(hidden) == sorted(h for other, cup in enumerate(cups) if other != seat for h in cup)
    assert match.ledger.hidden_from(None) == [h for cup in cups for h in cup]
    assert all(match.ledger.dice[h] == 6 for cup in cups for h in cup)


def test_a_bot_guesses_other_cups_and_keeps_its_own_dice() -> None:
    match = _first_bid()
    observation = observe(match, 0)
    world = Sampler(observation).world(random.Random(4))
    for seat, cup in enumerate(match.state["cups"]):
        for handle in cup:
            assert world.faces[handle] in range(1, 7)
            if seat == 0:
                assert world.faces[handle] == match.knowledge(0)[handle]
            assert world.known[seat][handle] == world.faces[handle]


def test_a_saved_game_with_private_rolls_replays_to_the_same_end(tmp_path: Path) -> None:
    resolver = LocalResolver(8)
    match = Match(GAME, GAME.configure(3, "short"), resolver)
    run(match, [RandomBot(s) for s in range(3)])
    path = tmp_path / "cups.jsonl"
    save(match, path, seed=8, faces=resolver.faces())
    again = replay(GAME, load(path))
    assert again.state == match.state and again.known == match.known
