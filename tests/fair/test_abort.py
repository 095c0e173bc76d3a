"""Running out of time: a late seat forfeits on the others' witness; with too few witnesses the table
aborts naming nobody. The timeout is the table's (``docs/decisions/0020-the-host-cannot-frame-a-seat.md``)."""

from __future__ import annotations

import pytest

from atoll.chance import Deal, Roll, Shuffle
from atoll.errors import ProtocolViolation
from atoll.net.envelope import open_envelope
from atoll.table.reasons import EndReason
from atoll.wire import Kind
from tests.fair.helpers import aborted, audited, caught, rewrite, table, withhold

FORFEIT = EndReason.FORFEIT


def witnesses(played: object) -> list[int]:
    """The seats whose signed witness of a timeout is in the log."""
    host = played.net.host.table  # type: ignore[attr-defined]
    return sorted(host.lobby.seat_of(e.message.author) for e in host.log.entries
                  if e.message.kind == Kind.WITNESS)


def test_a_withheld_opening_forfeits_on_the_witness_of_every_other_seat() -> None:
    played = table(3, cheat=withhold(2, "chain/open"))
    with caught(played, 2, "witnessed by seats 1, 2", reason=FORFEIT):
        played.resolve(Roll(1, 6))
    assert witnesses(played) == [0, 1]


def test_in_a_two_seat_game_a_withheld_message_aborts_the_table_blaming_nobody() -> None:
    """Threat model: with one witness, a timeout is one seat's word against the other's."""
    played = table(2, cheat=withhold(1, "chain/open"))
    with aborted(played):
        played.resolve(Roll(1, 6))
    assert played.ending().seat == 1  # type: ignore[union-attr]


def test_a_timeout_not_every_other_seat_witnesses_aborts_the_table_blaming_nobody() -> None:
    played = table(3, cheat=withhold(2, "chain/open"))

    def drop_witness(index: int, data: bytes) -> bytes | None:  # a relay loses seat 1's witness
        return None if index == 1 and open_envelope(data).kind == Kind.WITNESS else data

    played.net.upstream = drop_witness
    with aborted(played):
        played.resolve(Roll(1, 6))
    assert witnesses(played) == [0]
    report, _ = audited(played)
    assert report.reason is EndReason.ABORTED and report.blame is None and report.cheat is None


def test_after_a_forfeit_the_table_takes_no_more_steps() -> None:
    played = table(3, cheat=withhold(1, "chain/open"))
    with caught(played, 1, reason=FORFEIT):
        played.resolve(Roll(1, 6))
    length = len(played.net.host.table.log.entries)
    played.net.move(0, {"ask": Roll(1, 6).to_json()})
    assert len(played.net.host.table.log.entries) == length
    assert "the game is over" in played.net.peers[0].session.errors[-1]


def test_the_log_of_a_forfeited_game_audits_as_that_seats_forfeit() -> None:
    played = table(3, cheat=withhold(1, "chain/open"))
    with caught(played, 1, reason=FORFEIT):
        played.resolve(Roll(1, 6))
    report, _ = audited(played)
    assert report.reason is FORFEIT and report.blame == 1 and report.cheat is None


def test_a_withheld_card_key_forfeits() -> None:
    played = table(3, cheat=withhold(0, "deck", deck="deck/open"))
    played.resolve(Shuffle("deck", tuple(range(6))))
    with caught(played, 0, reason=FORFEIT):
        played.resolve(Deal(((2, ("deck.0",)),)))


def test_a_seed_withheld_at_the_end_forfeits() -> None:
    played = table(3, cheat=withhold(1, "seed"))
    played.resolve(Roll(1, 6))
    with caught(played, 1, reason=FORFEIT):
        played.finish()


def test_the_last_to_open_can_withhold_but_never_choose_its_opening() -> None:
    """Threat model: the last revealer sees every other opening first; its own is fixed by its head."""
    changed = table(3, cheat=rewrite(2, "chain/open", lambda b: b.update(link="77" * 32)))
    with caught(changed, 2):
        changed.resolve(Roll(1, 6))
    late = table(3, cheat=withhold(2, "chain/open"))
    with caught(late, 2, reason=FORFEIT):
        late.resolve(Roll(1, 6))


def test_a_step_the_protocols_refuse_is_refused_at_the_table_naming_nobody() -> None:
    played = table(3)
    played.resolve(Roll(1, 6, to=1, cup="c"))
    with pytest.raises(ProtocolViolation, match="already rolled"):
        played.resolve(Roll(1, 6, to=1, cup="c"))
    assert played.ending() is None
    assert all(e.blame is None for copy in played.tables() for e in copy.events)
