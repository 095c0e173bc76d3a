"""Commitments to secret choices: salted, bound to table, seat and slot, opened one slot at a time."""

from __future__ import annotations

import pytest

from atoll.chance import Reveal
from atoll.errors import CheatDetected, ProtocolViolation
from atoll.fair.primitives.commitments import CommitmentBook, SealBox, commitment, salt_for
from tests.fair.helpers import caught, rewrite, table

TABLE = "test-table"

SECRET = bytes(range(32))
SALT = bytes(32)


def test_a_commitment_is_sha256_sized_and_changes_with_every_input() -> None:
    base = commitment(TABLE, 0, "s0-0.0", SALT, "high")
    variants = {
        commitment("other", 0, "s0-0.0", SALT, "high"),
        commitment(TABLE, 1, "s0-0.0", SALT, "high"),
        commitment(TABLE, 0, "s0-0.1", SALT, "high"),
        commitment(TABLE, 0, "s0-0.0", bytes([1]) * 32, "high"),
        commitment(TABLE, 0, "s0-0.0", SALT, "low"),
    }
    assert len(bytes.fromhex(base)) == 32
    assert base not in variants and len(variants) == 5


def test_every_slot_gets_its_own_salt_from_the_seed() -> None:
    salts = {salt_for(SECRET, TABLE, 0, f"s0-0.{i}") for i in range(6)}
    assert len(salts) == 6 and all(len(s) == 32 for s in salts)


def test_an_opened_slot_checks_and_the_others_stay_closed() -> None:
    box, book = SealBox(SECRET, TABLE, 2), CommitmentBook(TABLE)
    for i, card in enumerate(["storm", "bridge", "wave", "sun"]):
        book.record(2, f"s2-0.{i}", box.seal(f"s2-0.{i}", card))
    opening = box.opening("s2-0.1")
    assert book.open(2, "s2-0.1", opening["salt"], opening["value"]) == "bridge"
    assert book.closed(2) == ["s2-0.0", "s2-0.2", "s2-0.3"]


def test_a_commitment_opened_to_a_different_value_names_its_seat() -> None:
    box, book = SealBox(SECRET, TABLE, 1), CommitmentBook(TABLE)
    book.record(1, "s1-0.0", box.seal("s1-0.0", "storm"))
    with pytest.raises(CheatDetected, match="not what it committed to") as caught:
        book.open(1, "s1-0.0", box.opening("s1-0.0")["salt"], "sun")
    assert caught.value.seat == 1
    assert book.opened() == {}


def test_a_commitment_opened_with_another_salt_names_its_seat() -> None:
    box, book = SealBox(SECRET, TABLE, 1), CommitmentBook(TABLE)
    book.record(1, "s1-0.0", box.seal("s1-0.0", "storm"))
    with pytest.raises(CheatDetected) as caught:
        book.open(1, "s1-0.0", "00" * 32, "storm")
    assert caught.value.seat == 1


def test_a_seat_cannot_open_another_seats_slot() -> None:
    box, book = SealBox(SECRET, TABLE, 0), CommitmentBook(TABLE)
    book.record(0, "s0-0.0", box.seal("s0-0.0", "storm"))
    opening = box.opening("s0-0.0")
    with pytest.raises(CheatDetected, match="seat 1 committed to") as caught:
        book.open(1, "s0-0.0", opening["salt"], opening["value"])
    assert caught.value.seat == 1


def test_a_slot_is_committed_to_once() -> None:
    book = CommitmentBook(TABLE)
    book.record(0, "s0-0.0", "11" * 32)
    with pytest.raises(CheatDetected, match="already committed") as caught:
        book.record(0, "s0-0.0", "22" * 32)
    assert caught.value.seat == 0


def test_a_commitment_must_be_32_bytes_of_hex() -> None:
    with pytest.raises(CheatDetected):
        CommitmentBook(TABLE).record(3, "s3-0.0", "not hex")


def test_a_box_refuses_to_seal_a_slot_twice() -> None:
    box = SealBox(SECRET, TABLE, 0)
    box.seal("s0-0.0", "storm")
    with pytest.raises(ProtocolViolation):
        box.seal("s0-0.0", "sun")


def test_sealed_values_stay_with_their_seat_until_a_reveal_opens_them() -> None:
    played = table(3)
    handles = played.seal(1, ["storm", "sun"])
    assert handles == ["s1-0.0", "s1-0.1"]
    assert played.participant(1).known == {"s1-0.0": "storm", "s1-0.1": "sun"}
    assert all(played.participant(s).known == {} for s in (0, 2))
    assert played.resolve(Reveal(("s1-0.1",))).outcome == {"faces": {"s1-0.1": "sun"}}
    assert all(played.record(s).commitments.closed(1) == ["s1-0.0"] for s in (None, 0, 1, 2))


def test_a_seat_showing_a_sealed_value_proves_it_one_slot_at_a_time() -> None:
    played = table(2)
    played.seal(0, ["storm", "sun"])
    played.prove(0, {"s0-0.1": "sun"})
    assert played.record(1).commitments.opened() == {"s0-0.1": "sun"}


def test_a_seat_claiming_another_value_than_it_sealed_is_named() -> None:
    played = table(2)
    played.seal(0, ["storm"])
    with caught(played, 0, r"claims 's0-0\.0' shows 'sun'"):
        played.prove(0, {"s0-0.0": "sun"})


def test_a_seat_opening_its_commitment_to_a_different_value_is_named() -> None:
    def other_value(body: dict[str, object]) -> None:
        body["sealed"] = {"s1-0.0": dict(body["sealed"]["s1-0.0"], value="sun")}  # type: ignore[index]

    played = table(3, cheat=rewrite(1, "reveal", other_value))
    played.seal(1, ["storm"])
    with caught(played, 1, "not what it committed to"):
        played.resolve(Reveal(("s1-0.0",)))
