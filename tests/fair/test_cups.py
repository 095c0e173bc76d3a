"""Dice under a cup on a fair table: only the owner sees them, nobody biases them, every cheat is named.

docs/fairness.md, "Private rolls", lists each guarantee and the test below that checks it.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from atoll_tools.memory_table import cheating
from hypothesis import given, settings
from hypothesis import strategies as st

from atoll.chance import Reveal, Roll
from atoll.errors import ProtocolViolation
from atoll.fair.steps import announce as steps
from atoll.fair.steps.cups import die_commitment, die_secret, die_value
from atoll.table.reasons import EndReason
from tests.fair.helpers import Cheat, Switch, audited, caught, messages, rewrite, rewriting, table, withhold

CUP = Roll(5, 6, to=1, cup="c1")


def test_a_private_roll_is_known_to_its_owner_only() -> None:
    played = table(3)
    resolution = played.resolve(CUP)
    assert resolution.outcome == {"handles": [f"c1.{i}" for i in range(5)]}
    assert set(resolution.privately) == {1}
    dice = resolution.privately[1]
    assert sorted(dice) == CUP.handles() and all(v in range(1, 7) for v in dice.values())
    assert played.participant(1).known == dice
    assert played.participant(0).known == {} and played.participant(2).known == {}
    assert played.record(0).cups.hand() == {} and played.record().cups.hand() == {}


def test_a_private_roll_costs_one_commitment_and_one_round_of_openings() -> None:
    played = table(4)
    before = len(messages(played))
    played.resolve(CUP)
    kinds = Counter(m["kind"] for m in messages(played)[before:])
    assert kinds == {"cup/commit": 1, "chain/open": 4}


def test_the_owner_works_out_the_dice_of_each_cup_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The owner's hand is asked for after every step: a cup's dice, fixed once it is drawn, are not
    hashed again each time (a long game of cups would cost more with every round)."""
    from atoll.fair.steps import cups

    played = table(3)
    first = played.resolve(CUP).privately[1]
    worked: list[str] = []
    value = cups.die_value

    def counted(table_id: str, draw: int, handle: str, joint: bytes, secret: bytes, sides: int) -> int:
        worked.append(handle)
        return value(table_id, draw, handle, joint, secret, sides)

    monkeypatch.setattr(cups, "die_value", counted)
    second = played.resolve(Roll(5, 6, to=1, cup="c2")).privately[1]
    assert sorted(worked) == sorted(Roll(5, 6, to=1, cup="c2").handles())
    assert played.record(1).cups.hand() == {**first, **second} and len(worked) == 5


def test_the_owner_commits_before_any_link_of_the_draw_is_opened() -> None:
    record = table(2).record(0)
    draw = steps.numbered(record, {"step": "draw", "draw": 1, "request": CUP.to_json()})
    with pytest.raises(ProtocolViolation, match="must follow its owner's commitment"):
        record.begin(draw)


def test_lifting_the_cup_shows_every_seat_the_dice_the_owner_saw() -> None:
    played = table(3)
    dice = played.resolve(CUP).privately[1]
    shown = played.resolve(Reveal(tuple(CUP.handles()))).outcome["faces"]
    assert shown == dice
    assert all(played.record(s).cups.opened() == dice for s in (None, 0, 1, 2))


def test_a_die_follows_from_the_joint_draw_and_the_owners_secret() -> None:
    played = table(2)
    dice = played.resolve(CUP).privately[1]
    cup = played.record(0).cups.cups["c1"]
    assert cup.joint is not None and cup.draw == 1
    seed, name = played.participant(1)._seed, played.table(0).id
    for handle, value in dice.items():
        secret = die_secret(seed, name, 1, handle)
        assert cup.commitments[handle] == die_commitment(name, 1, handle, secret)
        assert value == die_value(name, 1, handle, cup.joint, secret, 6)


