"""Attacks through an untrusted wire: every message passes a relay that nobody trusts.

Each test is written as the attack. The outcome is always one of: refused with nobody blamed, the
seat that wrote the wrong content named, or "aborted, not attributable"; never an innocent seat
named, never a traceback. Below the table a message's author is the seat it names (the table checks
that against the envelope its identity signed: tests/table), so these attacks are a relay's that
replays, re-encodes or holds back messages, and a seat's own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest
from atoll_tools.fair_relay import SeatForfeited, Tamper
from nacl.signing import SigningKey

from atoll.chance import Deal, Reveal, Roll, Shuffle
from atoll.errors import CheatDetected, MalformedInput, ProtocolViolation
from atoll.fair.primitives import group
from atoll.fair.steps.messages import MalformedMessage, Message, NotForThisStep
from atoll.fair.steps.seat import derive_seed
from atoll.jsondata import JSON, strict_hex
from atoll.net.encoding import fingerprint, normal_fingerprint
from tests.fair.helpers import Cheat, table, withhold

#: What each participant raised when an injected message reached it.
Outcomes = list[BaseException | None]


def inject(seat: int, kind: str, forge: Callable[[Message, Sequence[Any]], Message], seen: Outcomes) -> Cheat:
    """A relay that, before passing on ``seat``'s genuine ``kind`` message, shows every peer a forgery."""

    def build(participants: Sequence[Any]) -> Tamper:
        def tamper(author: int, message: Message) -> Message:
            if author == seat and message["kind"] == kind and not seen:
                forged = forge(message, participants)
                for participant in participants:
                    try:
                        participant.receive(forged)
                        seen.append(None)
                    except Exception as exc:  # what each peer makes of it is the point of the test
                        seen.append(exc)
            return message
        return tamper

    return build


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
    resolver = table(3, cheat=inject(1, "chain/open", lambda m, _: RECODINGS[recoding](m), seen))
    resolver.resolve(Roll(1, 6))
    refused_blaming_nobody(seen)
    assert all(isinstance(e, MalformedMessage) for e in seen)


def test_a_replayed_message_of_an_earlier_draw_is_dropped_and_the_draw_goes_on() -> None:
    resolver = table(3)
    resolver.resolve(Roll(1, 6))
    old = next(e["msg"] for e in resolver.entries
               if "msg" in e and e["msg"]["kind"] == "chain/open")
    seen: Outcomes = []
    resolver.tamper = inject(0, "chain/open", lambda m, _: old, seen)(resolver.participants)
    resolver.resolve(Roll(1, 6))
    refused_blaming_nobody(seen)
    assert all(isinstance(e, NotForThisStep) for e in seen)


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
    def upper(participants: Sequence[Any]) -> Tamper:
        def tamper(author: int, message: Message) -> Message:
            if author == 1 and message["kind"] == "chain/open":
                return dict(message, body=dict(message["body"],
                                                                    link=message["body"]["link"].upper()))
            return message
        return tamper

    with pytest.raises(CheatDetected, match="lowercase hex") as caught:
        table(3, cheat=upper).resolve(Roll(1, 6))
    assert caught.value.seat == 1


# -- identities ---------------------------------------------------------------------------------------


def test_a_seat_that_says_two_different_hellos_is_caught_equivocating() -> None:
    """Two chain heads for one seat would let it answer each peer from another chain."""
    resolver = table(3)
    hello = next(e["msg"] for e in resolver.entries if "msg" in e and e["msg"]["kind"] == "hello"
                 and e["msg"]["seat"] == 1)
    other = dict(hello, body={"head": "5a" * 32})
    with pytest.raises(CheatDetected, match="equivocation") as caught:
        resolver.participants[0].record.receive(other)
    assert caught.value.seat == 1


