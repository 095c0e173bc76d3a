"""Dice under a cup on a fair table: only the owner sees them, nobody biases them, every cheat is named.

docs/fairness.md, "Private rolls", lists each guarantee and the test below that checks it.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from atoll_tools.fair_relay import SeatForfeited, replay
from hypothesis import given, settings
from hypothesis import strategies as st

from atoll.chance import Reveal, Roll
from atoll.errors import CheatDetected, ProtocolViolation
from atoll.fair.steps import announce as steps
from atoll.fair.steps.cups import die_commitment, die_secret, die_value
from tests.fair.helpers import TABLE, Cheat, rewrite, table, withhold

CUP = Roll(5, 6, to=1, cup="c1")


def test_a_private_roll_is_known_to_its_owner_only() -> None:
    resolver = table(3)
    resolution = resolver.resolve(CUP)
    assert resolution.outcome == {"handles": [f"c1.{i}" for i in range(5)]}
    assert set(resolution.privately) == {1}
    dice = resolution.privately[1]
    assert sorted(dice) == CUP.handles() and all(v in range(1, 7) for v in dice.values())
    assert resolver.participants[1].known == dice
    assert resolver.participants[0].known == {} and resolver.participants[2].known == {}
    assert resolver.participants[0].record.cups.hand() == {}


def test_a_private_roll_costs_one_commitment_and_one_round_of_openings() -> None:
    resolver = table(4)
    before = len(resolver.entries)
    resolver.resolve(CUP)
    added = resolver.entries[before:]
    kinds = Counter(e["msg"]["kind"] for e in added if "msg" in e)
    assert kinds == {"cup/commit": 1, "chain/open": 4}
    assert [e["step"]["step"] for e in added if "step" in e] == ["cup", "draw"]


def test_the_owner_commits_before_any_link_of_the_draw_is_opened() -> None:
    resolver = table(2)
    record = resolver.participants[0].record
    draw = steps.numbered(record, {"step": "draw", "draw": 1, "request": CUP.to_json()})
    with pytest.raises(ProtocolViolation, match="must follow its owner's commitment"):
        record.begin(draw)


def test_lifting_the_cup_shows_every_seat_the_dice_the_owner_saw() -> None:
    resolver = table(3)
    dice = resolver.resolve(CUP).privately[1]
    shown = resolver.resolve(Reveal(tuple(CUP.handles()))).outcome["faces"]
    assert shown == dice
    assert all(p.record.cups.opened() == dice for p in resolver.participants)


def test_a_die_follows_from_the_joint_draw_and_the_owners_secret() -> None:
    resolver = table(2)
    dice = resolver.resolve(CUP).privately[1]
    cup = resolver.participants[0].record.cups.cups["c1"]
    assert cup.joint is not None and cup.draw == 1
    seed = resolver.participants[1]._seed
    for handle, value in dice.items():
        secret = die_secret(seed, TABLE, 1, handle)
        assert cup.commitments[handle] == die_commitment(TABLE, 1, handle, secret)
        assert value == die_value(TABLE, 1, handle, cup.joint, secret, 6)


def test_the_owner_cannot_aim_its_secret_the_joint_seed_is_unknown_when_it_commits() -> None:
    # Whatever the owner commits to, the other seats' links (fixed by their chain heads) are opened
    # only after it: two different commitments meet the same joint seed, which it could not predict.
    joints = []
    for salt in (0, 1):
        resolver = table(2, cheat=_commit_with(1, bytes([salt]) * 32))
        resolver.resolve(CUP)
        joints.append(resolver.participants[0].record.cups.cups["c1"].joint)
    assert joints[0] == joints[1]


def test_private_dice_are_spread_evenly_over_many_cups() -> None:
    resolver = table(2)
    counts: Counter[int] = Counter()
    for i in range(60):
        counts.update(resolver.resolve(Roll(10, 6, to=i % 2, cup=f"c{i}")).privately[i % 2].values())
    assert sorted(counts) == [1, 2, 3, 4, 5, 6]
    assert all(60 <= n <= 140 for n in counts.values()), counts  # 100 expected each of 600 dice


def test_a_cup_name_is_rolled_once_per_table() -> None:
    resolver = table(2)
    resolver.resolve(CUP)
    with pytest.raises(ProtocolViolation, match="already rolled"):
        resolver.resolve(CUP)


# -- cheats ------------------------------------------------------------------------------


def _commit_with(seat: int, secret: bytes) -> Cheat:
    """``seat`` commits every die of its cup to ``secret`` instead of its seed's secrets."""

    def change(body: dict[str, Any]) -> None:
        body["commitments"] = {h: die_commitment(TABLE, seat, h, secret) for h in body["commitments"]}

    return rewrite(seat, "cup/commit", change)


