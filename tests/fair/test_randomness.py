"""Joint randomness from hash chains: one round of openings per draw, bound to its table, draw and purpose."""

from __future__ import annotations

import pytest
from atoll_tools.memory_table import cheating
from hypothesis import given, settings
from hypothesis import strategies as st

from atoll.chance import Pick, Roll
from atoll.errors import CheatDetected
from atoll.fair.primitives.randomness import (
    CHAIN_LENGTH,
    ChainBook,
    HashChain,
    draw_outcome,
    joint_seed,
    link_below,
    position,
)
from atoll.fair.steps.messages import MalformedMessage, Message, NotForThisStep
from atoll.fair.steps.seat import Participant
from atoll.randomness import Stream
from tests.fair.helpers import aborted, audited, caught, messages, rewrite, table

TABLE = "test-table"

SECRET = bytes(range(32))


def test_each_link_hashes_down_to_the_one_before_it() -> None:
    chain = HashChain(SECRET, TABLE, 1, 0, length=8)
    for index in range(1, 9):
        below = chain.head if index == 1 else chain.link(index - 1)
        assert link_below(TABLE, 1, 0, index, chain.link(index)) == below


def test_chains_differ_by_table_seat_and_epoch() -> None:
    heads = {HashChain(SECRET, t, s, e, length=4).head for t in ("a", "b") for s in (0, 1) for e in (0, 1)}
    assert len(heads) == 8


def test_draws_are_counted_from_one_and_fill_an_epoch_before_the_next() -> None:
    assert [position(k, 3) for k in (1, 3, 4, 7)] == [(0, 1), (0, 3), (1, 1), (2, 1)]


def test_a_draw_reduces_its_joint_seed_exactly_as_the_local_resolver_does() -> None:
    seed = bytes(32)
    stream = Stream(seed)
    assert draw_outcome(Roll(3, 6), seed) == {"values": [stream.die(6) for _ in range(3)]}
    assert draw_outcome(Pick(("a", "b", "c", "d"), 2), seed) == {"picked": Stream(seed).sample("abcd", 2)}


def test_the_seed_of_a_draw_changes_with_any_single_opening() -> None:
    openings = ["11" * 32, "22" * 32, "33" * 32]
    seeds = {joint_seed(TABLE, 1, {"kind": "roll"}, openings)}
    for seat in range(3):
        changed = list(openings)
        changed[seat] = "44" * 32
        seeds.add(joint_seed(TABLE, 1, {"kind": "roll"}, changed))
    assert len(seeds) == 4


def test_the_seed_of_a_draw_is_bound_to_its_table_index_and_purpose() -> None:
    openings = ["11" * 32, "22" * 32]
    seeds = {
        joint_seed(TABLE, 1, Roll(1, 6).to_json(), openings),
        joint_seed("other-table", 1, Roll(1, 6).to_json(), openings),
        joint_seed(TABLE, 2, Roll(1, 6).to_json(), openings),
        joint_seed(TABLE, 1, Roll(2, 6).to_json(), openings),
    }
    assert len(seeds) == 4


def test_every_seat_reaches_the_same_roll() -> None:
    played = table(4)
    for _ in range(5):
        values = played.resolve(Roll(2, 6)).outcome["values"]
        assert all(1 <= v <= 6 for v in values)
        assert len({str(played.record(s).result) for s in range(4)}) == 1


def test_a_wrong_opening_names_its_seat() -> None:
    played = table(3, cheat=rewrite(2, "chain/open", lambda b: b.update(link="ab" * 32)))
    with caught(played, 2, "does not hash"):
        played.resolve(Roll(1, 6))


def test_an_opening_from_an_earlier_draw_is_refused_and_named() -> None:
    sent: list[str] = []

    def replay_link(me: Participant, message: Message) -> list[Message]:
        if message["kind"] == "chain/open":
            sent.append(message["body"]["link"])
            if len(sent) == 2:
                return [dict(message, body=dict(message["body"], link=sent[0]))]
        return [message]

    played = table(3, cheat={1: cheating(replay_link)})
    played.resolve(Roll(1, 6))
    with caught(played, 1, "draw 2 does not hash"):
        played.resolve(Roll(1, 6))


def test_a_signed_message_replayed_from_an_earlier_draw_is_refused_blaming_nobody() -> None:
    """Anyone may re-send seat 0's genuine opening of draw 1 during draw 2: nobody is blamed."""
    played = table(3)
    played.resolve(Roll(1, 6))
    old = messages(played, "chain/open")[0]
    seat = played.participant(1)
    seat.begin({"n": seat.record.n + 1, "step": "draw", "draw": 2, "request": Roll(1, 6).to_json()})
    with pytest.raises(NotForThisStep) as refused:
        seat.record.receive(old)
    assert not isinstance(refused.value, CheatDetected)
    assert seat.record.owed() == [(0, "chain/open"), (1, "chain/open"), (2, "chain/open")]


def test_a_message_of_an_earlier_draw_signed_again_by_its_seat_is_refused_and_the_table_goes_on() -> None:
    """A seat's envelope around its own opening of draw 1, sent again during draw 2: the table refuses
    it and waits for the real one (it is no cheat: the message checks, it is only not for this step)."""
    first: list[Message] = []

    def again(me: Participant, message: Message) -> list[Message]:
        if message["kind"] == "chain/open":
            first.append(message)
            return [first[0], message] if len(first) == 2 else [message]
        return [message]

    played = table(3, cheat={0: cheating(again)})
    played.resolve(Roll(1, 6))
    played.resolve(Roll(1, 6))
    assert played.ending() is None
    for copy in played.tables():
        refused = [e.text for e in copy.events if e.refused]
        assert len(refused) == 1 and "is for step 1 (draw) of another history" in refused[0], refused
        assert all(e.blame is None for e in copy.events)


