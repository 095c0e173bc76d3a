"""Attacks through an untrusted wire: every message passes a relay that nobody trusts.

Each test is written as the attack. The outcome is always one of: refused with nobody blamed, the
seat that wrote the wrong content named, or "aborted, not attributable"; never an innocent seat
named, never a traceback. Below the table a message's author is the seat it names (the table checks
that against the envelope its identity signed: tests/table), so these attacks are a relay's that
replays, re-encodes or holds back messages, and a seat's own.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from atoll_tools.asked import AskedTable
from atoll_tools.memory_table import cheating
from nacl.signing import SigningKey

from atoll.chance import Deal, Reveal, Roll, Shuffle
from atoll.errors import CheatDetected, MalformedInput, ProtocolViolation
from atoll.fair.primitives import group
from atoll.fair.steps import announce as steps
from atoll.fair.steps.messages import MalformedMessage, Message, NotForThisStep
from atoll.fair.steps.seat import Participant, derive_seed
from atoll.jsondata import strict_hex
from atoll.net.encoding import fingerprint, normal_fingerprint
from atoll.table.reasons import EndReason
from tests.fair.helpers import Switch, caught, messages, rewrite, table, withhold

#: What each participant raised when an injected message reached it.
Outcomes = list[BaseException | None]


def injecting(seat: int, kind: str, forge: Callable[[Message], Message], seen: Outcomes) -> tuple[
        Callable[[AskedTable], None], dict[int, type[Participant]]]:
    """Before ``seat``'s genuine ``kind`` message goes out, every copy's record (the host's and each
    seat's) is shown a forgery of it (what a relay could try); returns how to arm it once the table is
    open, and the seat's participant class."""
    switch = Switch()

    def arm(played: AskedTable) -> None:
        def tamper(me: Participant, message: Message) -> list[Message]:
            if message["kind"] == kind and not seen:
                forged = forge(message)
                for record in [played.record(), *(played.record(s) for s in range(played.seats))]:
                    try:
                        record.receive(forged)
                        seen.append(None)
                    except Exception as exc:  # what each peer makes of it is the point of the test
                        seen.append(exc)
            return [message]

        switch.tamper = tamper

    return arm, {seat: cheating(switch)}


def refused_blaming_nobody(seen: Outcomes) -> None:
    assert seen and all(isinstance(e, ProtocolViolation) and not isinstance(e, CheatDetected) for e in seen)


# -- forgeries and re-encodings ---------------------------------------------------------------------


RECODINGS: dict[str, Callable[[Message], Message]] = {
    "an extra field": lambda m: dict(m, relay="was here"),
    "a field missing": lambda m: {k: v for k, v in m.items() if k != "seen"},
    "the seat as true": lambda m: dict(m, seat=True),
    "the step number as a float": lambda m: dict(m, n=float(m["n"])),
    "the head with a space": lambda m: dict(m, seen=" " + m["seen"][1:]),
}


@pytest.mark.parametrize("recoding", sorted(RECODINGS))
def test_a_genuine_message_re_encoded_by_a_relay_is_refused_and_blames_nobody(recoding: str) -> None:
    """Not 'two different messages': the author wrote one, and the relay's copy is not a message at all."""
    seen: Outcomes = []
    arm, cheat = injecting(1, "chain/open", RECODINGS[recoding], seen)
    played = table(3, cheat=cheat)
    arm(played)
    played.resolve(Roll(1, 6))
    refused_blaming_nobody(seen)
    assert all(isinstance(e, MalformedMessage) for e in seen)
    assert played.ending() is None


def test_a_replayed_message_of_an_earlier_draw_is_dropped_and_the_draw_goes_on() -> None:
    seen: Outcomes = []
    old: list[Message] = []
    arm, cheat = injecting(0, "chain/open", lambda m: old[0], seen)
    played = table(3, cheat=cheat)
    played.resolve(Roll(1, 6))
    old.append(messages(played, "chain/open")[0])
    arm(played)
    played.resolve(Roll(1, 6))
    refused_blaming_nobody(seen)
    assert any(isinstance(e, NotForThisStep) for e in seen)  # a copy still at draw 1 has it already
    assert played.ending() is None


def test_hex_is_strictly_lowercase_of_the_right_length() -> None:
    with pytest.raises(MalformedInput):
        strict_hex("    2301" + "00" * 28, 32)
    with pytest.raises(group.GroupError):
        group.scalar_from_hex("    2301" + "00" * 28)
    with pytest.raises(MalformedInput):
        strict_hex("AB" * 32, 32)
    with pytest.raises(MalformedInput):
        strict_hex("ab" * 31, 32)
    assert strict_hex("0a" * 2, 2) == b"\n\n"


def test_signed_content_in_upper_case_hex_names_its_author() -> None:
    """Strictness applies to what a seat signs, too: that is the seat's own doing."""
    played = table(3, cheat=rewrite(1, "chain/open", lambda b: b.update(link=b["link"].upper())))
    with caught(played, 1, "lowercase hex"):
        played.resolve(Roll(1, 6))


# -- identities ---------------------------------------------------------------------------------------


def test_a_seat_that_says_two_different_hellos_is_caught_equivocating() -> None:
    """Two chain heads for one seat would let it answer each peer from another chain."""
    played = table(3)
    hello = next(m for m in messages(played, "hello") if m["seat"] == 1)
    other = dict(hello, body={"head": "5a" * 32})
    with pytest.raises(CheatDetected, match="equivocation") as found:
        played.record(0).receive(other)
    assert found.value.seat == 1


def test_a_fingerprint_is_six_groups_of_base32_and_people_may_type_it_loosely() -> None:
    key = SigningKey(b"\x01" * 32).verify_key.encode()
    print_ = fingerprint(key)
    assert len(print_.split("-")) == 6 and all(len(g) == 4 for g in print_.split("-"))
    assert normal_fingerprint(print_.upper().replace("-", " ")) == print_
    assert fingerprint(SigningKey(b"\x02" * 32).verify_key.encode()) != print_


# -- equivocation and signed receipts -------------------------------------------------------------------


def test_a_seat_that_signs_two_different_commitments_for_one_seal_is_bound_by_the_first() -> None:
    """Both commitments are well formed, so each alone would pass: the log takes the first, the host
    refuses the second (the step is complete), and the seat's opening must match the first."""
    def twice(me: Participant, message: Message) -> list[Message]:
        if message["kind"] != "seal/commit":
            return [message]
        slots = message["body"]["commitments"]
        return [dict(message, body={"commitments": {h: "44" * 32 for h in slots}}), message]

    played = table(3, cheat={1: cheating(twice)})
    handles = played.seal(1, ["storm"])
    assert played.net.peers[1].session.errors == ["refused fair: no protocol step waits for messages now"]
    with caught(played, 1, "not what it committed to"):
        played.resolve(Reveal(tuple(handles)))


def test_a_peer_whose_game_log_asks_another_draw_refuses_the_others_openings_blaming_nobody() -> None:
    played = table(3)
    stray = played.participant(2)
    n = stray.record.n + 1
    openings: list[Message] = []
    for seat in (0, 1):
        openings += played.participant(seat).begin({"n": n, "step": "draw", "draw": 1,
                                                    "request": Roll(1, 6).to_json()})
    stray.begin({"n": n, "step": "draw", "draw": 1, "request": Roll(2, 6).to_json()})
    for message in openings:
        with pytest.raises(NotForThisStep):
            stray.receive(message)


def test_an_opening_that_signs_another_request_than_its_step_names_its_seat() -> None:
    played = table(3, cheat=rewrite(2, "chain/open", lambda b: b.update(request=Roll(2, 6).to_json())))
    with caught(played, 2, "not draw 1 of"):
        played.resolve(Roll(1, 6))


# -- timeouts --------------------------------------------------------------------------------------------


def test_in_a_shuffle_taken_in_turn_only_the_seat_whose_turn_it_is_can_time_out() -> None:
    played = table(3, cheat=withhold(1, "deck", deck="deck/shuffle"))
    with caught(played, 1, reason=EndReason.FORFEIT):
        played.resolve(Shuffle("deck", tuple(range(6))))


# -- no secrets before the end; nothing after it ---------------------------------------------------------


def test_every_step_after_finish_is_refused() -> None:
    played = table(2)
    played.resolve(Roll(1, 6))
    played.finish()
    length = len(played.net.host.table.log.entries)
    played.net.move(0, {"ask": Roll(1, 6).to_json()})
    assert len(played.net.host.table.log.entries) == length
    seat = played.participant(1)
    with pytest.raises(ProtocolViolation, match="the game is over"):
        seat.begin({"n": seat.record.n + 1, "step": "finish"})


def test_after_a_cheat_the_table_takes_no_more_steps() -> None:
    played = table(3, cheat=rewrite(1, "chain/open", lambda b: b.update(link="33" * 32)))
    with caught(played, 1):
        played.resolve(Roll(1, 6))
    seat = played.participant(0)
    with pytest.raises(ProtocolViolation, match="stopped when a cheat was caught"):
        seat.begin({"n": seat.record.n + 1, "step": "draw", "draw": 2, "request": Roll(1, 6).to_json()})


# -- sealed choices, checked live --------------------------------------------------------------------


def test_a_sealed_choice_is_judged_by_the_rules_as_soon_as_it_opens() -> None:
    played = table(3)
    handles = played.seal(1, ["storm", "sun"])
    faces = played.resolve(Reveal(tuple(handles))).outcome["faces"]
    assert faces == dict(zip(handles, ["storm", "sun"], strict=True))
    assert played.ending() is None


def test_an_illegal_sealed_choice_is_named_once_its_slot_is_open() -> None:
    """The referee judges a choice when the step after the one that opened its last slot begins."""
    played = table(3, cheat={2: cheating(sealing=lambda values: ["medium"])})
    handles = played.seal(2, ["mild"])
    played.resolve(Reveal(tuple(handles)))
    with caught(played, 2, "not a legal choice"):
        played.resolve(Roll(1, 6))


def test_an_illegal_sealed_choice_never_opened_is_named_at_the_end() -> None:
    played = table(3, cheat={2: cheating(sealing=lambda values: ["medium"])})
    played.seal(2, ["mild"])
    with caught(played, 2, "not a legal choice"):
        played.finish()


# -- the smaller items ----------------------------------------------------------------------------------


def test_a_refused_deal_spanning_two_piles_leaves_every_pile_as_it_was() -> None:
    played = table(3)
    played.resolve(Shuffle("a", tuple(range(4))))
    played.resolve(Shuffle("b", tuple(range(4))))
    played.resolve(Reveal(("b.0",)))
    before = [(d.round, d.holders()) for d in played.record(0).deck.decks.values()]
    with pytest.raises(ProtocolViolation, match="face up already"):
        played.resolve(Deal(((1, ("a.0", "b.0")),)))
    after = [(d.round, d.holders()) for d in played.record(0).deck.decks.values()]
    assert after == before and played.ending() is None
    assert steps.for_chance(played.record(0), Deal(((2, ("a.0",)),)))  # the pile deals on


def test_a_seed_is_bound_to_its_table() -> None:
    master = b"\x05" * 32
    assert derive_seed(master, "friday-1", 0) != derive_seed(master, "friday-2", 0)