def commit_with(table_id: str, seat: int, secret: bytes) -> Any:
    """Commit every die of ``seat``'s cup to ``secret`` instead of its seed's secrets."""

    def change(body: dict[str, Any]) -> None:
        body["commitments"] = {h: die_commitment(table_id, seat, h, secret) for h in body["commitments"]}

    return change


def test_the_owner_cannot_aim_its_secret_the_joint_seed_is_unknown_when_it_commits() -> None:
    # Whatever the owner commits to, the other seats' links (fixed by their chain heads) are opened
    # only after it: two different commitments meet the same joint seed, which it could not predict.
    joints = []
    for salt in (0, 1):
        switch = Switch()
        played = table(2, "aimed", cheat={1: cheating(switch)})
        switch.tamper = rewriting("cup/commit", commit_with("aimed", 1, bytes([salt]) * 32))
        played.resolve(CUP)
        joints.append(played.record(0).cups.cups["c1"].joint)
    assert joints[0] == joints[1]


def test_private_dice_are_spread_evenly_over_many_cups() -> None:
    played = table(2)
    counts: Counter[int] = Counter()
    for i in range(60):
        counts.update(played.resolve(Roll(10, 6, to=i % 2, cup=f"c{i}")).privately[i % 2].values())
    assert sorted(counts) == [1, 2, 3, 4, 5, 6]
    assert all(60 <= n <= 140 for n in counts.values()), counts  # 100 expected each of 600 dice


def test_a_cup_name_is_rolled_once_per_table() -> None:
    played = table(2)
    played.resolve(CUP)
    with pytest.raises(ProtocolViolation, match="already rolled"):
        played.resolve(CUP)


# -- cheats ------------------------------------------------------------------------------


def _opening_of(seat: int, kind: str, change: Any) -> Cheat:
    def edit(body: dict[str, Any]) -> None:
        body["dice"] = change(dict(body["dice"]))

    return rewrite(seat, kind, edit)


def test_a_wrong_opening_at_the_reveal_is_caught_and_its_owner_named() -> None:
    played = table(3, cheat=_opening_of(1, "reveal", lambda dice: {h: "00" * 32 for h in dice}))
    played.resolve(CUP)
    with caught(played, 1, "not the one it committed to"):
        played.resolve(Reveal(tuple(CUP.handles())))


def test_an_opening_of_fewer_dice_than_the_reveal_asks_is_caught() -> None:
    played = table(3, cheat=_opening_of(1, "reveal", lambda dice: dict(list(dice.items())[:2])))
    played.resolve(CUP)
    with caught(played, 1, "opened dice"):
        played.resolve(Reveal(tuple(CUP.handles())))


def test_a_withheld_opening_forfeits_the_owner() -> None:
    played = table(3, cheat=withhold(1, "reveal"))
    played.resolve(CUP)
    with caught(played, 1, reason=EndReason.FORFEIT):
        played.resolve(Reveal(tuple(CUP.handles())))


def test_a_withheld_commitment_forfeits_the_owner_before_any_link_is_opened() -> None:
    played = table(3, cheat=withhold(1, "cup/commit"))
    before = len(messages(played, "chain/open"))
    with caught(played, 1, reason=EndReason.FORFEIT):
        played.resolve(CUP)
    assert len(messages(played, "chain/open")) == before


def test_a_secret_replayed_from_an_opened_die_is_caught_when_opened() -> None:
    # Seat 1 commits its second cup to the secret it opened for its first: anyone who saw the first
    # opening could work the new die out. The second opening is refused at once.
    switch = Switch()
    played = table(3, cheat={1: cheating(switch)})
    played.resolve(Roll(1, 6, to=1, cup="a"))
    played.resolve(Reveal(("a.0",)))
    secret = bytes.fromhex(messages(played, "reveal")[0]["body"]["dice"]["a.0"])  # public now
    switch.tamper = rewriting("cup/commit", commit_with(played.table(0).id, 1, secret))
    played.resolve(Roll(1, 6, to=1, cup="b"))
    switch.tamper = rewriting("reveal", lambda body: body.update(dice={"b.0": secret.hex()}))
    with caught(played, 1, "replayed secret"):
        played.resolve(Reveal(("b.0",)))