def test_a_seat_that_sends_only_an_old_opening_runs_out_of_time_in_a_two_seat_game_blaming_nobody() -> None:
    first: list[Message] = []

    def old(me: Participant, message: Message) -> list[Message]:
        if message["kind"] == "chain/open":
            first.append(message)
            return [first[0]]
        return [message]

    played = table(2, cheat={0: cheating(old)})
    played.resolve(Roll(1, 6))
    with aborted(played):
        played.resolve(Roll(1, 6))


def test_a_message_replayed_from_an_earlier_table_is_refused_blaming_nobody() -> None:
    earlier = table(3, salt=1)
    earlier.resolve(Roll(1, 6))
    old = next(m for m in reversed(messages(earlier, "chain/open")) if m["seat"] == 1)
    played = table(3)
    seat = played.participant(0)
    seat.begin({"n": seat.record.n + 1, "step": "draw", "draw": 1, "request": Roll(1, 6).to_json()})
    with pytest.raises(MalformedMessage, match="of table") as refused:
        seat.record.receive(old)
    assert not isinstance(refused.value, CheatDetected)


def test_a_link_of_an_earlier_table_does_not_open_this_tables_chain() -> None:
    """Even re-sent under this table's envelope, the link is bound to the table it was made for."""
    old_link = HashChain(SECRET, "earlier-table", 1, 0, length=4).link(1)
    book = ChainBook(TABLE, 2, length=4)
    book.commit(1, 0, HashChain(SECRET, TABLE, 1, 0, length=4).head)
    with pytest.raises(CheatDetected) as caught:
        book.check(1, 1, old_link)
    assert caught.value.seat == 1


def test_a_second_head_for_the_same_epoch_is_a_cheat() -> None:
    book = ChainBook(TABLE, 2)
    book.commit(0, 0, "11" * 32)
    with pytest.raises(CheatDetected, match="second chain head") as caught:
        book.commit(0, 0, "22" * 32)
    assert caught.value.seat == 0


def test_a_table_that_draws_past_its_chains_commits_to_new_ones_first() -> None:
    played = table(2)
    for _ in range(CHAIN_LENGTH + 2):
        played.resolve(Roll(1, 6))
    played.resolve(Roll(2, 6, to=1, cup="late"))  # dice under a cup in the new epoch, too
    played.finish()
    heads = messages(played, "chain/head")
    assert sorted(m["seat"] for m in heads) == [0, 1]  # both seats commit to their second chains
    assert all(m["n"] == heads[0]["n"] for m in heads)  # in one step, before the draw that needs them
    report, record = audited(played)
    assert report.clean and record.draws == CHAIN_LENGTH + 3


def test_the_honest_seats_keep_their_data_when_a_cheat_is_caught() -> None:
    """Invariant 4: the cheat is refused and changes nothing in the honest seats' records."""
    played = table(3, cheat=rewrite(1, "chain/open", lambda b: b.update(link="cd" * 32), skip=1))
    played.resolve(Roll(1, 6))
    with caught(played, 1):
        played.resolve(Roll(1, 6))
    honest = played.record(0)
    assert (1, "chain/open") in honest.owed() and (0, "chain/open") not in honest.owed()
    true_link = HashChain(played.participant(1)._seed, played.table(0).id, 1, 0).link(2)
    assert honest.chains.check(1, 2, true_link)  # the cheater's chain is where it was: the true link opens


requests = st.lists(
    st.one_of(
        st.builds(Roll, st.integers(1, 3), st.integers(2, 20)),
        st.lists(st.integers(0, 99), min_size=1, max_size=6, unique=True).flatmap(
            lambda opts: st.builds(Pick, st.just(tuple(opts)), st.integers(1, len(opts)))),
    ),
    min_size=1, max_size=8,
)


@settings(max_examples=10, deadline=None)
@given(seats=st.integers(2, 5), draws=requests)
def test_any_table_of_two_to_five_seats_agrees_on_every_draw_and_audits_clean(
    seats: int, draws: list[Roll | Pick]
) -> None:
    played = table(seats)
    for request in draws:
        outcome = played.resolve(request).outcome
        if isinstance(request, Roll):
            assert all(1 <= v <= request.sides for v in outcome["values"])
        else:
            picked = outcome["picked"]
            assert len(set(picked)) == request.count and set(picked) <= set(request.options)
    played.finish()
    report, record = audited(played)
    assert report.clean and record.draws == len(draws)


@settings(max_examples=10, deadline=None)
@given(seats=st.integers(2, 5), data=st.data())
def test_a_wrong_opening_at_any_draw_names_the_seat_that_sent_it(seats: int, data: st.DataObject) -> None:
    cheater = data.draw(st.integers(0, seats - 1))
    honest_draws = data.draw(st.integers(0, 4))
    played = table(seats, cheat=rewrite(cheater, "chain/open", lambda b: b.update(link="ee" * 32),
                                        skip=honest_draws))
    for _ in range(honest_draws):
        played.resolve(Roll(1, 6))
    with caught(played, cheater):
        played.resolve(Roll(1, 6))
