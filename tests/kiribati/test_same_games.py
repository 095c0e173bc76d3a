"""The same seeds give the same games as before the rules were made faster: a regression guard.

The digests below were recorded from the plugin as it was before its rules were made several times
faster (its states now share what an action does not change, and it checks an action against only
the legal actions that could be it). Random players choose by position in the list of legal actions,
so any change in a legal list, its order, or what an action does shows up here as a different log.

When a rule changes what happens, the digests are recorded again in the same commit, whose message
names the rules that changed the games (issue 8: K39 Cloudy and the cards; then the others there).
"""

from __future__ import annotations

import pytest

from atoll.bots.random_bot import RandomBot
from atoll.engine import LocalResolver, Match, run
from atoll.jsondata import digest
from tests.kiribati.scenario import GAME

#: For each variant and seat count, the first 16 hex digits of the SHA-256 of the public log
#: (``match.events``, canonical JSON) of the random games with seeds 0, 1, 2, ... in order.
LOGS: dict[tuple[str, int], tuple[str, ...]] = {
    ("children", 2): (
        "1ef1ca57f0658553", "f3337de79a899e5f", "625153d0d2dfa25f", "fa291a74f60bff24", "c48fc14a534cf18b",
    ),
    ("children", 3): (
        "677bb57e5289a223", "f4934a506ab56aee", "b447a88a929e2299", "423b506a42019053", "33eb19952afdb197",
        "39887cf2f6a7b010", "069af6bf8726937f", "7aee20dcf728e14c", "9838e4b66db13ed3", "21fe7c756e066b5b",
        "e550f68ec89c5e13", "a22bcfe413042fca", "388bd39268e4a504", "2c308ea07d38be51", "3dc7b0cb2a8ce791",
        "da80ed61cc1a1177", "158cce45cdf14d47", "be5bfc5ff0d71f3f", "713343c3bfdcc6eb", "e193e284254e24eb",
    ),
    ("children", 4): (
        "54611a8455c1c7c2", "b4857c3abf7ad9d5", "00aecaeeefaf3146", "d51737e756049308", "42e3d48b57e22188",
    ),
    ("children", 5): (
        "6e0fde66f1f0f0bb", "3184d6fbba610a27", "259f7319c47e57bb", "3801131cab55d6d7", "d0296bdee841dc50",
    ),
    ("family", 2): (
        "a5d677ac8bf9de70", "e2d230bbfd3967fa", "151e1cbc4e6da76d", "529ef63fb58aa558", "5ed5bd81caab2ab7",
    ),
    ("family", 3): (
        "a6e91b2f17323484", "b9a5881cddd5bb80", "c4e1c2e1a944a914", "765da6a2526a4930", "0504c50149995986",
        "2fe8ea8e4ecd2ded", "db29b27aaf2fd00e", "7c3abc78dec3f9ab", "05e56555741abdd9", "65124278c5a039af",
        "0851c72a21195bfe", "225f4e8a415ad1fe", "6afe21cfbf757b6b", "8bd3d0cd112edebd", "f6d9155e00f2a2f5",
        "4cb5d04778bcb576", "38a814b650578bf2", "17631e98afe1351e", "1243454f203463e4", "4947160d983bfd6f",
    ),
    ("family", 4): (
        "47a98aabc2a7a3e4", "0823a1f4f8a7a9e5", "42343b9399f81e4e", "0c90f6cef44b116b", "4c52757bdc858e3e",
    ),
    ("family", 5): (
        "3048b66c233ce8b7", "66088645de57c113", "c5b4e6c30795f990", "8c976ad043aaa8e5", "29342560672b6fae",
    ),
    ("professional", 2): (
        "bf254c6b4427e562", "9904d01bb72d3daa", "b13bad9452cbe8a0", "560286e441bfbc3d", "824721913c74c2c1",
    ),
    ("professional", 3): (
        "e736f341454a38f9", "5b9d42addb14c8f7", "9f15ac1d289970c5", "85993478403db803", "13c62b5b423f5a26",
        "3e594e0e12789175", "dcd30fe7a4a42c58", "1f47e056c54708da", "651fd7ff7dd84252", "1f53a8355a3a1727",
        "c6e0b42a24053d85", "5546964104306b91", "5df594b148d2d59f", "5f7f00c4fb2a1893", "dca689eb1522a343",
        "b0ce96352e0d57f1", "877fdbbdc9525ead", "df7044e704980645", "fe98c651280f4ddd", "2766755d9dee2f60",
    ),
    ("professional", 4): (
        "803ceb0347046e78", "0100ad56d8752b81", "f36b5c6b50a0257a", "f3c79df2ff0e568f", "39b7455f3970f6b6",
    ),
    ("professional", 5): (
        "f4000fe0e5c6b0b0", "bd6000c77c7377b9", "7ac687e85e279b68", "f75839b6ea7716d2", "ab4715a4e80c6deb",
    ),
}
#: The seeds checked on every run; the slow run checks them all.
QUICK = 2


def public_log(variant: str, seats: int, seed: int) -> str:
    """The digest of the public log of a game between random players, seeded as in test_random_games."""
    match = Match(GAME, GAME.configure(seats, variant), LocalResolver(seed))
    run(match, [RandomBot(seed * 10 + seat) for seat in range(seats)], max_steps=500_000)
    return digest(match.events)[:16]


@pytest.mark.parametrize(("variant", "seats"), sorted(LOGS))
def test_the_first_seeds_play_the_same_games_as_ever(variant: str, seats: int) -> None:
    """The first seeds of each variant and seat count give the public logs recorded before."""
    recorded = LOGS[variant, seats][:QUICK]
    assert [public_log(variant, seats, seed) for seed in range(len(recorded))] == list(recorded)


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "seats"), sorted(LOGS))
def test_every_recorded_seed_plays_the_same_game_as_ever(variant: str, seats: int) -> None:
    """Every recorded seed (twenty with three players, five otherwise) gives the same public log."""
    recorded = LOGS[variant, seats]
    assert [public_log(variant, seats, seed) for seed in range(len(recorded))] == list(recorded)