def test_a_commitment_that_does_not_follow_from_the_seed_is_named_at_the_end() -> None:
    switch = Switch()
    played = table(3, cheat={2: cheating(switch)})
    switch.tamper = rewriting("cup/commit", commit_with(played.table(0).id, 2, bytes(32)))
    played.resolve(Roll(2, 6, to=2, cup="c2"))
    with caught(played, 2, r"commitment to die 'c2\.0'"):
        played.finish()


def test_a_commitment_replayed_from_another_seat_is_caught() -> None:
    switch = Switch()
    played = table(3, cheat={1: cheating(switch)})
    played.resolve(Roll(1, 6, to=0, cup="a"))
    theirs = played.record(0).cups.cups["a"].commitments["a.0"]
    switch.tamper = rewriting("cup/commit", lambda body: body.update(commitments={"b.0": theirs}))
    with caught(played, 1, "already used"):
        played.resolve(Roll(1, 6, to=1, cup="b"))


def test_another_seat_cannot_open_the_owners_dice() -> None:
    played = table(3)
    played.resolve(CUP)
    with pytest.raises(ProtocolViolation, match="sealed by seat 2"):
        played.prove(0, {"c1.0": 3})
    assert played.ending() is None


def test_the_owner_shows_a_die_it_claims_and_a_false_claim_is_named() -> None:
    played = table(3)
    dice = played.resolve(CUP).privately[1]
    played.prove(1, {"c1.2": dice["c1.2"]})
    assert played.record(0).cups.opened() == {"c1.2": dice["c1.2"]}
    lie = dice["c1.3"] % 6 + 1
    with caught(played, 1, r"claims 'c1\.3'"):
        played.prove(1, {"c1.3": lie})


def test_the_audit_rechecks_every_cup_and_opens_the_unlifted_ones() -> None:
    played = table(3)
    lifted = played.resolve(CUP).privately[1]
    hidden = played.resolve(Roll(3, 6, to=2, cup="c2")).privately[2]
    played.resolve(Reveal(tuple(CUP.handles())))
    played.finish()
    report, record = audited(played)
    assert report.clean
    assert record.cups.all_faces(record.seeds) == {**lifted, **hidden}


def test_the_audit_of_the_log_names_a_wrong_opening() -> None:
    played = table(3, cheat=_opening_of(1, "reveal", lambda dice: {h: "11" * 32 for h in dice}))
    played.resolve(CUP)
    with caught(played, 1):
        played.resolve(Reveal(tuple(CUP.handles())))
    report, _ = audited(played)
    assert report.blame == 1 and report.cheat is not None and "not the one it committed to" in report.cheat


@settings(max_examples=6, deadline=None)
@given(seats=st.integers(2, 5), cups=st.lists(st.tuples(st.integers(0, 4), st.integers(1, 6)), min_size=1,
                                              max_size=5))
def test_any_table_rolls_any_cups_and_audits_clean(seats: int, cups: list[tuple[int, int]]) -> None:
    played = table(seats)
    dice: dict[str, object] = {}
    for i, (owner, count) in enumerate(cups):
        roll = Roll(count, 6, to=owner % seats, cup=f"c{i}")
        private = played.resolve(roll).privately
        assert set(private) == {roll.to}
        dice.update(private[owner % seats])
    lifted = [h for h in dice if int(h[1:].split(".")[0]) % 2 == 0]  # every other cup is lifted
    assert played.resolve(Reveal(tuple(lifted))).outcome["faces"] == {h: dice[h] for h in lifted}
    played.finish()
    report, record = audited(played)
    assert report.clean and record.cups.all_faces(record.seeds) == dice