def test_a_fingerprint_is_six_groups_of_base32_and_people_may_type_it_loosely() -> None:
    key = SigningKey(b"\x01" * 32).verify_key.encode()
    print_ = fingerprint(key)
    assert len(print_.split("-")) == 6 and all(len(g) == 4 for g in print_.split("-"))
    assert normal_fingerprint(print_.upper().replace("-", " ")) == print_
    assert fingerprint(SigningKey(b"\x02" * 32).verify_key.encode()) != print_


# -- equivocation and signed receipts -------------------------------------------------------------------


def test_a_seat_that_signs_two_different_commitments_for_one_seal_is_caught_equivocating() -> None:
    """Both commitments are well formed, so each alone would pass; together they cannot both be true."""
    def other(message: Message, participants: Sequence[Any]) -> Message:
        slots = message["body"]["commitments"]
        return dict(message, body={"commitments": {h: "44" * 32 for h in slots}})

    seen: Outcomes = []
    resolver = table(3, cheat=inject(1, "seal/commit", other, seen))
    with pytest.raises(CheatDetected, match="equivocation") as caught:
        resolver.seal(1, ["s1-0.0"], ["storm"])
    assert seen == [None, None, None]  # the first version was taken: nothing was wrong with it alone
    assert caught.value.seat == 1


def test_a_peer_whose_game_log_asks_another_draw_refuses_the_others_openings_blaming_nobody() -> None:
    resolver = table(3)
    stray = resolver.participants[2]
    openings: list[Message] = []
    for participant in resolver.participants[:2]:
        openings += participant.begin({"n": 1, "step": "draw", "draw": 1, "request": Roll(1, 6).to_json()})
    stray.begin({"n": 1, "step": "draw", "draw": 1, "request": Roll(2, 6).to_json()})
    for message in openings:
        with pytest.raises(NotForThisStep):
            stray.receive(message)


def test_an_opening_that_signs_another_request_than_its_step_names_its_seat() -> None:
    def other_request(participants: Sequence[Any]) -> Tamper:
        def tamper(author: int, message: Message) -> Message:
            if author == 2 and message["kind"] == "chain/open":
                body = dict(message["body"], request=Roll(2, 6).to_json())
                return dict(message, body=body)
            return message
        return tamper

    with pytest.raises(CheatDetected, match="not draw 1 of") as caught:
        table(3, cheat=other_request).resolve(Roll(1, 6))
    assert caught.value.seat == 2


# -- timeouts --------------------------------------------------------------------------------------------


def test_a_timeout_stating_another_head_is_refused() -> None:
    resolver = table(3, cheat=withhold(2, "chain/open"))
    with pytest.raises(SeatForfeited):
        resolver.resolve(Roll(1, 6))
    fresh = table(3)
    record = fresh.participants[0].record
    fresh.participants[0].begin({"n": 1, "step": "draw", "draw": 1, "request": Roll(1, 6).to_json()})
    with pytest.raises(ProtocolViolation, match="timeout states head"):
        record.begin({"n": 2, "step": "timeout", "missing": 2, "late": 1, "head": "00" * 32})


def test_in_a_shuffle_taken_in_turn_only_the_seat_whose_turn_it_is_can_time_out() -> None:
    def no_shuffle(participants: Sequence[Any]) -> Tamper:
        def tamper(author: int, message: Message) -> Message | None:
            is_shuffle = message["kind"] == "deck" and message["body"]["type"] == "deck/shuffle"
            return None if author == 1 and is_shuffle else message
        return tamper

    resolver = table(3, cheat=no_shuffle)
    with pytest.raises(SeatForfeited) as caught:
        resolver.resolve(Shuffle("deck", tuple(range(6))))
    assert caught.value.seat == 1


# -- no secrets before the end; nothing after it ---------------------------------------------------------


def test_every_step_after_finish_is_refused() -> None:
    resolver = table(2)
    resolver.resolve(Roll(1, 6))
    resolver.finish()
    with pytest.raises(ProtocolViolation, match="the game is over"):
        resolver.resolve(Roll(1, 6))
    with pytest.raises(ProtocolViolation, match="the game is over"):
        resolver.participants[1].begin({"n": resolver.participants[1].record.n + 1, "step": "finish"})