def _opening_of(seat: int, kind: str, change: Any) -> Cheat:
    def edit(body: dict[str, Any]) -> None:
        body["dice"] = change(dict(body["dice"]))

    return rewrite(seat, kind, edit)


def test_a_wrong_opening_at_the_reveal_is_caught_and_its_owner_named() -> None:
    wrong = _opening_of(1, "reveal", lambda dice: {h: "00" * 32 for h in dice})
    resolver = table(3, cheat=wrong)
    resolver.resolve(CUP)
    with pytest.raises(CheatDetected, match="not the one it committed to") as caught:
        resolver.resolve(Reveal(tuple(CUP.handles())))
    assert caught.value.seat == 1


def test_an_opening_of_fewer_dice_than_the_reveal_asks_is_caught() -> None:
    short = _opening_of(1, "reveal", lambda dice: dict(list(dice.items())[:2]))
    resolver = table(3, cheat=short)
    resolver.resolve(CUP)
    with pytest.raises(CheatDetected, match="opened dice") as caught:
        resolver.resolve(Reveal(tuple(CUP.handles())))
    assert caught.value.seat == 1


def test_a_withheld_opening_forfeits_the_owner() -> None:
    resolver = table(3, cheat=withhold(1, "reveal"))
    resolver.resolve(CUP)
    with pytest.raises(SeatForfeited) as caught:
        resolver.resolve(Reveal(tuple(CUP.handles())))
    assert caught.value.seat == 1


def test_a_withheld_commitment_forfeits_the_owner_before_any_link_is_opened() -> None:
    resolver = table(3, cheat=withhold(1, "cup/commit"))
    with pytest.raises(SeatForfeited) as caught:
        resolver.resolve(CUP)
    assert caught.value.seat == 1
    assert not any(e.get("msg", {}).get("kind") == "chain/open" for e in resolver.entries)


def test_a_secret_replayed_from_an_opened_die_is_caught_when_opened() -> None:
    # Seat 1 commits its second cup to the secret it opened for its first: anyone who saw the first
    # opening could work the new die out. The second opening is refused at once.
    first = Roll(1, 6, to=1, cup="a")
    second = Roll(1, 6, to=1, cup="b")
    resolver = table(3)
    resolver.resolve(first)
    resolver.resolve(Reveal(("a.0",)))
    opened = next(e["msg"]["body"]["dice"] for e in resolver.entries
                  if e.get("msg", {}).get("kind") == "reveal")
    secret = bytes.fromhex(opened["a.0"])  # public now: every seat saw it
    resolver.tamper = _commit_with(1, secret)(resolver.participants)
    resolver.resolve(second)
    resolver.tamper = _opening_of(1, "reveal", lambda dice: {"b.0": secret.hex()})(resolver.participants)
    with pytest.raises(CheatDetected, match="replayed secret") as caught:
        resolver.resolve(Reveal(("b.0",)))
    assert caught.value.seat == 1


def test_a_commitment_that_does_not_follow_from_the_seed_is_named_at_the_end() -> None:
    resolver = table(3, cheat=_commit_with(2, bytes(32)))
    resolver.resolve(Roll(2, 6, to=2, cup="c2"))
    with pytest.raises(CheatDetected, match=r"commitment to die 'c2\.0'") as caught:
        resolver.finish()
    assert caught.value.seat == 2