def test_after_a_cheat_the_table_takes_no_more_steps() -> None:
    def wrong(participants: Sequence[Any]) -> Tamper:
        def tamper(author: int, message: Message) -> Message:
            if author == 1 and message["kind"] == "chain/open":
                return dict(message, body=dict(message["body"], link="33" * 32))
            return message
        return tamper

    resolver = table(3, cheat=wrong)
    with pytest.raises(CheatDetected):
        resolver.resolve(Roll(1, 6))
    with pytest.raises(ProtocolViolation, match="stopped when a cheat was caught"):
        resolver.resolve(Roll(1, 6))


# -- sealed choices, checked live --------------------------------------------------------------------


def judged(calls: list[tuple[int, list[str], dict[str, JSON]]], illegal: JSON = None) -> Any:
    def referee(seat: int, handles: Sequence[str], faces: dict[str, JSON]) -> None:
        values = {h: faces[h] for h in handles}
        calls.append((seat, list(handles), values))
        if illegal in values.values():
            raise CheatDetected(seat, f"sealed {illegal!r}, which was not a legal choice")
    return referee


def test_a_sealed_decision_is_judged_as_soon_as_its_last_slot_opens_and_again_at_the_end() -> None:
    calls: list[tuple[int, list[str], dict[str, JSON]]] = []
    resolver = table(3, referee=judged(calls))
    resolver.seal(1, ["s1-0.0", "s1-0.1"], ["storm", "sun"])
    resolver.resolve(Reveal(("s1-0.0",)))
    assert calls == []
    resolver.resolve(Reveal(("s1-0.1",)))
    assert calls == [(1, ["s1-0.0", "s1-0.1"], {"s1-0.0": "storm", "s1-0.1": "sun"})]
    resolver.finish()
    assert len(calls) == 2


def test_an_illegal_sealed_choice_is_named_when_its_slot_opens() -> None:
    resolver = table(3, referee=judged([], illegal="medium"))
    resolver.seal(2, ["s2-0.0"], ["medium"])
    with pytest.raises(CheatDetected, match="not a legal choice") as caught:
        resolver.resolve(Reveal(("s2-0.0",)))
    assert caught.value.seat == 2


def test_a_leaving_seat_opens_its_sealed_slots_so_its_choice_is_still_judged() -> None:
    calls: list[tuple[int, list[str], dict[str, JSON]]] = []
    resolver = table(3, referee=judged(calls))
    resolver.resolve(Shuffle("deck", tuple(range(4))))
    resolver.seal(2, ["s2-0.0"], ["storm"])
    resolver.leave(2)
    assert all(p.record.commitments.opened() == {"s2-0.0": "storm"} for p in resolver.participants)
    assert calls == [(2, ["s2-0.0"], {"s2-0.0": "storm"})]


# -- the smaller items ----------------------------------------------------------------------------------


def test_a_refused_deal_spanning_two_piles_leaves_every_pile_as_it_was() -> None:
    resolver = table(3)
    resolver.resolve(Shuffle("a", tuple(range(4))))
    resolver.resolve(Shuffle("b", tuple(range(4))))
    resolver.resolve(Reveal(("b.0",)))
    before = [(d.round, d.holders()) for d in resolver.participants[0].record.deck.decks.values()]
    with pytest.raises(ProtocolViolation, match="face up already"):
        resolver.resolve(Deal(((1, ("a.0", "b.0")),)))
    after = [(d.round, d.holders()) for d in resolver.participants[0].record.deck.decks.values()]
    assert after == before
    assert set(resolver.resolve(Deal(((2, ("a.0",)),))).privately[2]) == {"a.0"}


def test_a_seed_is_bound_to_its_table() -> None:
    master = b"\x05" * 32
    assert derive_seed(master, "friday-1", 0) != derive_seed(master, "friday-2", 0)