def test_a_commitment_replayed_from_another_seat_is_caught() -> None:
    resolver = table(3)
    resolver.resolve(Roll(1, 6, to=0, cup="a"))
    theirs = resolver.participants[0].record.cups.cups["a"].commitments["a.0"]

    def copy(body: dict[str, Any]) -> None:
        body["commitments"] = {"b.0": theirs}

    resolver.tamper = rewrite(1, "cup/commit", copy)(resolver.participants)
    with pytest.raises(CheatDetected, match="already used") as caught:
        resolver.resolve(Roll(1, 6, to=1, cup="b"))
    assert caught.value.seat == 1


def test_another_seat_cannot_open_the_owners_dice() -> None:
    resolver = table(3)
    resolver.resolve(CUP)
    with pytest.raises(ProtocolViolation, match="sealed by seat 2"):
        resolver.prove(0, {"c1.0": 3})


def test_the_owner_shows_a_die_it_claims_and_a_false_claim_is_named() -> None:
    resolver = table(3)
    dice = resolver.resolve(CUP).privately[1]
    resolver.prove(1, {"c1.2": dice["c1.2"]})
    assert resolver.participants[0].record.cups.opened() == {"c1.2": dice["c1.2"]}
    lie = dice["c1.3"] % 6 + 1
    with pytest.raises(CheatDetected, match=r"claims 'c1\.3'") as caught:
        resolver.prove(1, {"c1.3": lie})
    assert caught.value.seat == 1


def test_a_leaving_seat_opens_its_dice_so_they_can_still_be_lifted() -> None:
    resolver = table(3)
    dice = resolver.resolve(CUP).privately[1]
    resolver.leave(1)
    assert resolver.resolve(Reveal(tuple(CUP.handles()))).outcome["faces"] == dice


def test_the_audit_rechecks_every_cup_and_opens_the_unlifted_ones(tmp_path: Path) -> None:
    resolver = table(3)
    lifted = resolver.resolve(CUP).privately[1]
    hidden = resolver.resolve(Roll(3, 6, to=2, cup="c2")).privately[2]
    resolver.resolve(Reveal(tuple(CUP.handles())))
    resolver.finish()
    assert {**lifted, **hidden}.items() <= resolver.faces().items()
    record, _ = replay(resolver, json.loads(json.dumps(resolver.entries)))
    assert record.cups.all_faces(record.seeds) == {**lifted, **hidden}


def test_a_replay_of_the_record_names_a_wrong_opening() -> None:
    wrong = _opening_of(1, "reveal", lambda dice: {h: "11" * 32 for h in dice})
    resolver = table(3, cheat=wrong)
    resolver.resolve(CUP)
    with pytest.raises(CheatDetected):
        resolver.resolve(Reveal(tuple(CUP.handles())))
    with pytest.raises(CheatDetected, match="not the one it committed to") as caught:
        replay(resolver)
    assert caught.value.seat == 1


@settings(max_examples=6, deadline=None)
@given(seats=st.integers(2, 5), cups=st.lists(st.tuples(st.integers(0, 4), st.integers(1, 6)), min_size=1,
                                              max_size=5))
def test_any_table_rolls_any_cups_across_chain_epochs_and_audits_clean(
    seats: int, cups: list[tuple[int, int]]
) -> None:
    resolver = table(seats, chain_length=2)  # a new chain epoch every two draws
    dice: dict[str, object] = {}
    for i, (owner, count) in enumerate(cups):
        roll = Roll(count, 6, to=owner % seats, cup=f"c{i}")
        private = resolver.resolve(roll).privately
        assert set(private) == {roll.to}
        dice.update(private[owner % seats])
    lifted = [h for h in dice if int(h[1:].split(".")[0]) % 2 == 0]  # every other cup is lifted
    assert resolver.resolve(Reveal(tuple(lifted))).outcome["faces"] == {h: dice[h] for h in lifted}
    resolver.finish()
    record, _ = replay(resolver)
    assert record.cups.all_faces(record.seeds) == dice
